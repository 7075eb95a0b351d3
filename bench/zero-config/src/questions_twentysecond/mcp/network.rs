//! Questions about the DevTools server's list of a page's network requests, one request a
//! line (`reqid=17 GET https://… [success - 200]`): the first requests of the load (the
//! redirect, the document, the first stylesheet, script, font and image, the first third
//! party, the first failure and POST, the header's count); the last ones (the last request
//! and the one before it, the last pending, failed, redirected, POST, image, script and
//! analytics hit); a request's status, method, reqid or URL named by another; and how many
//! requests failed, are pending, returned 404, were redirected, were POSTs, went to a host
//! or were scripts, and which host got the most requests, third-party requests, failures
//! and POSTs.

use crate::question::{Kind, Question};
use crate::questions_blind::{at, count, extreme, most_frequent, together};

/// One request line of the list.
#[derive(Debug, Clone, Copy)]
pub(super) struct Request<'t> {
    pub(super) id: usize,
    pub(super) method: &'t str,
    pub(super) url: &'t str,
    /// As printed: `[success - 200]`, `[failed - 404]`, `[failed - net::ERR_ABORTED]`,
    /// `[pending]`.
    pub(super) status: &'t str,
}

impl<'t> Request<'t> {
    /// The host of its URL (`cdn.example.com`).
    pub(super) fn host(&self) -> &'t str {
        let rest = self.url.split_once("://").map_or(self.url, |(_, r)| r);
        rest.split(['/', '?', '#']).next().unwrap_or(rest)
    }

    /// Its URL's path, without the query.
    fn path(&self) -> &'t str {
        let rest = self.url.split_once("://").map_or(self.url, |(_, r)| r);
        let path = rest.find('/').map_or("", |i| &rest[i..]);
        path.split(['?', '#']).next().unwrap_or(path)
    }

    fn failed(&self) -> bool {
        self.status.starts_with("[failed")
    }

    fn code(&self) -> Option<u16> {
        self.status
            .trim_start_matches("[failed - ")
            .trim_start_matches("[success - ")
            .trim_end_matches(']')
            .parse()
            .ok()
    }

    fn is_image(&self) -> bool {
        [".jpg", ".jpeg", ".png", ".webp", ".avif", ".gif", ".svg"].iter().any(|e| self.path().ends_with(e))
    }

    fn ends(&self, ext: &str) -> bool {
        self.path().ends_with(ext)
    }
}

/// Every request line of `t`: `reqid=N METHOD URL STATUS`.
pub(super) fn requests(t: &str) -> Vec<Request<'_>> {
    t.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("reqid=")?;
            let (id, rest) = rest.split_once(' ')?;
            let (method, rest) = rest.split_once(' ')?;
            let (url, _) = rest.rsplit_once(" [")?;
            // The status keeps its opening bracket, as the line prints it.
            let status = &rest[url.len() + 1..];
            Some(Request { id: id.parse().ok()?, method, url, status })
        })
        .collect()
}

/// The site's own domain: the first request's host without `www.`.
fn site(list: &[Request<'_>]) -> String {
    list.first().map_or(String::new(), |q| q.host().trim_start_matches("www.").to_owned())
}

fn third_party(q: &Request<'_>, site: &str) -> bool {
    let h = q.host();
    h != site && !h.ends_with(&format!(".{site}"))
}

/// The first request of `list` at or after `f` of the way down (wrapping round) that
/// `keep` accepts and whose URL occurs once in the text.
fn pick<'a, 't>(
    t: &str,
    list: &'a [Request<'t>],
    f: f64,
    keep: impl Fn(&Request<'t>) -> bool,
) -> Option<&'a Request<'t>> {
    let start = at(list.len(), f);
    (start..list.len()).chain(0..start).map(|i| &list[i]).find(|q| keep(q) && t.matches(q.url).count() == 1)
}

fn first<'a, 't>(list: &'a [Request<'t>], keep: impl Fn(&Request<'t>) -> bool) -> Option<&'a Request<'t>> {
    list.iter().find(|q| keep(q))
}

fn last<'a, 't>(list: &'a [Request<'t>], keep: impl Fn(&Request<'t>) -> bool) -> Option<&'a Request<'t>> {
    list.iter().rev().find(|q| keep(q))
}

/// A question answered by a request's URL, and its status when `with_status`.
fn about(kind: Kind, q: Option<&Request<'_>>, text: &str, with_status: bool) -> Option<Question> {
    let q = q?;
    let must: Vec<&str> = if with_status { vec![q.url, q.status] } else { vec![q.url] };
    Some(together(kind, text.to_owned(), None, &must))
}

pub(super) fn network_questions(t: &str) -> Vec<Option<Question>> {
    let list = requests(t);
    let site = site(&list);
    let n = list.len();
    let doc = list.iter().position(|q| q.status.starts_with("[success"));
    let after_doc = |keep: &dyn Fn(&Request<'_>) -> bool| doc.and_then(|d| list[d + 1..].iter().find(|q| keep(q)));
    let mut qs = vec![
        // The start of the load.
        about(Kind::Head, list.first(), "What was the first request the page made, and what was its status?", true),
        about(
            Kind::Head,
            doc.map(|d| &list[d]),
            "Which request loaded the page's document (the first that succeeded), and with what status?",
            true,
        ),
        about(Kind::Head, doc.and_then(|d| list.get(d + 1)), "Which request came right after the document?", false),
        about(Kind::Head, first(&list, |q| q.ends(".css")), "Which stylesheet was requested first?", false),
        about(Kind::Head, first(&list, |q| q.ends(".js")), "Which script was requested first?", false),
        about(Kind::Head, first(&list, |q| q.ends(".woff2")), "Which font file was requested first?", false),
        about(Kind::Head, first(&list, Request::is_image), "Which image was requested first?", false),
        about(
            Kind::Head,
            first(&list, |q| third_party(q, &site)),
            "What was the first request to a third-party host?",
            false,
        ),
        about(
            Kind::Head,
            after_doc(&|q| q.failed()),
            "Which request failed first after the document loaded, and how?",
            true,
        ),
        about(Kind::Head, first(&list, |q| q.method == "POST"), "What was the first POST request?", false),
        Some(together(
            Kind::Head,
            "How many requests does the list say it shows?".into(),
            None,
            &[&format!("Showing 1-{n} of {n}")],
        )),
        // The end of the list.
        about(Kind::Tail, list.last(), "What was the last request in the list, and what was its status?", true),
        list.last().map(|q| {
            together(
                Kind::Tail,
                "What is the reqid of the last request?".into(),
                None,
                &[&format!("reqid={}", q.id), q.url],
            )
        }),
        about(
            Kind::Tail,
            n.checked_sub(2).and_then(|i| list.get(i)),
            "Which request came just before the last one?",
            false,
        ),
        about(
            Kind::Tail,
            last(&list, |q| q.status == "[pending]"),
            "Which request is the last one still pending?",
            true,
        ),
        about(Kind::Tail, last(&list, Request::failed), "What was the last request that failed, and how?", true),
        about(
            Kind::Tail,
            last(&list, |q| q.code().is_some_and(|c| (300..400).contains(&c))),
            "What was the last request that was redirected, and with which status?",
            true,
        ),
        about(Kind::Tail, last(&list, |q| q.method == "POST"), "What was the last POST request?", false),
        about(Kind::Tail, last(&list, Request::is_image), "What was the last image requested?", false),
        about(Kind::Tail, last(&list, |q| q.ends(".js")), "What was the last script requested?", false),
        about(
            Kind::Tail,
            last(&list, |q| q.host().ends_with("google-analytics.com")),
            "What was the last Google Analytics hit?",
            false,
        ),
    ];
    // A request's status, method, reqid or URL, named by another of its values.
    for f in [0.3, 0.55, 0.8, 0.95] {
        qs.push(pick(t, &list, f, |_| true).map(|q| {
            together(
                Kind::Lookup,
                format!("What status did the request to {} get?", q.url),
                Some(q.url),
                &[q.url, q.status],
            )
        }));
    }
    let failed: Vec<Request<'_>> = list.iter().copied().filter(Request::failed).collect();
    for f in [0.35, 0.6, 0.85] {
        qs.push(pick(t, &failed, f, |_| true).map(|q| {
            together(Kind::Lookup, format!("Why did the request to {} fail?", q.url), Some(q.url), &[q.url, q.status])
        }));
    }
    for f in [0.45, 0.85] {
        // Three-digit ids are named by no other request of a list under a thousand long.
        let q = pick(t, &list, f, |q| q.id >= 100 && t.matches(&format!("reqid={} ", q.id)).count() == 1);
        qs.push(q.map(|q| {
            let id = format!("reqid={}", q.id);
            together(Kind::Lookup, format!("Which URL did request {id} fetch?"), Some(&id), &[&id, q.url])
        }));
    }
    qs.push(pick(t, &list, 0.6, |q| q.id >= 100).map(|q| {
        let id = format!("reqid={}", q.id);
        together(Kind::Lookup, format!("What is the reqid of the request to {}?", q.url), Some(q.url), &[q.url, &id])
    }));
    let posts: Vec<Request<'_>> = list.iter().copied().filter(|q| q.method == "POST").collect();
    qs.push(pick(t, &posts, 0.5, |_| true).map(|q| {
        together(
            Kind::Lookup,
            format!("Which HTTP method did the request to {} use?", q.url),
            Some(q.url),
            &[q.url, q.method],
        )
    }));
    qs.extend(aggregates(&list, &site));
    qs
}

/// Counts of requests by outcome, method, host and type, and the hosts with the most.
fn aggregates(list: &[Request<'_>], site: &str) -> Vec<Option<Question>> {
    let n = |keep: &dyn Fn(&Request<'_>) -> bool| list.iter().filter(|q| keep(q)).count();
    let hosts = most_frequent(list.iter().map(Request::host));
    // The second busiest host whose count no other host shares.
    let unique = |c: usize| hosts.iter().filter(|(d, _)| *d == c).count() == 1;
    let mut ranked = hosts.clone();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let second = ranked.iter().skip(1).find(|(c, _)| unique(*c));
    let server_errors = n(&|q| q.code().is_some_and(|c| c >= 500));
    let mut qs = vec![
        Some(count("How many requests failed?", &["failed"], n(&|q| q.failed()), Some("status"))),
        Some(count(
            "How many requests are still pending?",
            &["pending"],
            n(&|q| q.status == "[pending]"),
            Some("status"),
        )),
        Some(count("How many requests returned 404?", &["404"], n(&|q| q.code() == Some(404)), Some("status"))),
        Some(count(
            "How many requests were redirected (a 3xx status)?",
            &["redirect", "redirects", "3xx"],
            n(&|q| q.code().is_some_and(|c| (300..400).contains(&c))),
            Some("status"),
        )),
        Some(count(
            "How many requests failed with a network error (net::ERR_…) rather than an HTTP status?",
            &["net::ERR", "network error"],
            n(&|q| q.status.contains("net::ERR_")),
            Some("status"),
        )),
        Some(count("How many POST requests did the page make?", &["POST"], n(&|q| q.method == "POST"), Some("method"))),
        Some(count(
            "How many JavaScript files (.js) were requested?",
            &[".js", "scripts"],
            n(&|q| q.ends(".js")),
            Some("url"),
        )),
        Some(count("How many different hosts did the page contact?", &["hosts"], hosts.len(), Some("url"))),
        second.map(|(c, h)| count(&format!("How many requests went to {h}?"), &[h], *c, Some("url"))),
        extreme("Which host received the most requests?", hosts.clone(), true, Some("url")),
        extreme(
            "Which third-party host received the most requests?",
            most_frequent(list.iter().filter(|q| third_party(q, site)).map(Request::host)),
            true,
            Some("url"),
        ),
        extreme(
            "Which host had the most failed requests?",
            most_frequent(list.iter().filter(|q| q.failed()).map(Request::host)),
            true,
            Some("status"),
        ),
        extreme(
            "Which host received the most POST requests?",
            most_frequent(list.iter().filter(|q| q.method == "POST").map(Request::host)),
            true,
            Some("method"),
        ),
    ];
    if server_errors > 0 {
        qs.push(Some(count(
            "How many requests got a 5xx server error?",
            &["5xx", "server error"],
            server_errors,
            Some("status"),
        )));
    }
    qs
}
