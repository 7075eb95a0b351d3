//! A `POST` body that is not a JSON-RPC message gets `400 Bad Request` with a JSON-RPC error,
//! as the Streamable HTTP transport describes: `-32700` (parse error) when the body is not
//! JSON, `-32600` (invalid request) when it is JSON but not a message (`{}`, `[1, 2]`), with
//! `"id": null` since no request's id could be read. rmcp answers both with `415
//! Unsupported Media Type` and a plain-text line, which tells a client its media type was
//! wrong when it was not.
//!
//! Only a `POST` whose `Content-Type` is JSON is looked at (any other media type keeps its
//! `415`). The body is read here, up to the endpoint's size limit (`413` past it, as rmcp
//! says it), and handed on whole; it is parsed again only when rmcp refused it.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::{Value, json};

/// JSON-RPC: the body is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: JSON, but not a request, notification or response.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// The most bytes a request body may have (the endpoint's `http.max_body_bytes`).
#[derive(Clone, Copy)]
pub(crate) struct BodyLimit(pub(crate) usize);

/// See the module documentation.
pub(crate) async fn json_rpc_errors(
    State(BodyLimit(limit)): State<BodyLimit>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST || !is_json(request.headers().get(CONTENT_TYPE)) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("Payload Too Large: request body exceeds {limit} bytes"),
            );
        }
    };
    let response = next.run(Request::from_parts(parts, Body::from(bytes.clone()))).await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    // The media type was JSON: rmcp could not read the body as a message.
    match serde_json::from_slice::<Value>(&bytes) {
        Err(e) => rpc_error(PARSE_ERROR, &format!("Parse error: the body is not JSON ({e})")),
        Ok(_) => rpc_error(
            INVALID_REQUEST,
            "Invalid Request: the body is JSON but not one JSON-RPC 2.0 request, notification or response",
        ),
    }
}

/// Whether a `Content-Type` names JSON (parameters such as `charset` aside).
fn is_json(value: Option<&HeaderValue>) -> bool {
    value.and_then(|v| v.to_str().ok()).is_some_and(|v| {
        let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
        essence.trim().eq_ignore_ascii_case("application/json")
    })
}

/// `400` with a JSON-RPC error response whose id is null.
fn rpc_error(code: i64, message: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn plain(status: StatusCode, message: String) -> Response {
    let mut response = Response::new(Body::from(message));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

#[cfg(test)]
mod tests {
    use tower::ServiceExt;

    use super::*;

    /// A stand-in for rmcp: `415` for anything that is not a JSON object with `jsonrpc`.
    fn router() -> axum::Router {
        let inner = axum::routing::post(|body: axum::body::Bytes| async move {
            match serde_json::from_slice::<Value>(&body) {
                Ok(Value::Object(m)) if m.contains_key("jsonrpc") => (StatusCode::OK, "ok").into_response(),
                _ => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "fail to deserialize request body").into_response(),
            }
        });
        axum::Router::new()
            .route("/mcp", inner)
            .layer(axum::middleware::from_fn_with_state(BodyLimit(64), json_rpc_errors))
    }

    use axum::response::IntoResponse;

    async fn post(content_type: &str, body: &str) -> (StatusCode, String) {
        let request =
            Request::post("/mcp").header(CONTENT_TYPE, content_type).body(Body::from(body.to_owned())).unwrap();
        let response = router().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn bodies_that_are_not_json_rpc_get_400_with_a_json_rpc_error() {
        let (status, body) =
            post("application/json", r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":"#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let error: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(error["error"]["code"], PARSE_ERROR);
        assert_eq!(error["id"], Value::Null);
        for json in ["[1,2]", "{}", "42"] {
            let (status, body) = post("application/json; charset=utf-8", json).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{json}");
            let error: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(error["error"]["code"], INVALID_REQUEST, "{json}");
        }
        // A message passes through untouched; another media type keeps its 415.
        assert_eq!(post("application/json", r#"{"jsonrpc":"2.0"}"#).await, (StatusCode::OK, "ok".to_owned()));
        assert_eq!(post("text/plain", "{}").await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert_eq!(post("application/json", &"x".repeat(65)).await.0, StatusCode::PAYLOAD_TOO_LARGE);
    }
}
