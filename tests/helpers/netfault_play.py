"""One game played by two real websocket clients, one a seat, each choosing its side's actions
from its own view (seeded picks of its legal actions, as ``hexfire bench net``'s clients do),
for tests/server/test_netfault.py, which runs it in the players' network namespace:

    python3 netfault_play.py SERVER_URL SCENARIO SEED

It prints ``created GAME``, then ``acted N T`` after each acknowledged action (T: the
monotonic clock; the test cuts the link mid-game by them), and last one JSON line: each
side's attempts (acknowledged, refused, unknown: the connection dropped with it in flight),
the desyncs (the view hash not
the server's after an action), whether each client ended on the server's hash, the
reconnections and the wall time. :func:`tally` compares the attempts with the seat's actions
as the server stored them (the test reads its store)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sys
import time

from net_helpers import new_game, pick

from game.engine.actions import action_from_json
from game.net.client import Backoff, Client, Disconnected, NetError, Refusal, invitation
from game.net.wire import Answer, Welcome

DEADLINE = 600.0
"""No game of the test takes longer than this (seconds): a game stuck fails it."""


def digest(client: Client) -> str:
    assert client.view is not None
    return hashlib.sha256(client.view.to_json().encode("utf-8")).hexdigest()


def settled(client: Client) -> bool:
    return client.end is not None or (client.status == "connected" and client.ready)


def due(client: Client) -> bool:
    view = client.view
    return client.end is not None or (
        settled(client) and view is not None and view.acting == view.side and not view.over
    )


async def side(client: Client, seed: int, out: dict, progress: list[int]) -> None:
    """Play ``client``'s side to the end; its attempts and desyncs in ``out``."""
    rng = random.Random(seed)
    start = time.monotonic()
    seen: dict[str, str] = {}

    def heard(message: object) -> None:  # the view's hash when an answer came, in order
        if isinstance(message, Welcome):  # (re)joined: when
            out.setdefault("joined", []).append(time.monotonic())
        if message is None and client.status == "reconnecting":  # the connection dropped
            out.setdefault("dropped", []).append(time.monotonic())
        if isinstance(message, Answer) and isinstance(message.value, str):
            seen[message.value] = digest(client) if client.view is not None else ""

    client.on_message = heard
    while client.end is None:
        if time.monotonic() - start > DEADLINE:
            raise TimeoutError(f"no end in {DEADLINE:.0f} s")
        try:
            await client.until(lambda: due(client), 60)
        except TimeoutError:
            continue
        if client.end is not None:
            break
        view = client.view
        assert view is not None
        action = pick(rng, list(view.legal) or [{"type": "end_phase"}])
        try:
            await client.act(action, view.version)
            outcome = "acked"
        except Refusal as e:
            outcome = f"refused:{e.code}"
        except Disconnected:
            outcome = "unknown"
        out["attempts"].append({"action": action, "version": view.version, "outcome": outcome})
        if outcome != "acked":
            continue
        progress[0] += 1
        print(f"acted {progress[0]} {time.monotonic()}", flush=True)
        try:
            await client.until(lambda: settled(client), 60)
            if client.end is None:
                value = await client.ask("digest")
                if value != seen.get(value, ""):
                    out["desyncs"] += 1
                    out.setdefault("desynced_at", []).append(client.view.version)
        except (Disconnected, TimeoutError):
            pass


def norm(action: dict) -> dict:
    """An action's JSON form as the server stores it."""
    return action_from_json(action).to_json()


def tally(attempts: list[dict], stored: list[dict]) -> tuple[int, int]:
    """(lost, extra): the acknowledged actions missing from ``stored`` (the seat's actions as
    the server stored them) in order; the stored ones that no attempt sent (in order, each
    sent once): a double apply among them."""
    stored = [norm(a) for a in stored]
    acked = iter(stored)
    lost = sum(1 for a in attempts if a["outcome"] == "acked" and norm(a["action"]) not in acked)
    sent = [norm(a["action"]) for a in attempts if a["outcome"] in ("acked", "unknown")]
    extra, i = 0, 0
    for action in stored:
        while i < len(sent) and sent[i] != action:
            i += 1
        if i == len(sent):
            extra += 1
        else:
            i += 1
    return lost, extra


async def main(url: str, scenario: str, seed: int) -> dict:
    t0 = time.monotonic()
    while True:  # the link may be slow to carry the first handshake
        try:
            created = await new_game(url, scenario)
            break
        except NetError:
            if time.monotonic() - t0 > 60:
                raise
            await asyncio.sleep(1)
    print(f"created {created.game}", flush=True)
    clients = {
        s: Client(invitation(url, created.game, t), backoff=Backoff(0.25, 5.0), timeout=30)
        for s, t in created.tokens.items()
    }
    for c in clients.values():  # a seat's first hello may be lost on the link too: try again
        t1 = time.monotonic()
        while True:
            try:
                await c.connect()
                break
            except NetError:
                if time.monotonic() - t1 > 90:
                    raise
                await asyncio.sleep(1)
    results = {s: {"attempts": [], "desyncs": 0} for s in clients}
    progress = [0]
    await asyncio.gather(
        *(side(c, seed + k, results[s], progress) for k, (s, c) in enumerate(clients.items()))
    )
    report: dict = {"game": created.game, "seconds": round(time.monotonic() - t0, 1)}
    for s, c in clients.items():
        await c.until(lambda c=c: settled(c), 120)
        r = results[s]
        r["reconnects"] = c.reconnects
        r["winner"] = c.end.winner if c.end else None
        r["on_server_hash"] = await c.ask("digest") == digest(c)
        r["outcomes"] = {
            o: sum(1 for a in r["attempts"] if a["outcome"] == o)
            for o in sorted({a["outcome"] for a in r["attempts"]})
        }
        await c.close()
    report["sides"] = results
    return report


if __name__ == "__main__":
    url, scenario, seed = sys.argv[1:]
    print(json.dumps(asyncio.run(main(url, scenario, int(seed)))), flush=True)
