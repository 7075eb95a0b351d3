//! Tests of the map of dotted settings.

use super::*;

/// A `sysctl -a` of a few branches.
fn sysctl() -> String {
    let mut out = String::new();
    for i in 0..30 {
        out.push_str(&format!("kernel.opt_{i:02} = {}\n", i % 2));
    }
    for i in 0..12 {
        out.push_str(&format!("vm.knob_{i:02} = {}\n", 100 + i));
    }
    out.push_str("vm.max_map_count = 9223372036854775807\n");
    for iface in ["eth0", "lo", "docker0"] {
        for key in ["mtu", "forwarding", "disable_ipv6", "accept_ra"] {
            out.push_str(&format!("net.ipv6.conf.{iface}.{key} = 1\n"));
        }
    }
    out.push_str("net.core.somaxconn = 4096\nnet.ipv4.tcp_rmem = 4096\t131072\t6291456\n");
    out
}

#[test]
fn settings_are_counted_by_branch_at_each_depth() {
    let map = dotted_keys(&sysctl(), 2_000).expect("a sysctl listing is mapped");
    assert!(map.starts_with("57 keys (key = value lines); by the first part, most first: kernel 30"), "{map}");
    assert!(map.contains("vm 13 (max vm.max_map_count 9223372036854775807)"), "{map}");
    assert!(map.contains("net.ipv6 12"), "{map}");
    assert!(map.contains("by the first 4 parts, most first: net.ipv6.conf.docker0 4"), "{map}");
}

#[test]
fn a_small_room_keeps_the_first_depths() {
    let map = dotted_keys(&sysctl(), 200).expect("the first depth fits");
    assert!(map.contains("by the first part"), "{map}");
    assert!(!map.contains("by the first 4 parts"), "{map}");
    assert_eq!(dotted_keys(&sysctl(), 20), None);
}

#[test]
fn logs_prose_and_flat_names_are_not_settings() {
    // A logfmt log: the same names again and again.
    let log: String = (0..60).map(|i| format!("level=info msg=request.done id={i}\n")).collect();
    assert_eq!(dotted_keys(&log, 2_000), None);
    // Names without dots (`systemctl show`) are not a tree.
    let flat: String = (0..60).map(|i| format!("Property{i}=yes\n")).collect();
    assert_eq!(dotted_keys(&flat, 2_000), None);
    // Prose with a colon now and then.
    let prose: String = (0..60).map(|i| format!("Line {i} says: nothing much here.\n")).collect();
    assert_eq!(dotted_keys(&prose, 2_000), None);
    // Too few lines.
    let few: String = (0..10).map(|i| format!("a.b{i} = 1\n")).collect();
    assert_eq!(dotted_keys(&few, 2_000), None);
}
