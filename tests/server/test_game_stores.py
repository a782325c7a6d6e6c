"""The game store's contract, run against both stores (SQLite, and PostgreSQL where
``HEXFIRE_TEST_PG`` names one: tools/ci/pg.sh): durable writes, one transaction per group
commit, an action never stored twice, the schema's migrations and the refusal of a newer one;
and a game played through a server on each store, restarted on the same store."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from net_helpers import BOUND, FAST, new_game, play, seat, serving
from store_helpers import KINDS, a_store, open_store, where

from game.server import schema
from game.server.store import GameMeta, SeatMeta, StoredAction, StoreError


@pytest.fixture(params=KINDS)
def kind(request) -> str:
    return request.param


def meta(game_id: str, created: float = 1.0) -> GameMeta:
    return GameMeta(
        game_id,
        "duel",
        'title = "x"\n',
        "ab" * 32,
        7,
        "salt",
        "cd" * 32,
        9,
        {"german": SeatMeta("remote", "ef" * 32), "russian": SeatMeta("computer", level=2)},
        created,
    )


def action(n: int, side: str = "german") -> StoredAction:
    return StoredAction({"action": {"type": "end_phase"}, "draws": [n], "hash": f"h{n}"}, side, {})


def test_a_game_kept_is_read_back_whole_after_a_reopen(kind, tmp_path):
    with where(kind, tmp_path) as at:
        store = open_store(kind, at)
        store.create(meta("g1", 2.0), {"versions": {}})
        store.create(meta("g0", 1.0), {})
        for i in range(3):
            store.append("g1", i, action(i), {"n": i})
        store.truncate("g1", 2, {"n": "undone"})
        store.set_state("g0", {"orders": {"german": {"kind": "pass"}}})
        store.close()
        store = open_store(kind, at)  # what a restarted server reads
        try:
            assert store.game_ids() == ["g0", "g1"]  # in the order made
            got = store.load("g1")
            assert got is not None
            assert got.meta == meta("g1", 2.0)
            assert [a.entry["draws"] for a in got.actions] == [[0], [1]]
            assert got.state == {"n": "undone"}
            assert store.load_meta("g0") == meta("g0", 1.0)
            assert store.load("g0").state == {"orders": {"german": {"kind": "pass"}}}
            assert store.load("nope") is None and store.load_meta("nope") is None
            assert [a.entry["hash"] for a in store.actions_from("g1", 1)] == ["h1"]
            state, after = store.since("g1", 1)  # what a catch-up reads: one snapshot
            assert state == {"n": "undone"} and [a.entry["hash"] for a in after] == ["h1"]
            assert store.since("nope", 0) is None
            assert store.schema_version() == schema.VERSION
        finally:
            store.close()


def test_an_action_is_never_stored_twice_and_a_failed_group_stores_nothing(kind, tmp_path):
    with a_store(kind, tmp_path) as store:
        store.create(meta("g"), {})
        store.append("g", 0, action(0), {"n": 0})
        with pytest.raises(StoreError):  # the same index again: another server took it
            store.append("g", 0, action(5), {"n": 5})
        with pytest.raises(StoreError), store.together():
            store.append("g", 1, action(1), {"n": 1})
            store.append("g", 0, action(6), {"n": 6})  # the whole group fails
        got = store.load("g")
        assert [a.entry["draws"] for a in got.actions] == [[0]] and got.state == {"n": 0}
        with store.together():  # the group commit: all of them, in one transaction
            store.append("g", 1, action(1), {"n": 1})
            store.create(meta("h"), {})
        assert len(store.load("g").actions) == 2 and store.load_meta("h") is not None


def test_a_store_of_a_newer_schema_is_refused_with_one_line(kind, tmp_path):
    with where(kind, tmp_path) as at:
        store = open_store(kind, at)
        store._commit([("UPDATE hexfire_schema SET version = ?", (schema.VERSION + 1,))])
        store.close()
        with pytest.raises(StoreError) as e:
            open_store(kind, at)
        line = str(e.value)
        assert "\n" not in line
        assert f"schema version {schema.VERSION + 1}, newer than this hexfire's" in line


def test_a_store_made_before_versions_were_kept_is_migrated(kind, tmp_path):
    """Issue 40's stores have the tables of version 1 and no version: they are brought up to
    the current one and keep their games."""
    with where(kind, tmp_path) as at:
        statements = [(s, ()) for s in schema.MIGRATIONS[0]]
        if kind == "sqlite":
            db = sqlite3.connect(at)
            for s, _ in statements:
                db.execute(s)
            db.execute("INSERT INTO scenarios VALUES ('s', 't')")
            db.execute("INSERT INTO games VALUES ('old', 's', '{}', '{}', 1.0)")
            db.commit()
            db.close()
        else:
            import psycopg

            with psycopg.connect(at, autocommit=True) as db:
                for s, _ in statements:
                    db.execute(s)
                db.execute("INSERT INTO scenarios VALUES ('s', 't')")
                db.execute("INSERT INTO games VALUES ('old', 's', '{}', '{}', 1.0)")
        store = open_store(kind, at)
        try:
            assert store.schema_version() == schema.VERSION
            assert store.game_ids() == ["old"]
        finally:
            store.close()


def test_a_game_on_each_store_goes_on_after_its_server_restarts(kind, tmp_path):
    async def main():
        with where(kind, tmp_path) as at:
            store = open_store(kind, at)
            try:
                async with serving(tmp_path, store, limits=FAST) as (_, url):
                    created = await new_game(url, "tutorial-duel")
                    a = await seat(url, created, "german")
                    b = await seat(url, created, "russian")
                    acting = a if a.view.acting == "german" else b
                    await acting.act({"type": "end_phase"})
                    version = acting.view.version
                    await a.close()
                    await b.close()
            finally:
                store.close()
            store = open_store(kind, at)  # another server process, the same store
            try:
                async with serving(tmp_path, store, limits=FAST) as (server, url):
                    a = await seat(url, created, "german")
                    b = await seat(url, created, "russian")
                    assert max(a.view.version, b.view.version) >= version
                    await asyncio.gather(play(a, 1), play(b, 2))
                    assert a.end is not None and a.end == b.end
                    stored = store.load(created.game)
                    assert len(stored.actions) == len(server.games[created.game].actions)
                    await a.close()
                    await b.close()
            finally:
                store.close()

    async def bounded():
        async with asyncio.timeout(BOUND):
            await main()

    asyncio.run(bounded())


def test_a_postgresql_store_that_cannot_be_reached_is_one_line(tmp_path):
    pytest.importorskip("psycopg")
    from game.server.pgstore import PgStore

    with pytest.raises(StoreError) as e:
        PgStore("postgresql://someone:secret@127.0.0.1:1/games", connect_timeout=1)
    assert "\n" not in str(e.value) and "secret" not in str(e.value)
    assert str(e.value).startswith("postgresql://127.0.0.1:1/games: ")
