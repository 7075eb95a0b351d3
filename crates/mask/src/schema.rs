//! The published JSON Schema of the config file, for editor completion and CI.
//!
//! Generated with `schemars` from the config types. Types owned by other crates
//! (`ShapePlan`, `Encoding`, `RenderMode`) get hand-written fragments here; a test compares
//! the `ShapePlan` fragment's keys with the plan's own fields so the two cannot drift apart.
//! The generated schema is committed at `schema/toolshape.schema.json`; a test fails when
//! it is stale (regenerate with `TOOLSHAPE_WRITE_SCHEMA=1 cargo test -p toolshape-mask schema`).

use schemars::{Schema, SchemaGenerator, json_schema};
use serde_json::{Value, json};

use crate::config::Config;

/// The JSON Schema (draft 2020-12) of a toolshape config file.
pub fn config_schema() -> Value {
    let schema = schemars::schema_for!(Config);
    let mut value = schema.to_value();
    if let Some(obj) = value.as_object_mut() {
        obj.insert("$id".into(), "https://github.com/toolshape/toolshape/schema/toolshape.schema.json".into());
    }
    value
}

/// The schema text as committed: pretty JSON and a final newline.
pub fn config_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&config_schema()).unwrap_or_default();
    text.push('\n');
    text
}

pub(crate) fn encoding(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "The tokenizer budgets are counted with.",
        "type": "string",
        "enum": ["o200k_base", "cl100k_base"],
        "default": "o200k_base"
    })
}

pub(crate) fn render_mode(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "How the result envelope is written for the model: compact JSON, or terse prose.",
        "type": "string",
        "enum": ["json", "prose"],
        "default": "json"
    })
}

/// `defaults.media` and a mask's `result.media` (`crate::media::MediaSettings`).
pub(crate) fn media(_: &mut SchemaGenerator) -> Schema {
    Schema::try_from(media_fragment()).unwrap_or_default()
}

fn media_fragment() -> Value {
    json!({
        "description": "What the images, audio and embedded resources of a result may take. Keys left out come from `defaults.media`, then from the built-in defaults.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "budget_tokens": {
                "description": "The most tokens all images of one result may cost together (by `formula`).",
                "type": "integer", "minimum": 0, "default": 1600
            },
            "formula": {
                "description": "Whose documented formula prices an image: `anthropic` (width × height / 750 after the long side is brought to 1,568 pixels) or `openai` (85 + 170 per 512-pixel tile).",
                "type": "string", "enum": ["anthropic", "openai"], "default": "anthropic"
            },
            "audio_max_bytes": {
                "description": "Audio and non-image embedded blobs larger than this are left out, with a `next` that reads them.",
                "type": "integer", "minimum": 0, "default": 1048576
            },
            "mode": {
                "description": "`fit` downscales images over their share of the budget; `pass` sends media unchanged (counted, never cut); `drop` lists them only.",
                "type": "string", "enum": ["fit", "pass", "drop"], "default": "fit"
            }
        }
    })
}

/// The `result:` block of a mask: `toolshape_shape::ShapePlan`.
pub(crate) fn shape_plan(_: &mut SchemaGenerator) -> Schema {
    let field_path = json!({
        "type": "string",
        "description": "A field path: `title`, `user.login`, `labels[].name`, `items[0].id`, `[\"a.b\"].c`."
    });
    json_schema!({
        "description": "How the result is shaped: every step optional. Left-out `budget_tokens` and `render` come from `defaults`.",
        "type": ["object", "null"],
        "additionalProperties": false,
        "properties": {
            "form": {
                "description": "`records` (fit records or text to the budget), `status` (\"X succeeded\" only), `reference` (store it, return a handle), `expect_one` (several matches are `ambiguous`).",
                "type": "string",
                "enum": ["records", "status", "reference", "expect_one"],
                "default": "records"
            },
            "records": {
                "description": "Where the records are (`$.items`); found automatically when left out.",
                "type": ["string", "null"]
            },
            "redact": {
                "description": "What to redact before anything is stored, counted or shown.",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "builtins": { "description": "Run the built-in detectors.", "type": "boolean", "default": true },
                    "disable": {
                        "description": "Built-in detector kinds to switch off (for example `phone`).",
                        "type": "array", "items": { "type": "string" }
                    },
                    "patterns": {
                        "description": "Extra patterns: a kind name and a regular expression.",
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": false,
                            "required": ["name", "pattern"],
                            "properties": {
                                "name": { "type": "string", "description": "Kind name for the placeholder (`[EMPLOYEE_ID]`)." },
                                "pattern": { "type": "string", "description": "A regular expression (Rust `regex` syntax)." }
                            }
                        }
                    },
                    "style": {
                        "description": "`placeholder` (`[EMAIL]`) or `partial` (`jo***@example.com`).",
                        "type": "string", "enum": ["placeholder", "partial"], "default": "placeholder"
                    }
                }
            },
            "redact_fields": {
                "description": "Field paths whose whole value is replaced (`customer.ssn`).",
                "type": "array", "items": field_path
            },
            "project": {
                "description": "Field paths to keep, with optional renames: `user.login as author`, `labels[].name as labels`. Empty keeps all.",
                "type": "array", "items": { "type": "string" }
            },
            "field_tokens": {
                "description": "Token caps for free-text fields, by output name (`body: 80`).",
                "type": "object", "additionalProperties": { "type": "integer", "minimum": 0 }
            },
            "default_field_tokens": {
                "description": "A cap for every string field not named in `field_tokens`.",
                "type": ["integer", "null"], "minimum": 0
            },
            "filter": {
                "description": "An RFC 9535 filter over each record: `@.state == 'open' && @.comments > 3`.",
                "type": ["string", "null"]
            },
            "sort": {
                "description": "Sort key and order; stable, records without the key last.",
                "type": ["object", "null"],
                "additionalProperties": false,
                "required": ["by"],
                "properties": {
                    "by": field_path,
                    "order": { "type": "string", "enum": ["asc", "desc"], "default": "asc" }
                }
            },
            "aggregate": {
                "description": "Count, group, statistics and recent share of the records.",
                "type": ["object", "null"],
                "additionalProperties": false,
                "properties": {
                    "only": { "description": "Return the aggregate alone, without records.", "type": "boolean", "default": false },
                    "group_by": {
                        "description": "Count records per value of these fields, keeping the most frequent.",
                        "type": "array",
                        "items": {
                            "anyOf": [
                                field_path,
                                {
                                    "type": "object",
                                    "additionalProperties": false,
                                    "required": ["field"],
                                    "properties": {
                                        "field": field_path,
                                        "top": { "type": "integer", "minimum": 0, "maximum": 1000, "default": 5 }
                                    }
                                }
                            ]
                        }
                    },
                    "stats": {
                        "description": "Numeric statistics (count, min, max, mean, sum) of these fields.",
                        "type": "array", "items": field_path
                    },
                    "recent": {
                        "description": "The share of records whose timestamp falls within a recent window.",
                        "type": ["object", "null"],
                        "additionalProperties": false,
                        "required": ["field", "within"],
                        "properties": {
                            "field": field_path,
                            "within": { "type": "string", "pattern": "^[0-9]+[smhdw]$", "description": "Like `30d`, `24h`, `90m`, `2w`." }
                        }
                    }
                }
            },
            "budget_tokens": {
                "description": "The most tokens the rendered result may take, delimiters included.",
                "type": "integer", "minimum": 100
            },
            "render": {
                "description": "Compact JSON, or terse prose.",
                "type": "string", "enum": ["json", "prose"]
            },
            "text": {
                "description": "How text results (files, logs, command output) are cut.",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "keep": { "type": "string", "enum": ["head", "head_tail"], "default": "head" },
                    "log_levels": { "type": ["boolean", "null"], "description": "Count log levels when the text looks like a log. Unset (or null): counted, of a large text over its head and tail only (the summary says which lines); true: over every line, whatever the size; false: not counted." }
                }
            },
            "auto": {
                "description": "The default view of a plan that names no fields (docs/shaping.md); each part can be turned off.",
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "compact": { "type": "boolean", "default": true, "description": "Leave out links, empty and repeated values and second ids; collapse nested objects to the value that names them; cut long text." },
                    "table": { "type": "boolean", "default": true, "description": "Show records that share their fields as a table." },
                    "facets": { "type": "boolean", "default": true, "description": "Count values and find extremes over every record, in the summary." },
                    "outline": { "type": "boolean", "default": true, "description": "Give structured text a map (files and hunks, headings, columns, landmarks)." },
                    "enter": { "type": "boolean", "default": true, "description": "Page into a field too large for one page instead of cutting it." },
                    "tail": { "type": "boolean", "default": true, "description": "Show the end of the result in the first read." },
                    "index": { "type": "boolean", "default": true, "description": "In a first read that cannot show every record whole, list the records after its rows by their key and a few short columns." },
                    "states": { "type": "boolean", "default": true, "description": "With facets, the largest and smallest number or time among the records of each value fewer than half hold of their first field of few values (the oldest open one)." },
                    "words": { "type": "boolean", "default": true, "description": "With an outline, end a text's map with its words counted by the lines that hold them (`ENOENT 74`)." }
                }
            },
            "noun": { "description": "What the records are called in summaries (`issues`).", "type": ["string", "null"] },
            "media": media_fragment(),
            "narrow_by": {
                "description": "For `form: expect_one`: the argument that would narrow several matches to one.",
                "type": ["string", "null"]
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use toolshape_shape::ShapePlan;

    use super::*;

    #[test]
    fn the_plan_fragment_names_every_plan_field() {
        let plan = serde_json::to_value(ShapePlan::default()).unwrap();
        let mut plan_keys: Vec<&String> = plan.as_object().unwrap().keys().collect();
        let fragment = shape_plan(&mut SchemaGenerator::default()).to_value();
        // `media` is read apart from the plan (crate::media), in the same block.
        let mut schema_keys: Vec<&String> =
            fragment["properties"].as_object().unwrap().keys().filter(|k| *k != "media").collect();
        plan_keys.sort();
        schema_keys.sort();
        assert_eq!(schema_keys, plan_keys, "update crate::schema::shape_plan to match ShapePlan");
        let text = serde_json::to_value(toolshape_shape::TextSpec::default()).unwrap();
        let mut text_keys: Vec<&String> = text.as_object().unwrap().keys().collect();
        let mut frag_text: Vec<&String> =
            fragment["properties"]["text"]["properties"].as_object().unwrap().keys().collect();
        text_keys.sort();
        frag_text.sort();
        assert_eq!(frag_text, text_keys, "update the `text` part of crate::schema::shape_plan");
    }

    #[test]
    fn top_level_keys_match_the_schema() {
        let schema = config_schema();
        let mut keys: Vec<&str> = schema["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        let mut top = crate::config::TOP_KEYS.to_vec();
        keys.sort_unstable();
        top.sort_unstable();
        assert_eq!(keys, top);
    }
}
