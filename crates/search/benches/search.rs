//! Tool search latency: building the index (with and without the embedding table) and
//! answering one query (keywords, a request sharing no word with the catalog, a namespace,
//! a three-part request with and without its parts served in turn, and regex) over 100,
//! 1,000 and 10,000 tools.
//!
//! The tools are generated here from a fixed seed, so every run measures the same catalog:
//! namespaced camelCase and snake_case names, a sentence of description, three parameters
//! with descriptions. Run: `cargo bench -p toolshape-search --bench search`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use toolshape_search::{Mode, ParamDoc, Ranking, SearchIndex, ToolDoc};

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

const NAMESPACES: &[&str] = &["github", "slack", "jira", "calendar", "drive", "billing", "crm", "search", "db", "fs"];
const VERBS: &[&str] = &["get", "list", "create", "update", "delete", "search", "send", "archive", "export", "sync"];
const NOUNS: &[&str] = &[
    "issue",
    "message",
    "channel",
    "event",
    "file",
    "invoice",
    "customer",
    "record",
    "comment",
    "label",
    "user",
    "team",
    "report",
    "payment",
    "folder",
    "ticket",
    "project",
    "repository",
    "branch",
    "schedule",
];
const PROSE: &[&str] = &[
    "the",
    "a",
    "for",
    "with",
    "returns",
    "all",
    "matching",
    "items",
    "from",
    "account",
    "workspace",
    "by",
    "date",
    "owner",
    "status",
    "filter",
    "optional",
    "page",
    "results",
    "latest",
    "given",
    "identifier",
    "name",
    "new",
];

fn sentence(rng: &mut XorShift, words: usize) -> String {
    (0..words).map(|i| if i % 3 == 1 { rng.pick(NOUNS) } else { rng.pick(PROSE) }).collect::<Vec<_>>().join(" ")
}

fn catalog(count: usize) -> Vec<ToolDoc> {
    let mut rng = XorShift(0x5EED_0F70_015E_A7ED);
    (0..count)
        .map(|i| {
            let (namespace, verb, noun) = (rng.pick(NAMESPACES), rng.pick(VERBS), rng.pick(NOUNS));
            // Half snake_case, half camelCase; the index keeps names unique.
            let name = if i % 2 == 0 {
                format!("{namespace}_{verb}_{noun}_{i}")
            } else {
                format!("{namespace}.{verb}{}{}{i}", noun[..1].to_ascii_uppercase(), &noun[1..])
            };
            let description = format!("{} {noun}. {}", verb, sentence(&mut rng, 14));
            let params = (0..3)
                .map(|_| ParamDoc {
                    name: format!("{}_{}", rng.pick(NOUNS), rng.pick(PROSE)),
                    description: sentence(&mut rng, 8),
                })
                .collect();
            ToolDoc { name, description, params }
        })
        .collect()
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.measurement_time(Duration::from_secs(4));
    for count in [100, 1_000, 10_000] {
        let tools = catalog(count);
        group.sample_size(if count >= 10_000 { 10 } else { 30 });
        group.bench_with_input(BenchmarkId::new("build", count), &tools, |b, tools| {
            b.iter_batched(|| tools.clone(), |tools| black_box(SearchIndex::build(tools)), BatchSize::LargeInput);
        });
        let keywords_only = Ranking { embeddings: false, ..Ranking::default() };
        group.bench_with_input(BenchmarkId::new("build_keywords_only", count), &tools, |b, tools| {
            b.iter_batched(
                || tools.clone(),
                |tools| black_box(SearchIndex::build_ranked(tools, keywords_only.clone())),
                BatchSize::LargeInput,
            );
        });
        // The same index without serving a request's parts in turn, to measure what that costs.
        let fused_only = SearchIndex::build_ranked(tools.clone(), Ranking { cover: 0.0, ..Ranking::default() })
            .unwrap_or_else(|e| panic!("{e}"));
        let index = SearchIndex::build(tools).unwrap_or_else(|e| panic!("{e}"));
        group.sample_size(50);
        group.bench_function(BenchmarkId::new("query_bm25", count), |b| {
            b.iter(|| black_box(index.search(Mode::Bm25, "create a new ticket for the billing report", 5)));
        });
        group.bench_function(BenchmarkId::new("query_multi_part", count), |b| {
            let request =
                "find the open tickets of the billing team, then export the payment report and post it to the channel";
            b.iter(|| black_box(index.search(Mode::Bm25, request, 5)));
        });
        group.bench_function(BenchmarkId::new("query_multi_part_fused_only", count), |b| {
            let request =
                "find the open tickets of the billing team, then export the payment report and post it to the channel";
            b.iter(|| black_box(fused_only.search(Mode::Bm25, request, 5)));
        });
        // No word of this request is in the catalog: only meaning (and word vectors) match.
        group.bench_function(BenchmarkId::new("query_vocabulary_gap", count), |b| {
            b.iter(|| black_box(index.search(Mode::Bm25, "will it rain on the weekend at the lake", 5)));
        });
        group.bench_function(BenchmarkId::new("query_namespace", count), |b| {
            b.iter(|| black_box(index.search(Mode::Bm25, "github", 5)));
        });
        group.bench_function(BenchmarkId::new("query_regex", count), |b| {
            b.iter(|| black_box(index.search(Mode::Regex, "invoice|payment", 5)));
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
