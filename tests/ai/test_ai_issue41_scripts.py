"""Issue 41, eleventh session (docs/ai.md "The careful player's plans as scripts"): level 3's
portfolio holds the careful sparring player's plans as scripts (portfolio greedy search's
scripts, SparCraft's PGS): in a playout of such a plan the careful player plays the side's
Movement Phase, level 2 the rest; the scripts are weighed only on the maps searched in full
(``[search] max_hexes``); a kept script plays the phase by the careful player seeded from the
search, and a game saved in the middle of that phase goes on the same."""

from __future__ import annotations

from importlib import resources

import pytest
from engine_helpers import decide, table_of

from game.ai import ComputerPlayer
from game.ai.lookahead import PLANS, STEADY
from game.ai.opponent import ScriptedPlayout, portfolio
from game.ai.sparring import CarefulPlayer
from game.ai.tuning import TuningError, parse, tuning
from game.engine import Game
from game.engine.actions import EndPhase, action_from_json
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios

SCRIPTS = ("flank-left", "flank-right", "rush")


def scenario(name: str):
    return load_scenario(next(p for p in shipped_scenarios() if p.stem == name))


def at_movement(name: str, side: str, turn: int = 1, seed: int = 3) -> Game:
    """``name``'s game at ``side``'s Movement Phase of ``turn``, everything before passed."""
    game = Game(scenario(name).setup, seed)
    while not (game.phase == "movement" and game.phasing == side and game.turn == turn):
        if game.dff_pending:
            game.apply(action_from_json({"type": "pass"}))
        else:
            game.apply(EndPhase())
    return game


def test_issue41_the_careful_players_plans_are_scripts_weighed_on_the_maps_searched_in_full():
    scripts = {p.name: p.script for p in PLANS if p.script}
    assert scripts == {s: s for s in SCRIPTS}
    assert STEADY.script == ""
    game = at_movement("tutorial-duel", "russian")
    table = table_of(game, "russian")
    full = portfolio(table, "russian", tuning().search.max_hexes)
    assert {p.name for p in full} >= set(SCRIPTS)
    large = portfolio(table, "russian", game.board.size - 1)  # the large maps' budget
    assert large and not any(p.script for p in large) and large[0] == STEADY


def test_issue41_a_script_plays_its_other_phases_by_weights_1_and_names_a_careful_plan():
    text = resources.files("game.ai").joinpath("data/tuning.toml").read_text("utf-8")
    parse(text)
    for bad, why in (("fly", "expected one of"), ("rush", "weights 1")):
        caution = "2.0" if why == "weights 1" else "1.0"
        row = (
            f'[[plans]]\nname = "x"\nwords = "w"\nobjective = 1.0\ncaution = {caution}\n'
            f'aggression = 1.0\nmoves = true\nscript = "{bad}"\n'
        )
        with pytest.raises(TuningError, match=why):
            parse(text + row)


def test_issue41_a_script_plans_playout_moves_by_the_careful_player_and_counts_its_work():
    """In the script's Movement Phase each decision is the careful player's with that plan
    and seed (its routes driven on); its hexes weighed count in the search's budget."""
    game = at_movement("tutorial-duel", "russian")
    plan = next(p for p in PLANS if p.script == "flank-left")
    rest = ComputerPlayer("russian", 2, seed=9)
    scripted = ScriptedPlayout("russian", plan, 11, rest)
    alone = CarefulPlayer("russian", "flank-left", 11)
    enemy = ComputerPlayer("german", 2, seed=5)
    moved = 0
    while game.phase == "movement" and game.phasing == "russian":
        if game.to_act != "russian":
            game.apply(decide(enemy, game).action)
            continue
        table = table_of(game, "russian")
        mine, theirs = scripted.choose(table), alone.choose(table)
        assert mine == theirs
        moved += mine.action.to_json()["type"] == "move"
        game.apply(table.engine_action(mine.action))
    assert moved > 0 and scripted.work > 0 and rest.work == 0


def _play_cut(levels_seed: int, cut_when):
    """tutorial-duel, level 3's Russian against level 2 (match.py's game ``levels_seed``): the
    actions, and the first cut in the Russian's Movement Phase where ``cut_when(record)``."""
    sc = scenario("tutorial-duel")
    sides = sc.setup.sides
    levels = {"russian": 3, "german": 2}

    def fresh():
        return {
            s: ComputerPlayer(s, levels[s], seed=levels_seed * 7 + i) for i, s in enumerate(sides)
        }

    game = Game(sc.setup, levels_seed)
    players = fresh()
    actions, record, cut = [], None, None
    while not game.over:
        if cut is None and game.moving_unit and game.phasing == "russian":
            r = players["russian"].plan_record(table_of(game, "russian"))
            if r is not None and cut_when(r):
                cut, record = len(actions), r
        d = decide(players[game.to_act], game)
        game.apply(d.action)
        actions.append(d.action.to_json())
    return sc, game, actions, cut, record, fresh


def test_issue41_a_kept_script_is_played_by_the_careful_player_and_a_save_in_its_phase_replays():
    sc, game, actions, cut, record, fresh = _play_cut(
        101, lambda r: r["name"] in SCRIPTS and "script" in r
    )
    assert cut is not None and record is not None, "level 3 kept a script (match.py seed 101)"
    assert set(record["script"]) == {"seed", "routes", "stays"}
    resumed = Game(sc.setup, 101)
    for a in actions[:cut]:
        resumed.apply(action_from_json(a))
    players = fresh()
    players["russian"].resume_plan(record)
    rest = []
    while not resumed.over:
        d = decide(players[resumed.to_act], resumed)
        resumed.apply(d.action)
        rest.append(d.action.to_json())
    assert rest == actions[cut:] and resumed.state_hash() == game.state_hash()
