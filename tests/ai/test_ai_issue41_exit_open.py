"""Issue 41: on the Orel road (road-ambush) the German wins by driving three units off the west
edge, or by knocking out the two named Guns (RD-13). Traced (level 3 against the careful
player, seeds 100-119, main at 7da18dc): with two of its four vehicles lost, the column drove
the last two off the map, two of the three it needed (its pioneers, on foot, could not get
there in time), and left the named 45 mm Gun that would have won the game untouched. An exit
victory that can no longer be met (:func:`exit_open`) now draws no unit to its edge nor off
the map: a unit off the map short of its count scores nothing and is out of play for good."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase
from test_ai_issue41_column import ROAD

from game.ai.candidates.move import LeaveCandidate
from game.ai.valuation.objective import aims
from game.ai.valuation.reach import exit_open
from game.engine import Game, UnitSetup, Victory


def column(count: int, pioneers: str = "R6") -> Game:
    """The German Movement Phase of turn 1 of 4: a Panzer IV on the west edge in A5, facing
    off it, a StuG in G6, the pioneers (4 MF a phase) in ``pioneers``; the German wins by
    driving ``count`` units off the west edge or by knocking out the named Gun in C8."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "P5", facing=3),
        UnitSetup("ger-stug-1", "stug3g", "german", "P6", facing=3),
        UnitSetup("ger-dc-1", "ger_pioneer", "german", pioneers),
        UnitSetup("rus-gun-2", "m1937", "russian", "C8", facing=2, concealed=True),
    ]
    victory = [
        Victory("german", "eliminate", units=("rus-gun-2",)),
        Victory("german", "exit", count=count, edge="west"),
        Victory("russian", "eliminate", count=3),
    ]
    setup = make_setup(
        units, rows=ROAD, victory=victory, turns=4, first="german", defender="russian", year=1943
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    game.units["ger-pz4-1"].hex = game.board.parse("A5")
    game.units["ger-stug-1"].hex = game.board.parse("G6")
    return game


def _exit(table):
    return next(v for v in table.victory if v.kind == "exit")


def test_issue41_rd13_an_exit_no_unit_can_meet_is_closed():
    """Two vehicles and pioneers 17 hexes from the edge with 4 Movement Phases of 4 MF: at
    most two units off the map, so an exit of three is closed and one of two open; pioneers
    in C5 (3 MF to leave) keep the exit of three open."""
    closed = table_of(column(3), "german")
    assert not exit_open(closed, "german", _exit(closed))
    for game in (column(2), column(3, pioneers="C5")):
        table = table_of(game, "german")
        assert exit_open(table, "german", _exit(table))


def test_issue41_rd13_no_unit_leaves_by_a_closed_exit():
    """The Panzer on the west edge leaves the map (or turns to) while the exit may be met;
    once it cannot, it stays in play (the leave candidate declines) and its objective no
    longer draws it to the edge: the named Gun is the side's last way to win."""
    for count, leaves in ((2, True), (3, False)):
        game = column(count)
        chosen = LeaveCandidate().evaluate(situation(game, "german"))
        assert (chosen is not None) is leaves, count
        assert bool(aims(table_of(game, "german"), "german", "ger-pz4-1").edges) is leaves
