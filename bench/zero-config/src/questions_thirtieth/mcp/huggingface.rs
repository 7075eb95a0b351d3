//! Questions about a Hugging Face model search, most downloaded first: the first models
//! (id and downloads, likes, task and library, author and creation, last change) and the
//! last ones (id and downloads, likes, task, creation, commit); a model's downloads,
//! likes, task, library, gating, creation, last change and commit by its id; and how
//! many models are gated or gated by hand, of the commonest tasks and libraries, and
//! which has the most likes, downloads, files or trending score, the fewest downloads,
//! and which was created or changed last.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{ORDINALS, end, lookup_one as lookup, to_last};

/// Whether a model needs access to be granted (`gated` is `"auto"` or `"manual"`).
pub(super) fn is_gated(m: &Value) -> bool {
    m["gated"].as_str().is_some()
}

/// The commonest values of `names`, most frequent first (ties by name).
fn ranked<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(usize, String)> {
    let mut r = most_frequent(names);
    r.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    r
}

pub(super) fn huggingface_questions(v: &Value) -> Vec<Option<Question>> {
    let models = list(v, "");
    let id = |m: &Value| field(m, "id");
    let with = |m: &Value, paths: &[&str]| Some([vec![id(m)], paths.iter().map(|p| field(m, p)).collect()].concat());
    let downloaded = |m: &Value| with(m, &["downloads"]);
    let mut qs = vec![
        end(models, 0, false, "Which model is the most downloaded, and how many downloads does it have?", downloaded),
        end(models, 0, false, "How many likes does the most downloaded model have?", |m| with(m, &["likes"])),
        end(models, 0, false, "What task and library is the top model for?", |m| {
            with(m, &["pipeline_tag", "library_name"])
        }),
        end(models, 0, false, "Who published the top model, and when was it created?", |m| {
            with(m, &["author", "createdAt"])
        }),
        end(models, 0, false, "When was the top model last modified?", |m| with(m, &["lastModified"])),
        end(models, 1, false, "Which library does the second model use, and for what task?", |m| {
            with(m, &["library_name", "pipeline_tag"])
        }),
        end(models, 0, true, "Which model is last on this page, and how many downloads does it have?", downloaded),
        end(models, 0, true, "How many likes does the last model on the page have?", |m| with(m, &["likes"])),
        end(models, 0, true, "When was the last model on the page created?", |m| with(m, &["createdAt"])),
        end(models, 0, true, "What commit is the last model on the page at?", |m| with(m, &["sha"])),
        end(models, 0, true, "Who published the last model on the page?", |m| with(m, &["author"])),
        end(models, 1, true, "When was the second to last model created?", |m| with(m, &["createdAt"])),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5).skip(1) {
        qs.push(end(
            models,
            k,
            false,
            &format!("Which model is {ordinal} by downloads, and how many does it have?"),
            downloaded,
        ));
        qs.push(end(
            models,
            k,
            true,
            &format!("Which model is {} on the page, and how many downloads does it have?", to_last(k)),
            downloaded,
        ));
    }
    // Lookups by id.
    for f in [0.15, 0.5, 0.85] {
        qs.push(lookup(models, f, "How many downloads does {key} have?", id, |m| Some(vec![field(m, "downloads")])));
    }
    for f in [0.3, 0.7] {
        qs.push(lookup(models, f, "How many likes does {key} have?", id, |m| Some(vec![field(m, "likes")])));
    }
    qs.push(lookup(models, 0.4, "What pipeline (task) is {key} tagged with?", id, |m| {
        Some(vec![field(m, "pipeline_tag")])
    }));
    qs.push(lookup(models, 0.6, "Which library does {key} use?", id, |m| Some(vec![field(m, "library_name")])));
    let gated: Vec<&Value> = models.iter().filter(|m| is_gated(m)).collect();
    qs.push(lookup(&gated, 0.5, "How is access to {key} gated?", |m| id(m), |m| Some(vec![field(m, "gated")])));
    qs.push(lookup(models, 0.9, "When was {key} created?", id, |m| Some(vec![field(m, "createdAt")])));
    qs.push(lookup(models, 0.65, "When was {key} last modified?", id, |m| Some(vec![field(m, "lastModified")])));
    qs.push(lookup(models, 0.2, "Which commit (sha) is {key} at?", id, |m| Some(vec![field(m, "sha")])));
    // How many, and which stands out.
    qs.push(Some(count("How many of these models are gated?", &["gated"], gated.len(), Some("gated"))));
    let manual = models.iter().filter(|m| m["gated"] == "manual").count();
    qs.push(Some(count("How many models are gated with manual approval?", &["manual"], manual, Some("gated"))));
    let tasks = ranked(models.iter().filter_map(|m| m["pipeline_tag"].as_str()));
    for (n, task) in tasks.iter().take(2) {
        qs.push(Some(count(&format!("How many models are tagged {task}?"), &[task], *n, Some("pipeline_tag"))));
    }
    let libraries = ranked(models.iter().filter_map(|m| m["library_name"].as_str()));
    for (n, library) in libraries.iter().take(2) {
        qs.push(Some(count(&format!("How many models use {library}?"), &[library], *n, Some("library_name"))));
    }
    let scored =
        |path: &str| -> Vec<(f64, String)> { models.iter().filter_map(|m| Some((number(m, path)?, id(m)))).collect() };
    qs.push(extreme("Which model has the most likes?", scored("likes"), true, Some("likes")));
    qs.push(extreme("Which model has the most downloads?", scored("downloads"), true, Some("downloads")));
    qs.push(extreme(
        "Which model has the fewest downloads on this page?",
        scored("downloads"),
        false,
        Some("downloads"),
    ));
    qs.push(extreme("Which model is trending the most?", scored("trendingScore"), true, Some("trendingScore")));
    let files: Vec<(usize, String)> = models.iter().map(|m| (list(m, "siblings").len(), id(m))).collect();
    qs.push(extreme("Which model repository has the most files?", files, true, Some("siblings")));
    let created: Vec<(String, String)> = models.iter().map(|m| (field(m, "createdAt"), id(m))).collect();
    qs.push(extreme("Which model is the newest?", created, true, Some("createdAt")));
    let modified: Vec<(String, String)> = models.iter().map(|m| (field(m, "lastModified"), id(m))).collect();
    qs.push(extreme("Which model was modified most recently?", modified, true, Some("lastModified")));
    qs
}
