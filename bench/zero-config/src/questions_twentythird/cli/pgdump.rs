//! The questions asked of a schema-only `pg_dump`: what a developer reading the schema
//! asks of it (the type or default of a column, what an index covers, what a foreign key
//! refers to, what a trigger runs, which column owns a sequence, what a table's comment
//! says; how many tables, indexes, foreign keys, triggers; which table has the most
//! columns, indexes or foreign keys, which is referred to most; the versions and first
//! objects at the top, the last indexes, triggers and foreign keys at the bottom).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::readers::{Dump, pg_dump};
use super::{about_record, before_last, lookup};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, count, extreme, most_frequent, only, together};

/// Every question about the dump `t`.
pub(crate) fn pg_dump_questions(t: &str) -> Vec<Option<Question>> {
    let d = pg_dump(t);
    let mut qs = lookups(&d);
    qs.extend(aggregates(&d));
    qs.extend(heads_and_tails(t, &d));
    qs
}

/// Every column of the dump as a record (`column`, `table`, `type`, `default`), for
/// columns whose name no other table uses, so the name alone finds it.
fn distinct_columns(d: &Dump) -> Vec<Value> {
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &d.tables {
        for (c, _, _) in &t.columns {
            *uses.entry(c).or_default() += 1;
        }
    }
    d.tables
        .iter()
        .flat_map(|t| {
            t.columns
                .iter()
                .filter(|(c, _, _)| uses.get(c.as_str()) == Some(&1))
                .map(|(c, ty, default)| json!({"column": c, "table": t.name, "type": ty, "default": default}))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A list of `(key, value)` pairs as records of `key` and `value`.
fn pairs(list: &[(String, String)]) -> Vec<Value> {
    list.iter().map(|(k, v)| json!({"key": k, "value": v})).collect()
}

/// Column types and defaults, indexes, foreign keys, unique constraints, triggers,
/// sequences and table comments.
fn lookups(d: &Dump) -> Vec<Option<Question>> {
    let cols = distinct_columns(d);
    let defaulted = only(&cols, |c| c["default"].as_str().is_some_and(|x| x != "now()" && x != "0"));
    let fks = only(&d.constraints, |c| c["kind"] == "FOREIGN KEY");
    let uniques = only(&d.constraints, |c| c["kind"] == "UNIQUE");
    vec![
        lookup(&cols, 0.25, "What type is the column {key}?", "column", &["type"]),
        lookup(&cols, 0.5, "What type is the column {key}?", "column", &["type"]),
        lookup(&cols, 0.75, "What type is the column {key}?", "column", &["type"]),
        lookup(&defaulted, 0.6, "What is the default of the column {key}?", "column", &["default"]),
        lookup(&d.indexes, 0.3, "Which table and columns does the index {key} cover?", "name", &["table", "columns"]),
        lookup(&d.indexes, 0.8, "Which table and columns does the index {key} cover?", "name", &["table", "columns"]),
        lookup(&fks, 0.5, "Which table does the foreign key {key} refer to?", "name", &["references"]),
        lookup(&fks, 0.9, "Which table does the foreign key {key} refer to?", "name", &["references"]),
        lookup(&uniques, 0.5, "Which column must be unique under the constraint {key}?", "name", &["columns"]),
        lookup(
            &d.triggers,
            0.5,
            "When does the trigger {key} fire, and which function does it run?",
            "name",
            &["timing", "function"],
        ),
        lookup(&pairs(&d.sequences), 0.4, "Which column owns the sequence {key}?", "key", &["value"]),
        lookup(&pairs(&d.table_comments), 0.6, "What does the comment on the table {key} say?", "key", &["value"]),
    ]
}

/// How many tables (in all and per schema), indexes, unique indexes, foreign keys,
/// triggers, sequences, enums, jsonb columns; the table with the most or fewest columns,
/// most indexes or foreign keys, the table referred to most, the largest enum.
fn aggregates(d: &Dump) -> Vec<Option<Question>> {
    let tables: Vec<Value> =
        d.tables.iter().map(|t| json!({"name": t.name, "schema": t.name.split('.').next()})).collect();
    let fks = only(&d.constraints, |c| c["kind"] == "FOREIGN KEY");
    let unique_indexes = d.indexes.iter().filter(|i| i["unique"] == true).count();
    let gin = d.indexes.iter().filter(|i| i["method"] == "gin").count();
    let jsonb = d.tables.iter().flat_map(|t| &t.columns).filter(|c| c.1 == "jsonb").count();
    let to_users = fks.iter().filter(|f| f["references"] == "public.users").count();
    let width: Vec<(usize, String)> = d.tables.iter().map(|t| (t.columns.len(), t.name.clone())).collect();
    let col = |list: &[Value], field: &str| {
        list.iter().filter_map(|x| x[field].as_str()).map(str::to_owned).collect::<Vec<String>>()
    };
    let index_tables = col(&d.indexes, "table");
    let fk_tables = col(&fks, "table");
    let referred = col(&fks, "references");
    let enums: Vec<(usize, String)> = d.enums.iter().map(|(n, l)| (l.len(), n.clone())).collect();
    vec![
        Some(count("How many tables does the dump create?", &["tables", "CREATE TABLE"], d.tables.len(), None)),
        about("schema", Records { list: &tables }.count("How many tables are in the schema {value}?", "schema", None)),
        Some(count("How many indexes does the dump create?", &["indexes", "CREATE INDEX"], d.indexes.len(), None)),
        Some(count("How many unique indexes are there?", &["UNIQUE INDEX", "unique indexes"], unique_indexes, None)),
        Some(count("How many GIN indexes are there?", &["gin", "GIN"], gin, None)),
        Some(count("How many foreign keys are there?", &["foreign keys", "FOREIGN KEY"], fks.len(), None)),
        Some(count("How many triggers are there?", &["triggers", "CREATE TRIGGER"], d.triggers.len(), None)),
        Some(count("How many sequences are there?", &["sequences", "CREATE SEQUENCE"], d.sequences.len(), None)),
        Some(count("How many enum types are there?", &["enum", "ENUM"], d.enums.len(), None)),
        Some(count("How many foreign keys refer to public.users?", &["public.users"], to_users, None)),
        Some(count("How many jsonb columns are there?", &["jsonb"], jsonb, None)),
        extreme("Which table has the most columns?", width.clone(), true, None),
        extreme("Which table has the fewest columns?", width, false, None),
        extreme(
            "Which table has the most indexes?",
            most_frequent(index_tables.iter().map(String::as_str)),
            true,
            None,
        ),
        extreme(
            "Which table has the most foreign keys?",
            most_frequent(fk_tables.iter().map(String::as_str)),
            true,
            None,
        ),
        extreme(
            "Which table do the most foreign keys refer to?",
            most_frequent(referred.iter().map(String::as_str)),
            true,
            None,
        ),
        extreme("Which enum type has the most values?", enums, true, None),
        extreme(
            "Which schema has the most tables?",
            most_frequent(tables.iter().filter_map(|t| t["schema"].as_str())),
            true,
            None,
        ),
    ]
}

/// The versions and first objects at the top; the last indexes, triggers and foreign keys
/// and the closing comment at the bottom.
fn heads_and_tails(t: &str, d: &Dump) -> Vec<Option<Question>> {
    let head = |q: &str, s: Option<&String>| s.map(|s| together(Kind::Head, q.into(), None, &[s]));
    let fks = only(&d.constraints, |c| c["kind"] == "FOREIGN KEY");
    let last_line = t.lines().rev().find(|l| l.starts_with("-- ") && l.len() > 3).map(str::to_owned);
    vec![
        head("Which PostgreSQL version was the database running?", Some(&d.versions.0).filter(|v| !v.is_empty())),
        head("Which version of pg_dump wrote the dump?", Some(&d.versions.1).filter(|v| !v.is_empty())),
        head("Which schema does the dump create first?", d.schemas.first()),
        head("Which extension does the dump create first?", d.extensions.first()),
        head("Which enum type does the dump define first?", d.enums.first().map(|e| &e.0)),
        head("Which function does the dump define first?", d.functions.first()),
        head("Which table does the dump create first?", d.tables.first().map(|t| &t.name)),
        head("Which schema does the dump create second?", d.schemas.get(1)),
        about_record(
            fks.last(),
            Kind::Tail,
            "Which foreign key comes last in the dump, and what does it refer to?",
            &["name", "references"],
        ),
        about_record(
            before_last(&fks),
            Kind::Tail,
            "Which foreign key comes second to last, and what does it refer to?",
            &["name", "references"],
        ),
        about_record(
            fks.len().checked_sub(3).and_then(|i| fks.get(i)),
            Kind::Tail,
            "Which foreign key comes third to last?",
            &["name"],
        ),
        about_record(
            fks.last(),
            Kind::Tail,
            "On which column is the last foreign key of the dump?",
            &["name", "columns"],
        ),
        about_record(
            d.triggers.last(),
            Kind::Tail,
            "Which trigger comes last, and which function does it run?",
            &["name", "function"],
        ),
        about_record(d.indexes.last(), Kind::Tail, "Which index comes last, and on which table?", &["name", "table"]),
        last_line.map(|l| together(Kind::Tail, "What does the dump's closing comment say?".into(), None, &[&l])),
    ]
}
