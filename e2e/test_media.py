"""Images, audio, embedded resources and links through toolshape, with the official Python MCP
client, over stdio and Streamable HTTP.

In front of server-everything (its tiny PNG, its resource links, its embedded resources) and
the bundled sample upstream (a 4000 × 3000 dashboard, a long WAV, every content type in one
result, hostile images): the envelope comes first and lists every media item in place; the
media follow as native blocks in the upstream's order; every image the client gets decodes at
the size the listing declares; the images of one result cost at most the media budget by the
formula; and `next` returns the original bytes, or a region of them fitted again.

A real browser screenshot (`@playwright/mcp` driving Debian's Chromium) is a heavy test: it
runs when TOOLSHAPE_HEAVY_TESTS asks for heavy tests (scripts/test.sh sets it and installs
Chromium), and is skipped with the reason printed otherwise.
"""

from __future__ import annotations

import base64
import io
import math
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageFile

import harness

pytestmark = pytest.mark.anyio

TRANSPORTS = ["stdio", "http"]


def anthropic_tokens(width: int, height: int) -> int:
    """Anthropic's documented image cost, for an image the provider does not scale further
    (what toolshape sends after fitting): width × height / 750, rounded up."""
    assert max(width, height) <= 1568, (width, height)
    return math.ceil(width * height / 750)


def openai_tokens(width: int, height: int) -> int:
    """OpenAI's documented high-detail cost for an image within its fitting rules."""
    assert max(width, height) <= 2048 and min(width, height) <= 768, (width, height)
    return 85 + 170 * math.ceil(width / 512) * math.ceil(height / 512)


def blocks(result: Any) -> list[Any]:
    """The content blocks after the envelope."""
    assert result.content[0].type == "text", [c.type for c in result.content]
    return list(result.content[1:])


def decoded(block: Any, lenient: bool = False) -> Image.Image:
    """The image a block carries, decoded (`lenient`: skipping bad CRCs of optional chunks,
    as browsers and toolshape do; Pillow refuses them by default)."""
    data = block.data if block.type == "image" else block.resource.blob
    ImageFile.LOAD_TRUNCATED_IMAGES = lenient
    try:
        image = Image.open(io.BytesIO(base64.b64decode(data)))
        image.load()
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = False
    return image


def listed(env: harness.Envelope) -> list[dict[str, Any]]:
    """The records of the envelope's data that list a block (everything but text)."""
    assert isinstance(env.data, list), env.data
    return [r for r in env.data if r.get("type") != "text"]


def check_listing_matches_blocks(env: harness.Envelope, lenient: bool = False) -> None:
    """Every record with an index names the block at that position, of the same type, and
    every image decodes at the size its record declares."""
    after = blocks(env.result)
    indexed = [r for r in listed(env) if r.get("index") is not None]
    assert [r["index"] for r in indexed] == list(range(1, len(after) + 1)), (indexed, [b.type for b in after])
    for record in indexed:
        block = after[record["index"] - 1]
        assert block.type == record["type"], (record, block.type)
        if "width" in record:
            image = decoded(block, lenient)
            assert image.size == (record["width"], record["height"]), (record, image.size)


def media_config(upstream: dict[str, Any], **media: Any) -> dict[str, Any]:
    config: dict[str, Any] = {"upstreams": {"up": upstream}, "defaults": {"prefix": "none"}}
    if media:
        config["defaults"]["media"] = media
    return config


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_everything_tiny_image_reaches_the_client_as_an_image(tmp_path: Path, transport: str) -> None:
    config = media_config(harness.node_stdio("mcp-server-everything", "stdio"))
    async with harness.gateway(tmp_path, config, transport) as s:
        env = await s.envelope("get-tiny-image")
        assert env.status == "ok", env.summary
        texts = [r["text"] for r in env.data if r["type"] == "text"]
        assert texts == ["Here's the image you requested:", "The image above is the MCP logo."]
        [record] = listed(env)
        assert record == {"type": "image", "index": 1, "mimeType": "image/png", "width": 20, "height": 20, "tokens": 1}
        [block] = blocks(env.result)
        assert block.type == "image" and block.mime_type == "image/png"
        # Its optional iCCP chunk has a bad CRC: passed byte for byte, and it decodes.
        assert decoded(block, lenient=True).size == (20, 20)
        direct = await harness.direct_call(
            tmp_path, [str(harness.NODE_BIN / "mcp-server-everything"), "stdio"], "get-tiny-image", {}
        )
        assert block.data == next(c.data for c in direct.content if c.type == "image")
        check_listing_matches_blocks(env, lenient=True)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_everything_resource_links_and_embedded_resources_pass(tmp_path: Path, transport: str) -> None:
    config = media_config(harness.node_stdio("mcp-server-everything", "stdio"))
    async with harness.gateway(tmp_path, config, transport) as s:
        env = await s.envelope("get-resource-links", {"count": 4})
        links = listed(env)
        assert [r["type"] for r in links] == ["resource_link"] * 4
        after = blocks(env.result)
        assert [b.type for b in after] == ["resource_link"] * 4
        assert [str(b.uri) for b in after] == [r["uri"] for r in links]
        assert all(r["description"].startswith("Resource ") for r in links)
        check_listing_matches_blocks(env)

        for kind in ("Text", "Blob"):
            env = await s.envelope("get-resource-reference", {"resourceType": kind, "resourceId": 2})
            [record] = listed(env)
            assert record["type"] == "resource" and record["index"] == 1, record
            [block] = blocks(env.result)
            assert block.type == "resource" and str(block.resource.uri) == record["uri"]
            check_listing_matches_blocks(env)


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_large_screenshot_is_fitted_and_next_returns_the_original(tmp_path: Path, transport: str) -> None:
    config = media_config(harness.sample_stdio())
    async with harness.gateway(tmp_path, config, transport) as s:
        env = await s.envelope("render_image", {"width": 4000, "height": 3000}, timeout=180)
        [record] = listed(env)
        assert record["omitted"]["original"]["width"] == 4000
        assert record["omitted"]["original"]["height"] == 3000
        [block] = blocks(env.result)
        image = decoded(block)
        assert image.size == (record["width"], record["height"])
        assert abs(image.size[1] - image.size[0] * 3 / 4) <= 1, image.size
        assert anthropic_tokens(*image.size) == record["tokens"] <= 1600

        original = await s.call(record["next"]["tool"], record["next"]["arguments"], timeout=120)
        page = harness.parse_envelope(original, "result_read")
        [orig_block] = blocks(original)
        raw = base64.b64decode(orig_block.data)
        assert len(raw) == record["omitted"]["original"]["bytes"]
        assert decoded(orig_block).size == (4000, 3000)
        assert page.data[0]["width"] == 4000

        region = {"x": 100, "y": 50, "width": 300, "height": 200}
        args = {**record["next"]["arguments"], "region": region}
        part = await s.call("result_read", args, timeout=120)
        part_env = harness.parse_envelope(part, "result_read")
        [part_block] = blocks(part)
        assert decoded(part_block).size == (300, 200)
        assert part_env.data[0]["region"] == region
        # The region is the original's pixels, not the downscaled copy's.
        full = decoded(orig_block).convert("RGB")
        assert decoded(part_block).convert("RGB").getpixel((0, 0)) == full.getpixel((100, 50))


@pytest.mark.parametrize("formula", ["anthropic", "openai"])
async def test_several_images_share_the_budget(tmp_path: Path, formula: str) -> None:
    config = media_config(harness.sample_stdio(), budget_tokens=1200, formula=formula)
    cost = anthropic_tokens if formula == "anthropic" else openai_tokens
    async with harness.gateway(tmp_path, config) as s:
        env = await s.envelope("render_image", {"width": 2400, "height": 1800, "count": 4}, timeout=180)
        records = listed(env)
        assert len(records) == 4
        sent = [r for r in records if r["index"] is not None]
        total = sum(cost(r["width"], r["height"]) for r in sent)
        assert total == sum(r["tokens"] for r in records) <= 1200, records
        check_listing_matches_blocks(env)


async def test_audio_over_the_limit_is_left_out_with_a_next(tmp_path: Path) -> None:
    async with harness.gateway(tmp_path, media_config(harness.sample_stdio())) as s:
        short = await s.envelope("render_audio", {"seconds": 2})
        [record] = listed(short)
        assert record["index"] == 1 and record["bytes"] == 44 + 2 * 32000
        [block] = blocks(short.result)
        assert block.type == "audio" and block.mime_type == "audio/wav"

        long = await s.envelope("render_audio", {"seconds": 40})
        [record] = listed(long)
        assert record["index"] is None
        assert "audio_max_bytes" in record["omitted"]["reason"]
        assert blocks(long.result) == []
        again = await s.call(record["next"]["tool"], record["next"]["arguments"])
        [audio] = blocks(again)
        assert len(base64.b64decode(audio.data)) == 44 + 40 * 32000


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_every_content_type_in_order(tmp_path: Path, transport: str) -> None:
    async with harness.gateway(tmp_path, media_config(harness.sample_stdio()), transport) as s:
        env = await s.envelope("mixed_media", {"resource_kb": 64})
        types = [r["type"] for r in env.data]
        assert types == ["text", "image", "audio", "resource_link", "resource", "resource", "resource"], types
        # The large text resource is shaped into the envelope, not passed as a block: its text
        # is cut in place, so the items after it are still listed next to their blocks.
        large = env.data[5]
        assert large.get("index") is None and large["uri"] == "sample://logs/large.log"
        assert "…[+" in large["text"] and env.status == "partial", large
        assert env.next is not None
        assert env.data[6]["index"] == 5 and env.data[6]["uri"] == "sample://images/icon.png"
        assert [b.type for b in blocks(env.result)] == ["image", "audio", "resource_link", "resource", "resource"]
        check_listing_matches_blocks(env)


async def test_hostile_images_are_noted_and_the_rest_arrives(tmp_path: Path) -> None:
    async with harness.gateway(tmp_path, media_config(harness.sample_stdio())) as s:
        env = await s.envelope("hostile_media")
        records = listed(env)
        assert len(records) == 5
        bomb, cut, mislabelled, not_base64, good = records
        assert bomb["index"] is None and "decompression bomb" in bomb["omitted"]["reason"]
        assert cut["index"] is None and "truncated" in cut["omitted"]["reason"]
        assert mislabelled["mimeType"] == "image/png" and "image/jpeg" in mislabelled["note"]
        assert not_base64["index"] is None and "base64" in not_base64["omitted"]["reason"]
        assert good["index"] == 2 and (good["width"], good["height"]) == (64, 48)
        check_listing_matches_blocks(env)
        # The gateway is still serving.
        assert (await s.envelope("render_image", {"width": 30, "height": 20})).status == "ok"


async def test_modes_and_per_mask_budgets_from_the_config(tmp_path: Path) -> None:
    config = media_config(harness.sample_stdio(), mode="drop")
    # A masked tool hides the upstream tool it wraps: each case is a mask of its own.
    config["masks"] = [
        {
            "name": "listed_screenshot",
            "handler": "up/render_image",
            "description": "The dashboard, listed only (defaults.media).",
            "handler_input": {"width": 300, "height": 200},
        },
        {
            "name": "small_screenshot",
            "handler": "up/render_image",
            "description": "The dashboard, fitted to 300 tokens.",
            "handler_input": {"width": 1600, "height": 1200},
            "result": {"media": {"budget_tokens": 300, "mode": "fit"}},
        },
        {
            "name": "whole_screenshot",
            "handler": "up/render_image",
            "description": "The dashboard as it is.",
            "handler_input": {"width": 900, "height": 600},
            "result": {"media": {"mode": "pass"}},
        },
    ]
    async with harness.gateway(tmp_path, config) as s:
        dropped = await s.envelope("listed_screenshot")
        [record] = listed(dropped)
        assert record["index"] is None and "drop" in record["omitted"]["reason"]
        assert blocks(dropped.result) == []

        small = await s.envelope("small_screenshot")
        [record] = listed(small)
        assert record["tokens"] <= 300 and record["index"] == 1
        assert anthropic_tokens(*decoded(blocks(small.result)[0]).size) <= 300

        whole = await s.envelope("whole_screenshot")
        [record] = listed(whole)
        assert (record["width"], record["height"]) == (900, 600)
        assert decoded(blocks(whole.result)[0]).size == (900, 600)


def browser_reason() -> str | None:
    """Why the browser test cannot run here, or None."""
    if os.environ.get("TOOLSHAPE_HEAVY_TESTS", "") in ("", "0"):
        return "this test needs Chromium; set TOOLSHAPE_HEAVY_TESTS=1 to run it"
    return None


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_real_browser_screenshot_arrives_within_budget(tmp_path: Path, transport: str) -> None:
    reason = browser_reason()
    if reason:
        print(f"skipped: {reason}", file=sys.stderr)
        pytest.skip(reason)
    # Asked for: a missing part is a failure, not a skip.
    harness.need(harness.NODE_BIN / "playwright-mcp", "@playwright/mcp (run e2e/setup.sh)")
    assert shutil.which("chromium"), "`chromium` is not installed (apt-get install chromium)"
    page = tmp_path / "page.html"
    page.write_text(
        "<html><body style='font: 18px sans-serif'><h1>toolshape</h1>"
        + "".join(f"<p>Line {i}: the quick brown fox jumps over the lazy dog.</p>" for i in range(400))
        + "</body></html>"
    )
    browser = harness.node_stdio(
        "playwright-mcp",
        "--headless",
        "--browser",
        "chromium",
        "--executable-path",
        shutil.which("chromium") or "chromium",
        "--no-sandbox",
        "--isolated",
        "--allow-unrestricted-file-access",
        "--viewport-size",
        "1920,1080",
        # A screenshot waits for the page's fonts within the action timeout (5 s by default),
        # which a loaded 2-core machine can exceed; the bound under test is the image's size.
        "--timeout-action",
        "60000",
        "--output-dir",
        str(tmp_path / "shots"),
        timeout_secs=120,
    )
    config = media_config(browser, budget_tokens=800)
    async with harness.gateway(tmp_path, config, transport) as s:
        nav = await s.envelope("browser_navigate", {"url": page.as_uri()}, timeout=120)
        assert nav.status == "ok", nav.summary
        env = await s.envelope("browser_take_screenshot", {"fullPage": True}, timeout=120)
        images = [r for r in listed(env) if r["type"] == "image"]
        assert len(images) == 1, env.data
        [record] = images
        assert record["index"] is not None
        image = decoded(blocks(env.result)[record["index"] - 1])
        assert image.size == (record["width"], record["height"])
        assert anthropic_tokens(*image.size) <= 800
        # A full page of 400 lines is far taller than what fits: it was downscaled.
        assert record["omitted"]["original"]["height"] > image.size[1]
        check_listing_matches_blocks(env)
