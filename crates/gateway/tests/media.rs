//! Media end to end, in one process: an rmcp client talks to the gateway over an in-memory
//! pipe; the gateway talks to an upstream defined here (Streamable HTTP on a loopback port)
//! whose tools answer with a large PNG, a small PNG, audio, an embedded text resource and a
//! resource link.
//!
//! Checked: the envelope comes first and the media follow as native blocks in the upstream's
//! order, each listed in the envelope's `data` with its index; a large image arrives
//! downscaled within the mask's media budget with its aspect kept; its `next` reads the
//! original byte for byte, and a `region` of it comes back fitted again; a small image
//! passes byte for byte; `mode: drop` lists media without sending them.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::{DynamicImage, ImageFormat, RgbImage};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult, PaginatedRequestParams,
    Resource, ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use toolshape_gateway::{Gateway, GatewayOptions};
use toolshape_media::Formula;

/// A deterministic picture: gradients, so resampling has something to keep.
fn png(width: u32, height: u32) -> Vec<u8> {
    let img =
        RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8]));
    let mut out = std::io::Cursor::new(Vec::new());
    DynamicImage::ImageRgb8(img).write_to(&mut out, ImageFormat::Png).unwrap();
    out.into_inner()
}

fn wav(len: usize) -> Vec<u8> {
    let mut bytes = b"RIFF\0\0\0\0WAVEfmt ".to_vec();
    bytes.resize(len, 0);
    bytes
}

#[derive(Clone)]
struct Camera;

impl ServerHandler for Camera {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tool = |name: &str| Tool::new(name.to_owned(), format!("the {name} tool"), Arc::new(Map::new()));
        Ok(ListToolsResult::with_all_items(vec![tool("shot"), tool("small"), tool("report")]))
    }

    async fn call_tool(
        &self,
        req: CallToolRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let r = match req.name.as_ref() {
            "shot" => CallToolResult::success(vec![
                ContentBlock::text("a screenshot of the page"),
                ContentBlock::image(STANDARD.encode(png(3000, 2000)), "image/png"),
                ContentBlock::audio(STANDARD.encode(wav(4000)), "audio/wav"),
                ContentBlock::resource(ResourceContents::text("a,b\n1,2\n", "file:///table.csv")),
                ContentBlock::resource_link(Resource::new("file:///page.html", "page.html")),
            ]),
            "small" => CallToolResult::success(vec![ContentBlock::image(STANDARD.encode(png(64, 48)), "image/png")]),
            "report" => CallToolResult::success(vec![
                ContentBlock::resource(ResourceContents::text(
                    "a long line of the log\n".repeat(4000),
                    "file:///big.log",
                )),
                ContentBlock::image(STANDARD.encode(png(64, 48)), "image/png"),
            ]),
            _ => return Err(ErrorData::invalid_params("no such tool", None)),
        };
        Ok(r.into())
    }
}

async fn start_camera() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let service = StreamableHttpService::new(
        || Ok(Camera),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, router).await });
    port
}

async fn client() -> RunningService<RoleClient, ()> {
    let port = start_camera().await;
    let yaml = format!(
        r#"
upstreams:
  cam: {{ url: "http://127.0.0.1:{port}/mcp", timeout_secs: 10 }}
masks:
  - name: page_shot
    handler: cam/shot
    description: A screenshot of the page.
    input_schema: {{ type: object, properties: {{}} }}
    result:
      media: {{ budget_tokens: 400 }}
  - name: listed_shot
    handler: cam/shot
    description: The screenshot, listed only.
    input_schema: {{ type: object, properties: {{}} }}
    result:
      media: {{ mode: drop }}
"#
    );
    let (config, masks) = toolshape_mask::load(&yaml, "test.yaml", &|_| None).expect("config loads");
    let options = GatewayOptions { secret: Some(b"test secret".to_vec()), ..GatewayOptions::default() };
    let gateway: Arc<Gateway> = Gateway::launch(config, masks, options).await.expect("gateway launches");
    let (ours, theirs) = tokio::io::duplex(1 << 22);
    let (gr, gw) = tokio::io::split(theirs);
    tokio::spawn(async move { toolshape_gateway::serve_io(gateway, gr, gw).await });
    let (cr, cw) = tokio::io::split(ours);
    ().serve((cr, cw)).await.expect("client connects")
}

/// Calls `name`; the result and its envelope (the structured content).
async fn call(client: &RunningService<RoleClient, ()>, name: &str, args: Value) -> (CallToolResult, Value) {
    let mut params = CallToolRequestParams::new(name.to_owned());
    if let Value::Object(m) = args {
        params = params.with_arguments(m);
    }
    let r = client.peer().call_tool(params).await.expect("the gateway answers");
    let env = r.structured_content.clone().expect("the envelope as structured content");
    let text = r.content[0].as_text().expect("the envelope comes first, as text").text.clone();
    assert!(text.starts_with("<<<tool-result "), "{text}");
    (r, env)
}

/// The envelope's list of items (its `data`).
fn items(env: &Value) -> Vec<Value> {
    env["data"].as_array().unwrap_or_else(|| panic!("data is the list of items: {env}")).clone()
}

fn decoded(block: &ContentBlock) -> DynamicImage {
    image::load_from_memory(&STANDARD.decode(&block.as_image().expect("an image block").data).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn media_follow_the_envelope_in_order_fitted_and_listed() {
    let client = client().await;
    let (result, env) = call(&client, "page_shot", json!({})).await;
    assert_ne!(env["status"], "error", "{env}");
    // Envelope, image, audio, embedded text resource, link: in the upstream's order.
    let kinds: Vec<&str> = result.content[1..]
        .iter()
        .map(|b| match b {
            ContentBlock::Image(_) => "image",
            ContentBlock::Audio(_) => "audio",
            ContentBlock::Resource(_) => "resource",
            ContentBlock::ResourceLink(_) => "resource_link",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["image", "audio", "resource", "resource_link"], "{env}");

    let listed = items(&env);
    assert_eq!(listed[0]["text"], "a screenshot of the page");
    let image = &listed[1];
    assert_eq!((image["type"].as_str(), image["index"].as_u64()), (Some("image"), Some(1)), "{image}");
    let tokens = image["tokens"].as_u64().unwrap();
    assert!(tokens <= 400, "{image}");
    let sent = decoded(&result.content[1]);
    assert_eq!(
        (u64::from(sent.width()), u64::from(sent.height())),
        (image["width"].as_u64().unwrap(), image["height"].as_u64().unwrap())
    );
    assert_eq!(u64::from(Formula::Anthropic.tokens(sent.width(), sent.height())), tokens);
    // Aspect 3:2 within a pixel, and smaller than the original.
    assert!(
        sent.width() < 3000 && (i64::from(sent.width()) * 2 - i64::from(sent.height()) * 3).abs() <= 3,
        "{}x{}",
        sent.width(),
        sent.height()
    );
    assert_eq!(image["omitted"]["original"]["width"], 3000);
    assert_eq!(listed[2]["index"], 2);
    assert_eq!(listed[3]["index"], 3);
    assert_eq!(listed[3]["uri"], "file:///table.csv");
    assert_eq!(listed[4]["index"], 4);
    assert_eq!(listed[4]["uri"], "file:///page.html");

    // `next` reads the original, byte for byte.
    let next = &image["next"];
    assert_eq!(next["tool"], "result_read", "{image}");
    let (original, read_env) = call(&client, "result_read", next["arguments"].clone()).await;
    assert_ne!(read_env["status"], "error", "{read_env}");
    let bytes = STANDARD.decode(&original.content[1].as_image().unwrap().data).unwrap();
    assert_eq!(bytes, png(3000, 2000));

    // A region of it, in the original's pixels, fitted to the budget again.
    let mut args = next["arguments"].clone();
    args["region"] = json!({"x": 2000, "y": 1000, "width": 1000, "height": 1000});
    let (region, region_env) = call(&client, "result_read", args).await;
    assert_ne!(region_env["status"], "error", "{region_env}");
    let part = decoded(&region.content[1]);
    assert_eq!(part.width(), part.height(), "a square region stays square");
    assert!(Formula::Anthropic.tokens(part.width(), part.height()) <= 400);
    // Its top-left pixel is the original's (2000, 1000): red 2000 % 256, green 1000 % 256.
    let pixel = part.to_rgb8().get_pixel(0, 0).0;
    assert!(pixel[0].abs_diff((2000 % 256) as u8) <= 12 && pixel[1].abs_diff((1000 % 256) as u8) <= 12, "{pixel:?}");

    // A region outside the image is a clear error.
    let mut args = next["arguments"].clone();
    args["region"] = json!({"x": 5000, "y": 0, "width": 10, "height": 10});
    let (_, bad) = call(&client, "result_read", args).await;
    assert_eq!(bad["status"], "error", "{bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_image_passes_byte_for_byte_and_drop_lists_only() {
    let client = client().await;
    let (result, env) = call(&client, "cam_small", json!({})).await;
    assert_eq!(result.content.len(), 2, "{env}");
    assert_eq!(STANDARD.decode(&result.content[1].as_image().unwrap().data).unwrap(), png(64, 48));
    assert!(items(&env)[0].get("omitted").is_none(), "{env}");

    let (result, env) = call(&client, "listed_shot", json!({})).await;
    let listed = items(&env);
    assert!(listed[1]["index"].is_null() && listed[1]["omitted"].is_object(), "{env}");
    assert!(listed[1]["next"]["arguments"]["media"].is_number(), "{env}");
    // The link and the embedded text still pass; the image and the audio do not.
    assert!(result.content[1..].iter().all(|b| !matches!(b, ContentBlock::Image(_) | ContentBlock::Audio(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_embedded_text_is_cut_in_place_and_the_items_after_it_stay_listed() {
    let client = client().await;
    let (result, env) = call(&client, "cam_report", json!({})).await;
    let listed = items(&env);
    assert_eq!(listed.len(), 2, "{env}");
    assert_eq!(listed[0]["uri"], "file:///big.log");
    assert!(listed[0]["index"].is_null() && listed[0]["text"].as_str().unwrap().contains("…[+"), "{env}");
    assert_eq!(listed[1]["index"], 1, "{env}");
    assert!(matches!(result.content[1], ContentBlock::Image(_)));
    assert_eq!(env["status"], "partial");
    assert!(env["next"].is_object(), "the whole text is one `next` away: {env}");
}
