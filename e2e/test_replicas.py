"""Replicas behind a load balancer without sticky sessions behave as one gateway.

Two `toolshape serve --http` processes share a real `redis-server` (started here on a free
loopback port) and one TOOLSHAPE_SECRET. One client session sends each request to the other
replica than the one before: a cursor made on one pages on the other to the end (compared
with the upstream's own answer), a handle made on one re-opens on the other, tools a search
activated on one are listed by the other. Redis is restarted in the middle of paging: calls
that need the store fail at once with a message that says so, and succeed again once it is
back, without restarting toolshape. A SQLite store keeps snapshots (and the session) across
a restart of toolshape. A short run of bench/replicas_load.py loses and mixes up nothing.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import anyio
import httpx2 as httpx
import pytest

import harness
from harness import REPO, SAMPLE
from replicas import HoppingSession, StoreDown, running, sample_config, start_redis, start_replicas

# Bounds on how long calls take: run alone, after the tests that run side by side.
pytestmark = [pytest.mark.anyio, pytest.mark.serial]


async def direct_issues(tmp_path: Path, **args) -> list[dict]:
    """What the sample upstream answers for list_issues, without toolshape."""
    result = await harness.direct_call(tmp_path, [str(SAMPLE)], "list_issues", {"per_page": 10000, **args})
    return harness.records_of(result)


@pytest.fixture
def redis(tmp_path):
    server = start_redis(tmp_path)
    yield server
    server.stop()


def redis_replicas(tmp_path, redis, **extra):
    store = {"backend": "redis", "url": redis.url, "key_prefix": "ts-e2e:", "ttl_secs": 600}
    return start_replicas(tmp_path, sample_config(store, **extra))


async def test_a_cursor_made_on_one_replica_pages_on_the_other_to_the_end(tmp_path, redis):
    expected = await direct_issues(tmp_path, state="open", sort="updated", direction="desc")
    with running(redis_replicas(tmp_path, redis)) as replicas:
        async with httpx.AsyncClient(timeout=60) as client:
            s = HoppingSession(client, [r.url for r in replicas])
            await s.open(0)
            first = await s.call(0, "open_issues")
            assert first["status"] == "partial", first["summary"]
            pages = await s.follow(first, start_replica=0)
            await s.close(1)
    numbers = [record["number"] for page in pages for record in page["data"]]
    assert len(pages) > 5
    # Every record once, in the upstream's order, though consecutive pages came from
    # different processes.
    assert numbers == [issue["number"] for issue in expected]
    assert pages[-1]["next"] is None and pages[-1]["status"] == "ok"
    assert s.served_by.count(0) >= 3 and s.served_by.count(1) >= 3, s.served_by
    # The session record and the snapshot live in Redis, under the configured prefix.
    keys = redis.cli("--scan", "--pattern", "ts-e2e:*").split()
    assert any(k.startswith("ts-e2e:snap:") for k in keys), keys
    # The session was closed (DELETE): its record is gone, nothing else of it was kept.
    assert not any(k == f"ts-e2e:session:{s.session_id}" for k in keys), keys


async def test_a_handle_made_on_one_replica_reopens_on_the_other(tmp_path, redis):
    expected = [issue["number"] for issue in await direct_issues(tmp_path, state="open")]
    with running(redis_replicas(tmp_path, redis)) as replicas:
        async with httpx.AsyncClient(timeout=60) as client:
            s = HoppingSession(client, [r.url for r in replicas])
            await s.open(1)
            ref = await s.call(1, "issues_ref")
            assert ref["status"] == "ok" and ref["data"] is None, ref
            handle = ref["next"]["arguments"]["handle"]
            # A view over the whole stored result, asked of the replica that did not make it.
            view = await s.call(0, "result_read", {"handle": handle, "query": "$[*].number"})
            assert view["status"] in ("ok", "partial"), view["summary"]
            pages = await s.follow(view, start_replica=0)
            # Another session, on either replica, cannot use the handle.
            other = HoppingSession(client, s.urls)
            await other.open(0)
            refused = await other.call(0, "result_read", {"handle": handle})
            assert refused["status"] == "error", refused
    assert [n for page in pages for n in page["data"]] == expected


async def test_tools_found_by_search_on_one_replica_are_listed_by_the_other(tmp_path, redis):
    with running(redis_replicas(tmp_path, redis, search={"always_loaded": ["open_issues"]})) as replicas:
        async with httpx.AsyncClient(timeout=60) as client:
            s = HoppingSession(client, [r.url for r in replicas])
            await s.open(0)
            before = set(await s.tool_names(1))
            assert {"open_issues", "search_tools", "call_tool", "result_read"} <= before, before
            assert "tracker_switch_light" not in before, before
            found = await s.call(0, "search_tools", {"query": "switch a light on or off", "limit": 3})
            assert found["status"] in ("ok", "partial"), found["summary"]
            assert "tracker_switch_light" in str(found["data"]), found["data"]
            after = set(await s.tool_names(1))
            assert "tracker_switch_light" in after, after
            # And the found tool can be called directly on the replica that did not search.
            light = await s.call(1, "tracker_switch_light", {"entity": "light.office", "on": True})
            assert light["status"] == "ok", light["summary"]
            # Another session activated nothing.
            other = HoppingSession(client, s.urls)
            await other.open(1)
            assert "tracker_switch_light" not in set(await other.tool_names(0))


async def test_with_bearer_tokens_a_principal_session_hops_and_stays_its_own(tmp_path, redis):
    """The deployment shape for remote access: principals with tokens. A sealed session id
    opens on either replica (they share the secret); another principal gets nothing."""
    tokens = {"ALICE_TOKEN": "alice-0123456789abcdef0123", "BOB_TOKEN": "bob-0123456789abcdef012345"}
    auth = {"principals": {"alice": {"token_env": "ALICE_TOKEN"}, "bob": {"token_env": "BOB_TOKEN"}}}
    store = {"backend": "redis", "url": redis.url, "key_prefix": "ts-auth:", "ttl_secs": 600}
    with running(start_replicas(tmp_path, sample_config(store, auth=auth), **tokens)) as replicas:
        async with httpx.AsyncClient(timeout=60) as client:
            alice = HoppingSession(client, [r.url for r in replicas])
            alice.headers["Authorization"] = f"Bearer {tokens['ALICE_TOKEN']}"
            await alice.open(0)
            first = await alice.call(0, "open_issues")
            second = await alice.call(1, first["next"]["tool"], first["next"]["arguments"])
            assert second["status"] == "partial", second["summary"]
            # Bob presents Alice's session id (and, in another session, her cursor).
            for replica in (0, 1):
                stolen = dict(alice.headers, Authorization=f"Bearer {tokens['BOB_TOKEN']}")
                resp = await client.post(alice.urls[replica], headers=stolen, json={
                    "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "result_read", "arguments": second["next"]["arguments"]},
                })
                assert resp.status_code == 404, (replica, resp.status_code, resp.text[:200])
            bob = HoppingSession(client, alice.urls)
            bob.headers["Authorization"] = f"Bearer {tokens['BOB_TOKEN']}"
            await bob.open(1)
            refused = await bob.call(0, "result_read", second["next"]["arguments"])
            assert refused["status"] == "error" and "another" in refused["summary"], refused
            # Alice reads on, on the replica Bob just used.
            third = await alice.call(0, second["next"]["tool"], second["next"]["arguments"])
            assert third["status"] in ("ok", "partial"), third["summary"]


async def test_a_redis_restart_fails_calls_clearly_then_they_recover(tmp_path, redis):
    expected = await direct_issues(tmp_path, state="open", sort="updated", direction="desc")
    with running(redis_replicas(tmp_path, redis)) as replicas:
        async with httpx.AsyncClient(timeout=60) as client:
            s = HoppingSession(client, [r.url for r in replicas])
            await s.open(0)
            first = await s.call(0, "open_issues")
            second = await s.call(1, first["next"]["tool"], first["next"]["arguments"])
            assert second["status"] == "partial", second["summary"]
            # A session that so far only met replica 0.
            late = HoppingSession(client, s.urls)
            await late.open(0)

            redis.stop()
            # Reading on: an error envelope that names the store, within the store's
            # time-out, on both replicas.
            for replica in (0, 1):
                t0 = time.monotonic()
                down = await s.call(replica, second["next"]["tool"], second["next"]["arguments"])
                took = time.monotonic() - t0
                assert down["status"] == "error", down
                assert "store" in down["summary"] and "unavailable" in down["summary"], down["summary"]
                assert took < 10, f"the failing read took {took:.1f} s"
            # A session the other replica has never seen cannot be restored without the
            # store: an HTTP error that says why, not a hang.
            t0 = time.monotonic()
            with pytest.raises(StoreDown) as refused:
                await late.request(1, "tools/list")
            assert str(refused.value).startswith("HTTP 503"), refused.value
            assert "store" in str(refused.value) and "unavailable" in str(refused.value), refused.value
            assert time.monotonic() - t0 < 10
            down_message = refused.value

            redis.start()
            # Back: the same cursor reads on, on either replica, with no restart of toolshape.
            deadline = time.monotonic() + 15
            while True:
                again = await s.call(0, second["next"]["tool"], second["next"]["arguments"])
                if again["status"] != "error" or time.monotonic() > deadline:
                    break
                await anyio.sleep(0.2)
            assert again["status"] in ("ok", "partial"), again["summary"]
            rest = await s.follow(again, start_replica=0)
            assert (await late.tool_names(1)), "the late session was not restored after the outage"
    numbers = [r["number"] for page in [first, second, *rest] for r in page["data"]]
    assert numbers == [issue["number"] for issue in expected]
    print(f"during the outage: {down['summary']!r}; restoring a session: {down_message}")


async def test_a_sqlite_store_keeps_snapshots_and_sessions_across_a_restart(tmp_path):
    expected = await direct_issues(tmp_path, state="open", sort="updated", direction="desc")
    store = {"backend": "sqlite", "path": str(tmp_path / "store.sqlite"), "ttl_secs": 600}
    with running(start_replicas(tmp_path, sample_config(store), count=1)) as (replica,):
        async with httpx.AsyncClient(timeout=60) as client:
            s = HoppingSession(client, [replica.url])
            await s.open(0)
            first = await s.call(0, "open_issues")
            # A read on the same process waits for the snapshot, so it is on disk before the stop.
            second = await s.call(0, first["next"]["tool"], first["next"]["arguments"])
            assert second["status"] == "partial", second["summary"]
            # Killed (SIGTERM, not a graceful stop): what is in the file must already be safe.
            replica.stop(graceful=False)
            assert replica.proc is not None and replica.proc.poll() is not None
            replica.start()
            # The same session id, unknown to the new process until it finds it in the file.
            later = await s.follow(second, start_replica=0)
            assert len(later) > 2
            # Another session cannot read it.
            other = HoppingSession(client, [replica.url])
            await other.open(0)
            refused = await other.call(0, second["next"]["tool"], second["next"]["arguments"])
            assert refused["status"] == "error", refused
    numbers = [r["number"] for page in [first, *later] for r in page["data"]]
    assert numbers == [issue["number"] for issue in expected]


def test_a_short_load_run_across_two_replicas_loses_and_mixes_up_nothing(tmp_path):
    spec = importlib.util.spec_from_file_location("replicas_load", REPO / "bench" / "replicas_load.py")
    assert spec is not None and spec.loader is not None
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    result = load.run(tmp_path, sessions=8, seconds=6.0)
    assert result["calls"] >= 100, result
    assert result["mismatched"] == 0 and result["lost"] == 0, result
    assert result["failed"] == 0, result
    assert result["per_replica"][0] > 0 and result["per_replica"][1] > 0, result
