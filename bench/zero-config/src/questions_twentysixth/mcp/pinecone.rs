//! Questions about a Pinecone query with metadata: the best and the worst matches (id,
//! score, source, title, section, document, date), the namespace and the read units; a
//! match's source and section, score, title and chunk, date and language, and tokens by
//! its id; and how many matches come from a document, a site or a language, score above
//! 0.8, how many documents and matches there are, which chunk of a document scores highest
//! and lowest, which document has the most matches and which match has the most and the
//! fewest tokens.

use serde_json::Value;

use super::{field, list, lookup};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, most_frequent, together};
use crate::record_questions::end;

/// The metadata value `name` of match `m`.
fn meta(m: &Value, name: &str) -> String {
    m.get("metadata").map(|x| field(x, name)).unwrap_or_default()
}

/// The documents (by `doc_id`) with the most matches first, ties by id.
pub(super) fn documents_by_matches(matches: &[Value]) -> Vec<(usize, String)> {
    let mut docs = most_frequent(matches.iter().filter_map(|m| m["metadata"]["doc_id"].as_str()));
    docs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    docs
}

pub(super) fn pinecone_questions(v: &Value) -> Vec<Option<Question>> {
    let matches = list(v, "matches");
    let id = |m: &Value| field(m, "id");
    let mut qs = vec![
        end(matches, 0, false, "Which match scored highest, and with what score?", |m| {
            Some(vec![id(m), field(m, "score")])
        }),
        end(matches, 0, false, "What is the source and title of the best match?", |m| {
            Some(vec![id(m), meta(m, "source"), meta(m, "title")])
        }),
        end(matches, 0, false, "Which section is the best match from?", |m| Some(vec![id(m), meta(m, "section")])),
        end(matches, 0, false, "Which document and chunk is the best match?", |m| {
            Some(vec![meta(m, "doc_id"), meta(m, "chunk_index")])
        }),
        end(matches, 0, false, "When was the best match's document created?", |m| {
            Some(vec![id(m), meta(m, "created_at")])
        }),
        end(matches, 1, false, "Which match is second, and with what score?", |m| Some(vec![id(m), field(m, "score")])),
        end(matches, 1, false, "What is the title of the second match?", |m| Some(vec![id(m), meta(m, "title")])),
        end(matches, 2, false, "Which match is third, and what is its source?", |m| {
            Some(vec![id(m), meta(m, "source")])
        }),
        end(matches, 3, false, "Which section is the fourth match from?", |m| Some(vec![id(m), meta(m, "section")])),
        end(matches, 4, false, "Which match is fifth, and with what score?", |m| Some(vec![id(m), field(m, "score")])),
        end(matches, 0, true, "Which match scored lowest, and with what score?", |m| {
            Some(vec![id(m), field(m, "score")])
        }),
        end(matches, 0, true, "What is the source of the lowest-scoring match?", |m| {
            Some(vec![id(m), meta(m, "source")])
        }),
        end(matches, 0, true, "What is the title and section of the last match?", |m| {
            Some(vec![id(m), meta(m, "title"), meta(m, "section")])
        }),
        end(matches, 0, true, "When was the last match's document created?", |m| {
            Some(vec![id(m), meta(m, "created_at")])
        }),
        end(matches, 1, true, "Which match is second to last, and with what score?", |m| {
            Some(vec![id(m), field(m, "score")])
        }),
        end(matches, 2, true, "What is the source of the third to last match?", |m| {
            Some(vec![id(m), meta(m, "source")])
        }),
        end(matches, 3, true, "Which document is the fourth to last match from?", |m| {
            Some(vec![id(m), meta(m, "doc_id")])
        }),
        end(matches, 4, true, "Which match is fifth to last, and what is its title?", |m| {
            Some(vec![id(m), meta(m, "title")])
        }),
        end(matches, 5, true, "Which match is sixth to last, and with what score?", |m| {
            Some(vec![id(m), field(m, "score")])
        }),
    ];
    let (namespace, units) = (field(v, "namespace"), field(v, "usage.readUnits"));
    if !namespace.is_empty() && !units.is_empty() {
        qs.push(Some(together(
            Kind::Tail,
            "Which namespace was queried, and how many read units did the query use?".to_owned(),
            None,
            &[&namespace, &units],
        )));
    }
    for at in [0.1, 0.45, 0.8] {
        qs.push(lookup(matches, at, "What is the source and section of the match {key}?", id, |m| {
            Some(vec![meta(m, "source"), meta(m, "section")])
        }));
    }
    for at in [0.3, 0.65, 0.95] {
        qs.push(lookup(matches, at, "What score did {key} get?", id, |m| Some(vec![field(m, "score")])));
    }
    qs.push(lookup(matches, 0.6, "What document title and chunk index does {key} have?", id, |m| {
        Some(vec![meta(m, "title"), meta(m, "chunk_index")])
    }));
    qs.push(lookup(matches, 0.7, "When was the document of {key} created, and in what language is it?", id, |m| {
        Some(vec![meta(m, "created_at"), meta(m, "lang")])
    }));
    qs.push(lookup(matches, 0.2, "How many tokens is the chunk {key}?", id, |m| Some(vec![meta(m, "tokens")])));
    qs.push(lookup(matches, 0.9, "Which title and section is the chunk {key} from?", id, |m| {
        Some(vec![meta(m, "title"), meta(m, "section")])
    }));
    qs.push(lookup(matches, 0.55, "Which document is {key} a chunk of?", id, |m| {
        Some(vec![meta(m, "doc_id"), meta(m, "source")])
    }));
    // How many, and which is the largest.
    let docs = documents_by_matches(matches);
    let source_of = |doc: &str| {
        matches.iter().find(|m| m["metadata"]["doc_id"] == doc).map(|m| meta(m, "source")).unwrap_or_default()
    };
    for k in [1, 4] {
        if let Some((n, doc)) = docs.get(k) {
            let source = source_of(doc);
            qs.push(Some(count(&format!("How many matches come from {source}?"), &[&source, doc], *n, Some("source"))));
        }
    }
    for host in ["support.acmecloud.io", "docs.acmecloud.io", "community.acmecloud.io"] {
        let n = matches.iter().filter(|m| meta(m, "source").starts_with(&format!("https://{host}/"))).count();
        qs.push(Some(count(&format!("How many matches come from {host}?"), &[host], n, Some("source"))));
    }
    let n = matches.iter().filter(|m| meta(m, "lang") != "en").count();
    qs.push(Some(count("How many matches are not in English?", &["not in English", "non-English"], n, Some("lang"))));
    let n = matches.iter().filter(|m| m["score"].as_f64().is_some_and(|s| s > 0.8)).count();
    qs.push(Some(count("How many matches score above 0.8?", &["0.8"], n, Some("score"))));
    qs.push(Some(count(
        "How many distinct documents do the matches come from?",
        &["documents", "doc_id"],
        docs.len(),
        Some("doc_id"),
    )));
    qs.push(Some(count("How many matches did the query return?", &["matches"], matches.len(), Some("id"))));
    qs.push(extreme("Which document has the most matches?", docs.clone(), true, Some("doc_id")));
    for (k, max) in [(2, true), (3, false)] {
        if let Some((_, doc)) = docs.get(k) {
            let title = matches
                .iter()
                .find(|m| m["metadata"]["doc_id"] == doc.as_str())
                .map(|m| meta(m, "title"))
                .unwrap_or_default();
            let chunks: Vec<(f64, String)> = matches
                .iter()
                .filter(|m| m["metadata"]["doc_id"] == doc.as_str())
                .filter_map(|m| Some((m["score"].as_f64()?, id(m))))
                .collect();
            let which = if max { "highest" } else { "lowest" };
            qs.push(extreme(
                &format!("Which chunk of {doc} (\"{title}\") scores {which}?"),
                chunks,
                max,
                Some("score"),
            ));
        }
    }
    let tokens: Vec<(i64, String)> =
        matches.iter().filter_map(|m| Some((m["metadata"]["tokens"].as_i64()?, id(m)))).collect();
    qs.push(extreme("Which match has the most tokens?", tokens.clone(), true, Some("tokens")));
    qs.push(extreme("Which match has the fewest tokens?", tokens, false, Some("tokens")));
    qs
}
