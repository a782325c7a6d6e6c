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


def test_an_undo_racing_another_servers_write_never_leaves_a_gap_nor_drops_it(kind, tmp_path):
    """Two server processes on one game: the seat's process takes back action 2 while the
    owner stores action 3 after it. Whichever comes first, the other is refused and the store
    holds a game that replays: never an undo deleting the action written after it, never an
    action stored after a gap (it was: the undo deleted 2, the owner's 3 was kept after the
    hole, and the game could not be loaded again)."""
    with where(kind, tmp_path) as at:
        one, two = open_store(kind, at), open_store(kind, at)
        try:
            one.create(meta("g"), {})
            for i in range(3):
                one.append("g", i, action(i), {"n": i})
            two.append("g", 3, action(3, "russian"), {"n": 3})  # the owner wrote first
            with pytest.raises(StoreError, match="changed meanwhile"):
                one.truncate("g", 2, {"n": "undone"}, last=action(2).entry)
            assert [a.entry["hash"] for a in one.load("g").actions] == ["h0", "h1", "h2", "h3"]
            one.truncate("g", 3, {"n": 2}, last=action(3, "russian").entry)  # its own undo
            one.truncate("g", 2, {"n": "undone"}, last=action(2).entry)  # the undo first
            with pytest.raises(StoreError, match="changed meanwhile"):
                two.append("g", 3, action(3, "russian"), {"n": 3})
            with pytest.raises(StoreError, match="changed meanwhile"):
                two.append("g", 5, action(5), {"n": 5})  # a gap: never
            got = one.load("g")
            assert [a.entry["hash"] for a in got.actions] == ["h0", "h1"]
            assert got.state == {"n": "undone"}
        finally:
            one.close()
            two.close()


def test_postgresql_writes_of_one_game_wait_for_each_other_and_read_what_came_first():
    """In PostgreSQL (READ COMMITTED) two writes of one game at once: the owner's append waits
    for the undo's transaction, which holds the game's row, then reads what it committed and
    is refused (no action stored after the hole the undo left)."""
    import threading

    import psycopg
    from store_helpers import pg_schema

    from game.server.pgstore import PgStore

    with pg_schema() as url:
        store = PgStore(url)
        try:
            store.create(meta("g"), {})
            for i in range(3):
                store.append("g", i, action(i), {"n": i})
            with psycopg.connect(url) as undo:  # the other process's undo, in the middle
                undo.execute("UPDATE games SET state = '{}' WHERE id = 'g'")
                outcome: list[object] = []
                owner = threading.Thread(
                    target=lambda: outcome.append(
                        _tried(store.append, "g", 3, action(3, "russian"), {"n": 3})
                    )
                )
                owner.start()
                owner.join(0.5)
                assert owner.is_alive(), "the owner's write did not wait for the game's row"
                undo.execute("DELETE FROM actions WHERE game = 'g' AND idx >= 2")
                undo.commit()
                owner.join(10)
            assert isinstance(outcome[0], StoreError) and "changed meanwhile" in str(outcome[0])
            assert [a.entry["hash"] for a in store.load("g").actions] == ["h0", "h1"]
        finally:
            store.close()


def _tried(fn, *args):
    try:
        return fn(*args)
    except StoreError as e:
        return e


def test_a_group_commit_whose_guard_fails_stores_none_of_its_writes(kind, tmp_path):
    """A group commit of several games' writes (PostgreSQL is sent them as one query, issue 43)
    is one transaction: one write whose game changed meanwhile refuses it whole,
    saying so, and none of its writes is stored; the same writes with the guard met are."""
    with where(kind, tmp_path) as at:
        store = open_store(kind, at)
        try:
            for g in ("a", "b", "c"):
                store.create(meta(g), {})
                store.append(g, 0, action(0), {"n": 0})
            with pytest.raises(StoreError, match="changed meanwhile"), store.together():
                store.append("a", 1, action(1), {"n": 1})
                store.append("b", 2, action(2), {"n": 2})  # a gap: its guard fails
                store.append("c", 1, action(1), {"n": 1})
            assert [len(store.load(g).actions) for g in ("a", "b", "c")] == [1, 1, 1]
            with pytest.raises(StoreError, match="changed meanwhile"), store.together():
                store.append("a", 1, action(1), {"n": 1})
                store.append("b", 1, action(1), {"n": 1})
                store.append("c", 0, action(0), {"n": 0})  # stored already: guard and key fail
            assert [len(store.load(g).actions) for g in ("a", "b", "c")] == [1, 1, 1]
            with store.together():
                for g in ("a", "b", "c"):
                    store.append(g, 1, action(1), {"n": 1})
            assert [len(store.load(g).actions) for g in ("a", "b", "c")] == [2, 2, 2]
            assert store.load("c").state == {"n": 1}
        finally:
            store.close()


def test_a_postgresql_group_commit_is_one_query_its_arguments_written_in_as_literals():
    """A group commit of several games' writes reaches PostgreSQL as one query, its arguments
    written in (issue 43: sent a statement at a time, or pipelined, the driver's work for each
    statement took 160-400 us of the server's CPU by action stored); a quote, a backslash, a
    percent sign, a question mark, a line's end and a letter beyond ASCII read back as given."""
    from store_helpers import pg_schema

    from game.server.pgstore import PgStore

    odd = 'title = "it\'s" \\ 50% ? \u00e9t\u00e9\n'
    with pg_schema() as url:
        store = PgStore(url)
        try:
            real = store._connection()
            calls: list[str] = []

            class Counted:  # the writer's connection: what reaches it
                def __getattr__(self, name):
                    calls.append(name)
                    return getattr(real, name)

            store._connection = lambda: Counted()  # type: ignore[method-assign]
            with store.together():
                for g in ("a", "b", "c"):
                    store.create(meta(g), {"odd": odd})
            with store.together():
                for g in ("a", "b", "c"):
                    store.append(g, 0, action(0), {"n": odd})
            assert calls.count("execute") == 2 and not {"cursor", "pipeline"} & set(calls), calls
            assert [len(store.load(g).actions) for g in ("a", "b", "c")] == [1, 1, 1]
            assert store.load("b").state == {"n": odd}
            assert store.load_meta("c").scenario_text == meta("c").scenario_text
        finally:
            store.close()


def test_a_group_commits_waiters_are_told_in_one_call_into_their_loop():
    """The group committer tells the writes of one commit in one call into their event loop
    (issue 43: a thread's future for each write, each waking the loop, were 3-5% of a busy
    server's event loop); a failed commit raises its StoreError in each of them."""
    import contextlib
    import threading

    from game.server.store import GroupWriter

    class Store:
        fail = False

        @contextlib.contextmanager
        def together(self):
            yield
            if self.fail:
                raise StoreError("the disk is full")

    async def main():
        store = Store()
        writer = GroupWriter(store)
        loop = asyncio.get_running_loop()
        calls = []
        real = loop.call_soon_threadsafe

        def counted(*args):
            calls.append(args)
            return real(*args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        gate, done = threading.Event(), []
        try:
            first = writer.submit(gate.wait, 5)  # holds the committer: the others wait
            rest = [writer.submit(done.append, i) for i in range(6)]
            gate.set()
            await asyncio.gather(first, *rest)
            assert done == list(range(6)) and len(calls) <= 2, calls
            store.fail = True
            failed = await asyncio.gather(
                *(writer.submit(done.append, i) for i in range(3)), return_exceptions=True
            )
            assert all(isinstance(e, StoreError) for e in failed), failed
        finally:
            writer.close()

    asyncio.run(asyncio.wait_for(main(), BOUND))
