//! Readers of the cli half's text results, each making records of what a tool printed,
//! values kept as they are written so an answer reads as it does in the output: cargo's
//! JSON lines, the device blocks of `lspci -vvv`, the sections of `ls -lR` and the lines
//! of `last -F`.

use serde_json::Value;

/// Every JSON line of cargo's output, in order.
pub(crate) fn cargo_lines(t: &str) -> Vec<Value> {
    t.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// `name@version` of a cargo package id (`registry+…#serde@1.0.217`, `path+file://…#app-core@0.4.2`).
pub(crate) fn name_version(id: &str) -> &str {
    id.rsplit_once('#').map_or(id, |(_, nv)| nv)
}

/// One device block of `lspci -vvv`.
#[derive(Debug, Default, Clone)]
pub(crate) struct Device {
    pub(crate) slot: String,
    /// What follows the slot on the first line: class, then vendor and device.
    pub(crate) title: String,
    /// The vendor and device, after the class.
    pub(crate) name: String,
    pub(crate) driver: String,
    pub(crate) numa: String,
    pub(crate) iommu: String,
    /// `LnkCap` and `LnkSta` speed (`16GT/s`) and width (`x4`).
    pub(crate) cap: Option<(String, String)>,
    pub(crate) sta: Option<(String, String)>,
    /// The largest memory region's size in bytes, and as printed (`128G`).
    pub(crate) largest: Option<(u64, String)>,
}

/// GT/s of a link speed as lspci prints it.
pub(crate) fn gts(speed: &str) -> f64 {
    speed.trim_end_matches("GT/s").parse().unwrap_or(0.0)
}

/// Bytes of an lspci size (`32K`, `16M`, `128G`).
pub(crate) fn region_bytes(s: &str) -> Option<u64> {
    let (n, unit) = s.split_at(s.len().checked_sub(1)?);
    let factor = match unit {
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return None,
    };
    Some(n.parse::<u64>().ok()? * factor)
}

fn speed_width(rest: &str) -> Option<(String, String)> {
    let speed = rest.split("Speed ").nth(1)?.split([',', ' ']).next()?;
    let width = rest.split("Width ").nth(1)?.split([',', ' ']).next()?;
    Some((speed.to_owned(), width.to_owned()))
}

/// Every device block of `lspci -vvv -nn`, in order.
pub(crate) fn lspci_devices(t: &str) -> Vec<Device> {
    let mut all: Vec<Device> = Vec::new();
    for line in t.lines() {
        if !line.starts_with('\t') && !line.is_empty() {
            let (slot, title) = line.split_once(' ').unwrap_or((line, ""));
            let name = title.split_once("]: ").map_or(title, |(_, n)| n);
            all.push(Device { slot: slot.into(), title: title.into(), name: name.into(), ..Device::default() });
            continue;
        }
        let Some(d) = all.last_mut() else { continue };
        let l = line.trim();
        if let Some(v) = l.strip_prefix("Kernel driver in use: ") {
            d.driver = v.into();
        } else if let Some(v) = l.strip_prefix("NUMA node: ") {
            d.numa = v.into();
        } else if let Some(v) = l.strip_prefix("IOMMU group: ") {
            d.iommu = v.into();
        } else if let Some(v) = l.strip_prefix("LnkCap:") {
            d.cap = speed_width(v);
        } else if let Some(v) = l.strip_prefix("LnkSta:") {
            d.sta = speed_width(v);
        } else if l.starts_with("Region ") && !line.starts_with("\t\t") {
            let size = l.split("[size=").nth(1).and_then(|s| s.split(']').next());
            if let Some((bytes, s)) = size.and_then(|s| Some((region_bytes(s)?, s)))
                && d.largest.as_ref().is_none_or(|(b, _)| bytes > *b)
            {
                d.largest = Some((bytes, s.to_owned()));
            }
        }
    }
    all
}

/// One entry line of `ls -l`.
#[derive(Debug, Clone)]
pub(crate) struct LsEntry {
    pub(crate) mode: String,
    pub(crate) owner: String,
    pub(crate) group: String,
    pub(crate) size: String,
    /// `2026-10-03 14:22`.
    pub(crate) time: String,
    pub(crate) name: String,
    pub(crate) target: String,
    /// The section it is listed in (`./shared/storage/logs`).
    pub(crate) dir: String,
}

/// One section of `ls -lR`: its path, its `total`, its entries.
#[derive(Debug, Clone)]
pub(crate) struct Section {
    pub(crate) path: String,
    pub(crate) total: String,
    pub(crate) entries: Vec<LsEntry>,
}

/// Every section of `ls -lR --time-style=long-iso`, in order.
pub(crate) fn ls_sections(t: &str) -> Vec<Section> {
    let mut all: Vec<Section> = Vec::new();
    for line in t.lines() {
        if let Some(path) = line.strip_suffix(':').filter(|_| !line.contains(' ')) {
            all.push(Section { path: path.into(), total: String::new(), entries: Vec::new() });
        } else if let (Some(s), Some(total)) = (all.last_mut(), line.strip_prefix("total ")) {
            s.total = total.into();
        } else if let Some(s) = all.last_mut() {
            let cells: Vec<&str> = line.split_whitespace().collect();
            if cells.len() < 8 {
                continue;
            }
            let rest = cells[7..].join(" ");
            let (name, target) = rest.split_once(" -> ").unwrap_or((&rest, ""));
            s.entries.push(LsEntry {
                mode: cells[0].into(),
                owner: cells[2].into(),
                group: cells[3].into(),
                size: cells[4].into(),
                time: format!("{} {}", cells[5], cells[6]),
                name: name.into(),
                target: target.into(),
                dir: s.path.clone(),
            });
        }
    }
    all
}

/// One line of `last -F`: who, where from, when, and how it ended.
#[derive(Debug, Clone)]
pub(crate) struct Login {
    pub(crate) user: String,
    pub(crate) tty: String,
    pub(crate) host: String,
    /// `Tue Nov 24 09:12:44 2026`, as printed.
    pub(crate) start: String,
    /// The logout time as printed, or `down`, `crash`, `still logged in`, `still running`.
    pub(crate) end: String,
    /// `(08:27)` or `(1+02:13)`; empty while still on.
    pub(crate) length: String,
}

/// Minutes of a `last` length (`(08:27)`, `(1+02:13)`).
pub(crate) fn minutes(length: &str) -> Option<u64> {
    let inner = length.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (days, clock) = inner.split_once('+').unwrap_or(("0", inner));
    let (h, m) = clock.split_once(':')?;
    Some(days.parse::<u64>().ok()? * 1440 + h.parse::<u64>().ok()? * 60 + m.parse::<u64>().ok()?)
}

/// Every login, boot, shutdown and runlevel line of `last -F -w -x`, in order.
pub(crate) fn last_logins(t: &str) -> Vec<Login> {
    let mut all = Vec::new();
    for line in t.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 8 || line.starts_with("wtmp begins") {
            continue;
        }
        let tty_words = match words[0] {
            "reboot" | "shutdown" => 2,
            "runlevel" => 3,
            _ => 1,
        };
        let host = 1 + tty_words;
        let Some(start) = words.get(host + 1..host + 6) else { continue };
        let rest = &words[host + 6..];
        let (end, length) = match rest {
            ["still", what @ ..] => (format!("still {}", what.join(" ")), String::new()),
            ["-", "down" | "crash", length] => (rest[1].to_owned(), (*length).to_owned()),
            ["-", time @ .., length] if time.len() == 5 => (as_printed(&time.join(" ")), (*length).to_owned()),
            _ => continue,
        };
        all.push(Login {
            user: words[0].into(),
            tty: words[1..host].join(" "),
            host: words[host].into(),
            start: as_printed(&start.join(" ")),
            end,
            length,
        });
    }
    all
}

/// The time `last` printed, with the day padded as ctime pads it (`Sun Nov  1 …`).
pub(crate) fn as_printed(time: &str) -> String {
    let words: Vec<&str> = time.split(' ').collect();
    match words.as_slice() {
        [wd, mon, day, rest @ ..] if day.len() == 1 => format!("{wd} {mon}  {day} {}", rest.join(" ")),
        _ => time.to_owned(),
    }
}
