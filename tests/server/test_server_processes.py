"""Several server processes on one PostgreSQL store (issue 43): a game whose seats reach two
different servers is played through to its end, each seat sent every change the other server
made (NOTIFY), no action stored twice; a game whose owner stops is taken over by the other
server, which plays the computer's part on. Skipped without ``HEXFIRE_TEST_PG``."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator

from net_helpers import BOUND, FAST, new_game, play, seat
from store_helpers import pg_schema

from game.server.hosted import build_session, computer_player
from game.server.pgstore import PgStore
from game.server.server import Server, listen


@contextlib.asynccontextmanager
async def a_server(url: str) -> AsyncIterator[tuple[Server, str, PgStore]]:
    store = PgStore(url)
    server = Server(store, limits=FAST)
    await server.follow.start()
    await asyncio.to_thread(store.listening.wait, 10)
    try:
        async with listen(server, "127.0.0.1", 0) as ws:
            yield server, f"ws://127.0.0.1:{next(iter(ws.sockets)).getsockname()[1]}", store
    finally:
        await server.close()
        store.close()


def bounded(coro) -> None:
    async def main():
        async with asyncio.timeout(BOUND):
            await coro

    asyncio.run(main())


def test_the_two_seats_of_a_game_on_two_servers_play_it_through():
    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, store), a_server(url) as (two, url2, _):
                created = await new_game(url1, "tutorial-duel")
                german = await seat(url1, created, "german")
                russian = await seat(url2, created, "russian")  # served by the other process
                took = await asyncio.gather(play(german, 1), play(russian, 2))
                assert all(n > 0 for n in took)
                assert german.end is not None and german.end == russian.end
                stored = store.load(created.game)
                assert stored is not None
                assert len(stored.actions) == len(one.games[created.game].actions)
                assert len(stored.actions) == len(two.games[created.game].actions)
                # each stored action applies, in order, to the state its hash says: none twice
                game = build_session(stored.meta, stored.actions, {}, computer_player).game
                assert game.over and game.winner == german.end.winner
                await german.close()
                await russian.close()

    bounded(main())


def test_a_game_whose_owner_stops_is_taken_over_and_its_computer_plays_on():
    async def main():
        with pg_schema() as url:
            async with a_server(url) as (two, url2, _):
                async with a_server(url) as (one, url1, _):
                    created = await new_game(url1, "road-ambush", computer="russian", level=1)
                    assert one.follow.owns(created.game)
                    german = await seat(url2, created, "german")  # the other process
                    assert not two.follow.owns(created.game)
                # the owner is gone: its lock with its connection
                loop = asyncio.get_running_loop()
                start = loop.time()
                while not two.follow.owns(created.game):
                    await asyncio.sleep(0.05)
                    assert loop.time() - start < 5, "not taken over within 5 s"
                await play(german, 3)
                assert german.end is not None
                sides = {a.side for a in two.games[created.game].actions}
                assert sides == {"german", "russian"}
                await german.close()

    bounded(main())


def test_a_server_catching_up_applies_only_the_actions_after_those_it_holds(monkeypatch):
    """The process of a seat follows the owner's computer moves by applying each once to the
    game it holds: the game is built twice in all (created on one, opened on the other), never
    rebuilt by replaying it whole for each catch-up (issue 43: at 500 games that replay was
    what a round trip waited for), and both end on the same game."""
    import game.server.server as server_module

    built: list[str] = []

    def counting(meta, *args):
        built.append(meta.id)
        return build_session(meta, *args)

    monkeypatch.setattr(server_module, "build_session", counting)

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, _), a_server(url) as (two, url2, store):
                created = await new_game(url1, "road-ambush", computer="russian", level=1)
                german = await seat(url2, created, "german")  # the owner is the other
                assert one.follow.owns(created.game) and not two.follow.owns(created.game)
                await play(german, 5)
                assert german.end is not None
                here, there = two.games[created.game], one.games[created.game]
                assert {a.side for a in here.actions} == {"german", "russian"}
                assert here.game.state_hash() == there.game.state_hash()
                assert len(here.actions) == len(store.load(created.game).actions)
                assert built == [created.game, created.game]
                await german.close()

    bounded(main())


def test_a_dead_process_games_are_claimed_together_in_one_statement():
    """claim_many: the games no live process owns are taken in one statement (issue 43's
    takeover claimed a dead process's games one advisory lock after another); those owned by a
    live process are not; a process's own stay its own."""
    with pg_schema() as url:
        one, two = PgStore(url), PgStore(url)
        try:
            ids = [f"{secrets.token_hex(4)}-{i}" for i in range(300)]  # the locks: database-wide
            assert one.claim_many(ids[:200]) == set(ids[:200])
            assert two.claim_many(ids) == set(ids[200:])  # the others are one's
            assert one.claim_many(ids[:10]) == set(ids[:10])  # still one's
            pid = one._connection().info.backend_pid
            one.close()  # the process dies: PostgreSQL frees its locks with its connection
            while two._query("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", (pid,))[0][0]:
                time.sleep(0.01)  # its backend is ending
            statements = []
            real = two._connection

            def counting():
                db = real()
                statements.append(db)
                return db

            two._connection = counting  # type: ignore[method-assign]
            assert two.claim_many(ids) == set(ids)
            assert len(statements) == 1
        finally:
            one.close()
            two.close()
