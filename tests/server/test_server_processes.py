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

from net_helpers import BOUND, FAST, my_turn, new_game, play, seat
from store_helpers import pg_schema

from game.net.client import Backoff, Client, Disconnected
from game.server.follow import SPARE
from game.server.hosted import build_session, computer_player
from game.server.pgstore import PgStore
from game.server.server import Server, listen


@contextlib.asynccontextmanager
async def a_server(url: str, port: int = 0) -> AsyncIterator[tuple[Server, str, PgStore]]:
    """A server process's part on ``port`` (0: a free one; a port another serves: shared)."""
    store = PgStore(url)
    server = Server(store, limits=FAST)
    await server.follow.start()
    await asyncio.to_thread(store.listening.wait, 10)
    try:
        async with listen(server, "127.0.0.1", port) as ws:
            yield server, f"ws://127.0.0.1:{next(iter(ws.sockets)).getsockname()[1]}", store
    finally:
        await server.close()
        store.close()


def bounded(coro) -> None:
    async def main():
        async with asyncio.timeout(BOUND):
            await coro

    asyncio.run(main())


def test_a_game_seated_on_two_processes_is_played_by_one_the_other_relays():
    """One seat on each server process: the game is played by its owner alone, the other
    process relays its seat's frames there and holds nothing of the game (issue 43: it was
    played on both, each action read, checked and applied twice); played through, every
    action stored once."""

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, store), a_server(url) as (two, url2, _):
                created = await new_game(url1, "tutorial-duel")
                german = await seat(url1, created, "german")
                russian = await seat(url2, created, "russian")  # reaches the other process
                took = await asyncio.gather(play(german, 1), play(russian, 2))
                assert all(n > 0 for n in took)
                assert german.end is not None and german.end == russian.end
                assert created.game not in two.games and two.relay.relayed == 1
                stored = store.load(created.game)
                assert stored is not None
                assert len(stored.actions) == len(one.games[created.game].actions)
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
                    # (two may own it before the stop too: handed over, the test below)
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
    """The process of a seat follows the other process's writes by applying each once to the
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
                created = await new_game(url1, "tutorial-duel")
                two.relay.address = None  # (it would relay, the test below: this is the
                german = await seat(url1, created, "german")  # fallback when both arrive
                russian = await seat(url2, created, "russian")  # at once, served on both)
                await asyncio.gather(play(german, 4), play(russian, 5))
                assert german.end is not None
                here, there = two.games[created.game], one.games[created.game]
                assert {a.side for a in here.actions} == {"german", "russian"}
                assert here.game.state_hash() == there.game.state_hash()
                assert len(here.actions) == len(store.load(created.game).actions)
                assert built == [created.game, created.game]
                await german.close()
                await russian.close()

    bounded(main())


def test_a_relayed_seat_whose_game_process_stops_reconnects_and_plays_on_elsewhere():
    """The owner of a game whose other seat is relayed to it stops: the relayed seat is told
    to come again (its relay ends), reconnects to the process it reached, which now claims the
    game and serves it directly; the other seat joins there and the game is played out."""

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (two, url2, store):
                async with a_server(url) as (one, url1, _):
                    created = await new_game(url1, "tutorial-duel")
                    german = await seat(url1, created, "german")
                    russian = await seat(url2, created, "russian")  # relayed to one
                    assert two.relay.relayed == 1 and created.game not in two.games
                    await german.close()
                loop = asyncio.get_running_loop()
                start = loop.time()
                while russian.reconnects < 1 or russian.status != "connected":
                    await asyncio.sleep(0.05)
                    assert loop.time() - start < 10, "the relayed seat did not come back"
                while not two.follow.owns(created.game):  # claimed once one's locks are gone
                    await asyncio.sleep(0.05)
                    assert loop.time() - start < 10, "not claimed where the seat came back"
                german = await seat(url2, created, "german")
                await asyncio.gather(play(german, 8), play(russian, 9))
                assert german.end is not None and german.end == russian.end
                assert len(store.load(created.game).actions) == len(two.games[created.game].actions)
                await german.close()
                await russian.close()

    bounded(main())


def test_a_game_served_on_both_processes_at_once_is_then_relayed_to_its_owner():
    """The seats of a game reach two processes at once, each served where it landed (the
    owner had no seat yet when the first came): the other process then sends its seat back to
    come again (1012), relayed to the owner, and drops the game; played through by one."""

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, store), a_server(url) as (two, url2, _):
                created = await new_game(url1, "tutorial-duel")
                russian = await seat(url2, created, "russian")  # served there: no seat on one
                assert created.game in two.games
                german = await seat(url1, created, "german")  # the owner's own seat
                loop = asyncio.get_running_loop()
                start = loop.time()
                # (the game is dropped on two before its seat's "try again" reaches the client)
                while (
                    created.game in two.games
                    or russian.reconnects < 1
                    or russian.status != "connected"
                ):
                    await asyncio.sleep(0.05)
                    assert loop.time() - start < 5, "not relayed within 5 s"
                assert russian.reconnects == 1 and two.relay.relayed == 1
                await asyncio.gather(play(german, 6), play(russian, 7))
                assert german.end is not None and german.end == russian.end
                assert created.game not in two.games
                assert len(store.load(created.game).actions) == len(one.games[created.game].actions)
                await german.close()
                await russian.close()

    bounded(main())


def test_a_game_whose_every_seat_is_on_another_process_is_handed_over_to_it():
    """A game against the computer created on one process, its seat on the other: the owner
    gives it up (its lock freed, the game dropped there) and the seat's process claims it and
    plays the computer's part itself, within a second or so (issue 43: it was played across
    the two, each action read, checked, applied and its views made on both); played through
    there alone, every action stored once."""

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, _), a_server(url) as (two, url2, store):
                created = await new_game(url1, "road-ambush", computer="russian", level=1)
                assert one.follow.owns(created.game)
                german = await seat(url2, created, "german")
                loop = asyncio.get_running_loop()
                start = loop.time()
                while not two.follow.owns(created.game) or created.game in one.games:
                    await asyncio.sleep(0.05)
                    assert loop.time() - start < 5, "not handed over within 5 s"
                assert not one.follow.owns(created.game)
                await play(german, 3)
                assert german.end is not None
                assert created.game not in one.games  # nothing there to follow any more
                held = two.games[created.game]
                assert {a.side for a in held.actions} == {"german", "russian"}
                assert len(held.actions) == len(store.load(created.game).actions)
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
            pid = one._holder().info.backend_pid
            one.close()  # the process dies: PostgreSQL frees its locks with its connection
            while two._query("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", (pid,))[0][0]:
                time.sleep(0.01)  # its backend is ending
            statements = []
            real = two._holder

            def counting():
                db = real()
                statements.append(db)
                return db

            two._holder = counting  # type: ignore[method-assign]
            assert two.claim_many(ids) == set(ids)
            assert len(statements) == 1
        finally:
            one.close()
            two.close()


def test_a_standing_order_waits_while_its_seat_is_connected_on_another_process():
    """C6.17's standing order is for a seat away: the owner of a game does not take a
    Defensive First Fire chance for a defender connected on another server process (it did:
    connected elsewhere counted as away); once that window closes it does, within a second
    or so."""
    from test_standing_orders import _mover_plays_until_a_chance

    from game.net.wire import DffOrder

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, _), a_server(url) as (two, url2, _):
                created = await new_game(url1, "lesson-5-dff")
                assert one.follow.owns(created.game)
                two.relay.address = None  # served there, not relayed (both seats at once)
                german = await seat(url2, created, "german")  # on the other process
                order = DffOrder(policy="pass")
                assert await german.set_order(order) == order
                russian = await seat(url1, created, "russian")
                while german.view.acting == "german" and german.view.phase in (
                    "setup",
                    "setup_attacker",
                ):
                    await german.act({"type": "end_phase"})
                    await german.until(lambda: german.ready, BOUND)
                hosted = one.games[created.game]
                while hosted.orders.get("german") != order:
                    await asyncio.sleep(0.02)

                def for_german() -> list:
                    return [a for a in hosted.actions if a.by == "server" and a.side == "german"]

                await _mover_plays_until_a_chance(one, created, russian, None)
                assert hosted.game.dff_pending, "the Russian's move drew no chance"
                await asyncio.sleep(1.5)  # three of the owner's rounds
                assert not [a for a in for_german() if a.shown["type"] in ("pass", "fire")]
                assert hosted.game.dff_pending and "german" in hosted.elsewhere
                await german.until(lambda: german.view.acting == "german", BOUND)
                await german.close()  # away now: the order applies
                loop = asyncio.get_running_loop()
                start = loop.time()
                while not [a for a in for_german() if a.shown["type"] == "pass"]:
                    await asyncio.sleep(0.05)
                    assert loop.time() - start < 5, "the order was not applied once away"
                await russian.close()

    bounded(main())


def test_a_second_window_on_another_process_takes_the_seat_and_the_first_is_told():
    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, _), a_server(url) as (two, url2, _):
                created = await new_game(url1, "tutorial-duel")
                first = await seat(url1, created, "german")
                two.relay.address = None  # served there, not relayed (both windows at once)
                second = await seat(url2, created, "german")
                await first.until(lambda: first.status == "taken over", 10)
                assert "another window" in (first.error or "")
                assert second.status == "connected" and second.view is not None
                await asyncio.sleep(0.3)  # the first's end told back: the second stays
                assert second.status == "connected"
                assert "german" not in one.games[created.game].conns
                await first.close()
                await second.close()

    bounded(main())


def test_a_seats_presence_is_seen_by_every_other_process_and_goes_with_its_own():
    """The presence locks of 64 seats (keys of every sign) are seen from another process, not
    from their own; a seat that left, or whose process ended, is present nowhere."""
    with pg_schema() as url:
        one, two = PgStore(url), PgStore(url)
        try:
            seats = [(secrets.token_hex(8), side) for side in ("german", "russian")] * 32
            seats = list(dict.fromkeys((g + str(i), s) for i, (g, s) in enumerate(seats)))
            for game, side in seats:
                one.arrive(game, side)
            assert two.present_elsewhere(seats) == set(seats)
            assert one.present_elsewhere(seats) == set()
            one.leave(*seats[0])
            assert two.present_elsewhere(seats) == set(seats[1:])
            pid = one._holder().info.backend_pid
            one.close()
            while two._query("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", (pid,))[0][0]:
                time.sleep(0.01)
            assert two.present_elsewhere(seats) == set()
        finally:
            one.close()
            two.close()


def test_a_games_owner_is_named_for_a_relay_only_while_it_holds_a_seat_of_it():
    """owners_with_seats (one statement for many games): the other live process that owns a
    game and holds one of its seats, by the address it advertised; never a process's own
    games, nor an owner without a seat there (a seat on another process is not its)."""
    with pg_schema() as url:
        one, two = PgStore(url), PgStore(url)
        try:
            one.advertise("ws://127.0.0.1:1111")
            games = [secrets.token_hex(6) for _ in range(3)]
            sides = ["german", "russian"]
            assert one.claim_many(games) == set(games)
            one.arrive(games[0], "russian")
            two.arrive(games[1], "german")  # a seat on two of a game one owns: not one's
            assert two.owners_with_seats(games, sides) == {games[0]: "ws://127.0.0.1:1111"}
            assert one.owners_with_seats(games, sides) == {}
            one.leave(games[0], "russian")
            assert two.owner_with_seats(games[0], sides) is None
        finally:
            one.close()
            two.close()


def test_a_process_with_more_than_its_share_of_seats_sends_some_to_a_process_with_none():
    """Issue 43: after a kill the survivor held every seat and the process started again none
    (one process played 500 games for the rest of the run). A process holding more than an
    even share of the seats, and SPARE more, gives up idle games (each seat closed with "try
    again"); their clients reconnect to the port both share, some land on the other, and
    every game plays on (its computer's moves made there)."""

    async def main():
        with pg_schema() as url:
            async with a_server(url) as (one, url1, store):
                port = int(url1.rsplit(":", 1)[1])
                created = [await new_game(url1, "tutorial-duel", "german") for _ in range(30)]
                quick = Backoff(first=0.05, most=0.2)
                clients = [await seat(url1, c, "russian", backoff=quick) for c in created]
                await asyncio.sleep(1.2)  # alone: it keeps them all
                assert len(one.games) == 30 and all(c.reconnects == 0 for c in clients)
                async with a_server(url, port) as (two, _, _):
                    loop = asyncio.get_running_loop()
                    start = loop.time()
                    while True:
                        mine, counts = await asyncio.to_thread(store.seat_counts)
                        if len(counts) == 2 and two.games and mine - 15 <= SPARE:
                            break
                        await asyncio.sleep(0.1)
                        assert loop.time() - start < 20, f"not shared within 20 s: {counts}"
                    for c in clients:  # each plays on, wherever it is
                        await one_more(c)
                    held = {g: s for s in (one, two) for g in s.games if s.follow.owns(g)}
                    assert {c.game for c in created} <= set(held)
                    for c in clients:
                        await c.close()

    bounded(main())


async def one_more(c: Client) -> None:
    """One more action of ``c``'s (its connection may be sent away meanwhile: once it is back,
    it is tried again)."""
    while True:
        await c.until(lambda: c.status == "connected" and my_turn(c), BOUND)
        view = c.view
        assert view is not None
        with contextlib.suppress(Disconnected):
            await c.act(view.legal[0], view.version)
            return
