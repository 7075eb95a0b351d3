//! Token counting: `toolshape_tokens::Tokenizer::count` against tiktoken-rs (`o200k_base`,
//! `encode_ordinary(..).len()`), side by side on the texts a gateway counts: pretty JSON,
//! minified JSON, prose, and a 1 MB run of one letter (a single pre-tokenizer piece, the
//! classic worst case of byte-pair merging).
//!
//! The inputs are built here from a fixed seed (this crate does not depend on the fixtures
//! crate) and are the same on every run: `cargo bench -p toolshape-tokens --bench count`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use toolshape_tokens::Tokenizer;

/// Size of each input, about.
const INPUT_BYTES: usize = 1_000_000;

/// A tiny xorshift generator: enough to vary the words deterministically.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "request",
    "fails",
    "after",
    "upgrade",
    "worker",
    "retries",
    "too",
    "early",
    "cache",
    "timeout",
    "when",
    "list",
    "is",
    "empty",
    "config",
    "loader",
    "reads",
    "unicode",
    "keys",
    "and",
    "returns",
    "stale",
    "data",
    "because",
    "lock",
    "released",
    "before",
    "flush",
    "completes",
    "under",
    "load",
    "production",
    "only",
];

/// About `bytes` of English-like prose in sentences.
fn prose(bytes: usize) -> String {
    let mut r = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut s = String::with_capacity(bytes + 64);
    while s.len() < bytes {
        let n = 6 + r.next() % 12;
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(r.pick(WORDS));
        }
        s.push_str(". ");
    }
    s
}

/// About `bytes` of a JSON array of issue-like records, pretty (two-space indent, one key per
/// line) or minified.
fn issues_json(bytes: usize, pretty: bool) -> String {
    let mut r = XorShift(0x2545_F491_4F6C_DD1D);
    let (nl, ind, sep) = if pretty { ("\n", "  ", ": ") } else { ("", "", ":") };
    let mut s = String::with_capacity(bytes + 1024);
    s.push('[');
    let mut id = 1_000u64;
    while s.len() < bytes {
        if id > 1_000 {
            s.push(',');
        }
        let login = format!("{}{}", r.pick(WORDS), r.next() % 1000);
        let fields = [
            ("id", format!("{}", 1_000_000_000 + id * 97)),
            ("number", format!("{id}")),
            ("title", format!("\"{} {} when {}\"", r.pick(WORDS), r.pick(WORDS), r.pick(WORDS))),
            ("url", format!("\"https://api.github.com/repos/acme/widgets/issues/{id}\"")),
            ("user", format!("{{\"login\"{sep}\"{login}\",\"html_url\"{sep}\"https://github.com/{login}\"}}")),
            ("state", format!("\"{}\"", if r.next().is_multiple_of(3) { "closed" } else { "open" })),
            ("comments", format!("{}", r.next() % 50)),
            (
                "created_at",
                format!(
                    "\"2025-{:02}-{:02}T{:02}:{:02}:00Z\"",
                    1 + r.next() % 12,
                    1 + r.next() % 28,
                    r.next() % 24,
                    r.next() % 60
                ),
            ),
            ("body", format!("\"{}\"", prose(200 + (r.next() % 600) as usize).replace('"', "'"))),
        ];
        s.push_str(nl);
        s.push_str(ind);
        s.push('{');
        for (i, (k, v)) in fields.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(nl);
            s.push_str(ind);
            s.push_str(ind);
            s.push_str(&format!("\"{k}\"{sep}{v}"));
        }
        s.push_str(nl);
        s.push_str(ind);
        s.push('}');
        id += 1;
    }
    s.push_str(nl);
    s.push(']');
    s
}

fn count(c: &mut Criterion) {
    let ours = Tokenizer::default();
    let tiktoken = tiktoken_rs::o200k_base().expect("tiktoken-rs ships o200k_base");
    let inputs = [
        ("json_pretty", issues_json(INPUT_BYTES, true)),
        ("json_minified", issues_json(INPUT_BYTES, false)),
        ("prose", prose(INPUT_BYTES)),
        ("one_letter_1MB", "a".repeat(INPUT_BYTES)),
    ];
    for (name, text) in &inputs {
        // Both must agree, or the comparison is of different work.
        let a = ours.count(text);
        let b = tiktoken.encode_ordinary(text).len();
        assert_eq!(a, b, "{name}: toolshape counts {a}, tiktoken-rs {b}");

        let mut g = c.benchmark_group(format!("count_{name}"));
        g.sample_size(10);
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(4));
        g.throughput(Throughput::Bytes(text.len() as u64));
        // `count` is one thread, like tiktoken-rs; `count_parallel` uses every core.
        g.bench_function("toolshape_tokens", |bench| bench.iter(|| black_box(ours.count(black_box(text)))));
        g.bench_function("toolshape_tokens_parallel", |bench| {
            bench.iter(|| black_box(ours.count_parallel(black_box(text))))
        });
        g.bench_function("tiktoken_rs", |bench| {
            bench.iter(|| black_box(tiktoken.encode_ordinary(black_box(text)).len()))
        });
        g.finish();
    }
}

criterion_group!(benches, count);
criterion_main!(benches);
