"""Random legal play: a seeded policy over ``Game.legal_actions()`` for benchmarks and property
tests, and a seeded random set-up on a seeded map."""

from __future__ import annotations

import random

from game.board import Board
from game.board.hexes import label
from game.board.mapgen import random_map

from .actions import Action
from .catalogue import unit_types
from .game import Game
from .setup import Setup, UnitSetup, Victory

GERMAN = [
    "pz4h",
    "pz5g",
    "pz6e",
    "stug3g",
    "marder3h",
    "pak40",
    "pak38",
    "ger_psk",
    "ger_pf",
    "sdkfz251",
]
RUSSIAN = [
    "t34m43",
    "t34m44",
    "kv1e",
    "su76m",
    "t50",
    "zis3",
    "m1937",
    "rus_atr",
    "rus_mol",
    "gaz_aa",
]


def random_setup(
    board: Board, seed: int, per_side: int = 8, turns: int = 4, to_kill: str = "asl"
) -> Setup:
    """Germans on the west third, Russians on the east third, on hexes a vehicle may enter."""
    rng = random.Random(seed)
    types = unit_types()
    used: set[int] = set()
    units = []
    for side, pool, cols, facing in (
        ("german", GERMAN, range(0, max(1, board.columns // 3)), 0),
        ("russian", RUSSIAN, range(board.columns - max(1, board.columns // 3), board.columns), 3),
    ):
        spots = [
            r * board.columns + c
            for c in cols
            for r in range(board.rows)
            if board.catalogue.terrains[board.terrain[r * board.columns + c]].enterable_by_vehicle
        ]
        rng.shuffle(spots)
        for k in range(per_side):
            i = next(s for s in spots if s not in used)
            used.add(i)
            t = pool[k % len(pool)]
            units.append(
                UnitSetup(
                    f"{side[:3]}-{k + 1}",
                    t,
                    side,
                    label(board.hex_at(i)),
                    facing=facing if types[t].category != "infantry" else 0,
                    concealed=rng.random() < 0.2,
                )
            )
    victory = (Victory("russian", "eliminate", count=max(1, per_side // 3)),)
    return Setup(
        board,
        ("german", "russian"),
        "russian",
        "german",
        turns,
        tuple(units),
        victory,
        to_kill,
        "random",
    )


def random_game(columns: int, rows: int, seed: int, **kw) -> Game:
    board = random_map(columns, rows, seed)
    return Game(random_setup(board, seed, **kw), seed)


def policy(game: Game, rng: random.Random, fire_p: float = 0.8) -> Action:
    """A seeded policy that plays like a person in a hurry: it fires when it can (with
    probability ``fire_p``), moves often, and ends phases; every choice is a legal action."""
    return pick(game.legal_actions(), rng, fire_p)


def pick(acts: list[Action], rng: random.Random, fire_p: float = 0.8) -> Action:
    """:func:`policy`'s choice among the legal actions ``acts`` (the computer's level 0 asks
    its table for them)."""
    by: dict[str, list[Action]] = {}
    for a in acts:
        kind = "exit" if a.type == "move" and getattr(a, "to", "") == "off" else a.type
        by.setdefault(kind, []).append(a)
    for kind, p in (
        ("bore_sight", 0.5),
        ("conceal", 0.5),
        ("fire", fire_p),
        ("move", 0.7),
        ("exit", 0.05),
        ("turn", 0.25),
        ("end_move", 0.35),
        ("pass", 0.4),
    ):
        if kind in by and rng.random() < p:
            return rng.choice(by[kind])
    if "end_phase" in by and rng.random() < 0.8:
        return by["end_phase"][0]
    rest = [a for a in acts if not (a.type == "move" and getattr(a, "to", "") == "off")]
    return rng.choice(rest or acts)
