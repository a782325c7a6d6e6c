"""Issue 41, ninth session: the duel's Russian held F6 with one T-34 from turn 1 and the other
two waited 6 hexes off the hidden Panzer; in its turn 4 the Panzer drove out to 1-3 hexes of F6,
took the T-34s' shots on its front (Final TK# 2-3: no effect) and knocked the holder out in its
Advancing Fire Phase (RD-12), 10 of the 11 games lost against level 2 at seeds 100-119. Level 3
now weighs, for a vehicle whose side holds a hold hex with another unit (RD-13), the enemy's
last hexes before the hold that it would see from their flank (``flank.py``): there a shot
hits its side or rear. Level 2 (and the search's playouts, which imagine it) is unchanged."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase

from game.ai.lookahead import STEADY
from game.ai.valuation.flank import flank_value
from game.ai.valuation.hexes import HexScore
from game.engine import Game, UnitSetup, Victory

ROWS = [
    "o w o o o o o o",
    "o w o o o o o o",
    "o o o o o o o o",
    "o o o o o o o o",
    "o o o o o o o o",
]


def held(holder: str = "E3") -> Game:
    """A concealed Panzer in B2; a T-34 in ``holder``, the others in H1 and H5; the Russian
    holds E3 (or loses), the German wins by one T-34."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "B2", facing=0, concealed=True),
        UnitSetup("rus-t34-1", "t34m43", "russian", holder, facing=3),
        UnitSetup("rus-t34-2", "t34m43", "russian", "H1", facing=3),
        UnitSetup("rus-t34-3", "t34m43", "russian", "H5", facing=3),
    ]
    victory = (
        Victory("russian", "hold", hexes=("E3",)),
        Victory("german", "eliminate", count=1),
    )
    setup = make_setup(
        units, rows=ROWS, victory=victory, turns=5, first="russian", defender="german", year=1943
    )
    game = Game(setup, 7)
    to_phase(game, "movement", "russian")
    return game


def test_issue41_rd13_a_vehicle_weighs_the_flank_of_the_enemys_way_to_the_held_hex():
    table = table_of(held(), "russian")
    value = flank_value(table, "russian", "rus-t34-2")
    hexes = [f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 6)]
    best = max(hexes, key=value)
    assert value(best) > 0.0
    # behind the holder, on the line from the Panzer through E3: the enemy's front
    assert value("H4") < value(best)
    # the holder itself, and a side that holds nothing with another unit, weigh none
    assert all(flank_value(table, "russian", "rus-t34-1")(h) == 0.0 for h in hexes)
    free = table_of(held("G3"), "russian")
    assert all(flank_value(free, "russian", "rus-t34-2")(h) == 0.0 for h in hexes)


def test_issue41_level_2_weighs_no_flank():
    game = held()
    table = table_of(game, "russian")
    unit = next(u for u in table.units() if u["id"] == "rus-t34-2")
    within = frozenset(f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 6))
    assert HexScore(situation(game, "russian", level=2), unit, STEADY, within).flank is None
    assert HexScore(situation(game, "russian", level=3), unit, STEADY, within).flank is not None
