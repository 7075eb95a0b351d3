//! The ranked search's promises: a named tool ranks first (a property over generated
//! catalogs and spellings), a request no tool fits is declined while ones that fit are not,
//! every part of a multi-part request gets its tool (one part's near-duplicates do not crowd
//! out another's), and the answer says how many matched.

use proptest::prelude::*;
use toolshape_search::{DEFAULT_LIMIT, MAX_QUERY_CHARS, ParamDoc, Ranking, SearchIndex, ToolDoc};

fn tool(name: &str, description: &str, params: &[(&str, &str)]) -> ToolDoc {
    ToolDoc {
        name: name.to_owned(),
        description: description.to_owned(),
        params: params.iter().map(|(n, d)| ParamDoc { name: (*n).to_owned(), description: (*d).to_owned() }).collect(),
    }
}

/// A small catalog in the style of real MCP servers.
fn catalog() -> Vec<ToolDoc> {
    vec![
        tool("filesystem__read_text_file", "Read the complete contents of a file as text.", &[("path", "File path")]),
        tool(
            "filesystem__write_file",
            "Create a new file or overwrite an existing file with new content.",
            &[("path", "File path"), ("content", "Text to write")],
        ),
        tool("filesystem__list_directory", "List the files and directories in a path.", &[("path", "")]),
        tool("github__create_issue", "Create a new issue in a GitHub repository.", &[("title", "Issue title")]),
        tool("github__search_repositories", "Search for GitHub repositories.", &[("query", "Search text")]),
        tool("slack__post_message", "Post a new message to a Slack channel.", &[("channel_id", "Channel")]),
        tool("time__get_current_time", "Get the current time in a specific timezone.", &[("timezone", "IANA name")]),
        tool("maps__directions", "Get driving or walking directions between two places.", &[("origin", "")]),
        tool("web__search", "Search the web for pages, news and articles.", &[("query", "")]),
        tool("fetch", "Fetch a URL from the internet and return its contents as markdown.", &[("url", "")]),
        tool("git__status", "Show the working tree status.", &[("repo_path", "")]),
        tool("git__commit", "Record staged changes to the repository.", &[("message", "Commit message")]),
        tool("git__diff", "Show differences between branches or commits.", &[("target", "")]),
        tool("memory__create_entities", "Create entities in the knowledge graph.", &[("entities", "")]),
        tool("memory__search_nodes", "Search the knowledge graph for nodes.", &[("query", "")]),
        tool("browser__navigate", "Navigate the browser to a URL.", &[("url", "")]),
        tool("browser__screenshot", "Take a screenshot of the current page.", &[("name", "")]),
        tool("browser__click", "Click an element on the page.", &[("selector", "CSS selector")]),
        tool("postgres__query", "Run a read-only SQL query against the database.", &[("sql", "")]),
        tool("slack__channel_history", "Get recent messages from a Slack channel.", &[("channel_id", "")]),
        tool("maps__geocode", "Convert an address into coordinates.", &[("address", "")]),
        tool("time__convert_time", "Convert a time between timezones.", &[("time", "")]),
    ]
}

fn names(index: &SearchIndex, query: &str, limit: usize) -> Vec<String> {
    let found = index.find(query, limit, MAX_QUERY_CHARS).expect("search");
    found.hits.iter().map(|h| index.tools()[h.tool].name.clone()).collect()
}

#[test]
fn a_name_written_any_way_ranks_its_tool_first() {
    let index = SearchIndex::build(catalog()).unwrap();
    for query in [
        "github__create_issue",
        "github_create_issue",
        "create-issue",
        "CreateIssue",
        "please call create_issue for the login bug",
        "GITHUB CREATE ISSUE",
    ] {
        assert_eq!(names(&index, query, 3).first().map(String::as_str), Some("github__create_issue"), "{query}");
    }
    // A one-word name inside a sentence is a word of the request, not a name.
    assert_eq!(names(&index, "fetch", 1), ["fetch"]);
}

#[test]
fn a_request_no_tool_fits_is_declined_and_ones_that_fit_are_not() {
    let index = SearchIndex::build(catalog()).unwrap();
    for query in ["order a large pepperoni pizza", "turn off the lights in the kitchen", "play jazz on the speaker"] {
        let found = index.find(query, DEFAULT_LIMIT, MAX_QUERY_CHARS).unwrap();
        assert!(found.declined && found.hits.is_empty() && found.matched == 0, "{query}: {found:?}");
    }
    for query in ["read the contents of notes.txt", "open a bug report on GitHub", "what time is it in Tokyo"] {
        let found = index.find(query, DEFAULT_LIMIT, MAX_QUERY_CHARS).unwrap();
        assert!(!found.declined && !found.hits.is_empty(), "{query}: {found:?}");
        assert!(found.matched >= found.hits.len(), "{query}: {found:?}");
    }
    // With declining off, the least bad tools come back.
    let eager = SearchIndex::build_ranked(catalog(), Ranking { decline: false, ..Ranking::default() }).unwrap();
    assert!(!names(&eager, "order a large pepperoni pizza for delivery", 5).is_empty());
}

#[test]
fn every_part_of_a_multi_part_request_gets_its_tool() {
    let index = SearchIndex::build(catalog()).unwrap();
    let found = names(
        &index,
        "Find the serde repository on GitHub, read the README file, then post a summary to the team channel on Slack.",
        5,
    );
    for expected in ["github__search_repositories", "filesystem__read_text_file", "slack__post_message"] {
        assert!(found.iter().any(|n| n == expected), "{expected} missing from {found:?}");
    }
}

/// Several near-duplicates of one easy part of a request, and one tool for each other part.
fn crowded_catalog() -> Vec<ToolDoc> {
    let keywords = [("keywords", "Search keywords")];
    vec![
        tool("search_movie_reviews", "Search for movie reviews by keywords.", &keywords),
        tool("search_book_reviews", "Search for book reviews by keywords.", &keywords),
        tool("search_restaurant_reviews", "Search for restaurant reviews by keywords.", &keywords),
        tool("search_product_reviews", "Search for product reviews by keywords.", &keywords),
        tool(
            "search_product",
            "Search for a product in a category within a price range.",
            &[("category", "Product category"), ("price_range", "Price range")],
        ),
        tool("search_products_by_brand", "Search for products of a brand.", &[("brand", "Brand")]),
        tool("search_movies", "Search for movies by title, genre or year.", &[("title", "Movie title")]),
        tool("search_books", "Search for books by title or author.", &[("title", "Book title")]),
        tool("encrypt_data", "Encrypt data with a key.", &[("data", "Data"), ("key", "Key")]),
        tool(
            "calculate_route",
            "Calculate the best route between locations for a mode of transport.",
            &[("locations", "Locations"), ("mode", "Mode")],
        ),
        tool(
            "calculate_distance",
            "Calculate the distance between two locations.",
            &[("origin", "Origin"), ("destination", "Destination")],
        ),
    ]
}

#[test]
fn one_parts_near_duplicates_do_not_crowd_out_another_parts_tool() {
    let request = "Search for movie reviews based on the keywords 'action movie'. Then, search for a product in \
                   the 'Electronics' category with a price range of '500-1000'. After that, calculate the best \
                   route between 'New York' and 'Los Angeles' using 'car' as the mode of transport and optimize \
                   the route for time. Finally, encrypt the total time of the best route using the key 'abc123'.";
    let wanted = ["search_movie_reviews", "search_product", "calculate_route", "encrypt_data"];
    let index = SearchIndex::build(crowded_catalog()).unwrap();
    let found = names(&index, request, 5);
    for expected in wanted {
        assert!(found.iter().any(|n| n == expected), "{expected} missing from {found:?}");
    }
    // In the fused order alone, the reviews of other things take the encryption's place:
    // the case this guards.
    let fused_only =
        SearchIndex::build_ranked(crowded_catalog(), Ranking { cover: 0.0, ..Ranking::default() }).unwrap();
    let crowded = names(&fused_only, request, 5);
    assert!(!crowded.iter().any(|n| n == "encrypt_data"), "{crowded:?}");
}

#[test]
fn matched_counts_more_than_are_shown() {
    let index = SearchIndex::build(catalog()).unwrap();
    let found = index.find("search for files", 2, MAX_QUERY_CHARS).unwrap();
    assert_eq!(found.hits.len(), 2);
    assert!(found.matched > 2, "{found:?}");
}

#[test]
fn matched_counts_tools_with_evidence_not_every_tool_sharing_a_word() {
    let index = SearchIndex::build(catalog()).unwrap();
    let total = catalog().len();
    // "file" is in three tools and "read", "contents" in others: the specific request
    // matches a few of them, not the whole catalog (every tool has some cosine with it).
    let query = "read the contents of notes.txt";
    let found = index.find(query, 2, MAX_QUERY_CHARS).unwrap();
    let counted = index.matching_tools(query, 2, MAX_QUERY_CHARS).unwrap();
    assert_eq!(found.matched, counted.len(), "{found:?}");
    assert!(found.matched >= found.hits.len() && found.matched < total / 2, "{found:?} of {total}");
    assert!(found.hits.iter().all(|hit| counted.contains(&hit.tool)), "every shown tool is counted");
    let evidence = index.tool_evidence(query);
    let shared_a_word = evidence.iter().filter(|e| e.keyword > 0.0).count();
    assert!(shared_a_word > found.matched, "a word in common is not enough: {shared_a_word} vs {found:?}");
    for tool in &counted {
        let e = evidence[*tool];
        let shown = found.hits.iter().any(|hit| hit.tool == *tool);
        assert!(shown || e.coverage >= 0.30 || e.cosine.is_some_and(|c| c >= 0.30), "{tool}: {e:?}");
    }
    // A multi-part request counts the tools of each part.
    let parts = "Find the serde repository on GitHub, then post a summary to the team channel on Slack.";
    let counted = index.matching_tools(parts, 5, MAX_QUERY_CHARS).unwrap();
    let named = |name: &str| catalog().iter().position(|t| t.name == name).unwrap();
    for name in ["github__search_repositories", "slack__post_message"] {
        assert!(counted.contains(&named(name)), "{name} not counted in {counted:?}");
    }
}

/// A word for generated names: none of them is a word the sentence form adds.
fn name_word() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["get", "list", "user", "issue", "file", "read", "create", "weather", "v2", "send", "x"])
        .prop_map(str::to_owned)
}

/// A name of one to four words joined by a separator style, and a namespace sometimes.
fn name() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(name_word(), 1..5)
}

/// Write `words` with a separator style: snake, kebab, dotted, camel, spaced, shouting.
fn spell(words: &[String], style: usize) -> String {
    match style % 6 {
        0 => words.join("_"),
        1 => words.join("-"),
        2 => words.join("."),
        3 => words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i == 0 {
                    w.clone()
                } else {
                    let mut chars = w.chars();
                    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
                }
            })
            .collect(),
        4 => words.join(" "),
        _ => words.join("_").to_uppercase(),
    }
}

fn normalised(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric())
        .flat_map(|part| {
            // Split camelCase the simple way the generator writes it.
            let mut words = vec![String::new()];
            for c in part.chars() {
                if c.is_uppercase()
                    && !words.last().is_none_or(String::is_empty)
                    && part.chars().any(char::is_lowercase)
                {
                    words.push(String::new());
                }
                if let Some(last) = words.last_mut() {
                    last.extend(c.to_lowercase());
                }
            }
            words
        })
        .filter(|w| !w.is_empty())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A query that is a tool's name, or contains a name of two or more words, in any
    /// separator style or case, ranks a tool of that name first.
    #[test]
    fn an_exact_name_ranks_first(
        tool_names in prop::collection::vec((name(), 0usize..6), 1..12),
        descriptions in prop::collection::vec("[a-z ]{0,40}", 12),
        pick in any::<prop::sample::Index>(),
        query_style in 0usize..6,
        in_sentence in any::<bool>(),
    ) {
        let tools: Vec<ToolDoc> = tool_names
            .iter()
            .zip(&descriptions)
            .map(|((words, style), description)| tool(&spell(words, *style), description, &[]))
            .collect();
        let target = &tool_names[pick.index(tool_names.len())].0;
        let spelled = spell(target, query_style);
        let query = if in_sentence && target.len() >= 2 { format!("please use {spelled} now") } else { spelled };
        let index = SearchIndex::build(tools).unwrap();
        let found = index.find(&query, 5, MAX_QUERY_CHARS).unwrap();
        let first = found.hits.first().map(|h| index.tools()[h.tool].name.clone());
        prop_assert!(!found.declined, "{query:?} declined");
        prop_assert_eq!(first.as_deref().map(normalised), Some(target.clone()), "query {:?}", query);
    }
}
