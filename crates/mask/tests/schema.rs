//! The committed JSON Schema of the config file must match the one generated from the
//! types, and every example must validate against it.
//!
//! Regenerate it with `TOOLSHAPE_WRITE_SCHEMA=1 cargo test -p toolshape-mask schema`.

mod common;

use std::path::PathBuf;

use common::{example_text, fake_env};
use toolshape_mask::config_schema_text;

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schema/toolshape.schema.json")
}

#[test]
fn schema_file_is_up_to_date() {
    let generated = config_schema_text();
    let path = schema_path();
    if std::env::var_os("TOOLSHAPE_WRITE_SCHEMA").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "schema/toolshape.schema.json is stale or missing; regenerate it with \
         `TOOLSHAPE_WRITE_SCHEMA=1 cargo test -p toolshape-mask schema` and commit the result"
    );
}

#[test]
fn schema_is_valid_and_accepts_every_example() {
    let schema = toolshape_mask::config_schema();
    let validator = jsonschema::validator_for(&schema).expect("the generated schema is a valid JSON Schema");
    for name in ["github-triage.yaml", "filesystem-reader.yaml", "device-status.yaml", "profiles.yaml"] {
        // The schema describes the file as written; load it to get its values as JSON.
        let (config, _) = toolshape_mask::load(&example_text(name), name, &fake_env).unwrap();
        let as_json = serde_json::json!({
            "upstreams": config.upstreams,
            "defaults": config.defaults,
            "masks": config.masks,
            "profiles": config.profiles,
            "vars": config.vars,
            "allowed_env": config.allowed_env,
        });
        let errors: Vec<String> =
            validator.iter_errors(&as_json).map(|e| format!("{}: {e}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    // And it refuses what the loader refuses.
    let bad = serde_json::json!({"masks": [{"name": "a", "description": "d", "result": {"budget": 1}}]});
    assert!(!validator.is_valid(&bad));
}
