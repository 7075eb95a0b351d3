//! The questions asked of the ninth part of the catalog: what a user of each service or
//! command asks of a result like it (which runtime a Lambda function uses, how strong and
//! deep an earthquake was, how many points a story got, who owns a Drive file, which
//! version of a package is installed, how big a file is, which process holds a
//! connection, which image is the largest), with records named from the middle and the
//! end of the result as well as the head. The answers are computed from the generated
//! data, never written by hand.
//!
//! Text results (a package list, a directory listing, a socket table, an image table) are
//! first read into records of their columns, so the same builders ask of them.

use serde_json::{Map, Value, json};

use crate::question::{Kind, Question, Records, value};
use crate::questions_blind::{about, at, count, extreme, lines, most_frequent, together};

/// Every question about a ninth-part shape's JSON result; `None` for other shapes.
pub(crate) fn json_questions(name: &str, v: &Value) -> Option<Vec<Question>> {
    let list = |path: &str| value(v, path).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let qs = match name {
        "lambda_functions" => lambda_questions(list("Functions")),
        "usgs_earthquakes" => quake_questions(list("features")),
        "hn_search" => hn_questions(list("hits")),
        "drive_files" => drive_questions(list("files")),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// Pairs of `(score, name)` for every record with both, for [`extreme`].
fn scored<T>(list: &[Value], score: impl Fn(&Value) -> Option<T>, name: &str) -> Vec<(T, String)> {
    list.iter().filter_map(|x| Some((score(x)?, value(x, name)?.as_str()?.to_owned()))).collect()
}

/// Lambda functions: named by `FunctionName`; image functions have no runtime.
fn lambda_questions(fns: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: fns };
    let in_vpc = fns.iter().filter(|f| f["VpcConfig"]["VpcId"].as_str().is_some_and(|v| !v.is_empty())).count();
    vec![
        r.head("Which Lambda function is listed first?", "FunctionName"),
        r.tail("Which Lambda function is listed last on this page?", "FunctionName"),
        r.lookup("Which runtime does {key} use?", 0.6, "FunctionName", "Runtime"),
        r.lookup("How much memory is {key} configured with?", 0.9, "FunctionName", "MemorySize"),
        r.lookup("What is the timeout of {key}?", 0.3, "FunctionName", "Timeout"),
        about("Runtime", r.count("How many functions run on {value}?", "Runtime", None)),
        Some(count("How many functions are attached to a VPC?", &["VPC", "VpcId", "vpc"], in_vpc, Some("VpcId"))),
        about("CodeSize", r.extreme("Which function has the largest code package?", "CodeSize", "FunctionName", true)),
        extreme(
            "Which function was modified most recently?",
            scored(fns, |f| Some(f["LastModified"].as_str()?.to_owned()), "FunctionName"),
            true,
            Some("LastModified"),
        ),
    ]
}

/// USGS earthquakes, newest first; depth is the third coordinate.
fn quake_questions(quakes: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: quakes };
    let tsunami = quakes.iter().filter(|q| q["properties"]["tsunami"] == 1).count();
    vec![
        r.head("What is the most recent earthquake in the feed?", "properties.title"),
        r.tail("What is the oldest earthquake in the feed?", "properties.title"),
        r.lookup("What magnitude was earthquake {key}?", 0.6, "id", "properties.mag"),
        r.lookup("Where was earthquake {key}?", 0.9, "id", "properties.place"),
        r.lookup("How deep was earthquake {key}?", 0.35, "id", "geometry.coordinates[2]"),
        about("magType", r.count("How many earthquakes have magnitude type {value}?", "properties.magType", None)),
        Some(count("How many events have the tsunami flag set?", &["tsunami"], tsunami, Some("tsunami"))),
        about(
            "mag",
            r.extreme("Where was the strongest earthquake of the week?", "properties.mag", "properties.place", true),
        ),
        extreme(
            "Which earthquake was the deepest?",
            scored(quakes, |q| q["geometry"]["coordinates"][2].as_f64(), "id"),
            true,
            Some("coordinates"),
        ),
    ]
}

/// Hacker News stories in relevance order, named by their titles.
fn hn_questions(hits: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: hits };
    let titled =
        |prefix: &str| hits.iter().filter(|h| h["title"].as_str().is_some_and(|t| t.starts_with(prefix))).count();
    vec![
        r.head("What is the title of the top result?", "title"),
        r.tail("What is the title of the last result on this page?", "title"),
        r.lookup("How many points did \"{key}\" get?", 0.6, "title", "points"),
        r.lookup("Who posted \"{key}\"?", 0.9, "title", "author"),
        r.lookup("How many comments does \"{key}\" have?", 0.3, "title", "num_comments"),
        Some(count("How many of the results are Show HN posts?", &["Show HN"], titled("Show HN:"), Some("title"))),
        Some(count(
            "How many of the results are Ask HN posts?",
            &["Ask HN", "ask_hn"],
            titled("Ask HN:"),
            Some("title"),
        )),
        about("points", r.extreme("Which story has the most points?", "points", "title", true)),
        about("num_comments", r.extreme("Which story has the most comments?", "num_comments", "title", true)),
    ]
}

/// Drive files, most recently modified first; Google-native files have no size.
fn drive_questions(files: &[Value]) -> Vec<Option<Question>> {
    let r = Records { list: files };
    let shared = files.iter().filter(|f| f["shared"] == true).count();
    vec![
        r.head("Which file was modified most recently?", "name"),
        r.tail("Which file is last on this page?", "name"),
        r.lookup("When was {key} last modified?", 0.6, "name", "modifiedTime"),
        r.lookup("Who owns {key}?", 0.9, "name", "owners[0].displayName"),
        r.lookup("How big is {key}?", 0.3, "name", "size"),
        about("mimeType", r.count("How many files are of type {value}?", "mimeType", None)),
        Some(count("How many of these files are shared?", &["shared"], shared, Some("shared"))),
        about("size", r.extreme("Which file is the largest?", "size", "name", true)),
        extreme(
            "Which file was created first?",
            scored(files, |f| Some(f["createdTime"].as_str()?.to_owned()), "name"),
            false,
            Some("createdTime"),
        ),
    ]
}

/// Every question about a ninth-part shape's text result; `None` for other shapes.
pub(crate) fn text_questions(name: &str, t: &str) -> Option<Vec<Question>> {
    let ls = lines(t);
    let qs = match name {
        "apt_list_installed" => apt_questions(&ls),
        "ls_la" => ls_questions(&ls),
        "ss_tanp" => ss_questions(&ls),
        "docker_images" => image_questions(&ls),
        _ => return None,
    };
    Some(qs.into_iter().flatten().collect())
}

/// A record of named cells.
fn record(cells: &[(&str, &str)]) -> Value {
    Value::Object(cells.iter().map(|(k, v)| ((*k).to_owned(), json!(v))).collect::<Map<_, _>>())
}

/// The packages of `apt list --installed`: `name/suites version arch [state]`.
pub(crate) fn apt_rows(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .filter_map(|l| {
            let (name, rest) = l.split_once('/')?;
            let mut cells = rest.splitn(4, ' ');
            let (suite, version, arch, state) = (cells.next()?, cells.next()?, cells.next()?, cells.next()?);
            Some(record(&[("name", name), ("suite", suite), ("version", version), ("arch", arch), ("state", state)]))
        })
        .collect()
}

/// `apt list --installed`: versions of packages, how many are upgradable or manual.
fn apt_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let pkgs = apt_rows(ls);
    let r = Records { list: &pkgs };
    let with = |s: &str| pkgs.iter().filter(|p| p["state"].as_str().is_some_and(|x| x.starts_with(s))).count();
    let manual = pkgs.iter().filter(|p| p["state"] == "[installed]").count();
    vec![
        ls.first().map(|l| together(Kind::Head, "What does the first line say?".into(), None, &[l])),
        r.head("Which package is listed first?", "name"),
        r.tail("Which package is listed last?", "name"),
        r.lookup("Which architecture is {key} installed for?", 0.3, "name", "arch"),
        r.lookup("Which version of {key} is installed?", 0.6, "name", "version"),
        r.lookup("Which version of {key} is installed?", 0.9, "name", "version"),
        Some(count("How many packages are installed?", &["packages", "installed"], pkgs.len(), None)),
        Some(count(
            "How many packages can be upgraded?",
            &["upgradable", "upgradeable", "upgrade"],
            with("[installed,upgradable"),
            Some("state"),
        )),
        Some(count(
            "How many packages were installed manually?",
            &["manually", "manual", "[installed]"],
            manual,
            Some("state"),
        )),
        about("arch", r.count("How many packages have architecture {value}?", "arch", None)),
    ]
}

/// The entries of `ls -la` after `total`: mode, links, owner, group, size, the three
/// cells of the time, the name and, for a link, its target.
pub(crate) fn ls_rows(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            let target = if c.get(9) == Some(&"->") { c.get(10).copied().unwrap_or("") } else { "" };
            let name = *c.get(8)?;
            Some(record(&[("mode", c[0]), ("owner", c[2]), ("size", c[4]), ("name", name), ("target", target)]))
        })
        .filter(|e| e["name"] != "." && e["name"] != "..")
        .collect()
}

/// `ls -la`: sizes and owners of files, directories and links, the largest file.
fn ls_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let entries = ls_rows(ls);
    let r = Records { list: &entries };
    let kind = |c: char| {
        entries.iter().filter(|e| e["mode"].as_str().is_some_and(|m| m.starts_with(c))).cloned().collect::<Vec<_>>()
    };
    let (files, dirs, links) = (kind('-'), kind('d'), kind('l'));
    let f = Records { list: &files };
    let link = links.get(at(links.len(), 0.5)).and_then(|l| Some((l["name"].as_str()?, l["target"].as_str()?)));
    vec![
        ls.first().map(|l| together(Kind::Head, "What is the total on the first line?".into(), None, &[l])),
        r.head("Which entry is listed first after . and ..?", "name"),
        r.tail("Which entry is listed last?", "name"),
        f.lookup("How big is {key}?", 0.6, "name", "size"),
        f.lookup("How big is {key}?", 0.9, "name", "size"),
        r.lookup("Who owns {key}?", 0.3, "name", "owner"),
        link.map(|(n, t)| together(Kind::Lookup, format!("Where does {n} point to?"), Some(n), &[n, t])),
        Some(count(
            "How many subdirectories are there?",
            &["directories", "directory", "dirs"],
            dirs.len(),
            Some("mode"),
        )),
        Some(count(
            "How many symbolic links are there?",
            &["symlinks", "symbolic links", "links"],
            links.len(),
            Some("mode"),
        )),
        about("size", f.extreme("Which file is the largest?", "size", "name", true)),
    ]
}

/// The sockets of `ss -tanp`: state, queues, both ends and the owning process, if any.
pub(crate) fn ss_rows(ls: &[&str]) -> Vec<Value> {
    ls.iter()
        .skip(1)
        .filter_map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            let process = c.get(5).copied().unwrap_or("");
            let program = process.split('"').nth(1).unwrap_or("");
            Some(record(&[
                ("State", c.first()?),
                ("Recv-Q", c.get(1)?),
                ("Send-Q", c.get(2)?),
                ("Local", c.get(3)?),
                ("Peer", c.get(4)?),
                ("Process", process),
                ("program", program),
            ]))
        })
        .collect()
}

/// `ss -tanp`: a connection's state and owner, how many sockets wait, the busiest process.
fn ss_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let socks = ss_rows(ls);
    let r = Records { list: &socks };
    let conns: Vec<Value> = socks.iter().filter(|s| s["State"] != "LISTEN").cloned().collect();
    let c = Records { list: &conns };
    let listening = socks.len() - conns.len();
    let queued = socks
        .iter()
        .filter(|s| s["State"] != "LISTEN")
        .filter_map(|s| Some((s["Send-Q"].as_str()?.parse::<u64>().ok()?, s["Peer"].as_str()?.to_owned())))
        .collect();
    vec![
        r.head("Which local address is the first socket bound to?", "Local"),
        r.tail("What is the peer address of the last socket listed?", "Peer"),
        c.lookup("What state is the connection to {key} in?", 0.6, "Peer", "State"),
        c.lookup("Which process holds the connection to {key}?", 0.9, "Peer", "program"),
        c.lookup("Which local address and port does {key} talk to?", 0.3, "Peer", "Local"),
        about("State", c.count("How many sockets are in state {value}?", "State", None)),
        Some(count("How many sockets are listening?", &["LISTEN", "listening"], listening, Some("State"))),
        extreme(
            "Which process holds the most connections?",
            most_frequent(conns.iter().filter_map(|s| s["program"].as_str()).filter(|p| !p.is_empty())),
            true,
            None,
        ),
        extreme("Which connection has the largest send queue?", queued, true, Some("Send-Q")),
    ]
}

/// The rows of `docker images`: cells are apart by two spaces or more (`IMAGE ID` and
/// `3 weeks ago` hold single spaces).
pub(crate) fn image_rows(ls: &[&str]) -> Vec<Value> {
    let split = |l: &str| l.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned).collect::<Vec<_>>();
    let Some(header) = ls.first().map(|h| split(h)) else { return Vec::new() };
    ls[1..]
        .iter()
        .map(|l| Value::Object(header.iter().cloned().zip(split(l).into_iter().map(Value::String)).collect()))
        .collect()
}

/// `docker images` sizes (`1.21GB`, `312MB`, `8.83MB`) in megabytes.
pub(crate) fn megabytes(s: &str) -> Option<f64> {
    match s.strip_suffix("GB") {
        Some(gb) => gb.parse::<f64>().ok().map(|g| g * 1000.0),
        None => s.strip_suffix("MB")?.parse().ok(),
    }
}

/// `docker images`: an image's id, size and age by its tag, dangling images, the largest.
fn image_questions(ls: &[&str]) -> Vec<Option<Question>> {
    let rows = image_rows(ls);
    let cell = |row: &Value, c: &str| row[c].as_str().unwrap_or("").to_owned();
    // A tag names one image when no other row carries it, and is looked for only when it
    // is distinctive (`sha-4c60dc7`, `20-alpine`): a bare `3.21` is found in sizes too.
    let named: Vec<&Value> = rows
        .iter()
        .filter(|row| {
            let tag = cell(row, "TAG");
            tag.contains('-') && rows.iter().filter(|o| cell(o, "TAG") == tag).count() == 1
        })
        .collect();
    let ask = |f: f64, q: &str, column: &str| {
        let row = named.get(at(named.len(), f))?;
        let (repo, tag) = (cell(row, "REPOSITORY"), cell(row, "TAG"));
        Some(together(
            Kind::Lookup,
            q.replace("{key}", &format!("{repo}:{tag}")),
            Some(&tag),
            &[&tag, &cell(row, column)],
        ))
    };
    let ends = |row: Option<&Value>, q: &str, kind: Kind| {
        row.map(|row| {
            together(kind, q.into(), None, &[&cell(row, "REPOSITORY"), &cell(row, "TAG"), &cell(row, "IMAGE ID")])
        })
    };
    let dangling = rows.iter().filter(|row| row["REPOSITORY"] == "<none>").count();
    let sizes =
        rows.iter().filter_map(|row| Some((megabytes(row["SIZE"].as_str()?)?, cell(row, "IMAGE ID")))).collect();
    let r = Records { list: &rows };
    vec![
        ends(rows.first(), "Which image is listed first?", Kind::Head),
        ends(rows.last(), "Which image is listed last?", Kind::Tail),
        ask(0.6, "What is the image ID of {key}?", "IMAGE ID"),
        ask(0.9, "How big is {key}?", "SIZE"),
        ask(0.3, "When was {key} created?", "CREATED"),
        Some(count("How many images are there?", &["images"], rows.len(), None)),
        Some(count(
            "How many dangling images are there?",
            &["<none>", "dangling", "untagged"],
            dangling,
            Some("REPOSITORY"),
        )),
        about("REPOSITORY", r.count("How many images of {value} are there?", "REPOSITORY", None)),
        extreme("Which image is the largest?", sizes, true, Some("SIZE")),
    ]
}

#[cfg(test)]
#[path = "questions_ninth_tests.rs"]
mod tests;
