//! The questions asked of `lspci -vvv -nn`: what an administrator asks of a server's PCI
//! devices (which device sits at an address, its kernel driver, NUMA node, IOMMU group
//! and negotiated link; how many devices a driver claims, how many NVMe drives and
//! virtual functions there are, how many links run below their capable speed or are on
//! the second socket, the device with the largest memory region; the first and last
//! devices).

use super::readers::{Device, gts, lspci_devices};
use super::{ORDINALS, to_last};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{end, lookup_by};

/// Every question about the output `t`.
pub(crate) fn lspci_questions(t: &str) -> Vec<Option<Question>> {
    let all = lspci_devices(t);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads_and_tails(&all));
    qs
}

fn slot(d: &Device) -> Option<Vec<String>> {
    Some(vec![d.slot.clone()])
}

fn lookups(all: &[Device]) -> Vec<Option<Question>> {
    let bound: Vec<&Device> = all.iter().filter(|d| !d.driver.is_empty()).collect();
    let linked: Vec<&Device> = all.iter().filter(|d| d.sta.is_some()).collect();
    let mut qs = Vec::new();
    for f in [0.15, 0.45, 0.8] {
        qs.push(lookup_by(
            &bound,
            f,
            "Which kernel driver is in use for {key}?",
            |d| slot(d),
            |d| Some(vec![d.driver.clone()]),
        ));
    }
    for f in [0.3, 0.7] {
        qs.push(lookup_by(all, f, "Which NUMA node is {key} attached to?", slot, |d| Some(vec![d.numa.clone()])));
    }
    for f in [0.55, 0.9] {
        qs.push(lookup_by(all, f, "Which IOMMU group is {key} in?", slot, |d| Some(vec![d.iommu.clone()])));
    }
    for f in [0.35, 0.65, 0.95] {
        qs.push(lookup_by(
            &linked,
            f,
            "At what speed and width is the link of {key} running (LnkSta)?",
            |d| slot(d),
            |d| {
                let (speed, width) = d.sta.clone()?;
                Some(vec![speed, width])
            },
        ));
    }
    for f in [0.25, 0.75] {
        qs.push(lookup_by(all, f, "What device is at {key}?", slot, |d| Some(vec![d.name.clone()])));
    }
    qs
}

fn aggregates(all: &[Device]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let mut drivers = most_frequent(all.iter().map(|d| d.driver.as_str()).filter(|d| !d.is_empty()));
    drivers.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (n, driver) in drivers.iter().take(4) {
        let q = format!("How many devices use the {driver} driver?");
        qs.push(Some(count(&q, &[driver], *n, Some("Kernel driver in use"))));
    }
    let nvme = all.iter().filter(|d| d.title.starts_with("Non-Volatile memory controller")).count();
    qs.push(Some(count(
        "How many NVMe drives are in the server?",
        &["NVMe", "Non-Volatile memory controller"],
        nvme,
        None,
    )));
    let vfs = all.iter().filter(|d| d.name.contains("Virtual Function")).count();
    qs.push(Some(count("How many SR-IOV virtual functions are listed?", &["Virtual Function", "VFs"], vfs, None)));
    let slower = all.iter().filter(|d| matches!((&d.cap, &d.sta), (Some(c), Some(s)) if gts(&s.0) < gts(&c.0))).count();
    qs.push(Some(count(
        "How many devices have a link running below the speed they are capable of (LnkSta below LnkCap)?",
        &["downgraded", "below"],
        slower,
        Some("LnkSta"),
    )));
    let node1 = all.iter().filter(|d| d.numa == "1").count();
    qs.push(Some(count("How many devices are on NUMA node 1?", &["NUMA node 1", "node 1"], node1, Some("NUMA node"))));
    let unbound = all.iter().filter(|d| d.driver.is_empty()).count();
    qs.push(Some(count("How many devices have no kernel driver in use?", &["no driver", "without"], unbound, None)));
    qs.push(Some(count("How many PCI functions does lspci list in all?", &["devices", "functions"], all.len(), None)));
    let largest = all.iter().filter_map(|d| Some((d.largest.as_ref()?.0, d.slot.clone()))).collect();
    qs.push(extreme("Which device has the largest memory region (BAR)?", largest, true, Some("Region")));
    let highest_group = all.iter().filter_map(|d| Some((d.iommu.parse::<u64>().ok()?, d.slot.clone()))).collect();
    qs.push(extreme("Which device is in the highest-numbered IOMMU group?", highest_group, true, Some("IOMMU group")));
    let width = |w: &str| w.trim_start_matches('x').parse::<u32>().unwrap_or(0);
    let narrowest = all
        .iter()
        .filter(|d| !d.name.contains("Virtual Function"))
        .filter_map(|d| {
            let (c, s) = (d.cap.as_ref()?, d.sta.as_ref()?);
            (width(&s.1) < width(&c.1)).then(|| (width(&c.1) - width(&s.1), d.slot.clone()))
        })
        .collect();
    qs.push(extreme("Which device has lost the most lanes from its link width?", narrowest, true, Some("LnkSta")));
    qs
}

fn heads_and_tails(all: &[Device]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        let text = format!("Which device is listed {ordinal}: its address and what it is?");
        qs.push(end(all, k, false, &text, |d| Some(vec![d.slot.clone(), d.name.clone()])));
    }
    for back in 0..9 {
        let text = format!("Which device is listed {}: its address and what it is?", to_last(back));
        qs.push(end(all, back, true, &text, |d| Some(vec![d.slot.clone(), d.name.clone()])));
    }
    qs
}
