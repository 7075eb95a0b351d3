//! The questions asked of `vmstat -w -t`: what someone chasing a slow database host asks
//! of a capture (the memory, run queue, swap, IO and CPU columns at a given time; when IO
//! wait, the run queue, context switches and writes peaked and free memory bottomed out,
//! how many samples swapped, ran without idle time or waited on IO; the first samples and
//! the last).

use super::readers::{VmSample, lookup_at, vmstat_samples};
use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{count, extreme, together};

/// Every question about the output `t`.
pub(crate) fn vmstat_questions(t: &str) -> Vec<Option<Question>> {
    let all = vmstat_samples(t);
    let mut qs = lookups(&all);
    qs.extend(aggregates(&all));
    qs.extend(heads_and_tails(t, &all));
    qs
}

/// A lookup of the sample `f` of the way down `list`, by its timestamp, answered by the
/// values of `columns`.
fn at_time(list: &[&VmSample], f: f64, text: &str, columns: &[&str]) -> Option<Question> {
    lookup_at(
        list,
        f,
        |s| text.replace("{time}", &s.stamp),
        |s| s.stamp.clone(),
        |s| columns.iter().map(|c| s.get(c)).collect(),
    )
}

fn lookups(all: &[VmSample]) -> Vec<Option<Question>> {
    // The first line holds averages since boot, not a sample of the capture.
    let samples: Vec<&VmSample> = all.iter().skip(1).collect();
    let swapping: Vec<&VmSample> = samples.iter().copied().filter(|s| s.num("si") + s.num("so") > 0).collect();
    let waiting: Vec<&VmSample> = samples.iter().copied().filter(|s| s.num("wa") >= 10).collect();
    let busy: Vec<&VmSample> = samples.iter().copied().filter(|s| s.num("id") < 10).collect();
    vec![
        at_time(&samples, 0.1, "At {time}, how much memory was free and how much was page cache?", &["free", "cache"]),
        at_time(&samples, 0.3, "What were the run queue (r) and the blocked processes (b) at {time}?", &["r", "b"]),
        at_time(
            &samples,
            0.45,
            "How many interrupts and context switches per second were there at {time}?",
            &["in", "cs"],
        ),
        at_time(&samples, 0.6, "What did the CPU columns (us, sy, id, wa) show at {time}?", &["us", "sy", "id", "wa"]),
        at_time(&samples, 0.75, "How much free memory was there at {time}?", &["free"]),
        at_time(&samples, 0.9, "How many blocks were read and written per second (bi, bo) at {time}?", &["bi", "bo"]),
        at_time(&swapping, 0.3, "How much was swapped in and out (si, so) at {time}?", &["si", "so"]),
        at_time(
            &swapping,
            0.8,
            "How much swap was in use (swpd) at {time}, and how much free memory?",
            &["swpd", "free"],
        ),
        at_time(&waiting, 0.5, "What were the IO wait (wa) and the blocked processes (b) at {time}?", &["wa", "b"]),
        at_time(&busy, 0.5, "What were the run queue and the user CPU (r, us) at {time}?", &["r", "us"]),
    ]
}

fn aggregates(all: &[VmSample]) -> Vec<Option<Question>> {
    let scored =
        |column: &str| -> Vec<(u64, String)> { all.iter().map(|s| (s.num(column), s.stamp.clone())).collect() };
    let n = |keep: &dyn Fn(&VmSample) -> bool| all.iter().filter(|s| keep(s)).count();
    vec![
        extreme("When was free memory at its lowest?", scored("free"), false, Some("free")),
        extreme("When was free memory at its highest?", scored("free"), true, Some("free")),
        extreme("When was the IO wait (wa) highest?", scored("wa"), true, Some("wa")),
        extreme("When was the run queue (r) longest?", scored("r"), true, Some("r")),
        extreme("When were context switches (cs) highest?", scored("cs"), true, Some("cs")),
        extreme("When was the most written to disk (bo)?", scored("bo"), true, Some("bo")),
        extreme("When was the most swapped out (so)?", scored("so"), true, Some("so")),
        Some(count(
            "How many samples show swap-in (si above 0)?",
            &["samples", "si"],
            n(&|s| s.num("si") > 0),
            Some("si"),
        )),
        Some(count(
            "How many samples show swap-out (so above 0)?",
            &["samples", "so"],
            n(&|s| s.num("so") > 0),
            Some("so"),
        )),
        Some(count(
            "How many samples had less than 10% idle CPU?",
            &["samples", "id"],
            n(&|s| s.num("id") < 10),
            Some("id"),
        )),
        Some(count(
            "How many samples had an IO wait of 20% or more?",
            &["samples", "wa"],
            n(&|s| s.num("wa") >= 20),
            Some("wa"),
        )),
        Some(count("How many lines of samples does the capture hold?", &["samples", "lines"], all.len(), None)),
    ]
}

fn heads_and_tails(t: &str, all: &[VmSample]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    if t.lines().nth(1).is_some_and(|l| l.trim_end().ends_with("UTC")) {
        let text = "Which time zone are the timestamps in?".to_owned();
        qs.push(Some(together(Kind::Head, text, None, &["UTC"])));
    }
    for (k, ordinal) in ORDINALS.iter().enumerate() {
        let Some(s) = all.get(k) else { continue };
        let text = format!("When was the {ordinal} sample taken, and how much memory was free?");
        qs.push(Some(together(Kind::Head, text, None, &[&s.stamp, &s.get("free")])));
    }
    for back in 0..9 {
        let Some(s) = all.len().checked_sub(back + 1).and_then(|i| all.get(i)) else { continue };
        let text = format!("When was the {} sample taken, and what were its r and free?", to_last(back));
        qs.push(Some(together(Kind::Tail, text, None, &[&s.stamp, &s.get("r"), &s.get("free")])));
    }
    qs
}
