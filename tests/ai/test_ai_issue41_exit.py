"""Issue 41: the careful Americans beat the hedgerow's Germans 17 games of 20, always the same
way: the German Panzers and the PaK sat where they set up, in woods that saw little of the
ground west of them, while the Americans drove round out of their sight and off the west edge
(their exit victory, RD-13). The defender weighed the enemy it must knock out and the hexes it
must hold, never the edge the enemy must reach. Now a vehicle or Gun also values a hex by the
share of the ground the enemy must still cross to its exit edge that it sees (RD-9: the lanes,
``game.ai.valuation.objective.lanes``, ``[objective] watch_exit``)."""

from __future__ import annotations

from ai_helpers import exit_duel
from engine_helpers import table_of

from game.ai import ComputerPlayer
from game.ai.valuation.objective import aims, lanes, watched
from game.board.hexes import label
from game.engine import Game, UnitSetup

YARD = [  # a yard walled by woods (columns B-G, rows 2-5); the T-34 east of it, in I6
    "o o o o o o o o o",
    "o w w w w w w o o",
    "o w o o o o w o o",
    "o w o o o o w o o",
    "o w w w w w w o o",
    "o o o o o o o o o",
    "o o o o o o o o o",
]


def in_the_yard(hx: str, exit_victory: bool = True) -> Game:
    """A Panzer IV (the scenario defender) in ``hx`` at its Movement Phase; a T-34 in I6 that
    wins by leaving by the west edge (RD-13), or, without ``exit_victory``, by knocking the
    Panzer out."""
    return exit_duel(
        YARD,
        UnitSetup("ger-pz4-1", "pz4h", "german", hx, facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", "I6", facing=3),
        exit_victory,
        turns=4,
        seed=3,
    )


def test_issue41_rd13_the_lanes_are_the_ground_between_the_enemy_and_its_exit_edge():
    """The lanes: every hex nearer the west edge than the T-34 (columns A-H), none when the
    enemy has no exit victory."""
    table = table_of(in_the_yard("D3"), "german")
    got = {label(h) for _, h in lanes(table, "german", table.units())}
    assert {"A1", "H7", "D3"} <= got
    assert not any(h.startswith("I") for h in got)
    plain = table_of(in_the_yard("D3", exit_victory=False), "german")
    assert lanes(plain, "german", plain.units()) == []
    assert watched(plain, aims(plain, "german", "ger-pz4-1"), "A1") == 0.0


def test_issue41_rd13_a_defender_leaves_the_yard_to_watch_the_way_to_the_exit_edge():
    """The Panzer in the walled yard sees little of the T-34's way west and no enemy: before,
    it ended its Movement Phase where it stood; now it moves where it sees more of that way
    (RD-9), as level 2 weighs it."""
    game = in_the_yard("D3")
    table = table_of(game, "german")
    start = watched(table, aims(table, "german", "ger-pz4-1"), "D3")
    player = ComputerPlayer("german", 2, seed=1)
    for _ in range(40):
        table = table_of(game, "german")
        if table.phase != "movement" or table.to_act != "german":
            break
        game.apply(table.engine_action(player.choose(table).action))
    end = label(game.units["ger-pz4-1"].hex)
    table = table_of(game, "german")
    assert end != "D3"
    assert watched(table, aims(table, "german", "ger-pz4-1"), end) > start + 0.1


def test_issue41_rd13_no_exit_victory_no_pull_the_panzer_stays_in_the_yard():
    """Without the enemy's exit victory the same Panzer has no reason to leave (the control)."""
    game = in_the_yard("D3", exit_victory=False)
    table = table_of(game, "german")
    decision = ComputerPlayer("german", 2, seed=1).choose(table)
    assert type(decision.action).__name__ == "EndPhase"
