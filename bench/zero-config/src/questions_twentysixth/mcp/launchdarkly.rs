//! Questions about a LaunchDarkly flag listing: the first and the last flags (key, name,
//! kind, creation date, maintainer, tags, production version); a flag's environments that
//! are on, its fallthrough and off variations, maintainer, tags, individually targeted
//! keys, rule clauses and production version by its key; and how many flags are on in each
//! environment, multivariate, temporary, tagged for a team, have production rules or are
//! off everywhere, and which flag was modified last, is oldest, has the highest production
//! version and targets the most keys.

use serde_json::Value;

use super::{field, list, lookup, with_all};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::end;

/// The configuration of flag `f` in the environment `env`.
fn env<'v>(f: &'v Value, env: &str) -> Option<&'v Value> {
    f.get("environments")?.get(env)
}

/// The environments `f` is on in, in the listing's order.
pub(super) fn on_in(f: &Value) -> Vec<String> {
    f.get("environments")
        .and_then(Value::as_object)
        .map(|m| m.iter().filter(|(_, e)| e["on"] == Value::Bool(true)).map(|(k, _)| k.clone()).collect())
        .unwrap_or_default()
}

/// How a variation of `f` is named: its name, or its value when it has none.
pub(super) fn variation(f: &Value, index: &Value) -> Option<String> {
    let v = f.get("variations")?.get(usize::try_from(index.as_u64()?).ok()?)?;
    Some(v.get("name").filter(|n| !n.is_null()).map_or_else(|| text(&v["value"]), text))
}

/// The context keys `f` targets individually in `environment`.
fn targeted(f: &Value, environment: &str) -> Vec<String> {
    env(f, environment)
        .map(|e| list(e, "targets").iter().flat_map(|t| list(t, "values").iter().map(text)).collect())
        .unwrap_or_default()
}

/// Every context key `f` targets individually, in any environment.
pub(super) fn targeted_anywhere(f: &Value) -> usize {
    f.get("environments").and_then(Value::as_object).map_or(0, |m| m.keys().map(|k| targeted(f, k).len()).sum())
}

pub(super) fn launchdarkly_questions(v: &Value) -> Vec<Option<Question>> {
    let flags = list(v, "items");
    let key = |f: &Value| field(f, "key");
    let prod = |f: &Value, name: &str| env(f, "production").map(|e| field(e, name)).unwrap_or_default();
    let mut qs = vec![
        end(flags, 0, false, "What is the key and name of the newest flag (listed first)?", |f| {
            Some(vec![key(f), field(f, "name")])
        }),
        end(flags, 0, false, "What kind of flag is the first one, and when was it created?", |f| {
            Some(vec![key(f), field(f, "kind"), field(f, "creationDate")])
        }),
        end(flags, 0, false, "Who maintains the first flag?", |f| Some(vec![key(f), field(f, "_maintainer.email")])),
        end(flags, 0, false, "What tags does the first flag carry?", |f| {
            with_all(key(f), list(f, "tags").iter().map(text).collect())
        }),
        end(
            flags,
            0,
            false,
            "What version is the first flag at in production, and when was it last modified there?",
            |f| Some(vec![key(f), prod(f, "version"), prod(f, "lastModified")]),
        ),
        end(flags, 1, false, "Which flag is listed second, and what does its description say?", |f| {
            Some(vec![key(f), field(f, "description")])
        }),
        end(flags, 1, false, "When was the second flag created?", |f| Some(vec![key(f), field(f, "creationDate")])),
        end(flags, 2, false, "What is the key and name of the third flag?", |f| Some(vec![key(f), field(f, "name")])),
        end(flags, 3, false, "Which flag is fourth, and who maintains it?", |f| {
            Some(vec![key(f), field(f, "_maintainer.email")])
        }),
        end(flags, 4, false, "Which flag is fifth, and what kind is it?", |f| Some(vec![key(f), field(f, "kind")])),
        end(flags, 0, true, "What is the key and name of the last flag listed (the oldest)?", |f| {
            Some(vec![key(f), field(f, "name")])
        }),
        end(flags, 0, true, "When was the last flag created?", |f| Some(vec![key(f), field(f, "creationDate")])),
        end(flags, 0, true, "Who maintains the last flag?", |f| Some(vec![key(f), field(f, "_maintainer.email")])),
        end(flags, 0, true, "What does the description of the last flag say?", |f| {
            Some(vec![key(f), field(f, "description")])
        }),
        end(
            flags,
            0,
            true,
            "What version is the last flag at in production, and when was it last modified there?",
            |f| Some(vec![key(f), prod(f, "version"), prod(f, "lastModified")]),
        ),
        end(flags, 1, true, "Which flag is second to last, and what is its name?", |f| {
            Some(vec![key(f), field(f, "name")])
        }),
        end(flags, 1, true, "What tags does the second to last flag carry?", |f| {
            with_all(key(f), list(f, "tags").iter().map(text).collect())
        }),
        end(flags, 2, true, "Which flag is third to last, and what kind is it?", |f| {
            Some(vec![key(f), field(f, "kind")])
        }),
        end(flags, 3, true, "Which flag is fourth to last, and when was it created?", |f| {
            Some(vec![key(f), field(f, "creationDate")])
        }),
        end(flags, 4, true, "Which flag is fifth to last, and what is its name?", |f| {
            Some(vec![key(f), field(f, "name")])
        }),
    ];
    for at in [0.2, 0.5, 0.85] {
        qs.push(lookup(flags, at, "In which environments is the flag {key} on?", key, |f| {
            let on = on_in(f);
            (!on.is_empty()).then_some(on)
        }));
    }
    for at in [0.35, 0.7] {
        qs.push(lookup(flags, at, "What does {key} serve by default (its fallthrough) in production?", key, |f| {
            Some(vec![variation(f, &env(f, "production")?["fallthrough"]["variation"])?])
        }));
    }
    qs.push(lookup(flags, 0.6, "What does {key} serve in staging when it is off?", key, |f| {
        Some(vec![variation(f, &env(f, "staging")?["offVariation"])?])
    }));
    qs.push(lookup(flags, 0.45, "Who maintains the flag {key}?", key, |f| Some(vec![field(f, "_maintainer.email")])));
    qs.push(lookup(flags, 0.92, "When was the flag {key} created, and is it temporary?", key, |f| {
        Some(vec![field(f, "creationDate"), field(f, "temporary")])
    }));
    qs.push(lookup(flags, 0.25, "What tags does {key} have?", key, |f| {
        let tags: Vec<String> = list(f, "tags").iter().map(text).collect();
        (!tags.is_empty()).then_some(tags)
    }));
    qs.push(lookup(flags, 0.55, "Which context keys are individually targeted by {key} in staging?", key, |f| {
        let keys = targeted(f, "staging");
        (!keys.is_empty()).then_some(keys)
    }));
    qs.push(lookup(flags, 0.3, "What do the production targeting rules of {key} match on?", key, |f| {
        let clauses: Vec<String> = list(env(f, "production")?, "rules")
            .iter()
            .flat_map(|r| list(r, "clauses").iter())
            .flat_map(|c| std::iter::once(field(c, "attribute")).chain(list(c, "values").iter().map(text)))
            .collect();
        (!clauses.is_empty()).then_some(clauses)
    }));
    for at in [0.15, 0.8] {
        qs.push(lookup(
            flags,
            at,
            "What version is {key} at in production, and when was it last modified there?",
            key,
            |f| Some(vec![prod(f, "version"), prod(f, "lastModified")]),
        ));
    }
    // How many, and which is the largest.
    let flags_where = |keep: &dyn Fn(&Value) -> bool| flags.iter().filter(|f| keep(f)).count();
    qs.push(Some(count("How many flags are there?", &["flags", "totalCount"], flags.len(), Some("key"))));
    for environment in ["production", "staging", "dev"] {
        let n = flags_where(&|f| env(f, environment).is_some_and(|e| e["on"] == Value::Bool(true)));
        qs.push(Some(count(&format!("How many flags are on in {environment}?"), &[environment], n, Some("on"))));
    }
    let n = flags_where(&|f| field(f, "kind") == "multivariate");
    qs.push(Some(count("How many flags are multivariate?", &["multivariate"], n, Some("kind"))));
    let n = flags_where(&|f| f["temporary"] == Value::Bool(true));
    qs.push(Some(count("How many flags are temporary?", &["temporary"], n, Some("temporary"))));
    let mut tags = most_frequent(flags.iter().flat_map(|f| list(f, "tags").iter().filter_map(Value::as_str)));
    tags.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if let Some((n, tag)) = tags.get(1) {
        qs.push(Some(count(&format!("How many flags are tagged {tag}?"), &[tag], *n, Some("tags"))));
    }
    let n = flags_where(&|f| env(f, "production").is_some_and(|e| !list(e, "rules").is_empty()));
    qs.push(Some(count("How many flags have targeting rules in production?", &["rules"], n, Some("rules"))));
    let n = flags_where(&|f| on_in(f).is_empty());
    qs.push(Some(count(
        "How many flags are off in every environment?",
        &["off everywhere", "off in every environment", "off"],
        n,
        Some("on"),
    )));
    let mut maintainers = most_frequent(flags.iter().map(|f| f["_maintainer"]["email"].as_str().unwrap_or_default()));
    maintainers.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if let Some((n, email)) = maintainers.first() {
        qs.push(Some(count(&format!("How many flags does {email} maintain?"), &[email], *n, Some("_maintainer"))));
    }
    qs.push(extreme(
        "Which flag was modified most recently in production?",
        scored(flags, |f| prod(f, "lastModified")),
        true,
        Some("lastModified"),
    ));
    qs.push(extreme(
        "Which flag has gone longest without a change in production?",
        scored(flags, |f| prod(f, "lastModified")),
        false,
        Some("lastModified"),
    ));
    qs.push(extreme(
        "Which flag is the oldest?",
        scored(flags, |f| field(f, "creationDate")),
        false,
        Some("creationDate"),
    ));
    qs.push(extreme(
        "Which flag is at the highest version in production?",
        scored(flags, |f| prod(f, "version")),
        true,
        Some("version"),
    ));
    let targets: Vec<(usize, String)> = flags.iter().map(|f| (targeted_anywhere(f), key(f))).collect();
    qs.push(extreme(
        "Which flag targets the most individual context keys across its environments?",
        targets,
        true,
        Some("targets"),
    ));
    qs
}

/// Each flag's number at what `score` reads, with its key.
fn scored(flags: &[Value], score: impl Fn(&Value) -> String) -> Vec<(i64, String)> {
    flags.iter().filter_map(|f| Some((score(f).parse().ok()?, field(f, "key")))).collect()
}
