"""Issue 41, the four boards' Russian against the careful player's `hold` (2026-12-06, seventh
session): the Russian's squads stood on EE9 and JJ12, its hold (RD-13), from turn 2; AT fire
cannot harm Infantry (002) and no unit enters an enemy's hex, so the hold would count at the
end whatever the German did. Yet the Russian, not the scenario defender, weighed itself the side
that must act: its tanks sat out turns 3-4 and drove into the German's Guns in turn 5, growing
bolder as the turns ran out, and the German won at six AFVs knocked out (seeds 104, 112 of
`tools/ai/match.py bagration-4-boards --levels 3 careful --side russian --seed 100`). Now a side
that keeps a hold of its own with Infantry on every hex wins on time and waits as a defender
does (``game.ai.valuation.reach.holds_kept``, ``wins_on_time``); and Infantry walks into a hold
hex that only a vehicle of its side holds (the vehicle may yet be knocked out or drive off: a
T-34 stood on JJ12 and the squads never went there)."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, to_phase

from game.ai.tuning import tuning
from game.ai.valuation.hexes import weights
from game.ai.valuation.objective import near_range, objective_of
from game.ai.valuation.reach import holds_kept, wins_on_time
from game.engine import Game, UnitSetup, Victory

OPEN = ["o o o o o o o o o o o o"] * 6
HOLD = Victory("russian", "hold", hexes=("F2", "F5"))


def game_of(russians: list[UnitSetup]) -> Game:
    """A Russian attacker (the German defends, HX-11) whose hold is F2 and F5, a Panzer in A3,
    at the Russian's Movement Phase of turn 2 of 8."""
    units = [UnitSetup("ger-pz-1", "pz4h", "german", "A3", facing=1), *russians]
    setup = make_setup(
        units,
        rows=OPEN,
        victory=[
            Victory("german", "eliminate", count=2),
            Victory("russian", "eliminate", count=1),
            HOLD,
        ],
        turns=8,
        first="russian",
        defender="german",
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "russian")
    return game


def t34(hx: str, n: int = 1) -> UnitSetup:
    return UnitSetup(f"rus-t34-{n}", "t34m43", "russian", hx, facing=3)


def squad(hx: str, n: int = 1) -> UnitSetup:
    return UnitSetup(f"rus-sq-{n}", "rus_atr", "russian", hx)


def test_issue41_002_rd13_a_hold_kept_by_infantry_on_every_hex_wins_on_time():
    """Squads on both hexes: kept, the Russian wins on time and its tank weighs as the
    defender's (caution, aggression, the standoff range); a squad on one and a tank on the
    other, or a squad on one alone: not kept, it must act."""
    kept = situation(game_of([squad("F2", 1), squad("F5", 2), t34("J3")]), "russian").table
    assert holds_kept(kept, "russian") and wins_on_time(kept, "russian")
    t = tuning()
    assert weights(kept, "russian", 2) == (t.move.defender_caution, t.move.defender_aggression)
    tank = next(u for u in kept.units() if u["id"] == "rus-t34-1")
    assert near_range(kept, "russian", tank, False) == t.objective.standoff
    for russians in ([squad("F2"), t34("F5")], [squad("F2"), t34("J3")]):
        table = situation(game_of(russians), "russian").table
        assert not holds_kept(table, "russian") and not wins_on_time(table, "russian")


def test_issue41_002_rd13_infantry_walks_into_a_hold_hex_only_a_vehicle_of_its_side_holds():
    """A T-34 on F5: to the tank F5 is taken (it weighs the other hex), to the squad F5 is
    still the hold's hex to take and keep."""
    table = situation(game_of([t34("F5"), squad("H5")]), "russian").table
    on = objective_of(table, "russian", "rus-sq-1")
    assert on("F5") - on("G5") >= tuning().objective.take_and_keep
