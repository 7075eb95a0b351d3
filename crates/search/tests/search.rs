//! Behaviour of the search index through its public API: what ranks where, every limit and
//! error, and (as properties) that no input makes it panic or break its output contract.

use proptest::prelude::*;
use toolshape_search::{
    DEFAULT_LIMIT, MAX_QUERY_CHARS, MAX_REGEX_CHARS, MAX_TOOLS, Mode, ParamDoc, Ranking, SearchError, SearchIndex,
    ToolDoc, Tuning,
};

fn tool(name: &str, description: &str, params: &[(&str, &str)]) -> ToolDoc {
    ToolDoc {
        name: name.to_owned(),
        description: description.to_owned(),
        params: params.iter().map(|(n, d)| ParamDoc { name: (*n).to_owned(), description: (*d).to_owned() }).collect(),
    }
}

fn catalog() -> Vec<ToolDoc> {
    vec![
        tool("github_create_issue", "Open a new issue in a repository.", &[("repo", "owner/name"), ("title", "")]),
        tool("github_list_pulls", "List pull requests of a repository.", &[("repo", "owner/name")]),
        tool("slack_post_message", "Send a message to a channel.", &[("channel", "Channel id"), ("text", "")]),
        tool("getWeatherForecast", "Forecast for a city, with its air quality index.", &[("city", "City name")]),
        tool("airqualityindex", "Pollution readings near a place.", &[("zip", "Postal code of the place")]),
        tool("calendar.create_event", "Add an event to a calendar.", &[("attendees", "People invited by email")]),
    ]
}

fn names(index: &SearchIndex, mode: Mode, query: &str, limit: usize) -> Vec<String> {
    index.search(mode, query, limit).expect("search").iter().map(|h| index.tools()[h.tool].name.clone()).collect()
}

#[test]
fn a_namespace_prefix_reaches_every_tool_of_the_namespace() {
    let index = SearchIndex::build(catalog()).unwrap();
    let found = names(&index, Mode::Bm25, "github", DEFAULT_LIMIT);
    // Both `github_*` tools first; tools related only in meaning may follow.
    let first_two: Vec<&str> = found.iter().take(2).map(String::as_str).collect();
    assert!(first_two.contains(&"github_create_issue") && first_two.contains(&"github_list_pulls"), "{found:?}");
}

#[test]
fn a_query_spelling_a_tool_name_finds_it_first() {
    let index = SearchIndex::build(catalog()).unwrap();
    assert_eq!(names(&index, Mode::Bm25, "github_list_pulls", 1), ["github_list_pulls"]);
    assert_eq!(names(&index, Mode::Bm25, "calendar.create_event", 1), ["calendar.create_event"]);
}

#[test]
fn camel_case_stemming_and_joined_words_match_plain_requests() {
    let index = SearchIndex::build(catalog()).unwrap();
    // `getWeatherForecast` splits into words; `forecasts` and `Forecast` share a stem.
    assert_eq!(names(&index, Mode::Bm25, "weather forecasts for Paris", 1), ["getWeatherForecast"]);
    // `airqualityindex` has no separators; the catalog's own words split it, so it matches
    // although its description shares no word with the query.
    assert!(names(&index, Mode::Bm25, "quality index", 2).contains(&"airqualityindex".to_owned()));
    // Parameter descriptions are searched too.
    assert_eq!(names(&index, Mode::Bm25, "invite people by email", 1), ["calendar.create_event"]);
}

#[test]
fn no_match_is_an_empty_list() {
    // Keywords alone: no shared word, no result. (With meaning, see `ranking.rs` for how a
    // request no tool fits is declined.)
    let keywords_only = Ranking { embeddings: false, ..Ranking::default() };
    let index = SearchIndex::build_ranked(catalog(), keywords_only).unwrap();
    assert!(index.search(Mode::Bm25, "kubernetes", 5).unwrap().is_empty());
    assert!(index.search(Mode::Regex, "^kube", 5).unwrap().is_empty());
    assert!(index.search(Mode::Bm25, "github", 0).unwrap().is_empty());
    let empty = SearchIndex::build(Vec::new()).unwrap();
    assert!(empty.is_empty() && empty.search(Mode::Bm25, "github", 5).unwrap().is_empty());
}

#[test]
fn word_vectors_bridge_a_request_that_shares_no_word_with_the_right_tool() {
    let tools = vec![
        tool("WeatherTool", "Current conditions and the forecast for a city.", &[]),
        tool("InvoiceTool", "Create and send invoices to customers.", &[]),
        tool("MusicTool", "Find songs, albums and artists.", &[]),
    ];
    let request = "Is it going to rain in Paris tomorrow?";
    let keywords_only = Ranking {
        bm25: Tuning { semantic_weight: 0.0, ..Tuning::default() },
        embeddings: false,
        decline: false,
        ..Ranking::default()
    };
    let plain = SearchIndex::build_ranked(tools.clone(), keywords_only).unwrap();
    assert!(names(&plain, Mode::Bm25, request, 3).is_empty(), "no shared word, no keyword match");
    let index = SearchIndex::build(tools).unwrap();
    assert_eq!(names(&index, Mode::Bm25, request, 1), ["WeatherTool"]);
    assert_eq!(names(&index, Mode::Bm25, "play a track by my favourite band", 1), ["MusicTool"]);
    // A word the catalog uses is matched as written, never replaced by its neighbours.
    assert_eq!(names(&index, Mode::Bm25, "invoices", 3).first().map(String::as_str), Some("InvoiceTool"));
}

#[test]
fn regex_ranks_by_the_field_that_matched_then_catalog_order() {
    let tools = vec![
        tool("send_mail", "Deliver a note.", &[]),
        tool("notify", "Send an alert.", &[]),
        tool("post", "Publish.", &[("sender", "")]),
        tool("relay", "Forward.", &[("to", "Where to send it")]),
        tool("SEND_SMS", "Text someone.", &[]),
    ];
    let index = SearchIndex::build(tools).unwrap();
    // Names first (case-insensitively, in catalog order), then parameter names,
    // descriptions, parameter descriptions.
    assert_eq!(names(&index, Mode::Regex, "send", 10), ["send_mail", "SEND_SMS", "post", "notify", "relay"]);
    let hits = index.search(Mode::Regex, "send", 10).unwrap();
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    assert_eq!(names(&index, Mode::Regex, "send", 2).len(), 2);
}

#[test]
fn every_limit_and_error_has_a_clear_message() {
    let index = SearchIndex::build(catalog()).unwrap();

    let error = index.search(Mode::Bm25, "   ", 5).unwrap_err();
    assert_eq!(error, SearchError::EmptyQuery);
    assert!(error.to_string().contains("empty"), "{error}");

    let long = "word ".repeat(MAX_QUERY_CHARS / 5 + 1);
    let error = index.search(Mode::Bm25, &long, 5).unwrap_err();
    assert_eq!(error, SearchError::QueryTooLong { chars: long.chars().count(), limit: MAX_QUERY_CHARS });
    assert!(error.to_string().contains(&format!("limit of {MAX_QUERY_CHARS}")), "{error}");
    assert!(index.search_with_query_limit(Mode::Bm25, &long, 5, 10_000).is_ok());

    let pattern = "a".repeat(MAX_REGEX_CHARS + 1);
    let error = index.search(Mode::Regex, &pattern, 5).unwrap_err();
    assert_eq!(error, SearchError::RegexTooLong { chars: MAX_REGEX_CHARS + 1, limit: MAX_REGEX_CHARS });
    assert!(error.to_string().contains("shorter pattern"), "{error}");

    let error = index.search(Mode::Regex, "issue(", 5).unwrap_err();
    assert!(matches!(error, SearchError::InvalidRegex { .. }));
    assert!(error.to_string().starts_with("the regular expression is invalid: "), "{error}");
    assert!(!error.to_string().contains('\n'), "one line: {error}");

    let error = index.search(Mode::Regex, "(?:a{100}){100}(?:b{100}){100}", 5).unwrap_err();
    assert!(error.to_string().contains("simpler pattern"), "{error}");

    let too_many: Vec<ToolDoc> = (0..=MAX_TOOLS).map(|i| tool(&format!("t{i}"), "", &[])).collect();
    let error = SearchIndex::build(too_many).unwrap_err();
    assert_eq!(error, SearchError::TooManyTools { count: MAX_TOOLS + 1, limit: MAX_TOOLS });
    assert!(error.to_string().contains("keep more tools always loaded"), "{error}");
}

#[test]
fn the_index_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<SearchIndex>();
}

#[test]
fn mode_parses_from_text() {
    assert_eq!("bm25".parse::<Mode>().unwrap(), Mode::Bm25);
    assert_eq!("Regex".parse::<Mode>().unwrap(), Mode::Regex);
    assert!("fuzzy".parse::<Mode>().unwrap_err().contains("use `bm25` or `regex`"));
}

#[test]
fn a_request_for_two_things_brings_both_to_the_top() {
    // Three close variants of one tool would fill the top 3 on score alone; the second
    // thing asked for must still make it.
    let tools = vec![
        tool("getMovieDetails", "Details of a movie: cast, director, year.", &[("title", "Movie title")]),
        tool("getMovieInfo", "Information about a movie, with its cast and director.", &[("movie", "Movie title")]),
        tool("getMovieCast", "The cast and director of a movie.", &[("title", "Movie title")]),
        tool("bookTable", "Book a restaurant table for dinner.", &[("restaurant", "Restaurant name")]),
    ];
    let index = SearchIndex::build(tools).unwrap();
    let found = names(&index, Mode::Bm25, "Tell me the cast and director of the movie Heat, then book a table", 3);
    assert!(found.contains(&"bookTable".to_owned()), "{found:?}");
}

fn arbitrary_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,40}",
        "[a-zA-Z_ .-]{0,30}",
        prop::collection::vec(prop::sample::select(vec!["get", "List", "user", "the", "_", "Issue", "é", "42"]), 0..8)
            .prop_map(|w| w.join(" ")),
    ]
}

fn arbitrary_tool() -> impl Strategy<Value = ToolDoc> {
    (arbitrary_text(), arbitrary_text(), prop::collection::vec((arbitrary_text(), arbitrary_text()), 0..4)).prop_map(
        |(name, description, params)| ToolDoc {
            name,
            description,
            params: params.into_iter().map(|(name, description)| ParamDoc { name, description }).collect(),
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_tools_and_query_give_a_well_formed_answer(
        tools in prop::collection::vec(arbitrary_tool(), 0..20),
        query in arbitrary_text(),
        limit in 0usize..12,
        regex in any::<bool>(),
    ) {
        let count = tools.len();
        let index = SearchIndex::build(tools).unwrap();
        let mode = if regex { Mode::Regex } else { Mode::Bm25 };
        match index.search(mode, &query, limit) {
            Ok(hits) => {
                prop_assert!(hits.len() <= limit);
                let mut seen = std::collections::HashSet::new();
                for hit in &hits {
                    prop_assert!(hit.tool < count);
                    prop_assert!(seen.insert(hit.tool), "duplicate {}", hit.tool);
                    prop_assert!(hit.score.is_finite() && hit.score > 0.0, "score {}", hit.score);
                }
                prop_assert!(hits.windows(2).all(|w| w[0].score >= w[1].score), "not sorted: {hits:?}");
            }
            Err(SearchError::EmptyQuery) => prop_assert!(query.trim().is_empty()),
            Err(SearchError::InvalidRegex { .. }) => prop_assert!(regex),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }

    #[test]
    fn any_catalog_text_parses_or_says_why(text in "\\PC{0,200}", tools in prop::collection::vec(arbitrary_tool(), 0..4)) {
        // Arbitrary text never panics; when refused, the message says why.
        if let Err(error) = toolshape_search::parse_catalog(&text) {
            prop_assert!(error.to_string().len() > 20, "{error}");
        }
        // A catalog written from tool docs reads back as the same docs.
        let listed: Vec<serde_json::Value> = tools
            .iter()
            .map(|t| {
                let properties: serde_json::Map<String, serde_json::Value> = t
                    .params
                    .iter()
                    .map(|p| (p.name.clone(), serde_json::json!({"description": p.description})))
                    .collect();
                serde_json::json!({"name": t.name, "description": t.description, "inputSchema": {"properties": properties}})
            })
            .collect();
        let text = serde_json::json!({"tools": listed}).to_string();
        match toolshape_search::parse_catalog(&text) {
            Ok(read) => {
                prop_assert_eq!(read.len(), tools.len());
                for (read, tool) in read.iter().zip(&tools) {
                    prop_assert_eq!(&read.name, &tool.name);
                    prop_assert_eq!(&read.description, &tool.description);
                }
            }
            // Only a blank name is refused.
            Err(error) => prop_assert!(tools.iter().any(|t| t.name.trim().is_empty()), "{error}"),
        }
    }

    #[test]
    fn a_tool_is_found_by_its_own_name(tools in prop::collection::vec(arbitrary_tool(), 1..10), pick in any::<prop::sample::Index>()) {
        let target = pick.index(tools.len());
        let name = tools[target].name.clone();
        let index = SearchIndex::build(tools).unwrap();
        let words = name.split(|c: char| !c.is_alphanumeric()).any(|w| !w.is_empty());
        prop_assume!(words);
        let hits = index.search(Mode::Bm25, &name, 10).unwrap();
        // Every tool with the same best score may come first, but the tool itself must score.
        prop_assert!(hits.iter().any(|h| index.tools()[h.tool].name == name), "{name:?} not found: {hits:?}");
    }
}
