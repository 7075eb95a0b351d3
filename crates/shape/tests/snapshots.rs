//! File-driven snapshot tests: what the model reads, case by case.
//!
//! Each `tests/cases/*.json` is one case: a payload (a generator call such as
//! `{"generate": "issues", "n": 300, "seed": 1}`, a file under `tests/cases/payloads/`, an
//! inline JSON value or a text), or an upstream failure; a [`ShapePlan`] as a mask declares
//! it; a budget; and optionally a resume point. The snapshot holds exactly the text the
//! model would read (with a fixed nonce and a fixed "now") and the shaping report, so a
//! change to shaping shows up as a readable diff. A new case is a new file:
//!
//! ```json
//! {
//!   "description": "Why this case exists, in one sentence.",
//!   "payload": {"generate": "issues", "n": 300, "seed": 1},
//!   "plan": {"project": ["number", "title"]},
//!   "budget": 1500
//! }
//! ```
//!
//! Review new or changed snapshots with `cargo insta review`, or accept them all with
//! `INSTA_UPDATE=always cargo test -p toolshape-shape --test snapshots`.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};
use toolshape_fixtures::{Kind, NOW_UNIX, Size, generate};
use toolshape_shape::{Failure, OffsetContinuation, Resume, ShapeContext, ShapePlan, Shaped, Shaper};
use toolshape_tokens::Tokenizer;

/// Fixed so snapshots are byte-identical from run to run.
const NONCE: &str = "0123456789abcdef";

/// One case file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// What the case shows, kept in the snapshot's header.
    description: String,
    /// The tool name the model called.
    #[serde(default = "default_tool")]
    tool: String,
    /// The upstream result; absent for a failure case.
    payload: Option<Payload>,
    /// An upstream failure instead of a payload.
    failure: Option<FailureSpec>,
    /// The mask's `result:` block, without `budget_tokens` (that is `budget`).
    #[serde(default)]
    plan: Map<String, Value>,
    /// The token budget.
    budget: usize,
    /// Where reading resumes, as a `next` call would ask (`{"kind": "records", "offset": 20}`).
    resume: Option<Resume>,
}

fn default_tool() -> String {
    "list_issues".to_owned()
}

/// Where a case's payload comes from.
#[derive(Debug, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum Payload {
    /// A generator of `toolshape-fixtures`: `n` records (lines for logs) or `bytes`.
    Generate { generate: String, n: Option<usize>, bytes: Option<usize>, seed: Option<u64> },
    /// A file relative to `tests/cases/`.
    File { file: String },
    /// A JSON value, as the upstream would send it.
    Inline { inline: Value },
    /// A text result.
    Text { text: String },
}

/// [`Failure`] as case files spell it (the library type is not deserializable on purpose:
/// failures are made by the gateway, not read from configs).
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum FailureSpec {
    Timeout { upstream: String, after_ms: u64 },
    Crashed { upstream: String, detail: String },
    Unavailable { upstream: String, detail: String },
    UnknownTool { name: String, suggestions: Vec<String> },
    InvalidArguments { detail: String },
    Protocol { upstream: String, code: i64, message: String },
    InvalidResponse { upstream: String, detail: String },
    ResponseTooLarge { upstream: String, limit_bytes: u64 },
    ToolError { text: String },
    CursorInvalid { detail: String },
    CursorExpired,
}

impl FailureSpec {
    fn to_failure(&self) -> Failure {
        match self {
            FailureSpec::Timeout { upstream, after_ms } => {
                Failure::Timeout { upstream: upstream.clone(), after_ms: *after_ms }
            }
            FailureSpec::Crashed { upstream, detail } => {
                Failure::Crashed { upstream: upstream.clone(), detail: detail.clone() }
            }
            FailureSpec::Unavailable { upstream, detail } => {
                Failure::Unavailable { upstream: upstream.clone(), detail: detail.clone() }
            }
            FailureSpec::UnknownTool { name, suggestions } => {
                Failure::UnknownTool { name: name.clone(), suggestions: suggestions.clone() }
            }
            FailureSpec::InvalidArguments { detail } => Failure::InvalidArguments { detail: detail.clone() },
            FailureSpec::Protocol { upstream, code, message } => {
                Failure::Protocol { upstream: upstream.clone(), code: *code, message: message.clone() }
            }
            FailureSpec::InvalidResponse { upstream, detail } => {
                Failure::InvalidResponse { upstream: upstream.clone(), detail: detail.clone() }
            }
            FailureSpec::ResponseTooLarge { upstream, limit_bytes } => {
                Failure::ResponseTooLarge { upstream: upstream.clone(), limit_bytes: *limit_bytes }
            }
            FailureSpec::ToolError { text } => Failure::ToolError { text: text.clone() },
            FailureSpec::CursorInvalid { detail } => Failure::CursorInvalid { detail: detail.clone() },
            FailureSpec::CursorExpired => Failure::CursorExpired,
        }
    }
}

/// The payload's bytes and a one-line description of where they came from.
fn load_payload(payload: &Payload, case_dir: &Path) -> (Vec<u8>, String) {
    match payload {
        Payload::Generate { generate: kind_name, n, bytes, seed } => {
            let kind: Kind = kind_name.parse().unwrap_or_else(|e| panic!("{e}"));
            let seed = seed.unwrap_or(1);
            let (size, size_text) = match (n, bytes) {
                (Some(n), None) => (Size::Count(*n), format!("n={n}")),
                (None, Some(b)) => (Size::Bytes(*b), format!("bytes>={b}")),
                (None, None) => (Size::Count(1), "n=1".to_owned()),
                (Some(_), Some(_)) => panic!("give `n` or `bytes`, not both"),
            };
            let out = generate(kind, size, seed);
            let label = format!("generated {kind} {size_text} seed={seed} ({} bytes)", out.len());
            (out, label)
        }
        Payload::File { file } => {
            let path = case_dir.join(file);
            let out = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let label = format!("file {file} ({} bytes)", out.len());
            (out, label)
        }
        Payload::Inline { inline } => {
            let out = serde_json::to_vec(inline).expect("inline JSON serializes");
            let label = format!("inline JSON ({} bytes)", out.len());
            (out, label)
        }
        Payload::Text { text } => (text.clone().into_bytes(), format!("inline text ({} bytes)", text.len())),
    }
}

fn plan_of(case: &Case) -> ShapePlan {
    assert!(
        !case.plan.contains_key("budget_tokens"),
        "put the budget in the case's `budget`, not in `plan.budget_tokens`"
    );
    let mut plan = case.plan.clone();
    plan.insert("budget_tokens".into(), case.budget.into());
    serde_json::from_value(Value::Object(plan)).unwrap_or_else(|e| panic!("plan does not deserialize: {e}"))
}

/// Shape the case once.
fn run(case: &Case, shaper: &Shaper, input: Option<&[u8]>) -> Shaped {
    let continuation = OffsetContinuation { tool: "result_read".into(), base: Map::new() };
    let ctx = ShapeContext {
        tool: &case.tool,
        tokenizer: Tokenizer::default(),
        nonce: NONCE,
        now_unix: Some(NOW_UNIX),
        resume: case.resume.clone(),
        continuation: &continuation,
    };
    let result = match (&case.failure, input) {
        (Some(failure), _) => shaper.shape_failure(&failure.to_failure(), &ctx),
        (None, Some(bytes)) => shaper.shape(bytes, &ctx),
        (None, None) => panic!("a case needs a `payload` or a `failure`"),
    };
    result.unwrap_or_else(|e| panic!("shaping failed: {e}"))
}

#[test]
fn cases() {
    insta::glob!("cases/*.json", |path| {
        let text = std::fs::read_to_string(path).expect("case file is readable");
        let case: Case =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not a valid case: {e}", path.display()));
        let case_dir = path.parent().expect("a case file has a folder");
        let plan = plan_of(&case);
        let plan_text = serde_json::to_string(&case.plan).expect("plan serializes");
        let shaper = Shaper::new(plan).unwrap_or_else(|e| panic!("{}: plan does not compile: {e}", path.display()));
        let loaded = case.payload.as_ref().map(|p| load_payload(p, case_dir));
        let (input, source) = match &loaded {
            Some((bytes, label)) => (Some(bytes.as_slice()), label.clone()),
            None => (None, format!("failure {:?}", case.failure)),
        };

        let shaped = run(&case, &shaper, input);

        // The contract, checked on every case before the snapshot is compared: the text
        // the model reads fits the budget, the report's count is exact, and shaping the
        // same input again gives the same bytes.
        let tokens = Tokenizer::default().count(&shaped.text);
        assert!(tokens <= case.budget, "{}: {tokens} tokens > budget {}", path.display(), case.budget);
        assert_eq!(Some(tokens as u64), shaped.report.tokens_out, "{}: report.tokens_out is not exact", path.display());
        assert_eq!(run(&case, &shaper, input).text, shaped.text, "{}: not deterministic", path.display());
        assert_eq!(shaped.text.matches("<<<").count(), 2, "{}: a delimiter look-alike survived", path.display());

        let report = serde_json::to_string_pretty(&shaped.report).expect("report serializes");
        let resume = case.resume.as_ref().map_or_else(|| "none".to_owned(), |r| format!("{r:?}"));
        let snapshot = format!(
            "description: {}\ntool: {}\npayload: {source}\nplan: {plan_text}\nresume: {resume}\nbudget: {} tokens; read: {tokens} tokens; status: {}\n\
             ---- what the model reads ----\n{}\n---- report ----\n{report}\n",
            case.description,
            case.tool,
            case.budget,
            shaped.envelope.status.as_str(),
            shaped.text,
        );
        insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(snapshot);
        });
    });
}
