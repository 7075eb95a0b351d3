//! Tests of reading lines that begin with a place in a file.

use super::*;

#[test]
fn grep_matches_are_counted_by_file_directory_and_extension() {
    let mut text = String::new();
    for i in 0..150 {
        let file = match i % 10 {
            0..=4 => "services/cart/src/total.rs".to_owned(),
            5..=7 => format!("web/src/page{}.tsx", i % 3),
            _ => format!("tools/gen_{}.py", i % 4),
        };
        text.push_str(&format!("{file}:{}:    // TODO(sana): tidy up case {i}\n", i * 7 + 1));
    }
    let map = located_lines(&text, 2_000).unwrap();
    assert!(map.starts_with("150 lines at places in 8 files: "), "{map}");
    assert!(map.contains("services/cart/src/total.rs 75"), "{map}");
    assert!(map.contains(".rs 75"), "{map}");
    assert!(map.contains("services/cart/src 75"), "{map}");
}

#[test]
fn compiler_findings_are_counted_by_severity_and_code() {
    let mut text = String::new();
    for i in 0..80 {
        let code = ["TS2345", "TS2339", "TS2339", "TS7006"][i % 4];
        let severity = if i % 8 == 0 { "warning" } else { "error" };
        text.push_str(&format!(
            "src/app/f{}.ts({},{}): {severity} {code}: Something is wrong here.\n",
            i % 6,
            i + 1,
            3
        ));
        if i % 5 == 0 {
            text.push_str("  Type 'string' is not assignable to type 'number'.\n");
        }
    }
    text.push_str("\nFound 80 errors in 6 files.\n");
    let map = located_lines(&text, 2_000).unwrap();
    assert!(map.starts_with("80 lines at places in 6 files"), "{map}");
    assert!(map.contains("TS2339 40"), "{map}");
    assert!(map.contains("severity: error 70, warning 10"), "{map}");
}

#[test]
fn gcc_and_mypy_forms_are_read() {
    let gcc = located_record("src/main.c:7:3: warning: unused variable 'x' [-Wunused-variable]").unwrap();
    assert_eq!(gcc["file"], "src/main.c");
    assert_eq!(gcc["severity"], "warning");
    let mypy = located_record("app/models.py:12: error: \"User\" has no attribute \"nam\"  [attr-defined]").unwrap();
    assert_eq!(mypy["code"], "attr-defined");
    assert_eq!(mypy["extension"], ".py");
    let ruff = located_record("app/models.py:12:5: E501 Line too long (101 > 88)").unwrap();
    assert_eq!(ruff["code"], "E501");
    assert_eq!(ruff["directory"], "app");
}

#[test]
fn times_and_prose_are_not_places() {
    assert_eq!(located_record("2025-12-31T10:00:00Z level=info msg=done"), None);
    assert_eq!(located_record("12:30:45 starting worker"), None);
    assert_eq!(located_record("Note: see the docs"), None);
    assert_eq!(located_record("localhost:8080: connection refused"), None);
    // A snapshot named with the time it was taken, as `zfs list` prints it.
    assert_eq!(located_record("tank/home@autosnap_2025-12-31_00:00:00_daily  1.2G  -  45G  -"), None);
    assert_eq!(located_record("tank/home@autosnap_2025-12-31_10:15:30_daily  1.2G  -  45G  -"), None);
    let prose = "The quick brown fox.\n".repeat(50);
    assert_eq!(located_lines(&prose, 2_000), None);
}
