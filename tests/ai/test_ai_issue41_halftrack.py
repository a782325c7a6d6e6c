"""Issue 41: on the Orel road (road-ambush) the careful Russian beat level 3's German column 17
games of 20 (main at 491bc73, seeds 100-119). Traced from the event logs: the half-track, one of
the four vehicles of which three must leave by the west edge (RD-13), drove in turn 1 to H1-H3,
6-8 hexes from the "?" in the western woods, and was knocked out in that turn in 12 of the 20
games (an HE hit from a 45 mm Gun, or the ATR; 3 more in turn 2); the column won only games in
which it lived. It weighed the "?" prior (``[risk] unknown``, a hidden Gun's chance of
knocking out a tank) as if it were a tank, and its own loss at half a tank's (RD-13's points).
Now an unarmored vehicle counts the prior ``[risk] unknown_soft`` times (any hit all but
removes it, C7) and a vehicle of a side with an exit victory is worth an AFV's to itself.

And level 3's portfolio search chose ``stand`` (no vehicle moves) for the column in turns 2 and
3 of the games traced: its playouts, ending before the drive still to come under the Guns'
fire, scored standing out of sight above moving; the column then had too few Movement Phases
left. A side that loses as things stand at the game's end (not the scenario defender, no hold
of its own met: RD-13, HX-11) no longer weighs that plan."""

from __future__ import annotations

from engine_helpers import table_of
from test_ai_issue41_column import column_game, german_movement

from game.ai import ComputerPlayer
from game.ai.opponent import portfolio
from game.ai.valuation.danger import soft, unknown_risk
from game.ai.valuation.hexes import own_worth
from game.board.hexes import label, to_offset
from game.engine import Game


def the_column(vehicles: dict[str, tuple[str, str]]) -> Game:
    """The German column at its first Movement Phase, to drive three units off the west edge
    in four turns (RD-13); the Russian wins at three kills; every Russian a "?" (RD-11)."""
    return column_game(vehicles, exits=3, kills=3)


def drive(game: Game, uid: str, level: int = 2) -> tuple[str, ComputerPlayer]:
    """The German's Movement Phase at ``level``; the hex ``uid`` ends in, and the player."""
    player = ComputerPlayer("german", level, seed=1)
    german_movement(game, player)
    return label(game.units[uid].hex), player


def test_issue41_rd11_a_question_mark_is_deadlier_to_a_half_track_than_to_a_tank():
    """Six hexes from the ZiS-3's "?" (E2) and in sight of it, the prior a half-track reads
    is ``[risk] unknown_soft`` times a Panzer IV's (each "?" in LOS; at most 1)."""
    game = the_column({"ger-pz4-1": ("pz4h", "K4"), "ger-ht-1": ("sdkfz251", "P2")})
    table = table_of(game, "german")
    views = {u["id"]: u for u in table.units()}
    assert soft(views["ger-pz4-1"]) == 1.0
    assert soft(views["ger-ht-1"]) > 2.0
    tank = unknown_risk(table, "german")("J2")
    half_track = unknown_risk(table, "german", scale=soft(views["ger-ht-1"]))("J2")
    assert 0.0 < tank < half_track <= 1.0


def test_issue41_rd13_a_vehicle_of_an_exit_victory_is_worth_a_tanks_to_its_side():
    """Any unit off the map counts alike for an exit victory (RD-13): the half-track's loss
    costs the column as much as a Panzer's (2, RD-13's points of an AFV), not 1."""
    game = the_column({"ger-pz4-1": ("pz4h", "K4"), "ger-ht-1": ("sdkfz251", "P2")})
    table = table_of(game, "german")
    views = {u["id"]: u for u in table.units()}
    assert own_worth(table, "german", views["ger-ht-1"]) == own_worth(
        table, "german", views["ger-pz4-1"]
    )


def test_issue41_rd11_the_half_track_stops_out_of_the_question_marks_sight_in_turn_1():
    """The half-track in P2 (16 MP) in turn 1 of 4, beside the column: before, it drove to H1,
    in the sight of the 45 mm Gun's "?" in D7 at 8 hexes (the prior 3% there, as for a tank),
    where it was shot (HE, or the ATR) in turn 1 of 12 of the 20 games traced; now it stops
    out of the sight of every "?", and still drives west."""
    game = the_column(
        {
            "ger-pz4-1": ("pz4h", "Q1"),
            "ger-pz4-2": ("pz4h", "P9"),
            "ger-stug-1": ("stug3g", "Q3"),
            "ger-ht-1": ("sdkfz251", "P2"),
        }
    )
    end, _ = drive(game, "ger-ht-1")
    table = table_of(game, "german")
    board = game.board
    seen = table.viewshed(end)[0]
    seers = [
        u["hex"]
        for u in table.units()
        if u["side"] == "russian" and seen[board.index(board.parse(u["hex"]))]
    ]
    assert not seers, f"it stopped in {end}, in the sight of the '?' in {seers}"
    assert to_offset(board.parse(end))[0] < to_offset(board.parse("P2"))[0]


def test_issue41_rd13_hx11_a_side_that_loses_as_things_stand_does_not_weigh_standing_still():
    """Level 3's search for the column weighs no plan in which no vehicle moves (its side is
    not the scenario defender and holds nothing: it loses when time runs out, HX-11); the
    Russian defender, which wins on time, still may (``stand``)."""
    game = the_column({"ger-pz4-1": ("pz4h", "K4"), "ger-ht-1": ("sdkfz251", "P2")})
    assert all(p.moves for p in portfolio(table_of(game, "german"), "german"))
    assert any(not p.moves for p in portfolio(table_of(game, "russian"), "russian"))
    _, player = drive(game, "ger-pz4-1", level=3)
    found = player.last_search
    assert found is not None and found.scores
    assert all(s.plan.moves for s in found.scores), [s.plan.name for s in found.scores]
