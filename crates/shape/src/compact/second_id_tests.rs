//! The one random-looking id a record keeps is shown whole when it is of a usual length,
//! so a reader can name the record with it; a long token stays cut.

use serde_json::{Value, json};

use super::*;

/// A random-looking string of `len` characters, different for each `seed`.
fn random_text(seed: usize, len: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut state = (seed as u64).wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ALPHABET[(state >> 33) as usize % ALPHABET.len()] as char
        })
        .collect()
}

/// Log events named by a random id of `id_len` characters, with a service and a status.
fn events(id_len: usize) -> Vec<Value> {
    (0..20)
        .map(|i| {
            json!({
                "id": random_text(i, id_len),
                "service": (["web", "cart", "search"][i % 3]),
                "status": (["info", "error"][i % 2]),
            })
        })
        .collect()
}

#[test]
fn a_records_one_random_id_is_shown_whole() {
    let sample = events(54);
    let c = Compactor::learn(&sample);
    let shown = c.apply(&sample[7]);
    assert_eq!(shown["id"], sample[7]["id"], "{shown}");
}

#[test]
fn a_random_id_longer_than_ids_are_stays_cut() {
    let sample = events(160);
    let c = Compactor::learn(&sample);
    let shown = c.apply(&sample[7]);
    let id = shown["id"].as_str().unwrap_or_default();
    assert!(id.ends_with("chars]") && id.len() < 100, "{shown}");
}
