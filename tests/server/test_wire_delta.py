"""A view's new events only (issues 40 and 43: wire 2): after its welcome (the whole view) a seat
is sent each view with only the events it has not received; the client rebuilds the whole view,
whose digest is the server's. A client of another wire version is refused in one line, and a
client that missed a view message connects again and gets the whole view."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random

from net_helpers import BOUND, FAST, Seeded, new_game, pick, raw, seat, serving

from game.net.client import Client, invitation
from game.net.delta import extend
from game.net.wire import WIRE, ViewMessage, read_server


def run(coro):
    return asyncio.run(coro)


def digest(client: Client) -> str:
    assert client.view is not None
    return hashlib.sha256(client.view.to_json().encode("utf-8")).hexdigest()


async def _turns(clients: dict[str, Client], rng: random.Random, actions: int) -> None:
    """The seat to act takes a seeded pick of its legal actions, ``actions`` times."""
    for _ in range(actions):
        for c in clients.values():
            await c.until(lambda c=c: c.ready, BOUND)
        acting = next(
            (c for c in clients.values() if c.view is not None and c.view.acting == c.view.side),
            None,
        )
        if acting is None or acting.end is not None:
            return
        assert acting.view is not None
        await acting.act(pick(rng, list(acting.view.legal) or [{"type": "end_phase"}]))


def test_after_the_welcome_a_seat_is_sent_only_the_events_it_has_not_received(tmp_path):
    sent: list[str] = []

    async def main() -> None:
        async with serving(tmp_path, limits=FAST, randomness=Seeded(1)) as (server, url):
            created = await new_game(url, "road-ambush", computer="russian")
            server.taps[(created.game, "german")] = sent.append
            german = await seat(url, created, "german")
            rng = random.Random(4)
            for _ in range(60):
                await _turns({"german": german}, rng, 1)
                assert await german.ask("digest") == digest(german)  # rebuilt: the server's
            assert german.view is not None and len(german.view.events) > 20
            await german.close()

    run(main())
    messages = [json.loads(m) for m in sent]
    assert messages[0]["t"] == "welcome" and messages[0]["wire"] == WIRE
    held = read_server(sent[0]).view
    views = 0
    for text, m in zip(sent[1:], messages[1:], strict=True):
        if m["t"] != "view":
            continue
        views += 1
        assert m["after"] == held.version  # it follows the view the seat holds
        assert m["kept"] == len(held.events)  # no undo here: every event held is kept
        whole = extend(held, read_server(text))
        assert whole is not None
        assert len(m["view"]["events"]) == len(whole.events) - len(held.events)
        held = whole
    assert views >= 30
    last = json.loads(sent[-1] if messages[-1]["t"] == "view" else sent[-2])
    assert len(json.dumps(last)) < len(held.to_json()) / 2  # the late views: far smaller


def test_an_undo_keeps_the_events_before_the_action_taken_back(tmp_path):
    sent: dict[str, list[str]] = {}

    async def main() -> None:
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            for side in ("german", "russian"):
                server.taps[(created.game, side)] = sent.setdefault(side, []).append
            seats = {s: await seat(url, created, s) for s in ("german", "russian")}
            rng = random.Random(9)
            for _ in range(40):  # until the seat to act takes one with events, then undoes it
                acting = next(c for c in seats.values() if c.view.acting == c.view.side)
                before = acting.view
                after = await acting.act(pick(rng, list(before.legal) or [{"type": "end_phase"}]))
                for c in seats.values():
                    await c.until(lambda c=c: c.ready, BOUND)
                if (
                    acting.view is after  # nothing the server did by itself since
                    and len(after.events) > len(before.events)
                    and after.acting == before.side
                ):
                    back = await acting.undo()
                    assert len(back.events) < len(after.events)
                    assert back.events == before.events
                    for c in seats.values():
                        await c.until(lambda c=c: c.ready, BOUND)
                        assert await c.ask("digest") == digest(c)
                    break
            else:
                raise AssertionError("no action with events to take back")
            for c in seats.values():
                await c.close()

    run(main())
    shorter = 0  # the undo's view keeps fewer events than the seat held
    for texts in sent.values():
        held = read_server(texts[0]).view
        for text in texts[1:]:
            m = read_server(text)
            if isinstance(m, ViewMessage):
                shorter += m.kept < len(held.events)
                held = extend(held, m)
                assert held is not None
    assert shorter >= 1


def test_a_client_of_another_wire_version_is_refused_in_one_line(tmp_path):
    async def main() -> list:
        async with serving(tmp_path, limits=FAST) as (_server, url):
            created = await new_game(url, "tutorial-duel")
            token = created.tokens["german"]
            hello = {"t": "hello", "wire": 1, "game": created.game, "token": token}
            return await raw(url, json.dumps(hello), replies=2)

    replies = run(main())
    assert replies[0]["t"] == "error" and replies[0]["code"] == "wire"
    assert replies[0]["reason"] == f"this server speaks wire version {WIRE}, not 1"
    assert replies[1][0] == "closed"


class Forgetful(Client):
    """A client that loses the ``drop``-th pushed view message it receives (as if lost)."""

    drop = 0
    dropped: ViewMessage | None = None

    def _dispatch(self, raw: str | bytes) -> None:
        if isinstance(raw, str) and raw.startswith('{"t":"view","seq":null'):
            self.drop -= 1
            if self.drop == 0:
                self.dropped = read_server(raw)
                return
        super()._dispatch(raw)


def test_a_client_that_missed_a_view_connects_again_and_ends_on_the_servers_view(tmp_path):
    async def main() -> None:
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "tutorial-duel")
            russian = await seat(url, created, "russian")
            german = Forgetful(invitation(url, created.game, created.tokens["german"]))
            await german.connect()
            german.drop = 3
            rng = random.Random(2)
            await _turns({"german": german, "russian": russian}, rng, 40)
            hosted = server.games[created.game]
            assert german.dropped is not None and german.dropped.after is not None
            await german.until(lambda: german.reconnects == 1, BOUND)  # the gap seen: again
            await german.until(
                lambda: german.view.version == hosted.session.view("german").version, BOUND
            )
            assert await german.ask("digest") == digest(german)
            await _turns({"german": german, "russian": russian}, rng, 20)  # and it plays on
            assert await german.ask("digest") == digest(german)
            assert await russian.ask("digest") == digest(russian)
            assert german.reconnects == 1
            await german.close()
            await russian.close()

    run(main())


def test_a_view_messages_fields_are_written_as_its_model_writes_them():
    """The view message's fields but its view are written without making the model (issue
    43): the same text as ViewMessage's own, for each kind of value they take."""
    from game.engine import Game
    from game.engine.view import Seer
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir
    from game.net.delta import view_message

    setup = load_scenario(scenarios_dir() / "tutorial-duel.toml").setup
    game = Game(setup, 1)
    seer = Seer()
    first = game.side_view("german", 0, seer)
    game.apply(game.legal_actions()[0])
    view = game.side_view("german", 1, seer)
    marks = [{"wrecks": {}, "smoke": []}, {"wrecks": {"E3": 2, "F4": 1}, "smoke": ["G5"]}]
    for sent in (None, first):
        for seq in (None, 0, 7):
            for ready in (True, False):
                for markers in marks:
                    text = view_message(view, markers, sent, seq, ready)
                    kept = None if sent is None else len(sent.events)
                    model = ViewMessage.model_construct(
                        seq=seq,
                        ready=ready,
                        after=None if sent is None else sent.version,
                        kept=kept or 0,
                        markers=markers,
                    )
                    head = model.model_dump_json(exclude={"view"})
                    assert text.startswith(head[:-1] + ',"view":{')
                    assert read_server(text).markers == markers
