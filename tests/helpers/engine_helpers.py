"""Small scenarios for the engine tests, built in code."""

from game.board import Board
from game.engine import Game, Setup, UnitSetup, Victory
from game.engine.actions import EndPhase, Pass
from game.engine.phases import PHASES
from game.engine.vocabulary import REMOVED
from game.rules.dice import FixedDice

# A2 sees E2 (a level-2 hill) but not F2 behind it: a tank entering E2 from F2 spends
# 5 MP there (open 1 + two levels up 2 x 2), in the gun's LOS for the first time (C6.17 EX).
HILL = ["o o o o o o", "o o o o o2 o", "o o o o o o"]


def make_setup(
    units,
    rows=HILL,
    victory=(),
    to_kill="asl",
    turns=3,
    first="russian",
    defender="german",
    year=None,
):
    board = Board.from_map_table(
        {"columns": len(rows[0].split()), "rows": len(rows), "hexes": rows}
    )
    return Setup(
        board=board,
        sides=("german", "russian"),
        first=first,
        defender=defender,
        turns=turns,
        units=tuple(units),
        victory=tuple(victory),
        to_kill=to_kill,
        title="test",
        year=year,
    )


def c617_game(**kw) -> Game:
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-tank-1", "kv1e", "russian", "F2", facing=3),
    ]
    return Game(make_setup(units, **kw), seed=1)


def to_phase(game: Game, phase: str, side: str | None = None, fresh: bool = False) -> None:
    """End phases until ``phase`` (of ``side``, if given) begins; ``fresh``: a later one than
    the phase the game is in."""
    if game.dff_pending:
        game.apply(Pass())
    if fresh:
        game.apply(EndPhase())
    for _ in range(40):
        if game.phase == phase and (side is None or game.phasing == side):
            return
        game.apply(EndPhase())
    raise AssertionError(f"never reached {phase}")


def script(game: Game, *faces: int) -> FixedDice:
    game.dice = FixedDice(faces)
    return game.dice


__all__ = ["HILL", "Victory", "c617_game", "make_setup", "script", "to_phase"]


def check_invariants(game: Game) -> None:
    """What holds after every action: MP never past the unit's allowance, facings 0-5, removed
    units neither moving nor asked to fire, a known phase."""
    for u in game.units.values():
        allowance = u.type.mp if u.type.is_vehicle else u.type.mf
        assert 0 <= u.mp_spent <= max(allowance, 0) + 1e-9, (u.id, u.mp_spent)
        assert 0 <= u.facing <= 5 and 0 <= u.turret <= 5
        if u.status in REMOVED:
            assert game.moving_unit != u.id and u.id not in game.dff_pending
    assert game.phase in PHASES


def table_of(game: Game, side: str | None):
    """``side``'s table over ``game`` as it stands (what the computer reads: its view and its
    questions, never the game)."""
    from game.engine.table import Table

    return Table(game, side, game.actions_applied)


def decide(ai, game: Game):
    """``ai``'s decision on ``game``, read through its side's table; its action as the engine
    names it (a "?" target by its id), to apply to the game."""
    from dataclasses import replace

    table = table_of(game, ai.side)
    decision = ai.choose(table)
    return replace(decision, action=table.engine_action(decision.action))
