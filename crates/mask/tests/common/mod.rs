//! Helpers shared by the mask integration tests: loading the example configs and shaping
//! saved payloads deterministically.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

use toolshape_mask::{Config, MaskSet, load};
use toolshape_shape::{OffsetContinuation, ShapeContext, Shaped, Shaper};
use toolshape_tokens::Tokenizer;

/// The repository's `examples/` folder.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// The text of an example file.
pub fn example_text(name: &str) -> String {
    std::fs::read_to_string(examples_dir().join(name)).unwrap_or_else(|e| panic!("read {name}: {e}"))
}

/// The environment the examples expect, with fake secrets.
pub fn fake_env(name: &str) -> Option<String> {
    match name {
        "GITHUB_TOKEN" => Some("ghp_fake_token_for_tests".into()),
        "HOME_TOKEN" => Some("fake-home-token".into()),
        _ => None,
    }
}

/// Load and compile an example config.
pub fn load_example(name: &str) -> (Config, MaskSet) {
    let text = example_text(name);
    load(&text, &format!("examples/{name}"), &fake_env).unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

/// Load a config from text with no environment.
pub fn load_str(text: &str) -> MaskSet {
    load(text, "test.yaml", &|_| None).unwrap_or_else(|e| panic!("config does not load:\n{e}")).1
}

/// Shape `payload` with `shaper` as tool `tool`, with a fixed nonce and clock.
pub fn shape(shaper: &Shaper, tool: &str, payload: &[u8], tokenizer: Tokenizer) -> Shaped {
    let next = OffsetContinuation { tool: "result_read".into(), base: Default::default() };
    let ctx = ShapeContext {
        tool,
        tokenizer,
        nonce: "0123456789abcdef",
        // 2026-12-01T00:00:00Z: recent-window aggregates stay stable.
        now_unix: Some(1_796_083_200),
        resume: None,
        continuation: &next,
    };
    shaper.shape(payload, &ctx).unwrap_or_else(|e| panic!("shape {tool}: {e}"))
}
