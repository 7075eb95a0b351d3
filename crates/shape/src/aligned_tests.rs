//! Tests of aligned tables: headers of every kind found and read into columns, rows named,
//! reports joined into one table, and text that is not a table left alone.

use super::*;

fn pods() -> String {
    let mut t = String::from("NAME                     READY   STATUS             RESTARTS   AGE\n");
    for i in 0..20 {
        let status = match i % 5 {
            0 => "CrashLoopBackOff",
            1 => "Pending",
            _ => "Running",
        };
        t.push_str(&format!("api-{i:02}-7d9f              1/1     {status:<18} {:<10} {}d\n", i * 3, 1 + i % 4));
    }
    t
}

#[test]
fn rows_under_an_aligned_header_are_counted() {
    let map = aligned_table(&pods(), 2_000).unwrap();
    assert!(map.starts_with("table of 20 rows × 5 columns, header on line 1: NAME, READY, STATUS"), "{map}");
    assert!(map.contains("STATUS, most first: Running 12, CrashLoopBackOff 4, Pending 4"), "{map}");
    assert!(map.contains("RESTARTS: max 57 (NAME api-19-7d9f)"), "{map}");
}

#[test]
fn a_matching_row_comes_under_its_header() {
    let text = pods();
    let bare: Vec<&str> = text.lines().collect();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let kept = rows_under_headers(&bare, &lines, &|l: &str| l.contains("api-07") || l.contains("api-12")).unwrap();
    assert_eq!(kept.len(), 3, "{kept:?}");
    assert!(kept[0].starts_with("NAME ") && kept[1].starts_with("api-07") && kept[2].starts_with("api-12"));
    // A line after the table is not one of its rows: no header comes with it.
    let mut text = pods();
    text.push_str("\nREADY totals: api-07 restarted\n");
    let bare: Vec<&str> = text.lines().collect();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let kept = rows_under_headers(&bare, &lines, &|l: &str| l.contains("totals")).unwrap();
    assert_eq!(kept, ["READY totals: api-07 restarted\n"]);
    // Prose is not a table, and gets nothing added.
    let prose = ["Some Words Here", "a line of text", "another line"];
    assert!(rows_under_headers(&prose, &prose, &|_: &str| true).is_none());
}

/// Regression: a packet capture split at spaces put a SYN's sequence number and an ACK's
/// `win` word in one column; the numbers were then ranged within each flag, as if they
/// were measures of kinds, and took the room of the text's lines.
#[test]
fn a_text_column_of_numbers_among_words_is_not_a_measure() {
    let rows: Vec<Value> = (0..60)
        .map(|i| {
            let (flags, cell) = match i % 3 {
                0 => ("[S]", Value::from(1_000_000_000 + i * 7_919)),
                1 => ("[P.]", Value::from(400 + i)),
                _ => ("[.]", Value::from("win")),
            };
            serde_json::json!({"column 1": format!("10:00:{i:02}"), "column 2": flags, "column 3": cell})
        })
        .collect();
    assert!(!Compactor::learn(&rows).measures.is_empty(), "records of JSON would be read as measures");
    assert!(learn_rows(&rows).measures.is_empty());
}

#[test]
fn a_measure_that_happens_to_differ_does_not_name_rows_and_a_pid_does() {
    // A proxy's statistics: no column of names is unique, and the session totals differ
    // in every row; they are a measure, so the first column of names names the rows.
    let rows: Vec<Value> = (0..30_u64)
        .map(|i| {
            serde_json::json!({
                "pxname": format!("be_{}", ["shop", "search", "admin"][(i % 3) as usize]),
                "svname": if i % 3 == 0 { "BACKEND".to_owned() } else { format!("srv-{i:02}") },
                "stot": 100 + i * i * 997,
                "scur": i % 7,
            })
        })
        .collect();
    let c = learn_rows(&rows);
    let key = c.key.map(|k| c.columns[k].name.clone());
    assert_eq!(key.as_deref(), Some("pxname"));
    // Process ids spread as widely, but their header says they name the rows.
    let rows: Vec<Value> = (0..30_u64)
        .map(|i| serde_json::json!({"USER": (["root", "www"][(i % 2) as usize]), "PID": 1 + i * i * 37, "CPU": i % 5}))
        .collect();
    let c = learn_rows(&rows);
    assert_eq!(c.key.map(|k| c.columns[k].name.clone()).as_deref(), Some("PID"));
}

#[test]
fn a_hexadecimal_id_with_an_e_stays_text() {
    assert_eq!(cell_value("7086201030e0"), Value::from("7086201030e0"));
    assert_eq!(cell_value("1e5"), Value::from("1e5"));
    assert_eq!(cell_value("inf"), Value::from("inf"));
    assert_eq!(cell_value("-12.5"), Value::from(-12.5));
    assert_eq!(cell_value("42"), Value::from(42));
    assert_eq!(cell_value("007"), Value::from("007"));
}

#[test]
fn a_number_with_a_note_in_brackets_is_that_number() {
    // kubectl's restarts: the count, then when the last one was.
    assert_eq!(cell_value("327 (4m37s ago)"), Value::from(327));
    assert_eq!(cell_value("3 (a) (b)"), Value::from("3 (a) (b)"));
    assert_eq!(cell_value("v2 (beta)"), Value::from("v2 (beta)"));
}

#[test]
fn none_in_place_of_a_name_is_counted() {
    let mut images = String::from("REPOSITORY         TAG        IMAGE ID       SIZE\n");
    for i in 0..12 {
        let (repo, tag) = if i % 3 == 0 { ("<none>", "<none>") } else { ("ghcr.io/acme/api", "sha-1f2e") };
        images.push_str(&format!("{repo:<18} {tag:<10} 4946f30e09e{i:x}   {}MB\n", 100 + i));
    }
    let map = aligned_table(&images, 2_000).unwrap();
    assert!(map.contains("REPOSITORY: ghcr.io/acme/api 8, <none> 4"), "{map}");
}

#[test]
fn tables_repeated_under_their_own_headers_are_one_table() {
    let mut text = String::new();
    for (group, width) in [("billing", 10), ("search-indexer", 16)] {
        text.push_str(&format!("\n{:<width$}  TOPIC   PARTITION  LAG\n", "GROUP"));
        for p in 0..4 {
            text.push_str(&format!("{group:<width$}  orders  {p:<9}  {}\n", p * 10));
        }
    }
    text.push_str("\nConsumer group 'audit' has no active members.\n");
    let map = aligned_table(&text, 2_000).unwrap();
    assert!(map.starts_with("table of 8 rows × 4 columns, header on line 2"), "{map}");
    assert!(map.contains("GROUP: billing 4, search-indexer 4"), "{map}");
}

#[test]
fn reports_whose_headers_start_with_their_time_are_one_table() {
    // `sar -n DEV`: every report's header starts with the time it was taken, and so does
    // every row; the time heads a column, and the reports are one table.
    let mut text = String::from("Linux 6.8.0 (web-1) \t12/31/25 \t_x86_64_\t(8 CPU)\n");
    for (k, clock) in ["00:10:01", "00:20:01", "00:30:01"].iter().enumerate() {
        text.push_str(&format!("\n{clock}        IFACE   rxpck/s   %ifutil\n"));
        for (iface, load) in [("lo", 1.0), ("eno1", 40.0 + k as f64), ("eno2", 2.5)] {
            text.push_str(&format!("{clock}  {iface:>11}  {load:>8.2}  {:>8.2}\n", load / 10.0));
        }
    }
    text.push_str("\nAverage:        IFACE   rxpck/s   %ifutil\nAverage:           lo      1.00      0.10\n");
    let map = aligned_table(&text, 2_000).unwrap();
    assert!(map.starts_with("table of 9 rows × 4 columns, header on line 3: TIME, IFACE, rxpck/s, %ifutil"), "{map}");
    assert!(map.contains("IFACE, most first: eno1 3, eno2 3, lo 3"), "{map}");
    // Each interface recurs in every report: the report's time says which row holds a
    // largest value.
    assert!(map.contains("rxpck/s: max 42.0 (IFACE eno1, TIME 00:30:01)"), "{map}");
    // The twelve-hour clock of `sar -u` in some locales: `12:00:01 AM`.
    let am: String = std::iter::once("12:00:01 AM     CPU     %user     %idle\n".to_owned())
        .chain((0..6).map(|m| format!("12:{m:02}:01 AM     all      {}.00     90.00\n", m + 1)))
        .collect();
    let map = aligned_table(&am, 2_000).unwrap();
    assert!(map.starts_with("table of 6 rows × 4 columns, header on line 1: TIME, CPU, %user, %idle"), "{map}");
    // Reports with no blank line between them: the next report's header ends the block.
    let packed = text.replace("\n\n00:", "\n00:");
    assert!(aligned_table(&packed, 2_000).unwrap().starts_with("table of 9 rows × 4 columns"));
    // A row is not a header, and log lines that start with a time are no table.
    assert_eq!(timed_header("00:10:01  eno1  40.00").map(|l| header_words(&l).is_some()), Some(false));
    let log: String = (0..20).map(|s| format!("00:10:{s:02}  INFO  worker started  pid={s}\n")).collect();
    assert_eq!(aligned_table(&log, 2_000), None);
}

#[test]
fn a_name_of_two_words_is_one_column_and_single_spaced_names_split_where_rows_do() {
    let mut docker = String::from("CONTAINER ID   IMAGE          STATUS\n");
    for i in 0..6 {
        docker.push_str(&format!("a1b2c3d4e5f{i}   redis:7        {}\n", ["Up 2 hours", "Exited (1)"][i % 2]));
    }
    let map = aligned_table(&docker, 2_000).unwrap();
    assert!(map.contains("header on line 1: CONTAINER ID, IMAGE, STATUS"), "{map}");
    assert!(map.contains("STATUS: Exited (1) 3, Up 2 hours 3"), "{map}");
    let mut idle = String::from("GROUP  LAG  CONSUMER-ID HOST CLIENT-ID\n");
    for i in 0..6 {
        idle.push_str(&format!("audit  {i:<3}  -           -    -\n"));
    }
    let map = aligned_table(&idle, 2_000).unwrap();
    assert!(map.contains("GROUP, LAG, CONSUMER-ID, HOST, CLIENT-ID"), "{map}");
}

#[test]
fn right_aligned_numbers_and_a_last_column_with_spaces_are_read() {
    let mut ps = String::from("USER         PID %CPU %MEM     RSS COMMAND\n");
    for i in 0..8 {
        let user = ["root", "app", "app", "postgres"][i % 4];
        let command = if i % 2 == 0 { "/usr/bin/worker --queue default".to_owned() } else { format!("[kworker/{i}]") };
        ps.push_str(&format!(
            "{user:<9} {:>6} {:>4.1} {:>4.1} {:>7} {command}\n",
            100 + i * 37,
            i as f64 * 1.5,
            0.5,
            1000 * (i + 1)
        ));
    }
    let map = aligned_table(&ps, 2_000).unwrap();
    assert!(map.contains("header on line 1: USER, PID, %CPU, %MEM, RSS, COMMAND"), "{map}");
    assert!(map.contains("USER, most first: app 4, postgres 2, root 2"), "{map}");
    assert!(map.contains("RSS: max 8000 (PID 359)"), "{map}");
    assert!(map.contains("COMMAND, most first: /usr/bin/worker --queue default 4"), "{map}");
}

#[test]
fn units_in_brackets_and_sizes_are_read() {
    let mut top = String::from("NAMESPACE   NAME        CPU(cores)   MEMORY(bytes)\n");
    for i in 0..12 {
        let memory = if i == 7 { "2Gi".to_owned() } else { format!("{}Mi", 100 + i * 50) };
        top.push_str(&format!("shop        api-{i:02}      {:<10}   {memory}\n", format!("{}m", 5 + i)));
    }
    let map = aligned_table(&top, 2_000).unwrap();
    assert!(map.contains("header on line 1: NAMESPACE, NAME, CPU(cores), MEMORY(bytes)"), "{map}");
    // 2Gi is more than 650Mi: sizes compare by what they stand for, not as text.
    assert!(map.contains("MEMORY(bytes): max 2Gi (NAME api-07)"), "{map}");
    assert!(map.contains("CPU(cores): max 16m (NAME api-11)"), "{map}");
}

#[test]
fn an_indented_header_with_marks_in_the_margin_is_read() {
    let mut units = String::from("  UNIT                 LOAD      ACTIVE   SUB       DESCRIPTION\n");
    for i in 0..10 {
        let (mark, active, sub) = if i % 4 == 3 { ("●", "failed", "failed") } else { (" ", "active", "running") };
        units.push_str(&format!("{mark} app-{i:02}.service       loaded    {active:<8} {sub:<9} App number {i}\n"));
    }
    units.push_str("\nLegend: LOAD   → Reflects whether the unit definition was properly loaded.\n");
    let map = aligned_table(&units, 2_000).unwrap();
    assert!(map.starts_with("table of 10 rows × 5 columns"), "{map}");
    assert!(map.contains("ACTIVE: active 8, failed 2"), "{map}");
}

proptest::proptest! {
    /// Rows of any characters (wide, combining, marks) under a header: no panic, and a
    /// map within its room.
    #[test]
    fn any_rows_under_a_header_give_a_map_within_its_room(
        rows in proptest::collection::vec("[a-z0-9 ●é中\u{301}-]{0,40}", 0..30),
        indent in 0usize..6,
        room in 0usize..600,
    ) {
        let mut text = format!("{}NAME      STATUS(now)   MEM %   AGE\n", " ".repeat(indent));
        for r in &rows {
            text.push_str(r);
            text.push('\n');
        }
        if let Some(m) = aligned_table(&text, room) {
            proptest::prop_assert!(m.len() <= room, "{} bytes in {room}: {m}", m.len());
        }
    }

    /// Reports under headers that start with their time, with or without blank lines
    /// between them and in either clock: one table of every row, each name counted
    /// once per report.
    #[test]
    fn timed_reports_are_one_table_of_all_their_rows(
        reports in 1usize..8,
        names in proptest::collection::btree_set("[a-z]{2,6}[0-9]?", 2..6),
        blank in proptest::bool::ANY,
        twelve_hour in proptest::bool::ANY,
    ) {
        let mut text = String::new();
        for k in 0..reports {
            let clock = format!("{:02}:{:02}:01{}", k / 6, k % 6 * 10, if twelve_hour { " AM" } else { "" });
            if blank {
                text.push('\n');
            }
            text.push_str(&format!("{clock}        IFACE   rxpck/s   %ifutil\n"));
            for (n, name) in names.iter().enumerate() {
                text.push_str(&format!("{clock}  {name:>11}  {:>8.2}  {:>8.2}\n", (n * 7 + k) as f64, n as f64));
            }
        }
        let rows = reports * names.len();
        if rows >= MIN_ROWS {
            let map = aligned_table(&text, 4_000).unwrap_or_default();
            let head = format!("table of {rows} rows × 4 columns, header on line {}: TIME, IFACE", 1 + usize::from(blank));
            proptest::prop_assert!(map.starts_with(&head), "{map}");
            if reports > 1 {
                let first = names.iter().next().map(String::as_str).unwrap_or_default();
                proptest::prop_assert!(map.contains(&format!(" {first} {reports}")), "{map}");
            }
        }
    }
}

#[test]
fn reports_under_a_lower_case_header_are_one_table_named_by_their_device() {
    // `iostat -x`: a CPU line and a device table per report; the header is in lower case.
    let devices = ["nvme0n1", "sda", "sdb"];
    let mut text = String::new();
    let mut busiest = (0.0f64, "");
    for report in 0..6 {
        text.push_str(&format!(
            "12/31/2025 10:5{report}:00 PM\navg-cpu:  %user   %nice %system\n          10.54    0.03    3.92\n\n"
        ));
        text.push_str("Device               r/s     w/s   %util\n");
        for (d, name) in devices.iter().enumerate() {
            // Values repeat, as they do over many reports: no column tells the rows apart.
            let util = ((report * 7 + d * 13) % 5) as f64 * 10.0 + 0.5;
            if util > busiest.0 {
                busiest = (util, name);
            }
            text.push_str(&format!("{name:<16} {:>7.2} {:>7.2} {util:>7.2}\n", 1.5 + ((report + d) % 4) as f64, 3.25));
        }
        text.push('\n');
    }
    let map = aligned_table(&text, 2_000).unwrap();
    assert!(map.starts_with("table of 18 rows × 4 columns, header on line 5: Device, r/s, w/s, %util"), "{map}");
    assert!(map.contains(&format!("%util: max {} (Device {})", busiest.0, busiest.1)), "{map}");
    assert!(map.contains("Device, most first: nvme0n1 6, sda 6, sdb 6"), "a name that repeats is counted too: {map}");
    // Words over lines of words are no table.
    let mut prose = String::from("the quick brown fox\n");
    prose.push_str(&"jumps over the lazy dog again\n".repeat(8));
    assert_eq!(aligned_table(&prose, 2_000), None);
}

#[test]
fn prose_and_cells_out_of_line_are_not_a_table() {
    assert_eq!(aligned_table(&"Some prose here.\n".repeat(30), 2_000), None);
    let mut shifted = String::from("NAME   STATUS   AGE\n");
    for i in 0..10 {
        shifted.push_str(&format!("a-very-long-name-{i} Running 3d\n"));
    }
    assert_eq!(aligned_table(&shifted, 2_000), None);
    assert!(header_words("Name:               gke-node").is_none());
    // Capitalised words of a log line over the lines of a log: not a header.
    let mut log = String::new();
    for i in 0..30 {
        log.push_str(
            ["Reached Target Multi-User System.\n", "Started Daily Cleanup  Of Temporary Directories.\n"][i % 2],
        );
        log.push_str(&format!("Dec 31 10:{i:02}:00 web-1 sshd[911]: Accepted publickey for deploy from 10.0.0.{i}\n"));
    }
    assert_eq!(aligned_table(&log, 2_000), None);
}

#[test]
fn rows_are_named_by_a_column_whose_values_nearly_all_differ() {
    let mut ss = String::from("State      Recv-Q Send-Q  Peer Address:Port\n");
    for i in 0..40 {
        let (state, peer) =
            if i < 3 { ("LISTEN", "0.0.0.0:*".to_owned()) } else { ("ESTAB", format!("74.40.89.{i}:48818")) };
        ss.push_str(&format!("{state:<10} 0      {:<7} {peer}\n", i % 8 * 10));
    }
    let map = aligned_table(&ss, 2_000).unwrap();
    assert!(map.contains("Send-Q: max 70 (Peer Address:Port 74.40.89.7:48818)"), "{map}");
}

#[test]
fn capitalised_headers_with_names_of_two_words_are_read() {
    let mut ss = String::from("State      Recv-Q Send-Q      Local Address:Port  Peer Address:Port   Process\n");
    for i in 0..12 {
        let state = ["ESTAB", "ESTAB", "TIME-WAIT"][i % 3];
        ss.push_str(&format!(
            "{state:<10} 0      {:<5}       10.20.0.116:{:<5}  74.40.89.{i:<3}:48818  users:((\"haproxy\",pid=1187))\n",
            i * 10,
            [443, 80][i % 2]
        ));
    }
    let map = aligned_table(&ss, 2_000).unwrap();
    assert!(map.contains("State, Recv-Q, Send-Q, Local Address:Port, Peer Address:Port, Process"), "{map}");
    assert!(map.contains("State: ESTAB 8, TIME-WAIT 4"), "{map}");
    let df = "Filesystem      Size  Used Avail Use% Mounted on";
    let words: Vec<&str> = header_words(df).unwrap().into_iter().map(|(_, w)| w).collect();
    assert_eq!(words, ["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted", "on"]);
}

#[test]
fn a_rule_under_the_header_is_no_row_and_clock_spans_are_measures() {
    let mut t =
        String::from("JobID        State      Elapsed     MaxRSS\n------------ ---------- ----------- ----------\n");
    for i in 0..12 {
        let state = if i % 4 == 0 { "FAILED" } else { "COMPLETED" };
        t.push_str(&format!(
            "{:<12} {state:<10} {:>11} {:>9}K\n",
            4860100 + i,
            format!("{}-{:02}:{:02}:00", i / 6, i, i * 3),
            1000 + i
        ));
    }
    let map = aligned_table(&t, 2_000).unwrap();
    assert!(map.starts_with("table of 12 rows × 4 columns"), "{map}");
    assert!(map.contains("State: COMPLETED 9, FAILED 3"), "{map}");
    assert!(!map.contains("---"), "{map}");
    assert!(map.contains("Elapsed: max 1-11:33:00 (JobID 4860111)"), "{map}");
}

#[test]
fn a_few_values_that_run_over_a_gutter_keep_the_columns_apart() {
    // `top` pushes a long CPU time one character right; a right-aligned size may reach one
    // character left, into the gutter before it. Both are read at their own edges.
    let row = |pid: &str, user: &str, res: &str, time: &str, cmd: &str| {
        format!("{pid:>7} {user:<10} {res:>6} {time:>9} {cmd}")
    };
    let mut t = row("PID", "USER", "RES", "TIME+", "COMMAND") + "\n";
    for i in 0..40 {
        let line = match i {
            // The size starts in the gutter before its column (a character left).
            5 => format!("{:>7} {:<10}{:>7} {:>9} cmd-{i}", 100 + i, "user2", "1234567", "0:05.00"),
            // The time ends in the gutter after its column (a character right).
            7 => format!("{:>7} {:<10} {:>6} {:>10} cmd-{i}", 100 + i, "user1", "2000", "8111:38.97"),
            _ => row(
                &(100 + i).to_string(),
                &format!("user{}", i % 3),
                &(1000 + i).to_string(),
                &format!("{i}:{:02}.00", i % 60),
                &format!("cmd-{i}"),
            ),
        };
        t.push_str(&line);
        t.push('\n');
    }
    let map = aligned_table(&t, 4_000).unwrap();
    assert!(map.starts_with("table of 40 rows × 5 columns, header on line 1: PID, USER, RES, TIME+, COMMAND"), "{map}");
    assert!(map.contains("USER, most first: user0 14, user1 13, user2 13;"), "{map}");
    assert!(map.contains("RES: max 1234567 (COMMAND cmd-5)"), "{map}");
    assert!(map.contains("TIME+: max 8111:38.97 (COMMAND cmd-7)"), "{map}");
}

#[test]
fn a_header_written_as_a_comment_is_read_before_the_comments_as_headings() {
    // `perf report --stdio`: comment lines, a commented header over a commented rule, then
    // the rows. The comment lines would read as Markdown headings.
    let mut t = String::from(
        "# To display the perf.data header info, use --header.\n#\n# Samples: 1M of event 'cpu-clock'\n#\n# Overhead  Command          Shared Object      Symbol\n# ........  ...............  .................  ......................\n#\n",
    );
    let commands = ["postgres", "nginx", "swapper"];
    for i in 0..30 {
        t.push_str(&format!(
            "    {:>5.2}%  {:<15}  {:<17}  [.] func_{i}\n",
            10.0 - i as f64 * 0.3,
            commands[i % 3],
            if i % 3 == 0 { "postgres" } else { "[kernel.kallsyms]" }
        ));
    }
    t.push_str("\n\n# (Tip: try perf report --sort comm,dso)\n");
    let map = crate::outline::outline(&t, 4_000).unwrap();
    assert!(
        map.starts_with("table of 30 rows × 4 columns, header on line 5: Overhead, Command, Shared Object, Symbol"),
        "{map}"
    );
    assert!(map.contains("Command, most first: nginx 10, postgres 10, swapper 10"), "{map}");
    // A comment with words that is no header stays a heading to the Markdown reader.
    assert!(commented_table("# Notes\n\nsome text\n# More notes\n", 4_000).is_none());
}

/// `vmstat -w -t` rows under a line of group names: numbers wider than their columns run
/// into the next one, so no gutter stands between `in` and `cs`; the date and time are one
/// column.
fn vmstat() -> String {
    let mut t = String::from(
        "--procs-- ---------memory--------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----\n",
    );
    t.push_str("   r    b     swpd     free   si   so    bi    bo   in   cs  us  sy  id  wa  st                 UTC\n");
    for i in 0..30u64 {
        let io = if i % 7 == 3 { 120_000 + i * 977 } else { 900 + i * 31 };
        t.push_str(&format!(
            "{:>4} {:>4} {:>8} {:>8} {:>4} {:>4} {:>5} {:>5} {:>4} {:>4} {:>3} {:>3} {:>3} {:>3} {:>3} 2026-12-07 05:{:02}:{:02}\n",
            2 + i % 5,
            i % 3,
            580_924,
            13_000_000 - i * 10_007,
            0,
            0,
            io,
            io * 3,
            27_260 + i * 13,
            59_721 + i * 101,
            20 + i % 9,
            5,
            70 - i % 9,
            1 + i % 4,
            0,
            14 + i / 12,
            (i * 5) % 60,
        ));
    }
    t
}

#[test]
fn columns_run_together_are_read_by_words_and_samples_named_by_their_time() {
    let text = vmstat();
    let map = aligned_table(&text, 4_000).unwrap();
    assert!(
        map.starts_with("table of 30 rows × 16 columns, header on line 2: r, b, swpd, free, si, so, bi, bo, in, cs"),
        "{map}"
    );
    // The peak of `bo` is named by the time of its sample.
    assert!(map.contains("bo: max 430344 (UTC 2026-12-07 05:16:00)"), "{map}");
}

#[test]
fn a_header_with_a_name_of_two_words_is_not_read_by_words() {
    // `IMAGE ID` is one column; its rows have as many words as the header by chance
    // (`CREATED` takes three).
    let mut t = String::from("REPOSITORY   TAG       IMAGE ID       CREATED        SIZE\n");
    for i in 0..12 {
        t.push_str(&format!("app-{i:<8} v{i:<8} 4946f30e09e{i:x}   {} hours ago    {}MB\n", i + 2, 100 + i * 7));
    }
    let map = aligned_table(&t, 4_000).unwrap();
    assert!(map.starts_with("table of 12 rows × 5 columns"), "{map}");
    assert!(map.contains("SIZE: max 177MB"), "{map}");
}
