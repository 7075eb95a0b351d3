//! Cost on large inputs: linear, and cheap when there is nothing to find.

mod common;

use std::borrow::Cow;
use std::time::{Duration, Instant};

use common::{default_redactor, partial_redactor};
use toolshape_redact::RedactionCounts;

/// About `target` bytes of log lines full of digits, dates, ids and addresses, with a secret
/// every `every` lines (none when `every` is 0).
fn log_text(target: usize, every: usize) -> String {
    let mut text = String::with_capacity(target + 200);
    let mut i = 0u64;
    while text.len() < target {
        text.push_str(&format!(
            "2024-01-02T10:11:{:02}.{:03}Z INFO req={:08x}-1c2d-4e5f-8a9b-{:012x} ip=10.0.{}.{} \
             took {} ms v1.2.{} order {} status=200 path=/api/v1/items?page={}\n",
            i % 60,
            i % 1000,
            i.wrapping_mul(2_654_435_761) & 0xffff_ffff,
            i.wrapping_mul(40_503),
            i % 256,
            (i * 7) % 256,
            i % 997,
            i % 50,
            1_000_000_000 + i,
            i % 100
        ));
        if every > 0 && i.is_multiple_of(every as u64) {
            text.push_str(
                "user jane.doe@example.com paid with 4111 1111 1111 1111 from +44 20 7946 0958 \
                 using AKIAIOSFODNN7EXAMPLE\n",
            );
        }
        i += 1;
    }
    text
}

/// Generous enough for an unoptimised test build on a slow machine; a quadratic path would blow
/// through it by orders of magnitude. Release builds take a small fraction of this.
const LIMIT: Duration = Duration::from_secs(20);

#[test]
fn megabytes_with_nothing_to_find() {
    let text = log_text(4 << 20, 0);
    let r = default_redactor();
    let mut counts = RedactionCounts::default();
    let start = Instant::now();
    let out = r.redact_text(&text, &mut counts);
    let took = start.elapsed();
    println!("{} bytes, nothing to find: {took:?}", text.len());
    assert!(matches!(out, Cow::Borrowed(_)));
    assert!(counts.is_empty(), "{counts:?}");
    assert!(took < LIMIT, "{took:?}");
}

#[test]
fn megabytes_with_many_findings() {
    let text = log_text(4 << 20, 10);
    let lines = text.lines().filter(|l| l.starts_with("user ")).count() as u64;
    for r in [default_redactor(), partial_redactor()] {
        let mut counts = RedactionCounts::default();
        let start = Instant::now();
        let out = r.redact_text(&text, &mut counts);
        let took = start.elapsed();
        println!("{} bytes, {} findings: {took:?}", text.len(), counts.total());
        assert_eq!(counts.get("email"), lines);
        assert_eq!(counts.get("payment_card"), lines);
        assert_eq!(counts.get("phone"), lines);
        assert_eq!(counts.get("aws_access_key"), lines);
        assert_eq!(counts.total(), 4 * lines);
        assert!(!out.contains("4111 1111 1111 1111"));
        assert!(took < LIMIT, "{took:?}");
    }
}

#[test]
fn pathological_inputs_stay_linear() {
    let r = default_redactor();
    for text in [
        "1 ".repeat(1 << 20),
        "9".repeat(2 << 20),
        "a@".repeat(1 << 20),
        "a.".repeat(1 << 20) + "@",
        "+1 ".repeat(1 << 19),
        "-----BEGIN PRIVATE KEY-----\n".repeat(1 << 15),
        "https://u:".repeat(1 << 17),
        "eyJabcdefgh.".repeat(1 << 17),
        "DE89 ".repeat(1 << 18),
        "4111-".repeat(1 << 18),
    ] {
        let mut counts = RedactionCounts::default();
        let start = Instant::now();
        let _ = r.redact_text(&text, &mut counts);
        let took = start.elapsed();
        println!("{:?}…: {took:?}", &text[..12]);
        assert!(took < LIMIT, "{:?}: {took:?}", &text[..12]);
    }
}
