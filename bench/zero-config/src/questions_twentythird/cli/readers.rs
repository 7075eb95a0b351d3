//! Readers of the cli half's text results, each making records of what a tool printed,
//! every value kept as it is written so that an answer reads as it does in the output:
//! the row blocks of the MySQL client's vertical output, the file rows and `TOTAL` of a
//! coverage.py report, and the objects of a schema-only `pg_dump`.

use serde_json::{Map, Value, json};

/// The rows of `\G` output: per `N. row` block, `row` (its number) and every
/// `column: value` line as a field; and the `rows in set` footer, if any.
pub(crate) fn mysql_rows(t: &str) -> (Vec<Value>, Option<String>) {
    let mut rows: Vec<Map<String, Value>> = Vec::new();
    let mut footer = None;
    for l in t.lines() {
        if let Some(n) = l
            .strip_prefix("*************************** ")
            .and_then(|s| s.strip_suffix(". row ***************************"))
        {
            rows.push(Map::from_iter([("row".to_owned(), json!(n))]));
        } else if l.contains(" rows in set (") || l.contains(" row in set (") {
            footer = Some(l.trim_end().to_owned());
        } else if let (Some(row), Some((name, v))) = (rows.last_mut(), l.split_once(": ")) {
            // A column line: the name right-aligned, with nothing but spaces before it.
            let name = name.trim_start();
            if !name.is_empty() && !name.contains(' ') && !row.contains_key(name) {
                row.insert(name.to_owned(), json!(v));
            }
        }
    }
    (rows.into_iter().map(Value::Object).collect(), footer)
}

/// The file rows of `coverage report -m` (name, stmts, miss, branch, brpart, cover with
/// its `%`, missing) and its `TOTAL` row, read by position after the header.
pub(crate) fn coverage(t: &str) -> (Vec<Value>, Option<Value>) {
    let mut files = Vec::new();
    let mut total = None;
    for l in t.lines() {
        let cells: Vec<&str> = l.split_whitespace().collect();
        if cells.len() < 6 || cells[0] == "Name" || !cells[5].ends_with('%') {
            continue;
        }
        let missing = l.split_once("% ").map_or("", |(_, m)| m.trim());
        let rec = json!({
            "name": cells[0],
            "stmts": cells[1],
            "miss": cells[2],
            "branch": cells[3],
            "brpart": cells[4],
            "cover": cells[5],
            "missing": missing,
        });
        if cells[0] == "TOTAL" {
            total = Some(rec);
        } else {
            files.push(rec);
        }
    }
    (files, total)
}

/// A number cell of a record (`"212"`, `"83%"`).
pub(crate) fn num(x: &Value, field: &str) -> Option<f64> {
    x[field].as_str()?.trim_end_matches('%').parse().ok()
}

/// One table of a schema dump: its qualified name and its columns as `(name, type,
/// default expression)`, the type without its default and `NOT NULL`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Table {
    pub(crate) name: String,
    pub(crate) columns: Vec<(String, String, Option<String>)>,
}

/// What `pg_dump --schema-only` printed, object by object, in its order.
#[derive(Debug, Default)]
pub(crate) struct Dump {
    /// `Dumped from database version` and `Dumped by pg_dump version`.
    pub(crate) versions: (String, String),
    pub(crate) schemas: Vec<String>,
    pub(crate) extensions: Vec<String>,
    /// Qualified enum name and its labels.
    pub(crate) enums: Vec<(String, Vec<String>)>,
    /// Qualified function name, without its arguments.
    pub(crate) functions: Vec<String>,
    pub(crate) tables: Vec<Table>,
    /// `(table, comment)`.
    pub(crate) table_comments: Vec<(String, String)>,
    /// `(sequence, owning column as table.column)`.
    pub(crate) sequences: Vec<(String, String)>,
    /// Constraints added after the tables: `name`, `table`, `kind` (`PRIMARY KEY`,
    /// `UNIQUE`, `FOREIGN KEY`), `columns` and for a foreign key `references`.
    pub(crate) constraints: Vec<Value>,
    /// `name`, `table`, `unique`, `method`, `columns` (the text between the parentheses).
    pub(crate) indexes: Vec<Value>,
    /// `name`, `timing` (`BEFORE UPDATE`), `table`, `function`.
    pub(crate) triggers: Vec<Value>,
}

/// The text between the first `(` and its closing `)` of `s`.
fn parenthesised(s: &str) -> Option<&str> {
    let open = s.find('(')?;
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The type and default of a column declared as `type [DEFAULT expr] [NOT NULL]`.
fn column_decl(decl: &str) -> (String, Option<String>) {
    let decl = decl.trim_end_matches(',').trim_end_matches(" NOT NULL");
    match decl.split_once(" DEFAULT ") {
        Some((ty, default)) => (ty.to_owned(), Some(default.to_owned())),
        None => (decl.to_owned(), None),
    }
}

/// An `ADD CONSTRAINT name …;` clause of `table` as a record.
fn constraint(table: &str, clause: &str) -> Option<Value> {
    let (name, def) = clause.trim_end_matches(';').split_once(' ')?;
    let kind = ["PRIMARY KEY", "UNIQUE", "FOREIGN KEY"].into_iter().find(|k| def.starts_with(k))?;
    let references = def.split_once(" REFERENCES ").and_then(|(_, r)| r.split('(').next());
    Some(json!({
        "name": name,
        "table": table,
        "kind": kind,
        "columns": parenthesised(def),
        "references": references,
    }))
}

/// The objects of a schema dump.
pub(crate) fn pg_dump(t: &str) -> Dump {
    let mut d = Dump::default();
    let mut open_table: Option<Table> = None;
    let mut open_enum: Option<(String, Vec<String>)> = None;
    let mut altering: Option<String> = None;
    for l in t.lines() {
        if let Some(table) = open_table.as_mut() {
            if l == ");" {
                d.tables.extend(open_table.take());
            } else if let Some(col) = l.strip_prefix("    ").filter(|c| !c.starts_with("CONSTRAINT "))
                && let Some((name, decl)) = col.split_once(' ')
            {
                let (ty, default) = column_decl(decl);
                table.columns.push((name.to_owned(), ty, default));
            }
            continue;
        }
        if let Some((_, labels)) = open_enum.as_mut() {
            if l == ");" {
                d.enums.extend(open_enum.take());
            } else {
                labels.push(l.trim().trim_end_matches(',').trim_matches('\'').to_owned());
            }
            continue;
        }
        if let Some(v) = l.strip_prefix("-- Dumped from database version ") {
            d.versions.0 = v.to_owned();
        } else if let Some(v) = l.strip_prefix("-- Dumped by pg_dump version ") {
            d.versions.1 = v.to_owned();
        } else if let Some(s) = l.strip_prefix("CREATE SCHEMA ") {
            d.schemas.push(s.trim_end_matches(';').to_owned());
        } else if let Some(e) = l.strip_prefix("CREATE EXTENSION IF NOT EXISTS ") {
            d.extensions.extend(e.split(' ').next().map(str::to_owned));
        } else if let Some(e) = l.strip_prefix("CREATE TYPE ").and_then(|s| s.strip_suffix(" AS ENUM (")) {
            open_enum = Some((e.to_owned(), Vec::new()));
        } else if let Some(f) = l.strip_prefix("CREATE FUNCTION ") {
            d.functions.extend(f.split('(').next().map(str::to_owned));
        } else if let Some(name) = l.strip_prefix("CREATE TABLE ").and_then(|s| s.strip_suffix(" (")) {
            open_table = Some(Table { name: name.to_owned(), columns: Vec::new() });
        } else if let Some(rest) = l.strip_prefix("COMMENT ON TABLE ") {
            if let Some((table, comment)) = rest.split_once(" IS '") {
                d.table_comments.push((table.to_owned(), comment.trim_end_matches("';").to_owned()));
            }
        } else if let Some(rest) = l.strip_prefix("ALTER SEQUENCE ") {
            if let Some((seq, owner)) = rest.split_once(" OWNED BY ") {
                d.sequences.push((seq.to_owned(), owner.trim_end_matches(';').to_owned()));
            }
        } else if let Some(table) = l.strip_prefix("ALTER TABLE ONLY ") {
            altering = (!table.contains(' ')).then(|| table.to_owned());
        } else if let (Some(clause), Some(table)) = (l.strip_prefix("    ADD CONSTRAINT "), altering.take()) {
            d.constraints.extend(constraint(&table, clause));
        } else if l.starts_with("CREATE INDEX ") || l.starts_with("CREATE UNIQUE INDEX ") {
            let unique = l.starts_with("CREATE UNIQUE");
            let rest = l.split_once("INDEX ").map_or("", |(_, r)| r);
            if let Some((name, rest)) = rest.split_once(" ON ")
                && let Some((table, using)) = rest.split_once(" USING ")
            {
                d.indexes.push(json!({
                    "name": name,
                    "table": table,
                    "unique": unique,
                    "method": using.split(' ').next(),
                    "columns": parenthesised(using),
                }));
            }
        } else if let Some(rest) = l.strip_prefix("CREATE TRIGGER ")
            && let Some((head, function)) = rest.split_once(" FOR EACH ROW EXECUTE FUNCTION ")
            && let Some((name_timing, table)) = head.split_once(" ON ")
            && let Some((name, timing)) = name_timing.split_once(' ')
        {
            d.triggers.push(json!({
                "name": name,
                "timing": timing,
                "table": table,
                "function": function.trim_end_matches(';'),
            }));
        }
    }
    d
}
