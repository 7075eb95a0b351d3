//! Questions about a Supabase `list_tables` answer: the first tables (name and rows, the
//! first table's first columns with their types, its RLS, primary key and comment) and
//! the last ones (name and rows, the last table's last columns, primary key, RLS and
//! foreign key); a column's type, default, enum labels or check by table and name, where
//! a foreign key points, a table's rows and comment; and how many tables there are, how
//! many skip RLS or have a comment, how many columns or nullable columns a table has and
//! how many foreign keys point at it, and which table holds the most or fewest rows, has
//! the most columns or is referenced most.

use serde_json::Value;

use super::{ask_at, field, list, number};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme};
use crate::record_questions::{ORDINALS, end, to_last};

/// Every column of every table: (table, column).
fn columns(tables: &[Value]) -> Vec<(String, &Value)> {
    tables.iter().flat_map(|t| list(t, "columns").iter().map(move |c| (field(t, "name"), c))).collect()
}

/// The foreign keys pointing at `table` (from any table, itself included), each once.
pub(super) fn references_to(tables: &[Value], table: &str) -> usize {
    let target = format!("public.{table}.");
    let mut names: Vec<String> = tables
        .iter()
        .flat_map(|t| list(t, "foreign_key_constraints"))
        .filter(|fk| field(fk, "target").starts_with(&target))
        .map(|fk| field(fk, "name"))
        .collect();
    names.sort();
    names.dedup();
    names.len()
}

pub(super) fn supabase_questions(v: &Value) -> Vec<Option<Question>> {
    let tables = list(v, "");
    let name = |t: &Value| field(t, "name");
    let with = |t: &Value, paths: &[&str]| Some([vec![name(t)], paths.iter().map(|p| field(t, p)).collect()].concat());
    let rows = |t: &Value| with(t, &["rows"]);
    let column = |t: &Value, k: usize, from_end: bool| {
        let cs = list(t, "columns");
        let i = if from_end { cs.len().checked_sub(k + 1)? } else { k };
        let c = cs.get(i)?;
        Some(vec![name(t), field(c, "name"), field(c, "data_type")])
    };
    let keys = |t: &Value| Some([vec![name(t)], list(t, "primary_keys").iter().map(text).collect()].concat());
    let mut qs = vec![
        end(tables, 0, false, "Which table is listed first, and how many rows does it have?", rows),
        end(tables, 0, false, "Does the first table have row level security enabled?", |t| with(t, &["rls_enabled"])),
        end(tables, 0, false, "What is the primary key of the first table?", keys),
        end(tables, 0, false, "What does the comment on the first table say?", |t| with(t, &["comment"])),
        end(tables, 1, false, "Which table is listed second, and how many rows does it have?", rows),
        end(tables, 0, true, "Which table is listed last, and how many rows does it have?", rows),
        end(tables, 0, true, "Does the last table have row level security enabled?", |t| with(t, &["rls_enabled"])),
        end(tables, 0, true, "What is the primary key of the last table?", keys),
        end(tables, 0, true, "Which foreign key is listed last for the last table, and where does it point?", |t| {
            let fk = list(t, "foreign_key_constraints").last()?;
            Some(vec![field(fk, "name"), field(fk, "source"), field(fk, "target")])
        }),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5) {
        qs.push(end(
            tables,
            0,
            false,
            &format!("What is the {ordinal} column of the first table, and its type?"),
            |t| column(t, k, false),
        ));
    }
    for k in 0..3 {
        qs.push(end(
            tables,
            0,
            true,
            &format!("What is the {} column of the last table, and its type?", to_last(k)),
            |t| column(t, k, true),
        ));
    }
    for k in 1..4 {
        qs.push(end(
            tables,
            k,
            true,
            &format!("Which table is {} in the list, and how many rows does it have?", to_last(k)),
            rows,
        ));
    }
    // Lookups: a column by table and name, a foreign key by name, a table by name.
    let cols = columns(tables);
    let by_column = |(t, c): &(String, &Value)| Some(vec![t.clone(), field(c, "name")]);
    for f in [0.2, 0.5, 0.8] {
        qs.push(ask_at(&cols, f, by_column, |(t, c)| {
            Some((
                format!("What type is the {} column of {t}?", field(c, "name")),
                vec![field(c, "data_type"), field(c, "format")],
            ))
        }));
    }
    let defaulted: Vec<(String, &Value)> =
        cols.iter().filter(|(_, c)| c["default_value"].is_string()).map(|(t, c)| (t.clone(), *c)).collect();
    for f in [0.35, 0.9] {
        qs.push(ask_at(&defaulted, f, by_column, |(t, c)| {
            Some((format!("What is the default of {t}.{}?", field(c, "name")), vec![field(c, "default_value")]))
        }));
    }
    let enumerated: Vec<(String, &Value)> =
        cols.iter().filter(|(_, c)| c["enums"].is_array()).map(|(t, c)| (t.clone(), *c)).collect();
    qs.push(ask_at(&enumerated, 0.6, by_column, |(t, c)| {
        let labels = list(c, "enums").iter().map(text).collect();
        Some((format!("Which values can {t}.{} take?", field(c, "name")), labels))
    }));
    let checked: Vec<(String, &Value)> =
        cols.iter().filter(|(_, c)| c["check"].is_string()).map(|(t, c)| (t.clone(), *c)).collect();
    qs.push(ask_at(&checked, 0.5, by_column, |(t, c)| {
        Some((format!("What check constraint is on {t}.{}?", field(c, "name")), vec![field(c, "check")]))
    }));
    let mut fks: Vec<&Value> = tables.iter().flat_map(|t| list(t, "foreign_key_constraints")).collect();
    fks.sort_by_key(|fk| field(fk, "name"));
    fks.dedup_by_key(|fk| field(fk, "name"));
    for f in [0.3, 0.7] {
        qs.push(ask_at(
            &fks,
            f,
            |fk| Some(vec![field(fk, "name")]),
            |fk| {
                Some((
                    format!("Which column does the foreign key {} point to?", field(fk, "name")),
                    vec![field(fk, "target")],
                ))
            },
        ));
    }
    let all: Vec<&Value> = tables.iter().collect();
    for f in [0.45, 0.75] {
        qs.push(ask_at(
            &all,
            f,
            |t| Some(vec![name(t)]),
            |t| Some((format!("How many rows does {} have?", name(t)), vec![field(t, "rows")])),
        ));
    }
    let commented: Vec<&Value> = tables.iter().filter(|t| t["comment"].is_string()).collect();
    qs.push(ask_at(
        &commented,
        0.6,
        |t| Some(vec![name(t)]),
        |t| Some((format!("What does the comment on {} say?", name(t)), vec![field(t, "comment")])),
    ));
    // How many, and which stands out.
    qs.push(Some(count("How many tables are in the schema?", &["tables"], tables.len(), Some("name"))));
    let open = tables.iter().filter(|t| t["rls_enabled"] == false).count();
    qs.push(Some(count(
        "How many tables have row level security turned off?",
        &["without RLS", "rls_enabled"],
        open,
        Some("rls_enabled"),
    )));
    qs.push(Some(count("How many tables have a comment?", &["comment"], commented.len(), Some("comment"))));
    for t in [tables.first(), tables.get(tables.len() / 2), tables.last()].into_iter().flatten() {
        qs.push(Some(count(
            &format!("How many columns does {} have?", name(t)),
            &["columns"],
            list(t, "columns").len(),
            Some("columns"),
        )));
    }
    if let Some(t) = tables.iter().max_by_key(|t| list(t, "columns").len()) {
        let nullable = list(t, "columns").iter().filter(|c| list(c, "options").iter().any(|o| o == "nullable")).count();
        qs.push(Some(count(
            &format!("How many nullable columns does {} have?", name(t)),
            &["nullable"],
            nullable,
            Some("options"),
        )));
    }
    let referenced: Vec<(f64, String)> =
        tables.iter().map(|t| (references_to(tables, &name(t)) as f64, name(t))).collect();
    if let Some((n, t)) = referenced.iter().find(|(_, t)| *t == "projects" || *t == "organizations") {
        qs.push(Some(count(
            &format!("How many foreign keys point at {t}?"),
            &["foreign keys", "references"],
            *n as usize,
            Some("foreign_key_constraints"),
        )));
    }
    let scored = |path: &str| -> Vec<(f64, String)> {
        tables.iter().filter_map(|t| Some((number(t, path)?, name(t)))).collect()
    };
    qs.push(extreme("Which table has the most rows?", scored("rows"), true, Some("rows")));
    let filled: Vec<(f64, String)> = scored("rows").into_iter().filter(|s| s.0 > 0.0).collect();
    qs.push(extreme("Which table that has any rows has the fewest?", filled, false, Some("rows")));
    let widths: Vec<(f64, String)> = tables.iter().map(|t| (list(t, "columns").len() as f64, name(t))).collect();
    qs.push(extreme("Which table has the most columns?", widths, true, Some("columns")));
    qs.push(extreme(
        "Which table do the most foreign keys point at?",
        referenced,
        true,
        Some("foreign_key_constraints"),
    ));
    qs
}
