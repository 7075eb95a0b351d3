//! Questions about a GitHub release list, newest first: the latest release (tag and
//! date, author, name and branch, its first assets with their sizes and downloads) and
//! the release before it, and the oldest releases (tag and date, author, name and branch,
//! first and last assets, source tarball); a release's publish date and author by its
//! tag, an asset's downloads, size and digest by its name; and how many releases there
//! are and how many are prereleases, how many assets there are in all and in a release,
//! how many releases the busiest author published, and which release or asset was
//! downloaded most, which stable release least, which asset is largest, which release
//! got the most reactions and who published the most releases.

use serde_json::Value;

use super::{field, list, number};
use crate::question::Question;
use crate::questions_blind::{count, extreme, most_frequent};
use crate::record_questions::{ORDINALS, end, lookup_one as lookup, to_last};

/// The downloads of every asset of a release, together.
pub(super) fn release_downloads(r: &Value) -> u64 {
    list(r, "assets").iter().filter_map(|a| a["download_count"].as_u64()).sum()
}

pub(super) fn github_releases_questions(v: &Value) -> Vec<Option<Question>> {
    let releases = list(v, "");
    let tag = |r: &Value| field(r, "tag_name");
    let with = |r: &Value, paths: &[&str]| Some([vec![tag(r)], paths.iter().map(|p| field(r, p)).collect()].concat());
    let published = |r: &Value| with(r, &["published_at"]);
    let asset = |r: &Value, k: usize, from_end: bool, path: &str| {
        let assets = list(r, "assets");
        let i = if from_end { assets.len().checked_sub(k + 1)? } else { k };
        let a = assets.get(i)?;
        Some(vec![field(a, "name"), field(a, path)])
    };
    let mut qs = vec![
        end(releases, 0, false, "What is the latest release, and when was it published?", published),
        end(releases, 0, false, "Who published the latest release?", |r| with(r, &["author.login"])),
        end(releases, 0, false, "What is the latest release called, and which branch was it cut from?", |r| {
            with(r, &["name", "target_commitish"])
        }),
        end(releases, 1, false, "Which release came before the latest one, and when was it published?", published),
        end(releases, 0, false, "Who uploaded the assets of the latest release?", |r| {
            with(r, &["assets[0].uploader.login"])
        }),
        end(releases, 0, true, "What is the oldest release on the page, and when was it published?", published),
        end(releases, 0, true, "Who published the oldest release?", |r| with(r, &["author.login"])),
        end(releases, 0, true, "What is the oldest release called, and which branch was it cut from?", |r| {
            with(r, &["name", "target_commitish"])
        }),
        end(releases, 0, true, "What is the first asset of the oldest release, and how big is it?", |r| {
            asset(r, 0, false, "size")
        }),
        end(releases, 0, true, "How many times was the last asset of the oldest release downloaded?", |r| {
            asset(r, 0, true, "download_count")
        }),
        end(releases, 0, true, "Where is the source tarball of the oldest release?", |r| with(r, &["tarball_url"])),
        end(releases, 0, true, "When was the commit behind the oldest release made?", |r| with(r, &["created_at"])),
        end(releases, 1, true, "Who published the second to last release?", |r| with(r, &["author.login"])),
    ];
    for (k, ordinal) in ORDINALS.iter().enumerate().take(5) {
        let (q, path) = if k % 2 == 0 {
            (format!("What is the {ordinal} asset of the latest release, and how big is it?"), "size")
        } else {
            (format!("How many times was the {ordinal} asset of the latest release downloaded?"), "download_count")
        };
        qs.push(end(releases, 0, false, &q, |r| asset(r, k, false, path)));
    }
    for k in 1..4 {
        qs.push(end(
            releases,
            k,
            true,
            &format!("Which is the {} release on the page, and when was it published?", to_last(k)),
            published,
        ));
    }
    // Lookups: releases by tag, assets by name.
    for f in [0.2, 0.5, 0.85] {
        qs.push(lookup(releases, f, "When was {key} published?", tag, |r| Some(vec![field(r, "published_at")])));
    }
    qs.push(lookup(releases, 0.4, "Who published {key}?", tag, |r| Some(vec![field(r, "author.login")])));
    let assets: Vec<&Value> = releases.iter().flat_map(|r| list(r, "assets")).collect();
    let name = |a: &&Value| field(a, "name");
    for f in [0.15, 0.45, 0.75, 0.95] {
        qs.push(lookup(&assets, f, "How many times was {key} downloaded?", name, |a| {
            Some(vec![field(a, "download_count")])
        }));
    }
    for f in [0.3, 0.6] {
        qs.push(lookup(&assets, f, "How big is {key}?", name, |a| Some(vec![field(a, "size")])));
    }
    let digested: Vec<&Value> = assets.iter().copied().filter(|a| a["digest"].is_string()).collect();
    qs.push(lookup(&digested, 0.5, "What is the SHA-256 digest of {key}?", name, |a| Some(vec![field(a, "digest")])));
    // How many, and which stands out.
    let prereleases = releases.iter().filter(|r| r["prerelease"] == true).count();
    qs.push(Some(count(
        "How many of these releases are prereleases?",
        &["prerelease"],
        prereleases,
        Some("prerelease"),
    )));
    qs.push(Some(count("How many releases are on the page?", &["releases"], releases.len(), Some("tag_name"))));
    qs.push(Some(count("How many assets do the releases have in all?", &["assets"], assets.len(), Some("assets"))));
    for r in [releases.first(), releases.get(releases.len() / 2)].into_iter().flatten() {
        qs.push(Some(count(
            &format!("How many assets does {} have?", tag(r)),
            &["assets"],
            list(r, "assets").len(),
            Some("assets"),
        )));
    }
    let authors = most_frequent(releases.iter().filter_map(|r| r["author"]["login"].as_str()));
    if let Some((n, login)) = authors.iter().max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))) {
        qs.push(Some(count(&format!("How many releases did {login} publish?"), &[login], *n, Some("author"))));
    }
    qs.push(extreme("Who published the most releases?", authors, true, Some("author")));
    let totals: Vec<(u64, String)> = releases.iter().map(|r| (release_downloads(r), tag(r))).collect();
    qs.push(extreme(
        "Which release was downloaded the most, counting all its assets?",
        totals,
        true,
        Some("download_count"),
    ));
    let stable: Vec<(u64, String)> =
        releases.iter().filter(|r| r["prerelease"] == false).map(|r| (release_downloads(r), tag(r))).collect();
    qs.push(extreme("Which stable release was downloaded the least?", stable, false, Some("download_count")));
    let by_asset = |path: &str| -> Vec<(f64, String)> {
        assets.iter().filter_map(|a| Some((number(a, path)?, field(a, "name")))).collect()
    };
    qs.push(extreme("Which asset was downloaded the most?", by_asset("download_count"), true, Some("download_count")));
    qs.push(extreme("Which asset is the largest?", by_asset("size"), true, Some("size")));
    let reactions: Vec<(f64, String)> =
        releases.iter().filter_map(|r| Some((number(r, "reactions.total_count")?, tag(r)))).collect();
    qs.push(extreme("Which release got the most reactions?", reactions, true, Some("reactions")));
    qs
}
