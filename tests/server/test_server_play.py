"""The server over real sockets on the loopback (issue 40): whole games between scripted
clients and against the server's computer, a second window taking a seat, a dropped client
reconnecting by itself, refusals that change nothing."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest
from net_helpers import BOUND, FAST, new_game, play, seat, serving

from game.files.honest import check_published, check_save, commitment
from game.files.replay import replay
from game.files.savegame import parse_save
from game.net.client import Backoff, Client, Disconnected, Refusal, invitation


def run(coro):
    async def bounded():
        async with asyncio.timeout(BOUND):
            return await coro

    return asyncio.run(bounded())


def test_a_whole_game_between_two_scripted_clients(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            assert set(created.tokens) == {"german", "russian"}
            assert all(len(t) >= 22 for t in created.tokens.values())  # >= 128 bits
            a = await seat(url, created, "german")
            b = await seat(url, created, "russian")
            mid = await a.record()  # during the game: its own side's record only
            assert mid.kind == "side" and mid.record["side"] == "german"
            assert "seed" not in mid.record and "salt" not in json.dumps(mid.record)
            took = await asyncio.gather(play(a, 1), play(b, 2))
            assert all(n > 0 for n in took)
            assert a.end is not None and b.end is not None
            assert a.end == b.end
            end = a.end
            assert commitment(end.seed, end.salt) == created.commitment.sha256
            assert a.view.over and b.view.over
            full = await a.record()
            assert full.kind == "full"
            saved = parse_save(json.dumps(full.record))
            game = replay(saved)  # every die and state hash
            assert game.over and game.winner == end.winner
            checked, why = check_save(
                saved.seed, saved.scenario_sha256, saved.actions, saved.commitment, saved.chain
            )
            assert why is None and len(checked) == 2
            assert saved.chain == end.chain
            assert (
                check_published(
                    created.commitment.sha256,
                    created.commitment.scenario_sha256,
                    saved.commitment,
                    saved.scenario_sha256,
                )
                is None
            )
            assert set(end.luck) == {"german", "russian"}
            assert saved.scenario_sha256 == created.commitment.scenario_sha256
            assert (
                hashlib.sha256(saved.scenario_text.encode()).hexdigest()
                == created.commitment.scenario_sha256
            )
            hosted = server.games[created.game]
            assert len(saved.actions) == len(hosted.session.saved_actions)
            await a.close()
            await b.close()

    run(main())


def test_the_computer_takes_a_seat_on_the_server(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "road-ambush", computer="russian", level=1)
            assert set(created.tokens) == {"german"}  # the computer's seat has no token
            german = await seat(url, created, "german")
            assert german.welcome.seats == {"russian": "computer", "german": "remote"}
            await play(german, 3)
            assert german.end is not None
            sides = {a.side for a in server.games[created.game].actions}
            assert sides == {"german", "russian"}
            await german.close()

    run(main())


def test_out_of_turn_stale_and_illegal_actions_are_refused_and_change_nothing(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            a = await seat(url, created, "german")
            b = await seat(url, created, "russian")
            game = server.games[created.game].game
            acting, waiting = (a, b) if a.view.acting == "german" else (b, a)
            before = (game.state_hash(), len(game.history))
            refusals = []
            for client, action, version in (
                (waiting, {"type": "end_phase"}, waiting.view.version),  # out of turn
                (acting, {"type": "end_phase"}, acting.view.version + 1),  # stale
                (acting, {"type": "move", "unit": "nobody", "to": "A1"}, acting.view.version),
                (acting, {"type": "fly"}, acting.view.version),  # unknown action type
                (acting, {"type": "turn", "unit": "x", "facing": "north"}, acting.view.version),
            ):
                with pytest.raises(Refusal) as e:
                    await client.act(action, version)
                refusals.append(e.value.code)
            assert refusals == ["not_your_turn", "stale", "illegal", "malformed", "malformed"]
            assert (game.state_hash(), len(game.history)) == before
            # the one to act still acts
            await acting.act({"type": "end_phase"})
            assert len(game.history) > before[1]
            await a.close()
            await b.close()

    run(main())


def test_a_second_window_takes_the_seat_and_the_first_is_told(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            first = await seat(url, created, "german")
            second = await seat(url, created, "german")
            await first.until(lambda: first.status == "taken over", 10)
            assert "another window" in (first.error or "")
            with pytest.raises(Disconnected):
                await first.act({"type": "end_phase"})
            assert server.games[created.game].conns["german"] is not None
            assert second.status == "connected" and second.view is not None
            await first.close()
            await second.close()

    run(main())


def test_a_dropped_client_reconnects_by_itself_and_resumes_mid_turn(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel", computer="german", level=1)
            seen = []
            client = Client(
                invitation(url, created.game, created.tokens["russian"]),
                on_message=lambda m: seen.append(client.status),
                backoff=Backoff(first=0.05, most=0.2),
            )
            await client.connect()
            played = 0
            drops = 0
            while client.end is None:
                await client.until(
                    lambda: (
                        client.end is not None or (client.ready and client.view.acting == "russian")
                    ),
                    BOUND,
                )
                if client.end is not None:
                    break
                version = client.view.version
                if played % 7 == 3:  # mid-turn: the socket dies under it
                    client._ws.transport.abort()
                    drops += 1
                    await client.until(lambda n=drops: client.reconnects == n and client.ready, 10)
                    assert client.view.version == version  # nothing missed, nothing lost
                legal = list(client.view.legal)
                await client.act(legal[played % len(legal)])
                played += 1
            assert drops >= 1 and "reconnecting" in seen
            assert client.end.winner in ("german", "russian")
            await client.close()

    run(main())


def test_an_action_the_store_cannot_keep_is_refused_and_not_taken(tmp_path):
    """Durable before acknowledged: when the commit fails (a full disk), the seat is refused,
    the game goes back to what the store holds, and the next action is taken as usual."""
    from game.server.server import Server, listen
    from game.server.store import SqliteStore, StoreError

    class Failing(SqliteStore):
        fail = False

        def append(self, *args):
            if self.fail:
                raise StoreError("disk full")
            super().append(*args)

    async def main():
        store = Failing(tmp_path / "games.sqlite")
        server = Server(store)
        async with listen(server, "127.0.0.1", 0) as ws:
            url = f"ws://127.0.0.1:{next(iter(ws.sockets)).getsockname()[1]}"
            created = await new_game(url, "tutorial-duel")
            a = await seat(url, created, "german")
            b = await seat(url, created, "russian")
            acting = a if a.view.acting == "german" else b
            hosted = server.games[created.game]
            before = (hosted.game.state_hash(), len(hosted.session.saved_actions))
            store.fail = True
            with pytest.raises(Refusal) as e:
                await acting.act({"type": "end_phase"})
            assert e.value.code == "store"
            hosted = server.games[created.game]
            assert (hosted.game.state_hash(), len(hosted.session.saved_actions)) == before
            store.fail = False
            await acting.act({"type": "end_phase"})
            assert len(server.games[created.game].session.saved_actions) == before[1] + 1
            await a.close()
            await b.close()
            await server.close()
        store.close()

    run(main())


def test_a_client_says_why_each_of_its_connections_dropped(tmp_path):
    """Issue 43: ``bench net --db`` counted 8 to 16 reconnects a run with no kill and nothing
    said why (they were a process sending seats to a less busy one: "try again", 1012). A
    client keeps each drop's close code and reason: the server's close, or none at all (the
    connection lost); never its own closing."""

    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel", computer="german", level=1)
            quick = Backoff(first=0.05, most=0.2)
            client = await seat(url, created, "russian", backoff=quick)
            busy = "this server process is busier than another: try again"
            server.games[created.game].conns["russian"].close(1012, busy)
            await client.until(lambda: client.reconnects == 1 and client.ready, 10)
            client._ws.transport.abort()  # the socket dies: no close frame either way
            await client.until(lambda: client.reconnects == 2 and client.ready, 10)
            await client.close()
            assert client.drops == {f"1012 {busy}": 1, "1006 lost": 1}

    run(main())
