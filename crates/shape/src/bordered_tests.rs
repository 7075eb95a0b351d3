//! Tests of bordered tables: each style read into the same counts, continuations and
//! groups, and text that is not such a table left alone.

use super::*;

/// A process list as the `mysql` client prints it.
fn mysql() -> String {
    let mut t = String::from(
        "+------+------+---------+------+\n| Id   | User | Command | Time |\n+------+------+---------+------+\n",
    );
    for i in 0..30 {
        let command = if i % 3 == 0 { "Query" } else { "Sleep" };
        t.push_str(&format!("| {:<4} | app  | {command:<7} | {:>4} |\n", 100 + i, (i * 37) % 101));
    }
    t.push_str("+------+------+---------+------+\n30 rows in set (0.00 sec)\n");
    t
}

#[test]
fn a_mysql_table_is_read_by_its_header() {
    let map = bordered_table(&mysql(), 2_000).unwrap();
    assert!(
        map.starts_with("bordered table of 30 rows × 4 columns, header on line 2: Id, User, Command, Time"),
        "{map}"
    );
    assert!(map.contains("Command: Sleep 20, Query 10"), "{map}");
    let (max, id) = (0..30).map(|i| ((i * 37) % 101, 100 + i)).max().unwrap();
    assert!(map.contains(&format!("Time: max {max} (Id {id})")), "{map}");
}

#[test]
fn psql_markdown_and_box_drawn_tables_read_alike() {
    let rows: Vec<(u32, &str)> = (0..12).map(|i| (i, ["open", "closed", "open"][i as usize % 3])).collect();
    let mut psql = String::from(" id | state  | note\n----+--------+------\n");
    let mut markdown = String::from("| id | state | note |\n|---:|:------|------|\n");
    let mut boxed = String::from("┌────┬────────┬──────┐\n│ id │ state  │ note │\n├────┼────────┼──────┤\n");
    for (id, state) in &rows {
        psql.push_str(&format!(" {id:>2} | {state:<6} | n{id}\n"));
        markdown.push_str(&format!("| {id} | {state} | n{id} |\n"));
        boxed.push_str(&format!("│ {id:>2} │ {state:<6} │ n{id}  │\n"));
    }
    psql.push_str("(12 rows)\n");
    boxed.push_str("└────┴────────┴──────┘\n");
    for text in [psql, markdown, boxed] {
        let map = bordered_table(&text, 2_000).unwrap();
        assert!(map.contains("12 rows × 3 columns"), "{map}");
        assert!(map.contains("state: open 8, closed 4"), "{map}");
    }
}

#[test]
fn continued_cells_and_groups_take_their_rows_values() {
    // A scanner's table: a package names its first vulnerability only, and each title
    // runs on to a second line with a link.
    let mut t = String::from("┌─────────┬───────────────┬──────────┬───────────┐\n");
    t.push_str("│ Library │ Vulnerability │ Severity │ Title     │\n");
    t.push_str("├─────────┼───────────────┼──────────┼───────────┤\n");
    let packages = [("curl", 3), ("openssl", 2), ("zlib", 1)];
    let mut n = 0;
    for (lib, count) in packages {
        for k in 0..count {
            let shown = if k == 0 { lib } else { "" };
            let severity = if n % 2 == 0 { "HIGH" } else { "LOW" };
            t.push_str(&format!("│ {shown:<7} │ CVE-2025-{n:04}  │ {severity:<8} │ bug {n:<5} │\n"));
            t.push_str(&format!("│         │               │          │ https://x/{n} │\n"));
            n += 1;
        }
        t.push_str("├─────────┼───────────────┼──────────┼───────────┤\n");
    }
    t.push_str("└─────────┴───────────────┴──────────┴───────────┘\n");
    let map = bordered_table(&t, 2_000).unwrap();
    assert!(map.contains("6 rows × 4 columns"), "{map}");
    assert!(map.contains("Library, most first: curl 3, openssl 2, zlib 1"), "{map}");
    assert!(map.contains("Severity: HIGH 3, LOW 3"), "{map}");
}

#[test]
fn tables_are_listed_with_their_lines_and_titles() {
    let mut t = String::new();
    for (target, n) in [("app/package-lock.json (npm)", 7), ("usr/bin/gosu (gobinary)", 5)] {
        t.push_str(&format!("\n{target}\n\n+-----+----------+\n| Lib | Severity |\n+-----+----------+\n"));
        for i in 0..n {
            t.push_str(&format!("| l{i}  | {:<8} |\n", if i % 2 == 0 { "HIGH" } else { "LOW" }));
        }
        t.push_str("+-----+----------+\n");
    }
    let map = bordered_table(&t, 2_000).unwrap();
    assert!(map.starts_with("2 bordered tables: line 5 \"app/package-lock.json (npm)\" 7 rows, line 19 \"usr/bin/gosu (gobinary)\" 5 rows; 12 rows under Lib, Severity"), "{map}");
    assert!(map.contains("Severity: HIGH 7, LOW 5"), "{map}");
}

#[test]
fn pipes_in_prose_or_a_small_table_in_a_document_are_not_read() {
    let log: String = (0..40).map(|i| format!("10:00:{i:02} step {i} | ok | done\n")).collect();
    assert_eq!(bordered_table(&log, 2_000), None, "no header over a rule");
    let mut doc = String::from("# Guide\n\n| a | b |\n|---|---|\n");
    doc.push_str(&(0..6).map(|i| format!("| {i} | x |\n")).collect::<String>());
    doc.push_str(&(0..40).map(|i| format!("Paragraph line {i} of the guide.\n")).collect::<String>());
    assert_eq!(bordered_table(&doc, 2_000), None, "most of the text is prose");
}

#[test]
fn any_text_gives_a_map_within_its_room_or_none() {
    for room in [0, 40, 120, 2_000] {
        if let Some(map) = bordered_table(&mysql(), room) {
            assert!(map.len() <= room, "{} > {room}", map.len());
        }
    }
    assert_eq!(bordered_table("", 2_000), None);
    assert_eq!(bordered_table("|\n-\n|", 2_000), None);
    assert_eq!(bordered_table("| a | b |\n|---|---|\n", 2_000), None);
}
