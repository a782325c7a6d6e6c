"""Issue 41, the hedgerow's Jeep: the PaK 40 in B2, facing north over the Jeep's lane with B1
Bore Sighted (C6.42), fired its one Defensive First Fire shot (C6.17) at 17% at the Jeep in C1,
where the Jeep faced the north edge: the hex ahead was off the map, so the computer read the
chance as its last (``game.ai.candidates.dff.may_leave``). The Jeep then turned and drove
through B1, where the shot would have been Case M's (-2), and off the west edge, its exit
victory's (RD-13): 18 such shots in 40 games against the careful player. Off the map counts
as leaving only by an edge an exit victory of the mover's side names: by another a unit scores
nothing, so it turns first, and the pivot is another chance."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase

from game.ai.candidates.dff import WAITS, DffCandidate, may_leave
from game.engine import Game, UnitSetup
from game.engine.actions import Fire, Move, Pass, Turn
from game.engine.setup import Victory

# Woods in D2 hide the Jeep's start (E2) from the PaK in B2: it enters the PaK's LOS in D1,
# so the shots at it are at Limited or Restricted Aim (Case J1 / J2, C6.11-C6.12).
ROWS = ["o o o o o o o o", "o o o w o o o o"] + ["o o o o o o o o"] * 4


def jeep_run(edge: str = "west") -> Game:
    """A Jeep in E2 facing north-west, of the side that wins by leaving by ``edge`` (RD-13), at
    its Movement Phase; a PaK 40 in B2 facing north, B1 Bore Sighted (C6.42)."""
    units = [
        UnitSetup("ger-pak-1", "pak40", "german", "B2", facing=2, bore_sight="B1"),
        UnitSetup("rus-jeep-1", "jeep", "russian", "E2", facing=3),
    ]
    setup = make_setup(
        units,
        rows=ROWS,
        victory=[
            Victory("russian", "exit", count=1, edge=edge),
            Victory("german", "eliminate", count=1),
        ],
        turns=3,
        first="russian",
        defender="german",
        year=1944,
    )
    game = Game(setup, 5)
    to_phase(game, "movement", "russian")
    return game


def chances(game: Game, steps) -> list[tuple[str, bool, object]]:
    """Each Defensive First Fire chance (C6.17) as ``steps`` are applied: the Jeep's hex,
    whether its next step may leave the PaK's LOS (:func:`may_leave`), and the decision of
    level 2's candidate (passed, so that the run goes on)."""
    out = []
    for step in steps:
        game.apply(step)
        while game.dff_pending:
            table = table_of(game, "german")
            mover = next(u for u in table.units() if u["id"] == "rus-jeep-1")
            pak = next(u for u in table.units() if u["id"] == "ger-pak-1")
            s = situation(game, "german")
            offer = DffCandidate().evaluate(s)
            out.append((mover["hex"], may_leave(table, "B2", mover, pak), offer or s.held))
            game.apply(Pass())
    return out


RUN = [
    Move("rus-jeep-1", "D1"),
    Move("rus-jeep-1", "C1"),
    Turn("rus-jeep-1", 4),
    Move("rus-jeep-1", "B1"),
]


def test_issue41_rd13_c6_17_a_jeep_facing_the_north_edge_is_not_leaving_by_it():
    """In C1 the Jeep faces the north edge (the hex ahead is off the map), which its victory
    does not name (RD-13): the PaK holds its Case J1 / J2 shot there and as it turns (C6.17),
    and fires in B1, its Bore Sighted hex (C6.42, Case M) and the Jeep's last in its Covered
    Arc (HX-2), at far better odds (before: it fired in C1 at 27% to knock it out)."""
    game = jeep_run()
    board = game.board
    assert not board.contains(board.parse("C1").neighbor(3))
    seen = chances(game, RUN)
    assert [(hx, leaves) for hx, leaves, _ in seen[-3:]] == [
        ("C1", False),
        ("C1", False),
        ("B1", True),
    ], seen
    assert seen[-3][2] == WAITS and seen[-2][2] == WAITS
    shot = seen[-1][2]
    assert isinstance(shot.decision.action, Fire)
    table = table_of(game, "german")
    assert "C6.4" in str(table.odds("ger-pak-1", "rus-jeep-1").report)


def test_issue41_rd13_a_mover_facing_its_own_exit_edge_may_leave_by_it():
    """The same Jeep of a side that wins by leaving by the north edge may leave in C1: the PaK
    fires there (its last chance, C6.17)."""
    seen = chances(jeep_run("north"), RUN[:2])
    hx, leaves, offer = seen[-1]
    assert (hx, leaves) == ("C1", True)
    assert isinstance(offer.decision.action, Fire)
