//! Tests of [`super`]: which texts are sections, and what their map says.

use super::*;

fn linter_report() -> String {
    let mut out = String::new();
    for (f, problems) in [("src/a.ts", 2), ("src/b.tsx", 5), ("src/c.ts", 1), ("src/d.ts", 3)] {
        out.push_str(&format!("/repo/{f}\n"));
        for p in 0..problems {
            out.push_str(&format!("  {}:{}  error  Unexpected any  no-explicit-any\n", 10 + p, 4));
        }
        out.push('\n');
    }
    out.push_str("✖ 11 problems (11 errors, 0 warnings)\n");
    out
}

fn scan() -> String {
    let mut out = String::from("Starting scan at 14:25\n");
    for (host, ports) in [(11, 2), (13, 4), (17, 1), (19, 3)] {
        out.push_str(&format!("\nScan report for 10.0.0.{host}\nHost is up.\nPORT STATE SERVICE\n"));
        for p in 0..ports {
            out.push_str(&format!("{}/tcp open svc{p}\n", 20 + p));
        }
    }
    out.push_str("\nScan done: 4 hosts up\n");
    out
}

#[test]
fn a_linter_report_is_sections_of_indented_problems() {
    let text = linter_report();
    let lines: Vec<&str> = text.lines().collect();
    let s = sections(&lines).expect("sections");
    assert!(!s.blocks);
    assert_eq!(s.starts, vec![0, 4, 11, 14]);
    assert_eq!(s.sizes, vec![3, 6, 2, 5], "the last section keeps the total line after it");
    let map = sections_map(&text, 1000).unwrap();
    assert!(
        map.starts_with("4 sections (a line at the margin, the lines indented under it), the first at line 1"),
        "{map}"
    );
    assert!(map.contains("most lines first: /repo/src/b.tsx 6 lines (line 5)"), "{map}");
}

#[test]
fn a_scan_is_blocks_led_by_one_word_after_its_banner() {
    let text = scan();
    let lines: Vec<&str> = text.lines().collect();
    let s = sections(&lines).expect("sections");
    assert!(s.blocks);
    assert_eq!(s.starts.len(), 5, "four hosts and the closing line, not the banner: {s:?}");
    assert_eq!(lines[s.starts[0]], "Scan report for 10.0.0.11");
    let map = sections_map(&text, 1000).unwrap();
    assert!(map.contains("most lines first: Scan report for 10.0.0.13 7 lines"), "{map}");
    assert!(!map.contains("by first word"), "one word leads every heading: nothing to count: {map}");
}

#[test]
fn prose_code_blocks_and_plain_lists_are_not_sections() {
    let prose = "The first paragraph says one thing.\nIt goes on.\n\nAnother paragraph starts here.\nAnd ends.\n\nA third one.\nShort.\n";
    assert_eq!(sections(&prose.lines().collect::<Vec<_>>()), None);
    let flat: String = (0..50).map(|i| format!("item {i}\n")).collect();
    assert_eq!(sections(&flat.lines().collect::<Vec<_>>()), None);
    // Mostly margin lines, a few indented: a list with notes, not sections.
    let mostly_flat: String =
        (0..30).map(|i| if i % 10 == 0 { format!("x{i}\n  note\n") } else { format!("x{i}\n") }).collect();
    assert_eq!(sections(&mostly_flat.lines().collect::<Vec<_>>()), None);
}

/// Regression: `iptables -L -v` right-aligns its counters, so a rule with a larger counter
/// sat nearer the margin than the rules below it and was taken for a heading.
#[test]
fn numbers_aligned_to_the_right_are_a_column_not_headings() {
    let counts: String = [1_000_000, 12, 7, 2_500_000, 3, 44, 1_200_000, 9, 81, 3_000_000, 5]
        .iter()
        .map(|n| format!("{n:>8} rules/chain-{n}.conf\n"))
        .collect();
    assert_eq!(sections(&counts.lines().collect::<Vec<_>>()), None, "{counts}");
    // Chains between blank lines are sections, whatever their counters' alignment.
    let mut chains = String::new();
    for c in ["INPUT", "FORWARD", "KUBE-SVC-A", "KUBE-SVC-B"] {
        chains
            .push_str(&format!("Chain {c} (1 references)\n pkts bytes target\n 1534K 503M DNAT\n    0     0 MASQ\n\n"));
    }
    let s = sections(&chains.lines().collect::<Vec<_>>()).expect("sections");
    assert!(s.blocks);
    assert_eq!(s.starts, vec![0, 5, 10, 15]);
}

#[test]
fn the_map_keeps_to_its_room_in_whole_clauses() {
    let text = linter_report();
    let whole = sections_map(&text, 10_000).unwrap();
    for room in 0..whole.len() {
        if let Some(m) = sections_map(&text, room) {
            assert!(m.len() <= room, "{room}: {m}");
            assert!(whole.starts_with(&m));
        }
    }
}

/// Runs led by ids (a mail queue's entries, each from its queue id) are sections too, and a
/// lookup by id then brings back the whole entry.
#[test]
fn runs_led_by_ids_are_sections() {
    let mut q = String::from("-Queue ID-  --Size-- ----Arrival Time---- -Sender/Recipient-------\n");
    for (id, size) in [("827AC642347", 20841), ("C6EAC14B86", 20274), ("34F1EA22E4C", 10200), ("E8BF5F6BE6", 35790)] {
        q.push_str(&format!("{id}    {size} Wed Dec 31 00:52:30  noreply@example.org\n(host mx said: 450 try later)\n        ada@example.com\n\n"));
    }
    let lines: Vec<&str> = q.lines().collect();
    let s = sections(&lines).expect("sections");
    assert!(s.blocks);
    // The first entry shares its run with the header line above it: that run is led by
    // the header's word, not by an id, and stays a preamble.
    assert_eq!(s.starts, vec![5, 9, 13], "{s:?}");
    let map = sections_map(&q, 1000).unwrap();
    assert!(!map.contains("by first word"), "ids are not kinds: {map}");
}

#[test]
fn headings_are_counted_by_first_word_when_words_repeat() {
    let mut text = String::new();
    for (i, h) in ["PLAY [base]", "TASK [a]", "TASK [b]", "TASK [c]", "PLAY [web]", "TASK [d]"].iter().enumerate() {
        text.push_str(&format!("{h} ****\nok: [host-{i}]\nchanged: [host-{}]\n\n", i + 1));
    }
    let map = sections_map(&text, 1000).unwrap();
    assert!(map.contains("sections by first word: TASK 4, PLAY 2"), "{map}");
}

/// A transfer log: a folder's line alone, then each file's line with its progress line
/// indented under it.
fn transfers() -> String {
    let mut out = String::from("sending incremental file list\n./\n");
    for folder in ["invoices", "photos", "raw"] {
        out.push_str(&format!("{folder}/\n"));
        for n in 0..6 {
            out.push_str(&format!("{folder}/file-{n}.bin\n"));
            out.push_str(&format!("        {},{:03} 100%   12.{n}0MB/s    0:00:00 (xfr#{n})\n", 10 + n, n * 7));
        }
    }
    out
}

#[test]
fn a_heading_with_one_line_under_it_is_a_section_among_loose_lines() {
    // Half the lines are headings and a few stand alone (the folders): the sections still
    // hold most of the text, so a file's progress line is found with the file.
    let text = transfers();
    let lines: Vec<&str> = text.lines().collect();
    let s = sections(&lines).expect("sections");
    assert!(!s.blocks);
    assert_eq!(s.starts.len(), 18);
    assert_eq!(lines[s.starts[0]], "invoices/file-0.bin");
    for &start in &s.starts {
        assert!(lines[start + 1].trim_start().ends_with(')'), "{}", lines[start + 1]);
    }
}

#[test]
fn a_report_printed_again_and_again_is_a_section_per_turn() {
    let mut text = String::from("Linux 6.8.0 (db-1) \t12/31/2025 \t_x86_64_\t(8 CPU)\n");
    for t in 0..5 {
        text.push_str(&format!("\n12/31/2025 10:5{t}:00 PM\navg-cpu:  %user %idle\n          5.0{t} 9{t}.0\n"));
        text.push_str("\nDevice  r/s  %util\n");
        for d in ["sda", "sdb", "nvme0n1"] {
            text.push_str(&format!("{d}  1.{t}  2{t}.5\n"));
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    let s = sections(&lines).expect("sections");
    assert!(s.blocks);
    assert_eq!(s.starts.len(), 5, "one section per report, the banner apart: {s:?}");
    assert_eq!(lines[s.starts[2]], "12/31/2025 10:52:00 PM");
    assert_eq!(s.sizes[0], 7, "the time, the CPU block and the device block: {s:?}");
    // Runs that follow no cycle are not sections.
    let mixed = "a 1\nb\n\nc 2\nd\n\ne 3\n\nf\ng\n\nh 4\n\ni\n";
    let lines: Vec<&str> = mixed.lines().collect();
    assert!(sections(&lines).is_none());
}

/// Devices as `lspci -vvv` lists them: an address and a name, then indented `Key: value`
/// lines, one block per device.
fn devices() -> String {
    let mut out = String::new();
    for (i, driver) in ["pcieport", "nvme", "nvme", "ixgbe", "pcieport", "nvme"].iter().enumerate() {
        out.push_str(&format!("0000:{:02x}:00.0 Controller [0108]: Vendor Model {i}\n", 0x10 + i));
        out.push_str(&format!("\tSubsystem: Vendor Device [1344:0001]\n\tNUMA node: {}\n", i % 2));
        out.push_str(&format!("\tIOMMU group: {}\n", 40 + (i % 3) * 3));
        out.push_str(&format!("\tKernel driver in use: {driver}\n\tKernel modules: {driver}\n\n"));
    }
    out
}

#[test]
fn the_blocks_key_value_lines_are_counted_across_them_named_by_their_first_word() {
    let map = sections_map(&devices(), 2000).unwrap();
    assert!(map.starts_with("6 sections (runs of lines between blank lines)"), "{map}");
    assert!(map.contains("Kernel driver in use, most first: nvme 3, pcieport 2, ixgbe 1"), "{map}");
    // The address alone names a device: no two blocks share it.
    assert!(map.contains("NUMA node: max 1 (heading 0000:11:00.0), min 0 (heading 0000:10:00.0)"), "{map}");
    // The counts are a clause of their own, left out whole where the room is short.
    let short = sections_map(&devices(), 120).unwrap();
    assert!(!short.contains("Kernel driver"), "{short}");
}

/// `nvidia-smi -q`: the first GPU follows the header's last line with no blank line
/// between, the others each after a blank line. Every GPU is a section.
#[test]
fn a_heading_glued_to_the_run_before_starts_a_section_too() {
    let mut text = String::from("==NVSMI LOG==\n\nTimestamp : Wed Dec 31\nDriver Version : 550\n\nAttached GPUs : 4\n");
    for (n, bus) in ["18", "2A", "3A", "5D"].iter().enumerate() {
        if n > 0 {
            text.push('\n');
        }
        text.push_str(&format!("GPU 00000000:{bus}:00.0\n    Product Name : A100\n    Temp : {}\n", 40 + n));
    }
    let lines: Vec<&str> = text.lines().collect();
    let s = sections(&lines).expect("sections");
    assert_eq!(s.starts.len(), 4, "{s:?}");
    assert_eq!(lines[s.starts[0]], "GPU 00000000:18:00.0");
    assert_eq!(s.sizes, vec![3, 3, 3, 3]);
}

/// Lines inside a run that only look like the lead in their words (indented, or led by a
/// number) do not split it.
#[test]
fn only_a_margin_line_with_the_leading_word_splits_a_run() {
    let mut text = String::new();
    for host in 0..4 {
        text.push_str(&format!("Host web{host}\n  Host is up\n  42 ports closed\nHostname web{host}.local\n\n"));
    }
    let lines: Vec<&str> = text.lines().collect();
    let s = sections(&lines).expect("sections");
    assert_eq!(s.starts.len(), 4, "an indented `Host` and a margin `Hostname` are no headings: {s:?}");
}
