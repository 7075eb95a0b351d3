//! The questions asked of `tree -J -s -D --du -p -u .` in a home folder: what its owner
//! asks (how big a file is, who owns it, when it changed, its permissions, how much a
//! folder takes; how many files a folder holds, how many PDFs, FLAC tracks or
//! executables there are, how many entries belong to someone else, the largest and the
//! newest file, the biggest folder; the first entries listed, the last ones and the
//! report's totals).

use serde_json::{Value, json};

use super::{ORDINALS, to_last};
use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, only, scored_by, together};

/// Every entry below the root in the order tree prints them, with `path` (from the
/// root, `/`-joined), `top` (the folder under the root it is in) and `depth` added.
pub(crate) fn entries(v: &Value) -> Vec<Value> {
    fn walk(list: &[Value], prefix: &str, top: Option<&str>, depth: usize, out: &mut Vec<Value>) {
        for e in list {
            let name = e["name"].as_str().unwrap_or_default();
            let path = if prefix.is_empty() { name.to_owned() } else { format!("{prefix}/{name}") };
            let top = top.unwrap_or(name);
            let mut x = e.clone();
            if let Some(o) = x.as_object_mut() {
                o.remove("contents");
            }
            x["path"] = json!(path);
            x["top"] = json!(top);
            x["depth"] = json!(depth);
            out.push(x);
            if let Some(inner) = e["contents"].as_array() {
                walk(inner, &path, Some(top), depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    let root = &v[0];
    walk(root["contents"].as_array().map_or(&[][..], Vec::as_slice), "", None, 1, &mut out);
    out
}

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// A `tree -D` time as a sortable number (`YYYYMMDDhhmm`): `Mon DD HH:MM` is within the
/// six months before the listing was made (in `year`), `Mon DD  YYYY` gives its year.
pub(crate) fn time_key(s: &str, year: u32) -> Option<u64> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let [month, day, last] = words.as_slice() else { return None };
    let m = MONTHS.iter().position(|x| x == month)? as u64 + 1;
    let d: u64 = day.parse().ok()?;
    let (y, hm) = match last.split_once(':') {
        Some((h, mi)) => (u64::from(year), h.parse::<u64>().ok()? * 100 + mi.parse::<u64>().ok()?),
        None => (last.parse().ok()?, 0),
    };
    Some(((y * 100 + m) * 100 + d) * 10_000 + hm)
}

/// A lookup of the entry about `f` of the way down `list` whose name no other entry
/// has: `q` with `{name}` and `{path}` replaced, answered by the name and `answers`.
fn entry_lookup(list: &[Value], f: f64, q: &str, answers: &[&str]) -> Option<Question> {
    let n = list.len();
    let start = at(n, f);
    (start..n).chain(0..start).find_map(|i| {
        let e = &list[i];
        let name = e["name"].as_str()?;
        if list.iter().filter(|x| x["name"] == name).count() != 1 {
            return None;
        }
        let mut must = vec![name.to_owned()];
        for answer in answers {
            must.push(match &e[*answer] {
                Value::String(s) => s.clone(),
                Value::Number(x) => x.to_string(),
                _ => return None,
            });
        }
        let path = e["path"].as_str()?;
        let text = q.replace("{name}", name).replace("{path}", path);
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        Some(together(Kind::Lookup, text, Some(name), &must))
    })
}

/// Every question about the output `v`.
pub(crate) fn tree_questions(v: &Value) -> Vec<Option<Question>> {
    let all = entries(v);
    let mut qs = lookups(v, &all);
    qs.extend(aggregates(v, &all));
    qs.extend(heads_and_tails(v, &all));
    qs
}

/// A file's size, owner, date and permissions; a folder's size.
fn lookups(v: &Value, all: &[Value]) -> Vec<Option<Question>> {
    let files = only(all, |e| e["type"] == "file");
    let dirs = only(all, |e| e["type"] == "directory");
    let user = v[0]["user"].clone();
    let others = only(all, |e| e["user"] != user);
    let size_q = "How big is the file {name} (at {path}), in bytes?";
    vec![
        entry_lookup(&files, 0.15, size_q, &["size"]),
        entry_lookup(&files, 0.5, size_q, &["size"]),
        entry_lookup(&files, 0.85, size_q, &["size"]),
        entry_lookup(&files, 0.35, "When was {path} last modified?", &["time"]),
        entry_lookup(&files, 0.7, "When was {path} last modified?", &["time"]),
        entry_lookup(&files, 0.6, "What are the permissions of {path}?", &["prot"]),
        entry_lookup(&others, 0.5, "Who owns {path}?", &["user"]),
        entry_lookup(&dirs, 0.3, "How much space does the folder {path} take, with everything in it?", &["size"]),
        entry_lookup(&dirs, 0.75, "How much space does the folder {path} take, with everything in it?", &["size"]),
        entry_lookup(&files, 0.95, "Who owns {path}, and what are its permissions?", &["user", "prot"]),
    ]
}

/// How many files a folder holds or are of a kind; the largest and newest.
fn aggregates(v: &Value, all: &[Value]) -> Vec<Option<Question>> {
    let files = only(all, |e| e["type"] == "file");
    let n = |keep: &dyn Fn(&Value) -> bool| files.iter().filter(|x| keep(x)).count();
    let ends = |e: &Value, ext: &str| e["name"].as_str().is_some_and(|s| s.to_ascii_lowercase().ends_with(ext));
    let user = v[0]["user"].clone();
    let report = &v[1];
    let under = |top: &str| {
        let text = format!("How many files are under {top}, counting every subfolder?");
        Some(count(&text, &[top], n(&|e| e["top"] == top), Some("name")))
    };
    let year = v[0]["time"].as_str().and_then(|t| t.split_whitespace().last()).filter(|t| !t.contains(':'));
    // A listing dated by hours was made within the year its newest entries show; the
    // generated home folders are listed at the start of 2026, with the recent past in 2025.
    let year = year.and_then(|y| y.parse().ok()).unwrap_or(2025);
    let mut qs = vec![
        under("Pictures"),
        under("Documents"),
        under("Music"),
        under("Projects"),
        Some(count("How many PDF files are there?", &["pdf"], n(&|e| ends(e, ".pdf")), Some("name"))),
        Some(count("How many FLAC tracks are there?", &["flac"], n(&|e| ends(e, ".flac")), Some("name"))),
        Some(count(
            "How many files are executable by their owner?",
            &["executable"],
            n(&|e| e["prot"].as_str().is_some_and(|p| p.as_bytes().get(3) == Some(&b'x'))),
            Some("prot"),
        )),
        Some(count(
            "How many entries (files and folders) belong to someone other than the home folder's owner?",
            &["user"],
            all.iter().filter(|e| e["user"] != user).count(),
            Some("user"),
        )),
        extreme("Which file is the largest?", scored_by(&files, |e| e["size"].as_u64(), "name"), true, Some("size")),
        extreme(
            "Which folder directly under the home folder takes the most space?",
            scored_by(&only(all, |e| e["depth"] == 1 && e["type"] == "directory"), |e| e["size"].as_u64(), "name"),
            true,
            Some("size"),
        ),
        extreme(
            "Which file was modified most recently?",
            scored_by(&files, |e| time_key(e["time"].as_str()?, year), "name"),
            true,
            Some("time"),
        ),
        extreme(
            "Which screenshot is the largest?",
            scored_by(
                &only(&files, |e| e["path"].as_str().is_some_and(|p| p.starts_with("Pictures/Screenshots/"))),
                |e| e["size"].as_u64(),
                "name",
            ),
            true,
            Some("size"),
        ),
    ];
    for (label, text) in
        [("directories", "How many directories does tree report?"), ("files", "How many files does tree report?")]
    {
        qs.push(report[label].as_u64().map(|c| count(text, &[label], c as usize, Some("type"))));
    }
    qs
}

/// The first entries listed; the last entries and the report.
fn heads_and_tails(v: &Value, all: &[Value]) -> Vec<Option<Question>> {
    let mut qs = Vec::new();
    let sized = |e: &Value| Some(vec![e["name"].as_str()?.to_owned(), e["size"].as_u64()?.to_string()]);
    let ask = |kind: Kind, e: Option<&Value>, text: String| {
        let must = sized(e?)?;
        let must: Vec<&str> = must.iter().map(String::as_str).collect();
        Some(together(kind, text, None, &must))
    };
    qs.push(v[0]["size"].as_u64().map(|s| {
        together(
            Kind::Head,
            "How much space does the whole listing take (the size of .)?".into(),
            None,
            &[&s.to_string()],
        )
    }));
    for (k, ordinal) in ORDINALS.iter().take(8).enumerate() {
        qs.push(ask(Kind::Head, all.get(k), format!("What is the {ordinal} entry tree lists under ., and its size?")));
    }
    for back in 0..7 {
        let e = all.len().checked_sub(back + 1).and_then(|i| all.get(i));
        qs.push(ask(Kind::Tail, e, format!("What is the {} entry tree lists, and its size?", to_last(back))));
    }
    let report = &v[1];
    if let (Some(d), Some(f)) = (report["directories"].as_u64(), report["files"].as_u64()) {
        let text = "How many directories and files does tree's closing report count?".to_owned();
        qs.push(Some(together(Kind::Tail, text, None, &[&d.to_string(), &f.to_string()])));
    }
    qs.push(report["size"].as_u64().map(|s| {
        together(Kind::Tail, "What total size does tree's closing report give?".into(), None, &[&s.to_string()])
    }));
    qs
}
