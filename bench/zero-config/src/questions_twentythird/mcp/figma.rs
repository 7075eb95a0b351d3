//! Questions about a Figma file (`GET /v1/files/:key`): at its start, the pages, the cover
//! and the Foundations page's swatches and type ramp; at its end, the file's name,
//! version, modification time and thumbnail, the last style, component set and component,
//! and the Archive page; anywhere, what a text node says, which component an instance
//! uses, a component's description, a style's key and a colour's hex value; and how many
//! text nodes, instances, components, component sets, pages, hidden nodes and colour or
//! text styles there are, which component has the most instances, which frame the most
//! children, which screen the most nodes, which page the most nodes and which text is
//! the longest.

use serde_json::Value;

use super::{end, find};
use crate::question::{Question, text};
use crate::questions_blind::{count, extreme, most_frequent};

/// A node of the document with where it is: its page and the nodes it is inside.
#[derive(Clone)]
pub(super) struct Node<'v> {
    pub(super) v: &'v Value,
    pub(super) page: &'v str,
    /// The screen (a top-level frame of a page) it belongs to, if any.
    pub(super) screen: Option<&'v str>,
}

/// Every node under the document's pages, depth first, pages included.
pub(super) fn nodes(v: &Value) -> Vec<Node<'_>> {
    fn walk<'v>(n: &'v Value, page: &'v str, screen: Option<&'v str>, out: &mut Vec<Node<'v>>) {
        out.push(Node { v: n, page, screen });
        for c in n["children"].as_array().into_iter().flatten() {
            let screen = if n["type"] == "CANVAS" { c["name"].as_str() } else { screen };
            walk(c, page, screen, out);
        }
    }
    let mut out = Vec::new();
    for p in v["document"]["children"].as_array().into_iter().flatten() {
        walk(p, p["name"].as_str().unwrap_or_default(), None, &mut out);
    }
    out
}

fn s(v: &Value, field: &str) -> Option<String> {
    v.get(field).map(text).filter(|s| !s.is_empty())
}

/// The characters of the text child named `name` of `v`.
fn child_text(v: &Value, name: &str) -> Option<String> {
    v["children"].as_array()?.iter().find(|c| c["name"] == name && c["type"] == "TEXT").and_then(|c| s(c, "characters"))
}

/// The entries of a top-level map, as `(id, entry)`.
fn entries<'v>(v: &'v Value, map: &str) -> Vec<(String, &'v Value)> {
    v[map].as_object().map_or_else(Vec::new, |m| m.iter().map(|(k, e)| (k.clone(), e)).collect())
}

pub(super) fn figma_questions(v: &Value) -> Vec<Option<Question>> {
    let all = nodes(v);
    let pages: Vec<&Value> = v["document"]["children"].as_array().map_or_else(Vec::new, |p| p.iter().collect());
    let of_type = |ty: &str| all.iter().filter(|n| n.v["type"] == ty).cloned().collect::<Vec<_>>();
    let texts = of_type("TEXT");
    let swatches: Vec<&Value> =
        all.iter().map(|n| n.v).filter(|n| n["name"].as_str().is_some_and(|x| x.starts_with("Swatch/"))).collect();
    let mut qs = vec![
        // The start: the pages, the cover, the Foundations page.
        end(&pages, 0, false, "What is the first page of the file called?", |p| Some(vec![s(p, "name")?])),
        end(&pages, 1, false, "What is the second page of the file called?", |p| Some(vec![s(p, "name")?])),
        end(&pages, 0, false, "What is the id of the frame on the first page?", |p| {
            Some(vec![s(&p["children"][0], "id")?])
        }),
        end(&texts, 0, false, "What does the first text of the file (the cover's title) say?", |n| {
            Some(vec![s(n.v, "characters")?])
        }),
        end(&texts, 1, false, "What does the second text on the cover say?", |n| Some(vec![s(n.v, "characters")?])),
        end(&pages, 1, false, "Which frame comes first on the second page?", |p| {
            Some(vec![s(&p["children"][0], "name")?])
        }),
        end(&swatches, 0, false, "Which colour is the first swatch, and what is its hex value?", |n| {
            Some(vec![child_text(n, "Name")?, child_text(n, "Hex")?])
        }),
        end(&swatches, 1, false, "Which colour is the second swatch, and what is its hex value?", |n| {
            Some(vec![child_text(n, "Name")?, child_text(n, "Hex")?])
        }),
        end(&swatches, 2, false, "What is the id of the third swatch?", |n| Some(vec![s(n, "id")?])),
    ];
    let typography: Vec<&Value> = all
        .iter()
        .map(|n| n.v)
        .filter(|n| n["name"] == "Typography")
        .flat_map(|n| n["children"].as_array().into_iter().flatten())
        .collect();
    qs.push(end(&typography, 0, false, "Which text style does the type ramp show first, and in which font?", |n| {
        Some(vec![s(n, "name")?, s(&n["style"], "fontPostScriptName")?])
    }));
    // The end: the file's own fields, then its maps and last page.
    let file = [v];
    for (q, field) in [
        ("What is the file called?", "name"),
        ("When was the file last modified?", "lastModified"),
        ("What version is the file at?", "version"),
        ("What is the file's thumbnail URL?", "thumbnailUrl"),
    ] {
        qs.push(end(&file, 0, true, q, |f| Some(vec![s(f, field)?])));
    }
    let styles = entries(v, "styles");
    qs.push(end(&styles, 0, true, "Which style is listed last, and what type of style is it?", |(_, e)| {
        Some(vec![s(e, "name")?, s(e, "styleType")?])
    }));
    qs.push(end(&styles, 0, true, "What is the key of the last style?", |(_, e)| Some(vec![s(e, "key")?])));
    qs.push(end(&styles, 1, true, "Which style is listed second to last?", |(_, e)| Some(vec![s(e, "name")?])));
    let sets = entries(v, "componentSets");
    qs.push(end(&sets, 0, true, "Which component set is listed last?", |(_, e)| Some(vec![s(e, "name")?])));
    let comps = entries(v, "components");
    qs.push(end(&comps, 0, true, "Which component is listed last, and what is its description?", |(_, e)| {
        Some(vec![s(e, "name")?, s(e, "description")?])
    }));
    qs.push(end(&pages, 0, true, "What is the last page of the file called?", |p| Some(vec![s(p, "name")?])));
    qs.push(end(&pages, 0, true, "Which screen is on the last page?", |p| Some(vec![s(&p["children"][0], "name")?])));
    // Anywhere: nodes by id, components and styles by name.
    for f in [0.3, 0.5, 0.7, 0.9] {
        qs.push(find(
            &texts,
            f,
            "What text does node {key} hold?",
            |n| s(n.v, "id"),
            |n| Some(vec![s(n.v, "characters")?]),
        ));
    }
    let instances = of_type("INSTANCE");
    for f in [0.4, 0.8] {
        qs.push(find(
            &instances,
            f,
            "Which component (id) is instance {key} an instance of?",
            |n| s(n.v, "id"),
            |n| Some(vec![s(n.v, "componentId")?]),
        ));
    }
    let singles: Vec<&(String, &Value)> = comps.iter().filter(|(_, e)| e.get("componentSetId").is_none()).collect();
    qs.push(find(
        &singles,
        0.5,
        "What is the description of the component {key}?",
        |(_, e)| s(e, "name"),
        |(_, e)| Some(vec![s(e, "description")?]),
    ));
    for f in [0.3, 0.8] {
        qs.push(find(
            &styles,
            f,
            "What is the key of the style {key}?",
            |(_, e)| s(e, "name"),
            |(_, e)| Some(vec![s(e, "key")?]),
        ));
    }
    for f in [0.2, 0.6] {
        qs.push(find(
            &swatches,
            f,
            "What is the hex value of the colour {key}?",
            |n| child_text(n, "Name"),
            |n| Some(vec![child_text(n, "Hex")?]),
        ));
    }
    // How many, and which holds the most.
    let n_type = |ty: &str| all.iter().filter(|n| n.v["type"] == ty).count();
    qs.push(Some(count("How many TEXT nodes does the file have?", &["TEXT"], n_type("TEXT"), Some("type"))));
    qs.push(Some(count(
        "How many INSTANCE nodes does the file have?",
        &["INSTANCE", "instances"],
        n_type("INSTANCE"),
        Some("type"),
    )));
    qs.push(Some(count(
        "How many components does the file define?",
        &["components", "COMPONENT"],
        comps.len(),
        Some("components"),
    )));
    qs.push(Some(count(
        "How many component sets does the file define?",
        &["component sets", "COMPONENT_SET"],
        sets.len(),
        Some("componentSets"),
    )));
    qs.push(Some(count("How many pages does the file have?", &["pages", "CANVAS"], pages.len(), Some("type"))));
    let hidden = all.iter().filter(|n| n.v["visible"] == false).count();
    qs.push(Some(count(
        "How many nodes are hidden (visible: false)?",
        &["hidden", "visible"],
        hidden,
        Some("visible"),
    )));
    for (ty, q) in [
        ("FILL", "How many colour (FILL) styles does the file have?"),
        ("TEXT", "How many text styles does the file have?"),
    ] {
        let n = styles.iter().filter(|(_, e)| e["styleType"] == ty).count();
        qs.push(Some(count(q, &[ty], n, Some("styleType"))));
    }
    let used = most_frequent(instances.iter().filter_map(|n| n.v["componentId"].as_str()));
    qs.push(extreme("Which component (id) has the most instances?", used, true, Some("componentId")));
    let frames: Vec<(usize, String)> = all
        .iter()
        .filter(|n| n.v["type"] == "FRAME")
        .filter_map(|n| Some((n.v["children"].as_array()?.len(), s(n.v, "id")?)))
        .collect();
    qs.push(extreme("Which frame (id) has the most direct children?", frames, true, Some("children")));
    let screens = most_frequent(
        all.iter()
            .filter(|n| !n.page.contains("Foundations") && !n.page.contains("Components"))
            .filter_map(|n| n.screen),
    );
    qs.push(extreme("Which screen contains the most nodes?", screens, true, Some("children")));
    qs.push(extreme(
        "Which page contains the most nodes?",
        most_frequent(all.iter().map(|n| n.page)),
        true,
        Some("children"),
    ));
    let long =
        texts.iter().filter_map(|n| Some((n.v["characters"].as_str()?.chars().count(), s(n.v, "id")?))).collect();
    qs.push(extreme("Which text node (id) holds the longest text?", long, true, Some("characters")));
    qs
}
