//! The questions asked of the seventeenth part's text results, once their readers have
//! made records of them: `helm list -A`, `nvidia-smi -q`, an rsync transfer log and
//! `pg_stat_statements` in psql.

use serde_json::Value;

use super::readers::{gpus, leading, psql_rows, releases, transfers};
use super::{only, scored_by};
use crate::question::{Kind, Question, Records};
use crate::questions_blind::{about, at, count, extreme, most_frequent, s, together};

/// `helm list -A`: the first and last release; a release's chart, namespace, revision,
/// app version and last update; how many releases failed, are in a namespace or run the
/// redis chart; the release upgraded most, the one updated last, and the
/// namespace with most releases.
pub(crate) fn helm_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = releases(ls);
    let r = Records { list: &rows };
    let failed = rows.iter().filter(|x| x["STATUS"] == "failed").count();
    let redis = rows.iter().filter(|x| x["CHART"].as_str().is_some_and(|c| c.starts_with("redis-"))).count();
    let first = rows.first().and_then(|x| {
        let (n, ns) = (s(x, "NAME")?, s(x, "NAMESPACE")?);
        Some(together(Kind::Head, "Which release is listed first, and in which namespace?".into(), None, &[&n, &ns]))
    });
    vec![
        first,
        r.tail("Which release is listed last?", "NAME"),
        r.tail("Which chart does the last release listed run?", "CHART"),
        r.lookup("Which chart version does {key} run?", 0.6, "NAME", "CHART"),
        r.lookup("Which namespace is {key} in?", 0.3, "NAME", "NAMESPACE"),
        r.lookup("What revision is {key} at?", 0.9, "NAME", "REVISION"),
        r.lookup("What app version does {key} run?", 0.45, "NAME", "APP VERSION"),
        r.lookup("When was {key} last updated?", 0.75, "NAME", "UPDATED"),
        Some(count("How many releases are in the failed state?", &["failed"], failed, Some("STATUS"))),
        about("NAMESPACE", r.count("How many releases are in the namespace {value}?", "NAMESPACE", None)),
        (redis > 0).then(|| count("How many releases run the redis chart?", &["redis"], redis, Some("CHART"))),
        about("REVISION", r.extreme("Which release has the highest revision?", "REVISION", "NAME", true)),
        extreme(
            "Which release was updated most recently?",
            scored_by(&rows, |x| s(x, "UPDATED"), "NAME"),
            true,
            Some("UPDATED"),
        ),
        extreme(
            "Which namespace has the most releases?",
            most_frequent(rows.iter().filter_map(|x| x["NAMESPACE"].as_str())),
            true,
            Some("NAMESPACE"),
        ),
    ]
}

/// `nvidia-smi -q` per GPU: the driver, the first and last GPU's serial and the last
/// one's memory in use; a GPU's serial, temperature, power draw, memory in use and UUID;
/// how many GPUs are throttled by a hardware slowdown or have uncorrectable memory
/// errors, and how many processes there are; the hottest GPU, the one drawing
/// most power and using most memory, and the process holding most memory. A value is
/// asked of a GPU only where its line is in the report once, so it names that GPU.
pub(crate) fn nvidia_questions(ls: &[&str], raw: &str) -> Vec<Option<Question>> {
    let gs = gpus(ls);
    let once = |l: &str| !l.is_empty() && raw.matches(l).count() == 1;
    let line = |x: &Value, key: &str| s(x, &format!("line:{key}"));
    // A GPU `f` of the way down whose line for `key` is stated once in the report.
    let ask = |f: f64, key: &str, q: &str| {
        let n = gs.len();
        let start = at(n, f);
        (start..n).chain(0..start).find_map(|i| {
            let x = &gs[i];
            let l = line(x, key).filter(|l| once(l))?;
            let (label, v) = l.split_once(" : ").or_else(|| l.split_once(": "))?;
            let bus = s(x, "bus")?;
            Some(together(Kind::Lookup, q.replace("{key}", &bus), Some(&bus), &[label.trim(), v.trim()]))
        })
    };
    let driver = ls.iter().find(|l| l.starts_with("Driver Version")).and_then(|l| l.split_once(": "));
    let serial_of =
        |kind: Kind, q: &str, x: Option<&Value>| Some(together(kind, q.into(), None, &[&s(x?, "Serial Number")?]));
    let last_used = gs.last().and_then(|x| {
        let l = line(x, "FB Memory Usage/Used").filter(|l| once(l))?;
        let v = l.split_once(": ")?.1.trim().to_owned();
        Some(together(Kind::Tail, "How much framebuffer memory is the last GPU using?".into(), None, &[&v]))
    });
    let slowed = gs.iter().filter(|x| x["Clocks Event Reasons/HW Slowdown"] == "Active").count();
    let uncorrectable =
        gs.iter().filter(|x| x["ECC Errors/Volatile/DRAM Uncorrectable"].as_str().is_some_and(|v| v != "0")).count();
    let procs: Vec<Value> = gs.iter().flat_map(|x| x["processes"].as_array().cloned().unwrap_or_default()).collect();
    let num = |key: &'static str| move |x: &Value| leading(&x[key]);
    vec![
        driver
            .map(|(_, v)| together(Kind::Head, "Which NVIDIA driver version is installed?".into(), None, &[v.trim()])),
        serial_of(Kind::Head, "What is the serial number of the first GPU?", gs.first()),
        serial_of(Kind::Tail, "What is the serial number of the last GPU?", gs.last()),
        last_used,
        ask(0.6, "Serial Number", "What is the serial number of GPU {key}?"),
        ask(0.3, "Temperature/GPU Current Temp", "What is the current temperature of GPU {key}?"),
        ask(0.9, "GPU Power Readings/Power Draw", "How much power is GPU {key} drawing?"),
        ask(0.45, "FB Memory Usage/Used", "How much framebuffer memory is GPU {key} using?"),
        ask(0.75, "GPU UUID", "What is the UUID of GPU {key}?"),
        Some(count("How many GPUs are throttled by a hardware slowdown?", &["HW Slowdown"], slowed, None)),
        Some(count(
            "How many GPUs report uncorrectable DRAM ECC errors?",
            &["DRAM Uncorrectable", "uncorrectable"],
            uncorrectable,
            None,
        )),
        Some(count("How many processes are using the GPUs in total?", &["processes", "Process ID"], procs.len(), None)),
        extreme("Which GPU is the hottest?", scored_by(&gs, num("Temperature/GPU Current Temp"), "bus"), true, None),
        extreme(
            "Which GPU is drawing the most power?",
            scored_by(&gs, num("GPU Power Readings/Power Draw"), "bus"),
            true,
            None,
        ),
        extreme("Which GPU is using the most memory?", scored_by(&gs, num("FB Memory Usage/Used"), "bus"), true, None),
        extreme(
            "Which process is using the most GPU memory? Give its process ID.",
            scored_by(&procs, |x| leading(&x["Used GPU Memory"]), "pid"),
            true,
            None,
        ),
    ]
}

/// rsync's log: the first and last file transferred and the closing summary; a file's
/// size and rate; how many files were deleted, transferred, or are NEF raws or MP4
/// videos; the largest file, the slowest large transfer and the directory with most
/// files sent. A value is asked of a file only where the text states it once.
pub(crate) fn rsync_questions(ls: &[&str], raw: &str) -> Vec<Option<Question>> {
    let fs = transfers(ls);
    let once = |v: &str| !v.is_empty() && raw.matches(v).count() == 1;
    let ask = |f: f64, field: &str, q: &str| {
        let n = fs.len();
        let start = at(n, f);
        (start..n).chain(0..start).find_map(|i| {
            let x = &fs[i];
            let v = s(x, field).filter(|v| once(v))?;
            let p = s(x, "path")?;
            Some(together(Kind::Lookup, q.replace("{key}", &p), Some(&p), &[&v]))
        })
    };
    let path_of = |kind: Kind, q: &str, x: Option<&Value>| Some(together(kind, q.into(), None, &[&s(x?, "path")?]));
    let summary = ls.last().and_then(|l| {
        let total = l.strip_prefix("total size is ")?.split_whitespace().next()?;
        let speedup = l.rsplit_once("speedup is ")?.1.trim();
        Some(together(
            Kind::Tail,
            "What total size and speedup does rsync report at the end?".into(),
            None,
            &[total, speedup],
        ))
    });
    let deleted = ls.iter().filter(|l| l.starts_with("deleting ")).count();
    let with = |ext: &str| fs.iter().filter(|x| x["path"].as_str().is_some_and(|p| p.ends_with(ext))).count();
    let large = only(&fs, |x| x["bytes"].as_u64().is_some_and(|b| b > 100_000_000));
    vec![
        path_of(Kind::Head, "Which file was transferred first?", fs.first()),
        path_of(Kind::Tail, "Which file was transferred last?", fs.last()),
        summary,
        ask(0.6, "size", "How large is {key}?"),
        ask(0.3, "size", "How large is {key}?"),
        ask(0.9, "size", "How large is {key}?"),
        ask(0.45, "rate", "At what rate was {key} transferred?"),
        Some(count("How many files were deleted on the destination?", &["deleted files", "deleting"], deleted, None)),
        Some(count(
            "How many regular files were transferred?",
            &["Number of regular files transferred", "files transferred"],
            fs.len(),
            None,
        )),
        Some(count("How many .MP4 video files were transferred?", &["MP4"], with(".MP4"), None)),
        Some(count("How many NEF raw files were transferred?", &["NEF"], with(".NEF"), None)),
        extreme("Which file was the largest transferred?", scored_by(&fs, |x| x["bytes"].as_u64(), "path"), true, None),
        extreme(
            "Of the files over 100 MB, which was transferred at the slowest rate?",
            scored_by(&large, |x| x["bps"].as_f64(), "path"),
            false,
            None,
        ),
        extreme(
            "Which directory had the most files transferred?",
            most_frequent(fs.iter().filter_map(|x| x["dir"].as_str())),
            true,
            None,
        ),
    ]
}

/// A number cell of a psql row.
fn cell(x: &Value, field: &str) -> Option<f64> {
    x[field].as_str()?.parse().ok()
}

/// `pg_stat_statements`, most total time first: the first and last statement; a
/// statement's calls, mean time, rows, hit rate and role by its query id; how many were
/// run by a role, hit the cache less than 90% of the time or wrote temporary blocks; the
/// statement called most, slowest on average, writing most temporary blocks, returning
/// most rows and with the lowest hit rate.
pub(crate) fn pg_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = psql_rows(ls);
    let r = Records { list: &rows };
    let pair = |kind: Kind, q: &str, x: Option<&Value>, a: &str, b: &str| {
        let x = x?;
        Some(together(kind, q.into(), None, &[&s(x, a)?, &s(x, b)?]))
    };
    let low_hit = rows.iter().filter(|x| cell(x, "hit_pct").is_some_and(|h| h < 90.0)).count();
    let temp = rows.iter().filter(|x| cell(x, "temp_blks_written").is_some_and(|t| t > 0.0)).count();
    let by = |field: &'static str| move |x: &Value| cell(x, field);
    vec![
        pair(
            Kind::Head,
            "Which statement has used the most total execution time? Give its queryid and total time.",
            rows.first(),
            "queryid",
            "total_ms",
        ),
        pair(
            Kind::Tail,
            "Which statement is listed last? Give its queryid and number of calls.",
            rows.last(),
            "queryid",
            "calls",
        ),
        r.lookup("How many times has statement {key} been called?", 0.6, "queryid", "calls"),
        r.lookup("What is the mean execution time of statement {key}?", 0.3, "queryid", "mean_ms"),
        r.lookup("How many rows has statement {key} returned or affected?", 0.9, "queryid", "rows"),
        r.lookup("What is the cache hit rate of statement {key}?", 0.45, "queryid", "hit_pct"),
        r.lookup("Which role ran statement {key}?", 0.75, "queryid", "usename"),
        about("usename", r.count("How many of these statements were run by {value}?", "usename", None)),
        Some(count(
            "How many statements have a cache hit rate below 90%?",
            &["hit_pct", "below 90"],
            low_hit,
            Some("hit_pct"),
        )),
        Some(count(
            "How many statements wrote temporary blocks?",
            &["temp_blks_written"],
            temp,
            Some("temp_blks_written"),
        )),
        extreme(
            "Which statement was called the most? Give its queryid.",
            scored_by(&rows, by("calls"), "queryid"),
            true,
            Some("calls"),
        ),
        extreme(
            "Which statement has the highest mean execution time? Give its queryid.",
            scored_by(&rows, by("mean_ms"), "queryid"),
            true,
            Some("mean_ms"),
        ),
        extreme(
            "Which statement wrote the most temporary blocks? Give its queryid.",
            scored_by(&rows, by("temp_blks_written"), "queryid"),
            true,
            Some("temp_blks_written"),
        ),
        extreme(
            "Which statement has the lowest cache hit rate? Give its queryid.",
            scored_by(&rows, by("hit_pct"), "queryid"),
            false,
            Some("hit_pct"),
        ),
    ]
}
