"""`@modelcontextprotocol/server-memory` behind `toolshape serve`: entities created through
the gateway are read back through it (a state-changing upstream with structured answers)."""

from __future__ import annotations

import json

import pytest

import harness

pytestmark = pytest.mark.anyio


async def test_create_entities_then_read_them_back(tmp_path):
    memory_file = tmp_path / "memory.jsonl"
    config = {
        "upstreams": {
            "memory": harness.node_stdio("mcp-server-memory", env={"MEMORY_FILE_PATH": str(memory_file)}),
        },
        "defaults": {"budget_tokens": 1500},
    }
    entities = [
        {"name": f"service-{i}", "entityType": "service", "observations": [f"owned by team {i % 3}", "runs on k8s"]}
        for i in range(5)
    ]
    async with harness.gateway(tmp_path, config) as s:
        created = await s.envelope("memory_create_entities", {"entities": entities})
        assert created.status in ("ok", "partial"), created.summary
        related = await s.envelope(
            "memory_create_relations",
            {"relations": [{"from": "service-0", "to": "service-1", "relationType": "calls"}]},
        )
        assert related.status in ("ok", "partial"), related.summary
        graph = await s.envelope("memory_read_graph")
        assert graph.status in ("ok", "partial"), graph.summary
        text = json.dumps(graph.data)
        assert all(f"service-{i}" in text for i in range(5)), text[:500]
        found = await s.envelope("memory_search_nodes", {"query": "team 2"})
        assert "service-2" in json.dumps(found.data)
        opened = await s.envelope("memory_open_nodes", {"names": ["service-4"]})
        assert "owned by team 1" in json.dumps(opened.data)
    # The upstream really wrote what was created through the gateway.
    assert "service-3" in memory_file.read_text()
