"""Issue 41, item 1: a lone defender stood still. In tutorial-duel the German Panzer, the
scenario defender, concealed in woods, made no move all game: it waited hidden (a move in sight
would reveal it, RD-11) and weighed only the enemies it must knock out, never the Russian's hold
of the crossroads (F6, RD-13), so it stood while a T-34 held F6 to the last turn and lost on
time. Now the side that wins on time is the defender only while the enemy holds no hold of its
(``game.ai.valuation.reach.wins_on_time``): else it must act, hidden or not.

Item 4: Defensive First Fire held a Case J2 / J1 shot blind to a mover about to leave the
firer's LOS (C6.17): a Panther crossing a three-hex lane past a T-50 drew no shot. Now level 2
holds only while the mover's next step keeps it in sight (``game.ai.candidates.dff.may_leave``).
"""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.candidates.dff import WAITS, DffCandidate, may_leave
from game.ai.valuation.reach import wins_on_time
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import Conceal, EndPhase, Fire, Move, Pass, Place
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios


def duel():
    return load_scenario(next(p for p in shipped_scenarios() if p.stem == "tutorial-duel"))


def crossroads_held(turn: int) -> Game:
    """tutorial-duel at the German's Movement Phase of ``turn``: the Panzer concealed in the D1
    woods (where the computer sets it up), a T-34 on the crossroads F6 (the Russian's hold,
    RD-13), the others in G1 and D4 (as level 2's Russians stand in self-play)."""
    game = Game(duel().setup, 1)
    game.apply(Place("ger-pz4-1", "D1", 0))
    game.apply(Conceal("ger-pz4-1"))
    while game.phase in ("setup", "setup_attacker"):
        game.apply(EndPhase())
    for uid, hx, facing in (("rus-t34-1", "F6", 4), ("rus-t34-2", "G1", 3), ("rus-t34-3", "D4", 3)):
        unit = game.state.units[uid]
        unit.hex, unit.facing = game.board.parse(hx), facing
    while not (game.turn == turn and game.phase == "movement" and game.phasing == "german"):
        game.apply(EndPhase())
    return game


def test_issue41_the_position_the_panzer_stands_in_loses_the_game_on_time():
    """The reproduction's premise: standing in the last turn, the Panzer loses (RD-13); and
    the computer reads it so (the German no longer wins on time)."""
    game = crossroads_held(5)
    assert game.units["ger-pz4-1"].concealed
    assert not wins_on_time(table_of(game, "german"), "german")
    while not game.over:
        game.apply(Pass() if game.dff_pending else EndPhase())
    assert game.winner == "russian" and "F6" in game.end_reason


@pytest.mark.parametrize("level", [2, 3])
def test_issue41_in_the_last_turn_the_panzer_drives_to_a_shot_at_the_crossroads(level):
    """Its last Movement Phase, a T-34 on F6: standing hidden loses on time for certain, so the
    Panzer drives where its Advancing Fire can knock the T-34 off the crossroads."""
    game = crossroads_held(5)
    ai = ComputerPlayer("german", level, seed=1)
    while game.phase == "movement" and game.phasing == "german":
        game.apply(Pass() if game.dff_pending else ai.choose(table_of(game, "german")).action)
    table = table_of(game, "german")
    here = game.units["ger-pz4-1"].label
    shots = dict(table.attack_map("ger-pz4-1", [here]).get(here, ()))
    assert shots.get("rus-t34-1", 0.0) > 0.0, here


@pytest.mark.long
def test_issue41_the_lone_panzer_moves_in_some_movement_phase_of_a_game():
    """Level 2's Panzer against level 2's Russians, six games: it made no move nor pivot in
    any of its 27 Movement Phases (and lost five of the six, four on the crossroads)."""
    setup = duel().setup
    moved = 0
    for seed in range(1, 7):
        game = Game(setup, seed)
        players = {
            "german": ComputerPlayer("german", 2, seed=seed),
            "russian": ComputerPlayer("russian", 2, seed=seed + 100),
        }
        seats = Snapshot(game)
        while not game.over:
            table = seats.table(game.to_act)
            action = table.engine_action(players[game.to_act].choose(table).action)
            own_move = game.phase == "movement" and game.to_act == game.phasing == "german"
            moved += own_move and action.type in ("move", "turn")
            game.apply(action)
    assert moved > 0


def test_issue41_the_defender_wins_on_time_until_the_enemy_holds_its_hexes_late():
    """RD-13, HX-11: the German defender of tutorial-duel may wait while F6 is free or its own;
    the attacker never. With a T-34 on F6 it keeps its patience while it has more than
    ``[objective] retake_phases`` (2) Movement Phases left (the hold counts when the last turn
    ends), and must act from then on (its fourth turn of five)."""
    game = Game(duel().setup, 1)
    table = table_of(game, "german")
    assert wins_on_time(table, "german") and not wins_on_time(table, "russian")
    game.state.units["rus-t34-1"].hex = game.board.parse("F6")
    assert wins_on_time(table_of(game, "german"), "german")
    late = crossroads_held(4)
    assert not wins_on_time(table_of(late, "german"), "german")
    assert wins_on_time(table_of(crossroads_held(3), "german"), "german")


# --- item 4: a mover about to leave the firer's LOS -------------------------------------------

LANE = [  # the T-50 in B5 sees F3, F4 and F5 of the lane (column F) through the gap, no more
    "w w w w w o w",
    "w w w w w o w",
    "w w w w w o w",
    "w w o o o o w",
    "o o o o o o w",
    "w w w w w o w",
    "w w w w w o w",
    "w w w w w o w",
    "w w w w w o w",
]


def panther_in_the_lane() -> Game:
    """A Panther in F9 about to drive north up the lane (column F) past a T-50 in B5 that sees
    three hexes of it (F3-F5), at the Russian's Defensive First Fire chances (C6.17)."""
    units = [
        UnitSetup("rus-t50-1", "t50", "russian", "B5", facing=0),
        UnitSetup("ger-pz5-1", "pz5g", "german", "F9", facing=2),
    ]
    setup = make_setup(
        units,
        rows=LANE,
        victory=[Victory("russian", "eliminate", count=1)],
        turns=3,
        first="german",
        defender="russian",
        year=1943,
    )
    game = Game(setup, 5)
    to_phase(game, "movement", "german")
    return game


def test_issue41_the_lane_gives_three_chances_and_only_the_last_before_it_leaves():
    """The premise: the T-50 sees F3-F5 alone; in F5 and F4 the hex ahead (north, its front
    hexside, HX-3) stays in sight, in F3 it does not (F2)."""
    game = panther_in_the_lane()
    clear = game.viewshed("B5")[0]
    seen = [
        h
        for h in ("F9", "F8", "F7", "F6", "F5", "F4", "F3", "F2", "F1")
        if clear[game.board.index(game.board.parse(h))]
    ]
    assert seen == ["F5", "F4", "F3"]
    leaves = {}
    for hx in ("F8", "F7", "F6", "F5", "F4", "F3"):
        game.apply(Move("ger-pz5-1", hx))
        if game.dff_pending:
            table = table_of(game, "russian")
            mover = next(u for u in table.units() if u["id"] == "ger-pz5-1")
            leaves[hx] = may_leave(table, "B5", mover)
            game.apply(Pass())
    assert leaves == {"F5": False, "F4": False, "F3": True}


@pytest.mark.parametrize("level", [2, 3])
def test_issue41_c6_17_a_panther_crossing_a_three_hex_lane_draws_the_t50s_shot(level):
    """Issue 41 item 4: at each chance the shot is at Case J2 / J1 with many MP left; level 2
    (and 3) held it in F5 and F4, where the Panther's next hex stays in sight, and fires in F3,
    its last hex in sight (before: no shot at all)."""
    game = panther_in_the_lane()
    ai = ComputerPlayer("russian", level, seed=2)
    fired = []
    for hx in ("F8", "F7", "F6", "F5", "F4", "F3", "F2"):
        game.apply(Move("ger-pz5-1", hx))
        while game.dff_pending:
            s = situation(game, "russian", level=level)
            if not fired and hx in ("F5", "F4"):
                assert DffCandidate().evaluate(s) is None and s.held == WAITS, hx
            action = table_of(game, "russian").engine_action(
                ai.choose(table_of(game, "russian")).action
            )
            if isinstance(action, Fire):
                report = str(table_of(game, "russian").odds("rus-t50-1", "ger-pz5-1").report)
                fired.append((hx, "C6.11" in report or "C6.12" in report))
            game.apply(action)
            if game.over:
                break
        if game.over:
            break
    assert fired and fired[0] == ("F3", True), fired
