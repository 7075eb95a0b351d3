"""`@modelcontextprotocol/server-filesystem` behind `toolshape serve`: a 5 MB file read
through pages reassembles byte for byte, and the stored result can be searched."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import harness

pytestmark = pytest.mark.anyio

WORDS = (
    "gateway budget cursor envelope shaping record token upstream mask profile snapshot "
    "delimiter redaction summary omitted next status partial café naïve façade Größe "
    "日本語 数据 résumé ünïcödé emoji🙂 tab\tseparated quotes\"inside back\\slash braces{} "
).split(" ")


def write_big_text(path: Path, size: int = 5 * 1024 * 1024, seed: int = 7) -> str:
    """About `size` bytes of realistic text: lines of 1 to 40 words (multi-byte characters,
    quotes, tabs, blank lines) and one 200 KB line without a break."""
    rng = random.Random(seed)
    lines: list[str] = []
    total = 0
    n = 0
    while total < size:
        n += 1
        if n == 5000:
            line = "".join(rng.choice(WORDS) for _ in range(25_000))  # one giant line
        elif rng.random() < 0.03:
            line = ""
        else:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 40)))
        lines.append(line)
        total += len(line.encode()) + 1
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


def fs_config(root: Path, budget: int = 4000) -> dict:
    return {
        "upstreams": {
            "fs": harness.node_stdio("mcp-server-filesystem", str(root), timeout_secs=60, max_response_bytes=64 << 20),
        },
        "defaults": {"budget_tokens": budget},
    }


@pytest.mark.timeout(600)
async def test_a_5_mb_file_reassembles_byte_for_byte(tmp_path):
    root = tmp_path / "files"
    root.mkdir()
    text = write_big_text(root / "big.txt")
    assert len(text.encode()) >= 5 * 1024 * 1024
    async with harness.gateway(tmp_path, fs_config(root)) as s:
        first = await s.envelope("fs_read_text_file", {"path": str(root / "big.txt")}, timeout=120)
        assert first.status == "partial", first.summary
        assert first.omitted and first.next, first.body
        pages = await s.follow(first, max_pages=5000)
    got = harness.reassemble_text(pages)
    assert len(pages) > 10
    assert got.encode() == text.encode(), (
        f"{len(got.encode())} bytes reassembled from {len(pages)} pages, expected {len(text.encode())}"
    )


async def test_the_stored_file_can_be_searched(tmp_path):
    root = tmp_path / "files"
    root.mkdir()
    lines = [f"line {i}: {'needle' if i % 1000 == 0 else 'hay'}" for i in range(20_000)]
    (root / "hay.txt").write_text("\n".join(lines) + "\n")
    async with harness.gateway(tmp_path, fs_config(root, budget=1500)) as s:
        first = await s.envelope("fs_read_text_file", {"path": str(root / "hay.txt")})
        assert first.status == "partial", first.summary
        found = await s.envelope("result_read", {**first.next["arguments"], "pattern": "needle"})
        assert found.status == "ok", found.summary
        got = harness.page_text(found).splitlines()
        assert got == [line for line in lines if "needle" in line]


async def test_small_files_and_listings_pass_whole(tmp_path):
    root = tmp_path / "files"
    root.mkdir()
    (root / "hello.txt").write_text("hello through toolshape\n")
    (root / "sub").mkdir()
    async with harness.gateway(tmp_path, fs_config(root)) as s:
        env = await s.envelope("fs_read_text_file", {"path": str(root / "hello.txt")})
        assert env.status == "ok" and env.omitted is None and env.next is None, env.body
        assert "hello through toolshape" in harness.page_text(env)
        listing = await s.envelope("fs_list_directory", {"path": str(root)})
        assert listing.status == "ok"
        assert "hello.txt" in str(listing.data) and "sub" in str(listing.data)
        outside = await s.envelope("fs_read_text_file", {"path": "/etc/passwd"})
        assert outside.status == "error", outside.summary
