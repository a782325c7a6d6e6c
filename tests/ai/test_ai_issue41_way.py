"""Issue 41: on the Orel road (road-ambush) the careful Russian beat level 3's German column 15
games of 20 (seed 100, main at 89ff6fd). Traced from the event logs: the column reached columns
G-K in turn 1 and then stopped short in turn 2, in the woods of D1-F1 or out of the 45 mm Guns'
sight, and lost on time with one or two units off the map. A Panzer in H2 in turn 2 read the
way to the edge (A8, 12.5 MP) 46% deadly: each hex of the way counted the risk of every enemy
that sees it again (``[move] dff_on_the_way`` of it, compounded over ten hexes), as if each "?"
fired at the mover in every hex. A Gun fires where its shot is best, again only while it keeps
Multiple ROF (RD-4, C6.17), and once it has fired without, no more this phase (HX-8): now each
enemy that sees the way counts once, by its best shot there, ``[move] way_shots`` times. And a
hex on the exit edge from which the vehicle can leave this phase counts no risk of staying
there: it leaves at once (the leave candidate, RD-13)."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import table_of
from test_ai_issue41_column import column_game, german_movement

from game.ai import ComputerPlayer
from game.ai.lookahead import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.hexes import HexScore
from game.board.hexes import label
from game.engine.actions import Pass


def score_of(hx: str, to: str):
    """A lone Panzer IV of the column in ``hx`` (turn 1 of 4, to drive two units off the west
    edge, RD-13: its own exit does not win yet), its :class:`HexScore` over its route to
    ``to`` and that route."""
    game = column_game({"ger-pz4-1": ("pz4h", hx)}, exits=2)
    s = situation(game, "german")
    unit = next(u for u in s.table.units() if u["id"] == "ger-pz4-1")
    route = s.table.route("ger-pz4-1", to)
    assert route is not None
    return HexScore(s, unit, STEADY, frozenset([hx, *route.hexes])), route


def test_issue41_c617_each_question_mark_counts_once_on_the_way_not_in_every_hex():
    """The way from I7 to the edge hex A8 passes several hexes in the sight of the same "?"
    (the 45 mm Guns' in C8 and D7): each counts once, by its best shot there (RD-4, HX-8), so
    the way reads as deadly as its deadliest hex's shots, ``[move] way_shots`` times each, and
    passing more of the same "?"'s hexes adds nothing."""
    score, route = score_of("I7", "A8")
    way = route.hexes[:-1]
    seen = [h for h in way if score.unknowns(h)]
    assert len(seen) >= 4, seen
    move = tuning().move
    best: dict[str, float] = {}
    for h in way:
        for at, chance in score.unknowns(h):
            best[at] = max(best.get(at, 0.0), chance)
    alive = 1.0
    for chance in best.values():
        alive *= (1.0 - move.dff_on_the_way * chance) ** move.way_shots
    assert abs(score.way_risk(way) - (1.0 - alive)) < 1e-12
    deadliest = max(seen, key=lambda h: score.risk_at(h, stay=False))
    assert score.way_risk([*seen, deadliest]) == score.way_risk(seen)
    every_hex = 1.0
    for h in way:  # before: every hex of the way counted again
        every_hex *= 1.0 - move.dff_on_the_way * score.risk_at(h, stay=False)
    assert score.way_risk(way) < 1.0 - every_hex


def test_issue41_rd13_a_hex_it_leaves_from_counts_no_risk_of_staying_there():
    """A8, on the west edge, next to the "?" of the village (A4-B4 are out of its sight, the
    45 mm Guns' in C8 and D7 see it): a Panzer that reaches it with the MP to leave leaves at
    once (RD-13), so the hex counts the way's risk alone, and no shot from there."""
    score, route = score_of("I7", "A8")
    assert score.leaves("A8", route)
    assert score.risk_at("A8") > 0.0
    goal = STEADY.objective * score.s.objectives.of(score.s.table, "ger-pz4-1")("A8")
    start = score.risk_at("I7", stay=False) if score.starts else 0.0
    safe = (1.0 - score.way_risk(route.hexes[:-1])) * (1.0 - start)
    assert abs(score("A8", route) - (goal - score.caution * score.worth * (1.0 - safe))) < 1e-9


def test_issue41_rd13_the_column_drives_off_the_west_edge_when_it_can():
    """A Panzer IV in I7 with the MP to reach the west edge and leave (turn 1 of 4) drives off
    the map this Movement Phase, past the 45 mm Guns' "?": before, it stopped in E9, four hexes
    short, and had the Guns' ground to cross again next turn."""
    game = column_game({"ger-pz4-1": ("pz4h", "I7")}, exits=2)
    german_movement(game, ComputerPlayer("german", 2, seed=1), 80)
    left = [e.text for e in game.history if e.kind == "exit"]
    assert left and "west edge" in left[0], f"it stopped in {label(game.units['ger-pz4-1'].hex)}"


def test_issue41_rd13_an_exit_that_meets_the_victory_goes_in_any_movement_phase():
    """One unit to drive off the west edge (RD-13) and a Panzer IV in H2 that can reach it this
    phase, past the "?" in the woods (turn 1 of 4): leaving wins the game at once, so it goes,
    whatever the way's risk (``[move] exit_now``, as in its last Movement Phase). Before, it
    stood in H2 (the way read too deadly for a turn with three more to come); and with the
    exit of the lesson's T-34 worth no shot from the edge hex, it drove past it to shoot the
    half-track first."""
    game = column_game({"ger-pz4-1": ("pz4h", "H2")}, exits=1)
    player = ComputerPlayer("german", 2, seed=1)
    for _ in range(80):
        if game.over or game.phase != "movement" or game.phasing != "german":
            break
        if game.to_act != "german":
            game.apply(Pass())
            continue
        table = table_of(game, "german")
        game.apply(table.engine_action(player.choose(table).action))
    assert game.over and game.winner == "german", label(game.units["ger-pz4-1"].hex)
    assert game.turn == 1
