"""Hidden information on the wire (issue 40): every byte the server sends to one seat, through
whole games of the computer against a scripted seat, in pairs of games that differ only in
what that seat may not know, is the same in both games for as long as the secret lasts.

A pair is two server games of the same scenario text, the same seed, salt, computer seed,
game id and tokens (a seeded randomness), differing in one secret of the other side (as
tests/test_seats.py's twins): where its gun bore sights (C6.42), which facing a "?" has or
which "?" is which (RD-11), or the dice to come. The observed seat is a client that plays from
what it receives (the same bytes, the same actions; it also sends actions it may not take, so
its refusals are recorded too). The other side is the computer in the first game; in the
second it takes the first game's actions of that side while they are legal there (from the
first game's save, downloaded after its end). A tap in the server records each message it
sends the observed seat, with whether the secret still held in that game as it was sent (the
bore-sighting gun has not fired, the "?" are still concealed, no die was rolled) and whether
the second game still follows the first. The recordings must be byte-identical over every
message sent while the secret held in both; the games are played to their ends."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from net_helpers import FAST, play, seat, serving

from game.ai import ComputerPlayer
from game.ai.opponent import Decision
from game.engine import Game
from game.engine.actions import Action, BoreSight, EndPhase, Place, action_from_json
from game.engine.table import Snapshot, Table
from game.files.scenario import load_scenario
from game.files.shipped import scenarios_dir
from game.net.client import create_game

SCENARIOS = sorted(p.stem for p in scenarios_dir().glob("*.toml"))
AI_SEED = 77
GAME_ID = "00000000000000aa"
END = '{"t":"end"'


class Fixed:
    """The server's randomness, the same in both games of a pair (the dice seed aside)."""

    def __init__(self, seed: int):
        self._seed = seed
        self._tokens = iter(f"{side}-token-{'x' * 30}"[:40] for side in ("a", "b", "c", "d"))

    def token(self) -> str:
        return next(self._tokens)

    def game_id(self) -> str:
        return GAME_ID

    def seed(self) -> int:
        seed, self._seed = self._seed, AI_SEED  # the dice seed, then the computer's
        return seed

    def salt(self) -> str:
        return "5a17" * 8


class Mirror:
    """The secret side's player: ``script`` (engine actions) while each is legal, then the
    computer. ``followed``: whether it still plays the script (a pair that parts is no longer
    a pair: what its side does now differs)."""

    def __init__(self, side: str, script: list[Action], level: int = 1):
        self.side = side
        self.level = level
        self.script = list(script)
        self.followed = True
        self.computer = ComputerPlayer(side, level, seed=AI_SEED)

    def choose(self, table: Table) -> Decision:
        if self.followed and self.script:
            action = self.script[0]
            if table.check(action) is None:
                self.script.pop(0)
                return Decision(action, "as in the first game")
            self.followed = False
        return self.computer.choose(table)

    def plan_record(self, table: Table) -> None:
        del table
        return None


@dataclass
class Pair:
    """A secret of ``side`` (the scenario defender): its set-up in each game, and whether the
    secret still holds in a game."""

    kind: str
    side: str
    setups: tuple[list[Action], list[Action]]
    kept: Callable[[Game], bool]
    seeds: tuple[int, int] = (5, 5)
    notes: list[str] = field(default_factory=list)


def base_setup(name: str, seed: int = 5) -> tuple[Game, list[Action], str]:
    """The defender's set-up as the computer makes it: the game after it, its actions (ending
    with its End Phase), the defender."""
    scenario = load_scenario(scenarios_dir() / f"{name}.toml")
    game = Game(scenario.setup, seed)
    side = scenario.setup.defender
    player = ComputerPlayer(side, 1, seed=AI_SEED)
    actions: list[Action] = []
    tables = Snapshot(game)
    while game.phase == "setup" and game.to_act == side and len(actions) < 500:
        table = tables.table(side)
        action = table.engine_action(player.choose(table).action)
        game.apply(action)
        actions.append(action)
    return game, actions, side


def _before_end(name: str, seed: int = 5) -> tuple[Game, list[Action], str]:
    """The game just before the defender's set-up ends (its last action an End Phase)."""
    _, actions, side = base_setup(name, seed)
    assert isinstance(actions[-1], EndPhase)
    scenario = load_scenario(scenarios_dir() / f"{name}.toml")
    game = Game(scenario.setup, seed)
    for a in actions[:-1]:
        game.apply(a)
    return game, actions[:-1], side


def fired(unit_id: str) -> Callable[[Game], bool]:
    def kept(game: Game) -> bool:
        return not any(
            e.kind == "fire" and (e.data or {}).get("firer") == unit_id for e in game.history
        )

    return kept


def concealed(*ids: str) -> Callable[[Game], bool]:
    def kept(game: Game) -> bool:
        return all(game.units[u].active and game.units[u].concealed for u in ids)

    return kept


def no_dice(game: Game) -> bool:
    return game.dice.draws == 0


@functools.cache
def pairs(name: str) -> list[Pair]:
    """The pairs a scenario allows: the dice to come always; a bore sight where the defender
    may bore sight; a "?"'s facing and which "?" is which where it has concealed units."""
    game, head, side = _before_end(name)
    end = [EndPhase()]
    out = [Pair("dice", side, (head + end, head + end), no_dice, seeds=(5, 6))]
    sights = [a for a in game.legal_actions() if isinstance(a, BoreSight)]
    by_unit: dict[str, list[BoreSight]] = {}
    for a in sights:
        by_unit.setdefault(a.unit, []).append(a)
    for unit, options in sorted(by_unit.items()):
        if len(options) >= 2:
            one, two = options[0], options[len(options) // 2]
            out.append(
                Pair("bore sight", side, (head + [one] + end, head + [two] + end), fired(unit))
            )
            break
    hidden = [u for u in game.units.values() if u.side == side and u.concealed and u.active]
    for u in hidden:
        places = [
            a
            for a in game.legal_actions()
            if isinstance(a, Place) and a.unit == u.id and a.hex == u.label and a.facing != u.facing
        ]
        if places:
            stay = Place(u.id, u.label, u.facing)
            out.append(
                Pair(
                    "? facing",
                    side,
                    (head + [stay] + end, head + [places[0]] + end),
                    concealed(u.id),
                )
            )
            break
    for i, u in enumerate(hidden):
        for v in hidden[i + 1 :]:
            if u.type.key == v.type.key:
                continue
            swap = [Place(u.id, v.label, u.facing), Place(v.id, u.label, v.facing)]
            probe = game.copy()
            try:
                for a in swap:
                    probe.apply(a)
            except Exception:
                continue
            if probe.units[u.id].concealed and probe.units[v.id].concealed:
                stay = [Place(u.id, u.label, u.facing), Place(v.id, v.label, v.facing)]
                out.append(
                    Pair(
                        "which ? is which",
                        side,
                        (head + stay + end, head + swap + end),
                        concealed(u.id, v.id),
                    )
                )
                break
        else:
            continue
        break
    return out


@dataclass
class Recording:
    frames: list[tuple[str, bool]]
    save: dict
    mirror: Mirror


async def play_one(
    folder: Path, name: str, pair: Pair, which: int, script: list[Action]
) -> Recording:
    """One game of a pair on a server of its own: the observed seat's every message recorded."""
    mirror = Mirror(pair.side, script)
    frames: list[tuple[str, bool]] = []
    async with serving(
        folder,
        limits=FAST,
        randomness=Fixed(pair.seeds[which]),
        player=lambda meta, side, level: mirror,
    ) as (server, url):
        text = (scenarios_dir() / f"{name}.toml").read_text("utf-8")
        created = await create_game(url, f"{name}.toml", text, pair.side, 1)
        observer = next(s for s in created.tokens)
        hosted = server.games[created.game]

        def tap(message: str) -> None:
            # the end reveals every secret by design: the seed, the salt, the chain's head
            held = pair.kept(hosted.game) and mirror.followed and not message.startswith(END)
            frames.append((message, held))

        server.taps[(created.game, observer)] = tap
        client = await seat(url, created, observer)
        await play(client, seed=11, probe=True)
        save = (await client.record()).record
        await client.close()
    return Recording(frames, save, mirror)


def compare(a: Recording, b: Recording, kind: str) -> tuple[int, int]:
    """The messages sent while the secret held in both games must be the same bytes (the dice
    pair's commitment aside: it is by design a hash of the seed). Returns (compared, sent)."""
    n = 0
    for (fa, ha), (fb, hb) in zip(a.frames, b.frames, strict=False):
        if not (ha and hb):
            break
        if kind == "dice":
            fa = fa.replace(json.loads(a.frames[0][0])["commitment"]["sha256"], "C")
            fb = fb.replace(json.loads(b.frames[0][0])["commitment"]["sha256"], "C")
        assert fa == fb, f"message {n} differs:\n{fa[:400]}\n{fb[:400]}"
        n += 1
    return n, len(a.frames)


def _secret_side_actions(save: dict, side: str, name: str) -> list[Action]:
    scenario = load_scenario(scenarios_dir() / f"{name}.toml")
    game = Game(scenario.setup, save["seed"])
    out = []
    for entry in save["actions"]:
        action = action_from_json(entry["action"])
        if game.to_act == side:
            out.append(action)
        game.apply(action)
    return out


KINDS = {
    "bagration-4-boards": ("dice", "bore sight", "? facing", "which ? is which"),
    "hedgerow-chart": ("dice", "bore sight", "? facing"),
    "lesson-1-move": ("dice",),
    "lesson-2-sight": ("dice", "bore sight"),
    "lesson-3-shot": ("dice", "bore sight"),
    "lesson-4-kill": ("dice", "bore sight"),
    "lesson-5-dff": ("dice", "bore sight"),
    "lesson-6-acquire": ("dice", "bore sight"),
    "lesson-7-duel": ("dice", "bore sight", "? facing"),
    "road-ambush": ("dice", "bore sight", "? facing"),
    "steppe-200": ("dice", "bore sight", "? facing"),
    "tutorial-duel": ("dice", "bore sight", "? facing"),
}
"""The secrets each shipped scenario allows a pair to differ in (a new scenario is listed)."""


def test_every_shipped_scenario_is_paired():
    assert sorted(KINDS) == SCENARIOS


@pytest.mark.parametrize(
    ("name", "kind"),
    [(n, k) for n, kinds in KINDS.items() for k in kinds],
)
def test_a_seat_receives_the_same_bytes_in_twin_games_differing_in_what_it_may_not_know(
    name, kind, tmp_path
):
    found = {p.kind: p for p in pairs(name)}
    assert tuple(found) == KINDS[name]
    pair = found[kind]
    first = asyncio.run(
        asyncio.wait_for(play_one(tmp_path / "a", name, pair, 0, pair.setups[0]), 600)
    )
    theirs = _secret_side_actions(first.save, pair.side, name)
    script = pair.setups[1] + theirs[len(pair.setups[0]) :]
    second = asyncio.run(asyncio.wait_for(play_one(tmp_path / "b", name, pair, 1, script), 600))
    assert first.save["actions"] and second.save["actions"], "both games were played"
    compared, sent = compare(first, second, pair.kind)
    assert compared >= 2, f"{pair.kind}: only {compared} of {sent} messages compared"
