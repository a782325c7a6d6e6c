"""The Movement Phase's candidates (game/ai/candidates/move.py, steps.py): leave by the edge an
exit victory names (RD-13), stand fast under level 3's ``stand`` plan, drive on with the move
under way, begin the next unit's move; and their steps: Infantry's next hex, a pivot's
hexsides, a step back over the move (C6.17), the end of a move in Motion (Case J)."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup, to_phase

from game.ai.candidates.move import (
    DriveOnCandidate,
    LeaveCandidate,
    NextUnitCandidate,
    StandCandidate,
)
from game.ai.candidates.pass_ import PassCandidate
from game.ai.candidates.steps import end_move, goes_back, infantry_step, pivots
from game.ai.lookahead import PLANS, STEADY
from game.ai.valuation.hexes import best_hex
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndMove, EndPhase, Move, Pass, Turn

STAND = next(p for p in PLANS if not p.moves)
OPEN = ["o o o o o o o o o o"] * 4


def german_movement(units, victory, rows=OPEN, defender="russian") -> Game:
    setup = make_setup(
        units, rows=rows, victory=[victory], turns=4, first="german", defender=defender
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    return game


def tank(hx: str, facing: int, kind: str = "pz4h", uid: str = "ger-pz-1") -> UnitSetup:
    return UnitSetup(uid, kind, "german", hx, facing=facing)


FAR_T34 = UnitSetup("rus-t34-1", "t34m43", "russian", "J4", facing=3)


def test_rd13_a_unit_on_the_edge_its_exit_victory_names_leaves_by_it():
    game = german_movement([tank("A2", 3), FAR_T34], Victory("german", "exit", 1, edge="west"))
    option = LeaveCandidate().evaluate(situation(game, "german"))
    assert option is not None and option.decision.action == Move("ger-pz-1", "off")
    assert "RD-13" in option.decision.why


def test_rd13_a_vehicle_facing_along_its_exit_edge_turns_off_it_first():
    game = german_movement([tank("A2", 0), FAR_T34], Victory("german", "exit", 1, edge="west"))
    s = situation(game, "german")
    assert Move("ger-pz-1", "off") not in s.legal  # it leaves only through its front
    option = LeaveCandidate().evaluate(s)
    assert option is not None and isinstance(option.decision.action, Turn)
    assert option.decision.why.startswith("turns to leave the map")
    assert pivots(option.decision.action.facing, 3) < pivots(0, 3)


def test_rd13_a_unit_never_leaves_by_an_edge_its_victory_does_not_name():
    game = german_movement([tank("A2", 3), FAR_T34], Victory("german", "exit", 1, edge="east"))
    s = situation(game, "german")
    assert Move("ger-pz-1", "off") in s.legal
    assert LeaveCandidate().evaluate(s) is None
    eliminate = german_movement([tank("A2", 3), FAR_T34], Victory("german", "eliminate", 1))
    assert LeaveCandidate().evaluate(situation(eliminate, "german")) is None


def test_the_stand_plan_keeps_the_vehicles_and_says_its_plan():
    game = german_movement([tank("B2", 0), FAR_T34], Victory("german", "eliminate", 1))
    s = situation(game, "german", plan=STAND, words="plan 'stand'")
    option = StandCandidate().evaluate(s)
    assert option is not None
    assert option.decision == option.decision.__class__(EndPhase(), "stands fast", "plan 'stand'")
    assert StandCandidate().evaluate(situation(game, "german", plan=STEADY)) is None


def test_the_stand_plan_still_walks_the_infantry():
    squad = UnitSetup("ger-sq-1", "ger_psk", "german", "B3")
    game = german_movement(
        [tank("B2", 0), squad, FAR_T34], Victory("german", "hold", hexes=("E3",))
    )
    option = StandCandidate().evaluate(situation(game, "german", plan=STAND))
    assert option is not None and option.decision.action == Move("ger-sq-1", "C3")


def test_002_infantry_steps_to_the_next_hex_of_its_objective_and_stays_once_there():
    squad = UnitSetup("ger-sq-1", "ger_psk", "german", "B3")
    game = german_movement([squad, FAR_T34], Victory("german", "hold", hexes=("E3",)))
    s = situation(game, "german")
    unit = next(u for u in s.table.units() if u["id"] == "ger-sq-1")
    decision = infantry_step(s, unit)
    assert decision is not None and decision.action == Move("ger-sq-1", "C3")
    there = german_movement(
        [UnitSetup("ger-sq-1", "ger_psk", "german", "E3"), FAR_T34],
        Victory("german", "hold", hexes=("E3",)),
    )
    s = situation(there, "german")
    unit = next(u for u in s.table.units() if u["id"] == "ger-sq-1")
    assert infantry_step(s, unit) is None  # no hex beats the hold hex it stands on


def test_the_next_unit_drives_towards_the_best_hex_and_a_playout_keeps_the_route():
    game = german_movement([tank("B2", 0), FAR_T34], Victory("german", "hold", hexes=("G2",)))
    s = situation(game, "german", commit=True, words="plan 'steady'")
    unit = next(u for u in s.table.units() if u["id"] == "ger-pz-1")
    _, hx, route = best_hex(situation(game, "german"), unit, STEADY)
    assert hx is not None and route is not None and len(route.steps) >= 2
    option = NextUnitCandidate().evaluate(s)
    assert option is not None and option.decision.action == route.steps[0]
    assert option.decision.why == f"drives towards {hx}" and option.decision.plan == "plan 'steady'"
    assert s.drive.routes["ger-pz-1"] == list(route.steps[1:])
    # the move under way: a playout drives the kept route on, step by step
    game.apply(route.steps[0])
    while game.dff_pending:
        game.apply(Pass())
    on = situation(game, "german", commit=True)
    on.drive = s.drive
    option = DriveOnCandidate().evaluate(on)
    assert option is not None
    assert option.decision.action == route.steps[1] and option.decision.why == "drives on"
    assert s.drive.routes["ger-pz-1"] == list(route.steps[2:])


def test_a_playout_vehicle_that_chose_to_stay_is_not_weighed_again():
    # the defender's tank in its hold hex, out of the enemy's sight: staying scores best
    game = german_movement(
        [tank("C2", 3), FAR_T34],
        Victory("german", "hold", hexes=("C2",)),
        rows=["o o o o o w w o o o"] * 4,
        defender="german",
    )
    s = situation(game, "german", commit=True)
    assert NextUnitCandidate().evaluate(s) is None
    assert s.drive.stays == {"ger-pz-1"}
    again = situation(game, "german", commit=True)
    again.drive = s.drive
    assert NextUnitCandidate().evaluate(again) is None  # skipped: nothing weighed
    assert again.maps.work == 0
    fresh = situation(game, "german")
    assert NextUnitCandidate().evaluate(fresh) is None and fresh.maps.work > 0


def test_drive_on_offers_nothing_without_a_move_under_way():
    game = german_movement([tank("B2", 0), FAR_T34], Victory("german", "eliminate", 1))
    assert DriveOnCandidate().evaluate(situation(game, "german")) is None


def test_c6_17_a_step_back_to_a_hex_and_facing_of_the_same_move_goes_back():
    game = german_movement([tank("B2", 1), FAR_T34], Victory("german", "eliminate", 1))
    for step in (Move("ger-pz-1", "C2"), Turn("ger-pz-1", 0)):
        game.apply(step)
        while game.dff_pending:
            game.apply(Pass())
    s = situation(game, "german")  # in C2 facing 0, having stood in B2 and C2 facing 1
    unit = next(u for u in s.table.units() if u["id"] == "ger-pz-1")
    assert goes_back(s.table, unit, Turn("ger-pz-1", 1)) is True  # it stood so in C2
    assert goes_back(s.table, unit, Turn("ger-pz-1", 5)) is False
    assert goes_back(s.table, unit, Move("ger-pz-1", "D2")) is False


def test_case_j_a_move_ends_in_motion_where_the_threat_is_high_else_stopped():
    near = UnitSetup("rus-t34-1", "t34m43", "russian", "E2", facing=3)
    game = german_movement([tank("B2", 1), near], Victory("german", "eliminate", 1))
    game.apply(Move("ger-pz-1", "C2"))
    while game.dff_pending:
        game.apply(Pass())
    decision = end_move(situation(game, "german"), "ger-pz-1")
    assert decision.action == EndMove("ger-pz-1", True) and "Case J" in decision.why
    # out of every enemy's sight, and of the reach of any that could drive into it (a Gun,
    # RD-12: issue 41, test_ai_issue41_duel.py), it stops
    hidden = german_movement(
        [tank("B2", 1), UnitSetup("rus-gun-1", "zis3", "russian", "J2", facing=3)],
        Victory("german", "eliminate", 1),
        rows=["o o o o w w o o o o"] * 4,  # the woods hide each from the other
    )
    hidden.apply(Move("ger-pz-1", "C2"))
    decision = end_move(situation(hidden, "german"), "ger-pz-1")
    assert decision.action == EndMove("ger-pz-1", False) and decision.why == "stops"


def test_the_pass_candidate_ends_the_movement_phase_with_its_plans_words():
    game = german_movement([tank("B2", 0), FAR_T34], Victory("german", "eliminate", 1))
    decision = PassCandidate().evaluate(situation(game, "german", words="plan 'x'")).decision
    assert decision.action == EndPhase() and decision.why == "no move worth making"
    assert decision.plan == "plan 'x'"
