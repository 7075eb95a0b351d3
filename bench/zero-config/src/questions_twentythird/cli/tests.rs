//! Tests of the cli half's questions: the readers of the MySQL client's vertical rows,
//! coverage reports and schema dumps, and the question builders, on small hand-made
//! outputs; and every shape of the half asked every kind of question at several seeds,
//! each answer in the raw result.

use serde_json::json;
use toolshape_fixtures::apis::{CATALOG, Split};

use super::readers::{coverage, mysql_rows, pg_dump};
use super::*;
use crate::question::{Check, Kind};
use crate::questions::questions;

/// This half's shapes.
const SHAPES: [&str; 4] = ["mysql_vertical_rows", "coverage_report", "pg_dump_schema", "semgrep_json"];

const MYSQL: &str = "mysql> SELECT o.id, o.status FROM orders o\n    -> LIMIT 3\\G
*************************** 1. row ***************************
          id: 12
order_number: ORD-2025-0000012
      status: refunded
       total: 99.00
       notes: Customer: leave at door
*************************** 2. row ***************************
          id: 11
order_number: ORD-2025-0000011
      status: paid
       total: 15.50
       notes: NULL
*************************** 3. row ***************************
          id: 10
order_number: ORD-2025-0000010
      status: paid
       total: 120.25
       notes: NULL
3 rows in set (0.01 sec)

";

const COVERAGE: &str = "Name                  Stmts   Miss Branch BrPart  Cover   Missing
---------------------------------------------------------------
app/__init__.py           0      0      0      0   100%
app/billing/x.py         40     10     12      2    70%   3-9, 12->15, 20-22
app/core/y.py            10     10      2      0     0%   1-14
---------------------------------------------------------------
TOTAL                    50     20     14      2    55%
";

const DUMP: &str = "--
-- Dumped from database version 16.4
-- Dumped by pg_dump version 16.4

CREATE SCHEMA billing;

CREATE TYPE billing.invoice_status AS ENUM (
    'draft',
    'paid'
);

CREATE TABLE billing.invoices (
    id bigint NOT NULL,
    account_id bigint NOT NULL,
    status billing.invoice_status DEFAULT 'draft'::billing.invoice_status NOT NULL,
    paid_at timestamp with time zone,
    CONSTRAINT invoices_total_check CHECK ((id >= 0))
);

CREATE TABLE public.accounts (
    id bigint NOT NULL,
    name character varying(255) NOT NULL
);

COMMENT ON TABLE public.accounts IS 'Billing accounts';

ALTER SEQUENCE public.accounts_id_seq OWNED BY public.accounts.id;

ALTER TABLE ONLY public.accounts ALTER COLUMN id SET DEFAULT nextval('public.accounts_id_seq'::regclass);

ALTER TABLE ONLY billing.invoices
    ADD CONSTRAINT invoices_pkey PRIMARY KEY (id);

CREATE UNIQUE INDEX invoices_account_id_key ON billing.invoices USING btree (account_id, status);

CREATE TRIGGER trg_invoices_audit AFTER INSERT OR DELETE OR UPDATE ON billing.invoices FOR EACH ROW EXECUTE FUNCTION audit.log_change();

ALTER TABLE ONLY billing.invoices
    ADD CONSTRAINT invoices_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
";

#[test]
fn every_shape_of_the_half_is_asked_every_kind_with_answers_in_the_raw_result() {
    for name in SHAPES {
        let shape = CATALOG.iter().find(|s| s.name == name).expect("the shape is in the catalog");
        assert_eq!(shape.split, Split::TwentyThird);
        for seed in [1, 2, 5] {
            let result = shape.generate(seed);
            let raw = String::from_utf8_lossy(&result.bytes()).into_owned();
            let qs = questions(shape, &result);
            assert!(qs.len() >= 30, "{name} gets {} questions at seed {seed}", qs.len());
            for kind in Kind::ALL {
                let n = qs.iter().filter(|q| q.kind == kind).count();
                assert!(n >= 5, "{name} is asked {n} {} questions at seed {seed}", kind.name());
            }
            for q in &qs {
                let must = match &q.check {
                    Check::Together(must) => must.clone(),
                    Check::Extreme { id, .. } => vec![id.clone()],
                    Check::Count { value, .. } => {
                        assert!(value.parse::<u64>().is_ok(), "{name}: {} counts {value}", q.text);
                        Vec::new()
                    }
                };
                assert!(q.kind != Kind::Lookup || q.needle.is_some(), "{name}: {}", q.text);
                for m in must.iter().chain(&q.needle) {
                    let quoted = serde_json::to_string(m).unwrap_or_default();
                    assert!(
                        raw.contains(m.as_str()) || raw.contains(&quoted),
                        "{name} at {seed}: {} needs {m:?}",
                        q.text
                    );
                }
            }
        }
    }
}

#[test]
fn mysql_rows_are_read_by_block_with_the_footer() {
    let (rows, footer) = mysql_rows(MYSQL);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["order_number"], "ORD-2025-0000012");
    assert_eq!(rows[0]["notes"], "Customer: leave at door");
    assert_eq!(rows[2]["row"], "3");
    assert_eq!(footer.as_deref(), Some("3 rows in set (0.01 sec)"));
    let qs: Vec<Question> = mysql::mysql_questions(MYSQL).into_iter().flatten().collect();
    let largest = qs.iter().find(|q| q.text == "Which order has the largest total?").map(|q| &q.check);
    assert_eq!(largest, Some(&Check::Extreme { id: "ORD-2025-0000010".into(), max: true }));
    let refunded = qs.iter().find(|q| q.text == "How many orders are refunded?").map(|q| &q.check);
    assert_eq!(refunded, Some(&Check::Count { labels: vec!["refunded".into()], value: "1".into() }));
    let limit = qs.iter().find(|q| q.kind == Kind::Head && q.text.contains("at most")).map(|q| &q.check);
    assert_eq!(limit, Some(&Check::Together(vec!["LIMIT 3".into()])));
    let took = qs.iter().find(|q| q.text == "How long did the query take?").map(|q| &q.check);
    assert_eq!(took, Some(&Check::Together(vec!["0.01 sec".into()])));
}

#[test]
fn coverage_rows_keep_their_missing_lines_and_the_total_is_apart() {
    let (files, total) = coverage(COVERAGE);
    assert_eq!(files.len(), 3);
    assert_eq!(files[1]["missing"], "3-9, 12->15, 20-22");
    assert_eq!(files[0]["missing"], "");
    assert_eq!(files[2]["cover"], "0%");
    assert_eq!(total.map(|t| t["stmts"].clone()), Some(json!("50")));
    let qs: Vec<Question> = coverage::coverage_questions(COVERAGE).into_iter().flatten().collect();
    let most = qs.iter().find(|q| q.text == "Which file has the most branches?").map(|q| &q.check);
    assert_eq!(most, Some(&Check::Extreme { id: "app/billing/x.py".into(), max: true }));
    // Two files miss ten statements each: no single holder, no question.
    assert!(!qs.iter().any(|q| q.text == "Which file has the most missed statements?"));
    let total_cover = qs.iter().find(|q| q.text == "What is the total coverage?").map(|q| &q.check);
    assert_eq!(total_cover, Some(&Check::Together(vec!["TOTAL".into(), "55%".into()])));
    let full = qs.iter().find(|q| q.text.contains("fully covered")).map(|q| &q.check);
    assert_eq!(full, Some(&Check::Count { labels: vec!["100%".into()], value: "1".into() }));
}

#[test]
fn a_schema_dump_is_read_object_by_object() {
    let d = pg_dump(DUMP);
    assert_eq!(d.versions.0, "16.4");
    assert_eq!(d.schemas, ["billing"]);
    assert_eq!(d.enums, [("billing.invoice_status".to_owned(), vec!["draft".to_owned(), "paid".to_owned()])]);
    assert_eq!(d.tables.len(), 2);
    let status = &d.tables[0].columns[2];
    assert_eq!(status.1, "billing.invoice_status");
    assert_eq!(status.2.as_deref(), Some("'draft'::billing.invoice_status"));
    assert_eq!(d.tables[0].columns.len(), 4, "the CHECK constraint is not a column");
    assert_eq!(d.tables[0].columns[3].1, "timestamp with time zone");
    assert_eq!(d.sequences, [("public.accounts_id_seq".to_owned(), "public.accounts.id".to_owned())]);
    assert_eq!(d.constraints.len(), 2);
    assert_eq!(d.constraints[1]["references"], "public.accounts");
    assert_eq!(d.constraints[1]["table"], "billing.invoices");
    assert_eq!(d.indexes[0]["columns"], "account_id, status");
    assert_eq!(d.indexes[0]["unique"], true);
    assert_eq!(d.triggers[0]["function"], "audit.log_change()");
    assert_eq!(d.triggers[0]["timing"], "AFTER INSERT OR DELETE OR UPDATE");
    let qs: Vec<Question> = pgdump::pg_dump_questions(DUMP).into_iter().flatten().collect();
    let widest = qs.iter().find(|q| q.text == "Which table has the most columns?").map(|q| &q.check);
    assert_eq!(widest, Some(&Check::Extreme { id: "billing.invoices".into(), max: true }));
    let fks = qs.iter().find(|q| q.text == "How many foreign keys are there?").map(|q| &q.check);
    assert!(matches!(fks, Some(Check::Count { value, .. }) if value == "1"));
    let last_fk = qs.iter().find(|q| q.text.starts_with("Which foreign key comes last")).map(|q| &q.check);
    let want = vec!["invoices_account_id_fkey".to_owned(), "public.accounts".to_owned()];
    assert_eq!(last_fk, Some(&Check::Together(want)));
}

#[test]
fn semgrep_findings_are_asked_by_place_and_counted_by_severity() {
    let finding = |path: &str, line: u64, rule: &str, severity: &str| {
        json!({"check_id": rule, "path": path, "start": {"line": line, "col": 1, "offset": 0},
               "extra": {"severity": severity, "lines": "x = 1", "metadata": {"cwe": ["CWE-89: SQL"], "confidence": "HIGH"}}})
    };
    let v = json!({
        "version": "1.97.0",
        "results": [
            finding("a.py", 3, "rule.one", "ERROR"),
            finding("a.py", 9, "rule.two", "WARNING"),
            finding("b.go", 4, "rule.one", "ERROR"),
        ],
        "errors": [],
        "paths": {"scanned": ["a.py", "b.go", "c.ts"]},
    });
    let qs: Vec<Question> = semgrep::semgrep_questions(&v).into_iter().flatten().collect();
    let errors = qs.iter().find(|q| q.text == "How many ERROR findings are there?").map(|q| &q.check);
    assert_eq!(errors, Some(&Check::Count { labels: vec!["ERROR".into()], value: "2".into() }));
    let most = qs.iter().find(|q| q.text == "Which file has the most findings?").map(|q| &q.check);
    assert_eq!(most, Some(&Check::Extreme { id: "a.py".into(), max: true }));
    let single = qs.iter().find(|q| q.text == "Which rule fired in b.go, and at which line?").map(|q| &q.check);
    assert_eq!(single, Some(&Check::Together(vec!["b.go".into(), "rule.one".into(), "4".into()])));
    let last = qs.iter().find(|q| q.text == "Which path is the last one scanned?").map(|q| &q.check);
    assert_eq!(last, Some(&Check::Together(vec!["c.ts".into()])));
}

#[test]
fn lookups_skip_keys_that_name_several_records() {
    let list = vec![json!({"k": "a", "v": "1"}), json!({"k": "a", "v": "2"}), json!({"k": "b", "v": "3"})];
    let q = lookup(&list, 0.0, "v of {key}?", "k", &["v"]).map(|q| q.check);
    assert_eq!(q, Some(Check::Together(vec!["b".into(), "3".into()])));
    assert!(lookup(&list[..2], 0.0, "v of {key}?", "k", &["v"]).is_none());
}
