//! A table's totals row: the last row of `coverage report`, `du -c`, `wc -l` or a
//! spreadsheet export, whose numbers are the sums of the rows above it. Counted as a row,
//! it holds every column's largest value, so "which file has the most statements" would be
//! answered `TOTAL`. It is told by its numbers alone, never by a word such as `TOTAL`: in
//! some column, its number equals the sum of the others' (rounding allowed), where at least
//! three of the others are not zero, so that no ordinary row matches by chance.

use serde_json::{Map, Value};

/// Rows a table needs, with its totals row, before one is looked for.
const MIN_ROWS: usize = 4;
/// Rows above the totals row whose number in a column is not zero, at least.
const MIN_ADDENDS: usize = 3;

/// Whether the last of `rows` totals the rows above it.
pub(crate) fn last_is_total(rows: &[Value]) -> bool {
    let [above @ .., Value::Object(last)] = rows else {
        return false;
    };
    rows.len() >= MIN_ROWS && last.iter().any(|(column, cell)| sums(above, column, cell))
}

/// Whether `cell`, a number, is the sum of `column`'s numbers in `above`.
fn sums(above: &[Value], column: &str, cell: &Value) -> bool {
    let Some(total) = cell.as_f64() else {
        return false;
    };
    let numbers: Vec<f64> = above.iter().filter_map(|r| r.get(column).and_then(Value::as_f64)).collect();
    let addends = numbers.iter().filter(|x| **x != 0.0).count();
    let sum: f64 = numbers.iter().sum();
    // Each cell can be rounded by half its last digit's unit; a total of a few hundred
    // rounded cells is allowed a small share of the sum.
    let slack = (sum.abs() * 0.005).max(0.5);
    addends >= MIN_ADDENDS && total != 0.0 && (total - sum).abs() <= slack
}

/// The totals row said as its cells: `Name TOTAL, Stmts 67598, Miss 11948`.
pub(crate) fn cells_phrase(row: &Map<String, Value>) -> String {
    let cell = |(k, v): (&String, &Value)| match v {
        Value::String(s) => format!("{k} {s}"),
        other => format!("{k} {other}"),
    };
    row.iter().filter(|(_, v)| !v.is_null()).map(cell).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn row(name: &str, stmts: i64, miss: i64, cover: &str) -> Value {
        json!({"Name": name, "Stmts": stmts, "Miss": miss, "Cover": cover})
    }

    #[test]
    fn a_last_row_of_sums_is_a_total() {
        let rows = vec![
            row("a.py", 10, 2, "80%"),
            row("b.py", 30, 0, "100%"),
            row("c.py", 5, 5, "0%"),
            row("TOTAL", 45, 7, "84%"),
        ];
        assert!(last_is_total(&rows));
        let Value::Object(last) = &rows[3] else { unreachable!() };
        assert_eq!(cells_phrase(last), "Name TOTAL, Stmts 45, Miss 7, Cover 84%");
    }

    #[test]
    fn an_ordinary_last_row_is_not() {
        let rows = vec![
            row("a.py", 10, 2, "80%"),
            row("b.py", 30, 0, "100%"),
            row("c.py", 5, 5, "0%"),
            row("d.py", 44, 6, "86%"),
        ];
        assert!(!last_is_total(&rows));
    }

    #[test]
    fn too_few_addends_prove_nothing() {
        // 0 + 0 + 7 = 7: one addend, a coincidence as often as a total.
        let rows = vec![row("a", 0, 0, "x"), row("b", 0, 0, "x"), row("c", 7, 7, "x"), row("d", 7, 7, "x")];
        assert!(!last_is_total(&rows));
    }

    #[test]
    fn rounded_cells_still_sum() {
        let rows = vec![
            json!({"host": "a", "GiB": 1.33}),
            json!({"host": "b", "GiB": 1.33}),
            json!({"host": "c", "GiB": 1.33}),
            json!({"host": "total", "GiB": 4.0}),
        ];
        assert!(last_is_total(&rows));
    }
}
