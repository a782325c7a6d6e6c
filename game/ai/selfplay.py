"""Computer against computer: one game of a scenario's set-up played to its end, each side by a
:class:`ComputerPlayer` reading its side's table (``Snapshot.table``: its view and its questions,
never the game), every action through ``Game.apply`` (so it saves and replays like any game): this
module is the referee, the one in game/ai/ that holds a game; and the figures of many such games
(win rates with their 95% interval, the mean turn the game ended, the AFVs lost on each side, how
often each victory condition decided)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from game.engine import Game
from game.engine.actions import Action
from game.engine.setup import Setup
from game.engine.table import Snapshot

from .opponent import ComputerPlayer
from .sparring import CarefulPlayer

Level = int | str
"""A player of a self-play game: the computer's level (0-3), or ``"careful:PLAN"``, the careful
sparring player by that plan (game.ai.sparring)."""
CAREFUL = "careful:"


def make_player(side: str, level: Level, seed: int) -> ComputerPlayer | CarefulPlayer:
    """The player of ``side`` at ``level`` (a computer level, or ``"careful:PLAN"``)."""
    if isinstance(level, str):
        if not level.startswith(CAREFUL):
            raise ValueError(f"player {level!r}: expected a level 0-3 or careful:PLAN")
        return CarefulPlayer(side, level[len(CAREFUL) :], seed=seed)
    return ComputerPlayer(side, level, seed=seed)


MAX_ACTIONS = 20_000
"""A game that has not ended after this many actions is stopped (it never happened in the
shipped scenarios: a safeguard against a player that would loop)."""


@dataclass(frozen=True)
class Result:
    """One game's end: the winner, the turn, why, each side's AFVs lost, the actions."""

    seed: int
    winner: str | None
    turn: int
    reason: str
    afvs_lost: dict[str, int]
    actions: tuple[dict, ...] = field(repr=False)
    final_hash: str = ""


def play_game(
    setup: Setup,
    seed: int,
    levels: dict[str, Level],
    on_action: Callable[[Game, Action], None] | None = None,
) -> tuple[Game, Result]:
    """A whole game of ``setup`` (dice seeded by ``seed``), each side by the computer at its
    level in ``levels`` (or the careful player, :data:`Level`); ``on_action`` is told each
    action applied."""
    game = Game(setup, seed)
    players = {
        side: make_player(side, levels[side], seed=seed * 7 + i)
        for i, side in enumerate(setup.sides)
    }
    actions: list[dict] = []
    seats = Snapshot(game)
    while not game.over and len(actions) < MAX_ACTIONS:
        table = seats.table(game.to_act)
        action = table.engine_action(players[game.to_act].choose(table).action)
        game.apply(action)
        actions.append(action.to_json())
        if on_action is not None:
            on_action(game, action)
    lost = {s: 0 for s in setup.sides}
    for u in game.units.values():
        if u.type.category == "afv" and not u.active and u.status != "exited":
            lost[u.side] += 1
    reason = game.end_reason if game.over else f"stopped after {MAX_ACTIONS} actions"
    return game, Result(
        seed, game.winner, game.turn, reason, lost, tuple(actions), game.state_hash()
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (``wins`` of ``n``; a draw counts half)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))
