//! A table of broken configs, each with the message it must produce and where.
//!
//! Every message must say where (file:line:column), what is wrong, and what to write
//! instead; `check` must report every problem of a config at once.

use toolshape_mask::{ConfigErrors, load};

fn env(name: &str) -> Option<String> {
    match name {
        "GITHUB_TOKEN" => Some("ghp_x".to_owned()),
        "SHORT_TOKEN" => Some("abc".to_owned()),
        "GOOD_TOKEN" | "SAME_TOKEN" => Some("0123456789abcdef0123".to_owned()),
        _ => None,
    }
}

fn errors(yaml: &str) -> ConfigErrors {
    match load(yaml, "t.yaml", &env) {
        Ok(_) => panic!("expected problems in:\n{yaml}"),
        Err(e) => e,
    }
}

const UPSTREAM: &str = "upstreams:\n  github: { command: [npx, server-github] }\n";

/// (case, config, line, column, fragments the one message must contain)
const TABLE: &[(&str, &str, usize, usize, &[&str])] = &[
    (
        "unknown key with a suggestion",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result:\n      budget: 10\n",
        8,
        7,
        &["t.yaml:8:7: unknown key `budget` in `masks[0].result`", "did you mean `budget_tokens`?"],
    ),
    ("unknown top-level key", "mask: []\n", 1, 1, &["unknown key `mask`", "did you mean `masks`?"]),
    (
        "unknown key without a close match lists the valid ones",
        "defaults:\n  zzzz: 1\n",
        2,
        3,
        &["unknown key `zzzz` in `defaults`", "valid keys are `budget_tokens`, `tokenizer`"],
    ),
    (
        "missing environment variable",
        "upstreams:\n  github:\n    command: [npx, server-github]\n    env: { TOKEN: \"${MISSING_TOKEN}\" }\n",
        4,
        19,
        &["environment variable `MISSING_TOKEN` is not set", "`${MISSING_TOKEN:-default}`"],
    ),
    (
        "handler without a slash",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: list_issues\n    description: d\n",
        5,
        5,
        &["handler `list_issues` is not `upstream/tool`", "like `github/list_issues`"],
    ),
    (
        "handler naming an unknown upstream",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: githb/list_issues\n    description: d\n",
        5,
        5,
        &["names upstream `githb`, which is not defined", "did you mean `github`?"],
    ),
    (
        "duplicate mask names",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - { name: a, handler: github/x, description: d }\n  - { name: a, handler: github/y, description: d }\n",
        5,
        7,
        &["duplicate mask name `a` (first at line 4)", "give each mask its own name"],
    ),
    (
        "template syntax error with its line",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    validate: |\n      {% if input %}\n      {% endfor %}\n",
        7,
        5,
        &["template error in mask `a`, `validate`, line 2 of the template", "syntax error"],
    ),
    (
        "template reading an undeclared input",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    input_schema: { type: object, properties: { label: { type: string } } }\n    handler_input: { labels: \"{{ input.lable }}\" }\n",
        8,
        22,
        &["`input.lable`, which input_schema does not declare", "did you mean `input.label`?"],
    ),
    (
        "template reading an undefined var",
        "upstreams:\n  github: { command: [npx, server-github] }\nvars: { owner: acme }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    handler_input: { owner: \"{{ context.vars.ownr }}\" }\n",
        8,
        22,
        &["`context.vars.ownr`, which `vars` does not define", "did you mean `owner`?"],
    ),
    (
        "template reading an env var that is not allowed",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    handler_input: { org: \"{{ context.env.ORG }}\" }\n",
        7,
        22,
        &["`context.env.ORG`, which `allowed_env` does not list", "add `ORG` to `allowed_env`"],
    ),
    (
        "unquoted template",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    handler_input:\n      labels: {{ input.label }}\n",
        8,
        16,
        &["a mapping used as a mapping key", "quote Jinja templates"],
    ),
    (
        "invalid input schema",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    input_schema:\n      type: object\n      properties:\n        label: { type: strng }\n",
        10,
        18,
        &["input_schema is not a valid JSON Schema", "`type` is one of string, number"],
    ),
    (
        "input schema that is not an object",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    input_schema: { type: string }\n",
        7,
        5,
        &["input_schema must describe an object", "add `type: object`"],
    ),
    (
        "required argument that is not a property",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    input_schema: { type: object, properties: { label: { type: string } }, required: [labl] }\n",
        7,
        87,
        &["`labl` is required but not a property", "did you mean `label`?"],
    ),
    (
        "invalid filter",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result: { filter: \"@.state ==\" }\n",
        7,
        23,
        &["invalid filter `@.state ==`", "RFC 9535 filter"],
    ),
    (
        "invalid field path",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result: { project: [number, \"user..login\"] }\n",
        7,
        33,
        &["invalid field path `user..login`", "write paths like `user.login`"],
    ),
    (
        "budget below the minimum",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result: { budget_tokens: 50 }\n",
        7,
        15,
        &["budget_tokens is 50; use at least 100", "raise `budget_tokens`"],
    ),
    (
        "defaults budget below the minimum",
        "defaults: { budget_tokens: 10 }\n",
        1,
        28,
        &["budget_tokens is 10", "use at least 100"],
    ),
    (
        "budget that is not a number",
        "defaults:\n  budget_tokens: many\n",
        2,
        18,
        &["invalid type: string \"many\", expected a whole number"],
    ),
    (
        "unknown tokenizer",
        "defaults:\n  tokenizer: o200k\n",
        2,
        14,
        &["unknown value `o200k`", "did you mean `o200k_base`?"],
    ),
    (
        "profile naming a tool that does not exist",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - { name: open_issues, handler: github/x, description: d }\nprofiles:\n  triage: [open_isues]\n",
        6,
        12,
        &["profile `triage` names `open_isues`, which is not a tool", "did you mean `open_issues`?"],
    ),
    (
        "profile naming a masked handler",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - { name: open_issues, handler: github/list_issues, description: d }\nprofiles:\n  triage: [github_list_issues]\n",
        6,
        12,
        &["`github/list_issues` is a mask handler", "name the masks over it instead"],
    ),
    (
        "profile that is neither a list nor \"*\"",
        "profiles:\n  admin: all\n",
        2,
        10,
        &["`all`: write a list of tool names"],
    ),
    (
        "mask with both handler and switch",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    switch: { on: kind, cases: {} }\n",
        7,
        5,
        &["both `handler` and `switch`"],
    ),
    (
        "switch without a case for an enum value",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    description: d\n    input_schema: { type: object, properties: { kind: { type: string, enum: [x, y] } }, required: [kind] }\n    switch:\n      on: kind\n      cases:\n        x: { handler: github/x }\n",
        9,
        7,
        &["switch on `kind` has no case for `y`", "add a case for every value"],
    ),
    (
        "switch on an argument the model may leave out",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    description: d\n    input_schema: { type: object, properties: { kind: { type: string, enum: [x] } } }\n    switch:\n      on: kind\n      cases:\n        x: { handler: github/x }\n",
        7,
        5,
        &["the model may leave `kind` out", "add `default: <case>`"],
    ),
    (
        "missing required key",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n",
        4,
        5,
        &["missing key `description`", "add `description: …`"],
    ),
    (
        "upstream with neither command nor url",
        "upstreams:\n  github: { timeout_secs: 3 }\n",
        2,
        11,
        &["an upstream needs `command` or `url`"],
    ),
    (
        "upstream with both command and url",
        "upstreams:\n  github: { command: [a], url: \"http://x/mcp\" }\n",
        2,
        32,
        &["both `command` and `url`"],
    ),
    ("YAML syntax error", "upstreams:\n  github: [\n", 3, 1, &["invalid YAML"]),
    ("duplicate YAML key", "vars: {}\nvars: {}\n", 2, 1, &["duplicate key `vars` (first written at line 1)"]),
    (
        "validate without template syntax",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - { name: a, handler: github/x, description: d, validate: no }\n",
        4,
        51,
        &["`validate` has no template syntax"],
    ),
    (
        "invalid mask name",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - { name: \"open issues\", handler: github/x, description: d }\n",
        4,
        7,
        &["mask name `open issues` is not a valid tool name"],
    ),
    (
        "custom redaction pattern that does not compile",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result: { redact: { patterns: [{ name: id, pattern: \"(\" }] } }\n",
        7,
        15,
        &["redact"],
    ),
    (
        "search that defers every tool",
        "search:\n  always_loaded: []\n",
        2,
        18,
        &["every tool would be deferred", "always_loaded: [open_issues"],
    ),
    (
        "search limit out of range",
        "search:\n  always_loaded: [a]\n  limit: 500\n",
        3,
        10,
        &["limit is 500", "between 1 and 50"],
    ),
    (
        "search mode misspelled",
        "search:\n  always_loaded: [a]\n  mode: bm52\n",
        3,
        9,
        &["unknown value `bm52`", "did you mean `bm25`?"],
    ),
    ("sqlite store without a file", "store:\n  backend: sqlite\n", 2, 12, &["sqlite store needs a file", "path:"]),
    (
        "redis store without a server",
        "store:\n  backend: redis\n",
        2,
        12,
        &["redis store needs a server", "url: redis://"],
    ),
    (
        "redis store with another scheme",
        "store:\n  backend: redis\n  url: http://x\n",
        3,
        8,
        &["must start with `redis://`"],
    ),
    (
        "store entry cap above the store",
        "store:\n  max_bytes: 10\n  max_entry_bytes: 20\n",
        3,
        20,
        &["max_entry_bytes (20) is larger than max_bytes (10)"],
    ),
    (
        "auth token variable unset",
        "auth:\n  principals:\n    ci: { token_env: CI_TOKEN }\n",
        3,
        22,
        &["`CI_TOKEN` is not set", "openssl rand -hex 32"],
    ),
    (
        "auth token too short",
        "auth:\n  principals:\n    ci: { token_env: SHORT_TOKEN }\n",
        3,
        22,
        &["shorter than 16 characters"],
    ),
    (
        "auth profile that does not exist",
        "profiles: { triage: [] }\nauth:\n  principals:\n    ci: { token_env: GOOD_TOKEN, profile: triag }\n",
        4,
        43,
        &["no profile named `triag`", "did you mean `triage`?"],
    ),
    (
        "auth principals sharing a token",
        "auth:\n  principals:\n    a: { token_env: GOOD_TOKEN }\n    b: { token_env: SAME_TOKEN }\n",
        4,
        21,
        &["principals `a` and `b` have the same token"],
    ),
    ("http body limit too small", "http:\n  max_body_bytes: 10\n", 2, 19, &["max_body_bytes is 10"]),
    (
        "telemetry unknown key",
        "telemetry:\n  span: off\n",
        2,
        3,
        &["unknown key `span` in `telemetry`", "did you mean `spans`?"],
    ),
    (
        "media unknown key in a mask",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result:\n      media:\n        budget: 10\n",
        9,
        9,
        &["unknown key `budget` in `masks[0].result.media`", "did you mean `budget_tokens`?"],
    ),
    (
        "media formula nobody publishes",
        "defaults:\n  media:\n    formula: gemini\n",
        3,
        14,
        &["`gemini`", "anthropic", "openai"],
    ),
    (
        "media budget no image fits in",
        "defaults:\n  media: { budget_tokens: 0 }\n",
        2,
        10,
        &["media budget_tokens is 0", "every image would be left out", "budget_tokens: "],
    ),
    (
        "mask media budget under the openai minimum",
        "upstreams:\n  github: { command: [npx, server-github] }\nmasks:\n  - name: a\n    handler: github/x\n    description: d\n    result:\n      media: { formula: openai, budget_tokens: 100 }\n",
        8,
        14,
        &["under the cheapest openai image (255 tokens)", "`budget_tokens: 255`", "`mode: drop`"],
    ),
];

#[test]
fn each_broken_config_gets_its_message() {
    let mut failures = Vec::new();
    for (case, yaml, line, column, fragments) in TABLE {
        let errs = errors(yaml);
        let Some(hit) = errs.iter().find(|e| fragments.iter().all(|f| e.to_string().contains(f))) else {
            failures.push(format!("{case}: no message contains {fragments:?}; got:\n{errs}"));
            continue;
        };
        if (hit.line(), hit.column()) != (*line, *column) {
            failures.push(format!("{case}: at {}:{}, expected {line}:{column}: {hit}", hit.line(), hit.column()));
        }
        // Messages from the shaping core carry their advice inline: "(write … like …)".
        let advised = hit.hint.is_some() || hit.message.contains("(write ");
        if !advised && !fragments.iter().any(|f| f.contains("invalid type") || f.contains("YAML")) {
            // Every problem says what to write instead, except raw type errors and syntax.
            if ![
                "both `handler` and `switch`",
                "an upstream needs",
                "both `command`",
                "redact",
                "duplicate key",
                "`all`",
            ]
            .iter()
            .any(|f| hit.message.contains(f))
            {
                failures.push(format!("{case}: no hint: {hit}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_problem_is_reported_at_once() {
    let yaml = format!(
        "{UPSTREAM}defaults:\n  budget: 10\nmasks:\n  - name: a\n    handler: nope/x\n    description: d\n    result: {{ budget_tokens: 5 }}\n  - name: b\n    handler: github/x\n    description: d\n    result: {{ projet: [x] }}\n  - name: a\n    handler: github/y\n    description: d\nprofiles:\n  p: [zzz]\n"
    );
    let errs = errors(&yaml);
    let text = errs.to_string();
    for needle in [
        "unknown key `budget` in `defaults`",
        "names upstream `nope`",
        "budget_tokens is 5",
        "unknown key `projet`",
        "duplicate mask name `a`",
        "profile `p` names `zzz`",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    }
    // Sorted by position.
    let lines: Vec<usize> = errs.iter().map(|e| e.line()).collect();
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted);
}

#[test]
fn a_broken_mask_does_not_cascade_into_profile_errors() {
    // Mask `a` fails to load (unknown key); the profile naming it must not add "not a tool".
    let yaml = format!(
        "{UPSTREAM}masks:\n  - {{ name: a, handler: github/x, description: d, bogus: 1 }}\nprofiles:\n  p: [a]\n"
    );
    let errs = errors(&yaml);
    assert_eq!(errs.len(), 1, "{errs}");
    assert!(errs.to_string().contains("unknown key `bogus`"));
}

#[test]
fn missing_variables_are_all_named() {
    let yaml = "upstreams:\n  a:\n    url: \"http://${HOST}/mcp\"\n    headers: { Authorization: \"Bearer ${TOKEN_A}\", X: \"${TOKEN_B}\" }\n";
    let errs = errors(yaml);
    let text = errs.to_string();
    for name in ["HOST", "TOKEN_A", "TOKEN_B"] {
        assert!(text.contains(&format!("`{name}` is not set")), "{text}");
    }
    assert_eq!(errs.iter().map(|e| e.line()).collect::<Vec<_>>(), vec![3, 4, 4]);
}

/// Every message of the table, as `check` prints them, for review.
#[test]
fn messages_of_the_table() {
    let out: Vec<String> = TABLE.iter().map(|(case, yaml, ..)| format!("# {case}\n{}", errors(yaml))).collect();
    insta::assert_snapshot!("config-error-messages", out.join("\n\n"));
}

#[test]
fn token_values_never_appear_in_messages_or_debug_output() {
    let yaml = "auth:\n  principals:\n    a: { token_env: GOOD_TOKEN }\n    b: { token_env: SAME_TOKEN }\n";
    let text = errors(yaml).to_string();
    assert!(!text.contains("0123456789abcdef0123"), "{text}");
    let (config, _) = load("auth:\n  principals:\n    a: { token_env: GOOD_TOKEN }\n", "t.yaml", &env).unwrap();
    assert!(!format!("{config:?}").contains("0123456789abcdef0123"));
    let creds: Vec<_> = config.auth.credentials().collect();
    assert_eq!(creds, [("a", "0123456789abcdef0123", None)]);
}
