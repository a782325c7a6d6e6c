"""Issue 41, item 1: a lone defender stands still. In tutorial-duel the German Panzer, the
scenario defender, concealed in woods, makes no move all game: it waits hidden (a move in sight
would reveal it, RD-11) and weighs only the enemies it must knock out, never the Russian's hold
of the crossroads (F6, RD-13), so it stands while a T-34 holds F6 to the last turn and loses on
time. These tests reproduce it and fail until it is fixed (``xfail(strict=True)``: a fix makes
them pass, and then the marks go)."""

from __future__ import annotations

import pytest
from engine_helpers import table_of

from game.ai import ComputerPlayer
from game.engine import Game
from game.engine.actions import Conceal, EndPhase, Pass, Place
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios

ISSUE = "issue 41 item 1: a lone defender stands still"


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
    """The reproduction's premise: standing in the last turn, the Panzer loses (RD-13)."""
    game = crossroads_held(5)
    assert game.units["ger-pz4-1"].concealed
    while not game.over:
        game.apply(Pass() if game.dff_pending else EndPhase())
    assert game.winner == "russian" and "F6" in game.end_reason


@pytest.mark.xfail(strict=True, reason=ISSUE)
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
@pytest.mark.xfail(strict=True, reason=ISSUE)
def test_issue41_the_lone_panzer_moves_in_some_movement_phase_of_a_game():
    """Level 2's Panzer against level 2's Russians, six games: it makes no move nor pivot in
    any of its 27 Movement Phases (and loses five of the six, four on the crossroads)."""
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
