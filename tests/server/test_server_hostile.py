"""Hostile frames against the server over the loopback (issue 40): fuzzed, malformed, unknown,
oversized, binary, wrong tokens, floods, silence. Each gets an error and changes nothing; the
game, another game and the server go on."""

from __future__ import annotations

import asyncio
import json
import random
import time

from net_helpers import BOUND, FAST, new_game, raw, seat, serving
from websockets.asyncio.client import connect

from game.net.wire import MAX_FRAME, MAX_MESSAGE, WIRE
from game.server.server import Limits


def run(coro):
    async def bounded():
        async with asyncio.timeout(BOUND):
            return await coro

    return asyncio.run(bounded())


def hello(game: str, token: str) -> str:
    return json.dumps({"t": "hello", "wire": WIRE, "game": game, "token": token})


def snapshot(server, game_id: str) -> tuple:
    game = server.games[game_id].game
    return game.state_hash(), len(game.history), game.dice.draws


def test_a_wrong_token_and_a_missing_game_get_the_same_answer_and_the_connection_ends(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            real = created.tokens["german"]
            wrong = ("A" if real[0] != "A" else "B") + real[1:]  # one character off
            answers = [
                await raw(url, hello(created.game, wrong), replies=2),
                await raw(url, hello("0123456789abcdef", real), replies=2),
                await raw(url, hello("0123456789abcdef", wrong), replies=2),
                await raw(
                    url, hello(created.game, created.tokens["russian"][:-1] + "x"), replies=2
                ),
            ]
            assert all(a == answers[0] for a in answers)
            assert answers[0][0] == {
                "t": "error",
                "code": "no_seat",
                "reason": "no such game, or not a token of it",
            }
            assert answers[0][1] == ("closed", 1008)
            assert not server.games[created.game].conns  # nobody took a seat

    run(main())


def test_fuzzed_and_malformed_frames_get_an_error_each_and_change_nothing(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "road-ambush")
            other = await new_game(url, "tutorial-duel")
            german = await seat(url, created, "german")
            russian = await seat(url, created, "russian")
            before = snapshot(server, created.game)
            rng = random.Random(40)
            good = json.dumps(
                {"t": "act", "seq": 1, "version": 99, "action": {"type": "end_phase"}}
            )
            frames: list[str | bytes] = [
                "",
                "null",
                "{}",
                '{"t": "act"}',
                '{"t": "hello", "wire": 1}',
                '{"t": "create", "wire": 1}',
                '{"t": "act", "seq": 1, "version": 0, "action": {"type": "move", "unit": [1]}}',
                '{"t": "act", "seq": 1, "version": 0, "action": "end_phase"}',
                '{"t": "ask", "seq": 1, "question": "odds", "args": [1, 2, 3, 4, 5]}',
                '{"t": "ask", "seq": 1, "question": "eval", "args": []}',
                '{"t": "order", "seq": 1, "dff": {"policy": "always"}}',
                '{"t": "act", "seq": 2, "version": 0, "action": {"type": "\\ud800"}}',
                b"\x00\xff binary",
                "{" * 50_000,
            ]
            for _ in range(300):  # mutations of a good frame: flipped, cut, repeated bytes
                chars = list(good)
                for _ in range(rng.randint(1, 6)):
                    i = rng.randrange(len(chars))
                    op = rng.random()
                    if op < 0.4:
                        chars[i] = chr(
                            rng.choice([0, 34, 44, 58, 91, 93, 123, 125, rng.randrange(32, 0x2FF)])
                        )
                    elif op < 0.7:
                        del chars[i]
                    else:
                        chars.insert(i, chars[i] * rng.randint(1, 40))
                frames.append("".join(chars))
            got: list = []
            german.on_message = got.append
            for f in frames:
                await german._ws.send(f)
            # every frame answered (an error, or a refusal of what parsed), and none changed it
            await german.until(lambda: len(got) >= len(frames), 60)
            await asyncio.sleep(0.2)
            assert len(got) == len(frames)
            kinds = {m.t for m in got}
            assert kinds <= {"error", "refused", "answer", "record", "order"}, kinds
            assert german.status == "connected"
            assert snapshot(server, created.game) == before
            # the seat, the other seat and another game go on
            acting = german if german.view.acting == "german" else russian
            await acting.act(acting.view.legal[0])
            assert snapshot(server, created.game) != before
            third = await seat(url, other, "german")
            assert third.view is not None
            for c in (german, russian, third):
                await c.close()

    run(main())


def test_an_oversized_message_is_refused_and_a_frame_past_the_limit_closes_only_its_socket(
    tmp_path,
):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            german = await seat(url, created, "german")
            before = snapshot(server, created.game)
            errors = []
            german.on_message = lambda m: errors.append(m) if getattr(m, "t", "") == "error" else 0
            big = json.dumps(
                {"t": "act", "seq": 9, "version": 0, "action": {"type": "x" * (MAX_MESSAGE + 10)}}
            )
            await german._ws.send(big)
            await german.until(lambda: bool(errors), 10)
            assert errors[0].code == "oversized" and "16 KiB" in errors[0].reason
            assert german.status == "connected"
            closed = await raw(
                url,
                hello(created.game, created.tokens["russian"]),
                "x" * (MAX_FRAME + 1),
                replies=3,
            )
            assert closed[-1] == ("closed", 1009)  # the socket's limit: the library closes it
            assert snapshot(server, created.game) == before
            await german.close()

    run(main())


def test_a_client_that_floods_is_slowed_then_dropped_and_the_others_play_on(tmp_path):
    limits = Limits(hello_seconds=2.0, rate=50.0, burst=10, drop_after=40)

    async def main():
        async with serving(tmp_path, limits=limits) as (server, url):
            created = await new_game(url, "tutorial-duel")
            russian = await seat(url, created, "russian")
            before = snapshot(server, created.game)
            flood = json.dumps({"t": "record", "seq": 1})
            async with connect(url, max_size=None) as ws:
                await ws.send(hello(created.game, created.tokens["german"]))
                json.loads(await ws.recv())  # welcome
                start = time.monotonic()
                got: list = []
                try:
                    for _ in range(400):
                        await ws.send(flood)
                    async with asyncio.timeout(20):
                        while True:
                            got.append(json.loads(await ws.recv()))
                except Exception:
                    pass
                took = time.monotonic() - start
                code = ws.close_code
            answered = [m for m in got if m["t"] == "record"]
            assert got[-1] == {
                "t": "error",
                "code": "flood",
                "reason": "too many messages: dropped",
            }
            assert code == 1008
            # slowed: past its burst it was answered at its rate, then dropped
            assert 10 <= len(answered) <= 10 + 40 + 20
            assert took >= 40 / 50 * 0.8
            assert snapshot(server, created.game) == before
            assert russian.status == "connected"
            await russian.request({"t": "record"})  # the other seat is answered as ever
            await russian.close()

    run(main())


def test_a_connection_that_says_nothing_is_closed(tmp_path):
    async def main():
        async with (
            serving(tmp_path, limits=Limits(hello_seconds=0.3)) as (server, url),
            connect(url) as ws,
        ):
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert msg["code"] == "timeout"
            await asyncio.wait_for(ws.wait_closed(), 5)
            assert ws.close_code == 1008

    run(main())


def test_before_hello_only_hello_and_create_are_heard(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            act = json.dumps({"t": "act", "seq": 1, "version": 0, "action": {"type": "pass"}})
            replies = await raw(
                url,
                act,
                json.dumps({"t": "create", "wire": 99, "scenario_name": "x", "scenario_text": ""}),
                replies=2,
            )
            assert replies[0]["code"] == "hello"
            assert replies[1]["code"] == "wire"
            bad = json.dumps(
                {"t": "create", "wire": WIRE, "scenario_name": "x.toml", "scenario_text": "id = 3"}
            )
            refused = (await raw(url, bad))[0]
            assert refused["t"] == "refused" and refused["code"] == "scenario"
            assert "\n" not in refused["reason"]
            assert not server.games

    run(main())
