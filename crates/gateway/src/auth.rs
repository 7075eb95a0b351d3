//! Who is calling over HTTP: bearer tokens mapped to principals, and sessions bound to the
//! principal that opened them.
//!
//! When the config names principals (`auth.principals`), every request must carry
//! `Authorization: Bearer <token>`. The token is hashed and compared, in constant time,
//! with the hash of every principal's token (all of them, without stopping at a match), so
//! neither the timing nor the reply tells how much of a guess was right. A request without
//! a token, or with a wrong one, is answered `401` with a `WWW-Authenticate: Bearer`
//! challenge and a body that says what to send, never what was sent.
//!
//! The principal found goes into the request's extensions as [`Authenticated`]; the MCP
//! handler reads it to scope cursors, handles and search sessions, and to pick the profile
//! whose tools the caller sees.
//!
//! Sessions are bound to their principal: the `Mcp-Session-Id` a client receives is the
//! session id followed by a keyed tag over the principal and that id. A request naming a
//! session must carry the tag made for its own principal, so a session id seen by someone
//! else (a log line, a proxy) cannot be used to read that session's stream, send into it,
//! or close it: it is answered `404 Session not found`, as an unknown session is. The key
//! comes from `TOOLSHAPE_SECRET` (so replicas sharing the secret accept each other's
//! sessions), or is random per process.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONNECTION, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use toolshape_mask::AuthConfig;

/// The header carrying the MCP session id.
const SESSION_HEADER: HeaderName = HeaderName::from_static("mcp-session-id");
/// Bytes of the session tag (written as 22 base64 characters).
const SESSION_TAG_LEN: usize = 16;
/// The most bytes all request headers together may take; more is answered `431`. Far above
/// what an MCP client sends (a token, a session id, a few standard headers), far below
/// what the HTTP parser would buffer.
pub(crate) const MAX_HEADER_BYTES: usize = 16 * 1024;

/// The principal a request authenticated as, in the request's extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Authenticated {
    /// The principal's name in `auth.principals`.
    pub(crate) name: Arc<str>,
    /// The profile whose tools it sees; every tool (or the gateway's profile) when `None`.
    pub(crate) profile: Option<Arc<str>>,
}

/// One configured principal, with the hash of its token (the token itself is not kept).
struct Known {
    digest: [u8; 32],
    who: Authenticated,
}

/// Checks bearer tokens against the configured principals.
pub(crate) struct Authenticator {
    known: Vec<Known>,
}

impl std::fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Token hashes are as good as tokens to an offline guesser: never printed.
        let names: Vec<&str> = self.known.iter().map(|k| &*k.who.name).collect();
        f.debug_struct("Authenticator").field("principals", &names).finish()
    }
}

/// Why a request was not authenticated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No `Authorization: Bearer` header.
    Missing,
    /// A bearer token that belongs to no principal.
    Invalid,
}

fn digest(token: &[u8]) -> [u8; 32] {
    Sha256::digest(token).into()
}

impl Authenticator {
    /// The principals of `auth` (token values as loaded from the environment).
    pub(crate) fn new(auth: &AuthConfig) -> Authenticator {
        let known = auth
            .credentials()
            .map(|(name, token, profile)| Known {
                digest: digest(token.as_bytes()),
                who: Authenticated { name: name.into(), profile: profile.map(Into::into) },
            })
            .collect();
        Authenticator { known }
    }

    /// Whether any principal is configured, so that requests need a token.
    pub(crate) fn is_enabled(&self) -> bool {
        !self.known.is_empty()
    }

    /// The principal whose token `headers` carry.
    pub(crate) fn authenticate(&self, headers: &HeaderMap) -> Result<&Authenticated, Refusal> {
        let token = bearer_token(headers).ok_or(Refusal::Missing)?;
        let presented = digest(token);
        // Every principal is compared, and the match is selected without branching, so the
        // time taken does not depend on which principal (if any) matched or how closely.
        let mut found = 0u32;
        for (i, known) in self.known.iter().enumerate() {
            let index = u32::try_from(i).map_or(u32::MAX, |i| i.saturating_add(1));
            found = u32::conditional_select(&found, &index, presented.ct_eq(&known.digest));
        }
        match found.checked_sub(1).and_then(|i| self.known.get(usize::try_from(i).ok()?)) {
            Some(known) => Ok(&known.who),
            None => Err(Refusal::Invalid),
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive).
fn bearer_token(headers: &HeaderMap) -> Option<&[u8]> {
    let value = headers.get(AUTHORIZATION)?.as_bytes();
    let (scheme, rest) = value.split_at_checked(6)?;
    if !scheme.eq_ignore_ascii_case(b"bearer") || !rest.starts_with(b" ") {
        return None;
    }
    let token = rest.trim_ascii();
    (!token.is_empty()).then_some(token)
}

/// Binds session ids to principals with a keyed tag.
pub(crate) struct SessionBinder {
    key: [u8; 32],
}

impl std::fmt::Debug for SessionBinder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionBinder(..)")
    }
}

impl SessionBinder {
    /// A binder keyed from `secret` (replicas sharing it accept each other's session ids),
    /// or from a random key when there is none.
    pub(crate) fn new(secret: Option<&[u8]>) -> SessionBinder {
        let mut key = [0u8; 32];
        match secret {
            Some(secret) => {
                let mut h = Sha256::new();
                h.update(b"toolshape session key v1\0");
                h.update(secret);
                key = h.finalize().into();
            }
            None => toolshape_util::random::fill(&mut key),
        }
        SessionBinder { key }
    }

    fn tag(&self, principal: &str, session: &str) -> [u8; SESSION_TAG_LEN] {
        let mut out = [0u8; SESSION_TAG_LEN];
        // A 32-byte key is always a valid HMAC key; the fallback is never taken.
        let Ok(mut mac) = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key) else { return out };
        mac.update(principal.as_bytes());
        mac.update(b"\0");
        mac.update(session.as_bytes());
        out.copy_from_slice(&mac.finalize().into_bytes()[..SESSION_TAG_LEN]);
        out
    }

    /// The session id `principal` is given for the session `inner`.
    pub(crate) fn seal(&self, principal: &str, inner: &str) -> String {
        format!("{inner}.{}", URL_SAFE_NO_PAD.encode(self.tag(principal, inner)))
    }

    /// The session behind `outer`, when `outer` was sealed for `principal`.
    pub(crate) fn open<'a>(&self, principal: &str, outer: &'a str) -> Option<&'a str> {
        let (inner, tag) = outer.rsplit_once('.')?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        bool::from(tag.as_slice().ct_eq(&self.tag(principal, inner))).then_some(inner)
    }
}

/// What the HTTP guard checks on every request: header size, bearer token, session owner.
#[derive(Debug)]
pub(crate) struct Guard {
    /// The principals; when none is configured, requests pass without a token.
    pub(crate) authenticator: Authenticator,
    /// Binds session ids to principals.
    pub(crate) sessions: SessionBinder,
}

/// A plain-text refusal.
fn refuse(status: StatusCode, message: &'static str) -> Response {
    let mut response = Response::new(Body::from(message));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

/// The most of a refused request's body read before answering, so that its connection can
/// carry the client's next try (with a token); past it, the connection is closed instead.
const DRAIN_BYTES: usize = 64 * 1024;

/// `response` to a refused `request`: its body is read first (up to [`DRAIN_BYTES`]), since
/// an answer sent before the body was read leaves the connection closing under a client that
/// sends its next request on it ("server disconnected without sending a response"). A larger
/// body is not read: the answer says `Connection: close`, and the client opens a new one.
async fn after_reading(request: Request, mut response: Response) -> Response {
    if axum::body::to_bytes(request.into_body(), DRAIN_BYTES).await.is_err() {
        response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// The size of `headers` as sent: names, values and the `: ` and CRLF around each.
fn header_bytes(headers: &HeaderMap) -> usize {
    headers.iter().map(|(name, value)| name.as_str().len() + value.len() + 4).sum()
}

/// The axum middleware in front of `/mcp`: refuses oversized headers (`431`), missing or
/// wrong bearer tokens (`401`) and sessions of another principal (`404`); passes the
/// principal on in the request's extensions, and seals the session ids it hands out.
pub(crate) async fn guard(State(guard): State<Arc<Guard>>, mut request: Request, next: Next) -> Response {
    if header_bytes(request.headers()) > MAX_HEADER_BYTES {
        return refuse(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "Request Header Fields Too Large: the request headers exceed 16 KiB; send only the MCP headers and the bearer token",
        );
    }
    if !guard.authenticator.is_enabled() {
        return next.run(request).await;
    }
    let who = match guard.authenticator.authenticate(request.headers()) {
        Ok(who) => who.clone(),
        Err(refusal) => {
            tracing::debug!(reason = ?refusal, "refused an HTTP request without a valid bearer token");
            let (challenge, message) = match refusal {
                Refusal::Missing => (
                    "Bearer realm=\"toolshape\"",
                    "Unauthorized: this gateway needs a bearer token; send `Authorization: Bearer <token>` with the token its operator gave you (one per principal in `auth.principals`)",
                ),
                Refusal::Invalid => (
                    "Bearer realm=\"toolshape\", error=\"invalid_token\"",
                    "Unauthorized: the bearer token was not accepted; check that the client sends the token exactly as configured for its principal",
                ),
            };
            let mut response = refuse(StatusCode::UNAUTHORIZED, message);
            response.headers_mut().insert(WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
            return after_reading(request, response).await;
        }
    };
    if let Some(outer) = request.headers().get(SESSION_HEADER) {
        let inner = outer.to_str().ok().and_then(|outer| guard.sessions.open(&who.name, outer));
        // Same answer as for a session that does not exist: nothing tells whether it does.
        let Some(inner) = inner.and_then(|s| HeaderValue::from_str(s).ok()) else {
            return after_reading(request, refuse(StatusCode::NOT_FOUND, "Not Found: Session not found")).await;
        };
        request.headers_mut().insert(SESSION_HEADER, inner);
    }
    let name = who.name.clone();
    request.extensions_mut().insert(who);
    let mut response = next.run(request).await;
    let sealed = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|inner| HeaderValue::from_str(&guard.sessions.seal(&name, inner)).ok());
    if let Some(sealed) = sealed {
        response.headers_mut().insert(SESSION_HEADER, sealed);
    }
    response
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn auth(principals: &[(&str, &str, Option<&str>)]) -> Authenticator {
        let mut yaml = String::from("upstreams: {}\nprofiles:\n  triage: [open_issues]\nauth:\n  principals:\n");
        for (name, _, profile) in principals {
            let profile = profile.map(|p| format!(", profile: {p}")).unwrap_or_default();
            yaml.push_str(&format!("    {name}: {{ token_env: TOKEN_{name}{profile} }}\n"));
        }
        let tokens: Vec<(String, String)> =
            principals.iter().map(|(n, t, _)| (format!("TOKEN_{n}"), (*t).to_owned())).collect();
        let lookup = move |var: &str| tokens.iter().find(|(k, _)| k == var).map(|(_, v)| v.clone());
        let config = toolshape_mask::Config::parse(&yaml, "t.yaml", &lookup).unwrap();
        Authenticator::new(&config.auth)
    }

    fn headers(authorization: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(AUTHORIZATION, HeaderValue::from_str(authorization).unwrap());
        h
    }

    #[test]
    fn each_token_finds_its_own_principal_and_nothing_else_passes() {
        let a = auth(&[("alice", "alice-token-0123456789", None), ("bob", "bob-token-0123456789ab", Some("triage"))]);
        assert!(a.is_enabled());
        let alice = a.authenticate(&headers("Bearer alice-token-0123456789")).unwrap();
        assert_eq!(&*alice.name, "alice");
        assert_eq!(alice.profile, None);
        let bob = a.authenticate(&headers("bearer  bob-token-0123456789ab ")).unwrap();
        assert_eq!(&*bob.name, "bob");
        assert_eq!(bob.profile.as_deref(), Some("triage"));
        assert_eq!(a.authenticate(&HeaderMap::new()), Err(Refusal::Missing));
        assert_eq!(a.authenticate(&headers("Basic YWxpY2U6eA==")), Err(Refusal::Missing));
        assert_eq!(a.authenticate(&headers("Bearer ")), Err(Refusal::Missing));
        assert_eq!(a.authenticate(&headers("Bearer alice-token-012345678")), Err(Refusal::Invalid));
        assert_eq!(a.authenticate(&headers("Bearer alice-token-0123456789x")), Err(Refusal::Invalid));
        assert_eq!(a.authenticate(&headers("Bearertoken alice-token-0123456789")), Err(Refusal::Missing));
    }

    #[test]
    fn debug_output_names_principals_but_not_tokens() {
        let a = auth(&[("alice", "alice-token-0123456789", None)]);
        let shown = format!("{a:?}");
        assert!(shown.contains("alice"));
        assert!(!shown.contains("alice-token"));
    }

    #[test]
    fn a_sealed_session_opens_only_for_its_principal_and_key() {
        let binder = SessionBinder::new(Some(b"shared secret"));
        let sealed = binder.seal("alice", "8b6f-session");
        assert_eq!(binder.open("alice", &sealed), Some("8b6f-session"));
        assert_eq!(binder.open("bob", &sealed), None);
        assert_eq!(binder.open("alice", "8b6f-session"), None);
        let other_session = sealed.replace("8b6f", "8b6e");
        assert_eq!(binder.open("alice", &other_session), None);
        // Another replica with the same secret accepts it; one with another secret does not.
        assert_eq!(SessionBinder::new(Some(b"shared secret")).open("alice", &sealed), Some("8b6f-session"));
        assert_eq!(SessionBinder::new(Some(b"other secret")).open("alice", &sealed), None);
        assert_eq!(SessionBinder::new(None).open("alice", &sealed), None);
    }

    proptest::proptest! {
        #[test]
        fn sealing_round_trips_and_any_change_to_the_tag_is_refused(
            principal in "[a-z0-9_-]{1,12}",
            session in "[A-Za-z0-9-]{1,40}",
            flip in 0usize..22,
        ) {
            let binder = SessionBinder::new(Some(b"k"));
            let sealed = binder.seal(&principal, &session);
            proptest::prop_assert_eq!(binder.open(&principal, &sealed), Some(session.as_str()));
            let (inner, tag) = sealed.rsplit_once('.').unwrap();
            let mut chars: Vec<char> = tag.chars().collect();
            chars[flip] = if chars[flip] == 'A' { 'B' } else { 'A' };
            let altered = format!("{inner}.{}", chars.into_iter().collect::<String>());
            proptest::prop_assert_eq!(binder.open(&principal, &altered), None);
        }
    }
}
