//! The questions asked of `lsblk -J -O` on a database server: what its administrator asks
//! (where a partition or volume is mounted, its filesystem and size, how full it is, which
//! device is mounted somewhere, which disk a logical volume or LUKS mapping sits on, a
//! disk's model, serial and WWN; how many NVMe, rotating and loop devices, partitions and
//! logical volumes there are, which filesystem is fullest or has the most room; the first
//! devices at the top, the last disks and volumes at the end).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use super::{ORDINALS, from_end, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, only, scored_by};
use crate::record_questions::{about_record, lookup};

/// A size as lsblk writes it (`3.5T`, `894.3G`, `512M`), in bytes.
pub(crate) fn lsblk_bytes(s: &str) -> Option<f64> {
    let unit = s.chars().last()?;
    let power = "BKMGTP".find(unit)?;
    let n: f64 = s[..s.len() - 1].parse().ok()?;
    Some(n * 1024f64.powi(power as i32))
}

/// Every device of the tree in document order, each once (an array and what is on it
/// appear under every member; the first time counts), with `disk` (the top-level device
/// it is under), `parent`, `depth`, and `via_md` (whether an md array is on its way up).
pub(crate) fn devices(v: &Value) -> Vec<Value> {
    fn walk(
        list: &Value,
        disk: &str,
        parent: Option<&str>,
        depth: usize,
        via_md: bool,
        out: &mut Vec<Value>,
        seen: &mut BTreeSet<String>,
    ) {
        for d in list.as_array().into_iter().flatten() {
            let name = d["name"].as_str().unwrap_or_default();
            let disk = if depth == 0 { name } else { disk };
            let via = via_md || d["type"].as_str().is_some_and(|t| t.starts_with("raid"));
            if seen.insert(name.to_owned()) {
                let mut rec = d.clone();
                if let Some(o) = rec.as_object_mut() {
                    o.remove("children");
                    o.insert("disk".into(), json!(disk));
                    o.insert("parent".into(), json!(parent));
                    o.insert("depth".into(), json!(depth));
                    o.insert("via_md".into(), json!(via_md));
                }
                out.push(rec);
            }
            walk(&d["children"], disk, Some(name), depth + 1, via, out, seen);
        }
    }
    let mut out = Vec::new();
    walk(&v["blockdevices"], "", None, 0, false, &mut out, &mut BTreeSet::new());
    out
}

fn percent(x: &Value) -> Option<f64> {
    x["fsuse%"].as_str()?.trim_end_matches('%').parse().ok()
}

/// Every question about the output `v`.
pub(crate) fn lsblk_questions(v: &Value) -> Vec<Option<Question>> {
    let all = devices(v);
    let tops: Vec<Value> = only(&all, |d| d["depth"] == 0);
    let mut qs = lookups(&all, &tops);
    qs.extend(aggregates(v, &all, &tops));
    qs.extend(heads_and_tails(&all, &tops));
    qs
}

/// Mounts, filesystems and sizes of volumes; the disk under a volume; a disk's identity.
fn lookups(all: &[Value], tops: &[Value]) -> Vec<Option<Question>> {
    let mounted = only(all, |d| d["mountpoint"].is_string() && d["type"] != "loop" && d["mountpoint"] != "[SWAP]");
    let lvs = only(all, |d| d["type"] == "lvm" && d["via_md"] == false);
    let disks = only(tops, |d| d["type"] == "disk");
    let parts = only(all, |d| d["type"] == "part");
    let crypts = only(all, |d| d["type"] == "crypt");
    vec![
        lookup(
            &mounted,
            0.3,
            "Where is {key} mounted, which filesystem does it have, and how big is it?",
            "name",
            &["mountpoint", "fstype", "size"],
        ),
        lookup(
            &mounted,
            0.7,
            "Where is {key} mounted, which filesystem does it have, and how big is it?",
            "name",
            &["mountpoint", "fstype", "size"],
        ),
        lookup(&mounted, 0.5, "Which device is mounted at {key}?", "mountpoint", &["name"]),
        lookup(
            &mounted,
            0.9,
            "How full is the filesystem mounted at {key} (FSUSE%), and how much space is available?",
            "mountpoint",
            &["fsuse%", "fsavail"],
        ),
        lookup(&lvs, 0.6, "Which disk does the logical volume {key} sit on?", "name", &["disk"]),
        lookup(&lvs, 0.95, "Which disk does the logical volume {key} sit on?", "name", &["disk"]),
        lookup(&disks, 0.4, "What is the model and serial number of {key}?", "name", &["model", "serial"]),
        lookup(&disks, 0.85, "What is the serial number of {key}?", "name", &["serial"]),
        lookup(&disks, 0.6, "Which disk has the serial number {key}?", "serial", &["name"]),
        lookup(
            &disks,
            0.2,
            "How big is {key}, and over which transport (TRAN) is it attached?",
            "name",
            &["size", "tran"],
        ),
        lookup(&disks, 0.75, "Which disk has the WWN {key}?", "wwn", &["name"]),
        lookup(&parts, 0.5, "What is the PARTUUID of {key}?", "name", &["partuuid"]),
        lookup(&crypts, 0.5, "Which disk is the LUKS mapping {key} on?", "name", &["pkname"]),
    ]
}

/// How many devices of each kind; which filesystem is fullest or has the most room.
fn aggregates(tree: &Value, all: &[Value], tops: &[Value]) -> Vec<Option<Question>> {
    let n = |list: &[Value], keep: &dyn Fn(&Value) -> bool| list.iter().filter(|x| keep(x)).count();
    let filesystems = only(all, |d| d["fsuse%"].is_string() && d["type"] != "loop");
    let lvs = only(all, |d| d["type"] == "lvm");
    let arrays = only(all, |d| d["type"].as_str().is_some_and(|t| t.starts_with("raid")));
    let mut qs = vec![
        Some(count(
            "How many NVMe disks are there?",
            &["nvme"],
            n(tops, &|d| d["tran"] == "nvme" && d["type"] == "disk"),
            Some("tran"),
        )),
        Some(count(
            "How many rotational disks (ROTA) are there?",
            &["rota"],
            n(tops, &|d| d["rota"] == true && d["type"] == "disk"),
            Some("rota"),
        )),
        Some(count("How many loop devices are there?", &["loop"], n(tops, &|d| d["type"] == "loop"), Some("type"))),
        Some(count("How many LVM logical volumes are there?", &["lvm"], lvs.len(), Some("type"))),
        Some(count("How many xfs filesystems are there?", &["xfs"], n(all, &|d| d["fstype"] == "xfs"), Some("fstype"))),
        Some(count("How many partitions are there?", &["part"], n(all, &|d| d["type"] == "part"), Some("type"))),
        Some(count(
            "How many disks have nothing on them (no partitions, filesystem or holders)?",
            &["disks"],
            n(tops, &|d| d["type"] == "disk" && d["fstype"].is_null() && !all.iter().any(|c| c["parent"] == d["name"])),
            Some("children"),
        )),
        Some(count("How many SAS disks are there?", &["sas"], n(tops, &|d| d["tran"] == "sas"), Some("tran"))),
        Some(count("How many md RAID arrays are there?", &["raid"], arrays.len(), Some("type"))),
        Some(count(
            "How many LUKS (crypt) devices are there?",
            &["crypt"],
            n(all, &|d| d["type"] == "crypt"),
            Some("type"),
        )),
        Some(count("How many block devices are listed at the top level?", &["devices"], tops.len(), Some("name"))),
        extreme(
            "Which filesystem is the fullest (highest FSUSE%)?",
            scored_by(&filesystems, percent, "mountpoint"),
            true,
            Some("fsuse%"),
        ),
        extreme(
            "Which filesystem is the emptiest (lowest FSUSE%)?",
            scored_by(&filesystems, percent, "mountpoint"),
            false,
            Some("fsuse%"),
        ),
        extreme(
            "Which filesystem has the most space available (FSAVAIL)?",
            scored_by(&filesystems, |d| lsblk_bytes(d["fsavail"].as_str()?), "mountpoint"),
            true,
            Some("fsavail"),
        ),
        extreme(
            "Which logical volume is the smallest?",
            scored_by(&lvs, |d| lsblk_bytes(d["size"].as_str()?), "name"),
            false,
            Some("size"),
        ),
    ];
    // The array with the most members: lsblk shows it under each of them.
    let largest = arrays.iter().filter_map(|a| a["name"].as_str()).max_by_key(|md| holders(tree, md));
    if let Some(md) = largest {
        let text = format!("How many member devices does the RAID array {md} have?");
        qs.push(Some(count(&text, &[md], holders(tree, md), Some("children"))));
    }
    qs
}

/// How many devices of the tree `v` hold `md` among their children.
pub(crate) fn holders(v: &Value, md: &str) -> usize {
    fn find(list: &Value, md: &str, out: &mut BTreeSet<String>) {
        for d in list.as_array().into_iter().flatten() {
            if d["children"].as_array().into_iter().flatten().any(|c| c["name"] == md) {
                out.insert(d["name"].as_str().unwrap_or_default().to_owned());
            }
            find(&d["children"], md, out);
        }
    }
    let mut out = BTreeSet::new();
    find(&v["blockdevices"], md, &mut out);
    out.len()
}

/// The first devices at the top of the listing; the last disks and volumes at its end.
fn heads_and_tails(all: &[Value], tops: &[Value]) -> Vec<Option<Question>> {
    let first_disk = tops.iter().find(|d| d["type"] == "disk");
    let first_disk_name = first_disk.and_then(|d| d["name"].as_str()).unwrap_or_default();
    let first_parts = only(all, |d| d["parent"] == first_disk_name && d["type"] == "part");
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().take(3).enumerate() {
        qs.push(about_record(
            tops.get(k),
            Kind::Head,
            &format!("Which device is listed {ordinal}, and how big is it?"),
            &["name", "size"],
        ));
    }
    qs.extend([
        about_record(
            tops.first(),
            Kind::Head,
            "Which device is listed first, and where is it mounted?",
            &["name", "mountpoint"],
        ),
        about_record(
            tops.get(1),
            Kind::Head,
            "Which device is listed second, and where is it mounted?",
            &["name", "mountpoint"],
        ),
        about_record(first_disk, Kind::Head, "What is the model of the first disk listed?", &["name", "model"]),
        about_record(
            first_disk,
            Kind::Head,
            "What is the serial number of the first disk listed?",
            &["name", "serial"],
        ),
        about_record(first_disk, Kind::Head, "What is the WWN of the first disk listed?", &["name", "wwn"]),
        about_record(
            first_parts.first(),
            Kind::Head,
            "What is mounted from the first partition of the first disk, and which filesystem does it have?",
            &["name", "mountpoint", "fstype"],
        ),
        about_record(
            first_parts.get(1),
            Kind::Head,
            "Which partition type (PARTTYPENAME) does the second partition of the first disk have?",
            &["name", "parttypename"],
        ),
    ]);
    for back in 0..3 {
        qs.push(about_record(
            from_end(tops, back),
            Kind::Tail,
            &format!("Which device is listed {} at the top level, and what is its serial number?", to_last(back)),
            &["name", "serial"],
        ));
    }
    let last_lv = all.iter().rev().find(|d| d["type"] == "lvm");
    let last_mounted = all.iter().rev().find(|d| d["fsuse%"].is_string());
    let last_part = all.iter().rev().find(|d| d["type"] == "part");
    qs.extend([
        about_record(
            from_end(tops, 0),
            Kind::Tail,
            "What is the model and size of the last device listed?",
            &["name", "model", "size"],
        ),
        about_record(from_end(tops, 0), Kind::Tail, "What is the WWN of the last device listed?", &["name", "wwn"]),
        about_record(
            last_lv,
            Kind::Tail,
            "Which logical volume is listed last, and where is it mounted?",
            &["name", "mountpoint"],
        ),
        about_record(last_lv, Kind::Tail, "How big is the last logical volume listed?", &["name", "size"]),
        about_record(
            last_mounted,
            Kind::Tail,
            "How full (FSUSE%) is the last mounted filesystem listed?",
            &["mountpoint", "fsuse%"],
        ),
        about_record(
            last_part,
            Kind::Tail,
            "Which partition is listed last, and what is its PARTUUID?",
            &["name", "partuuid"],
        ),
        about_record(
            from_end(tops, 1),
            Kind::Tail,
            "What is the MAJ:MIN of the second to last device listed?",
            &["name", "maj:min"],
        ),
    ]);
    qs
}
