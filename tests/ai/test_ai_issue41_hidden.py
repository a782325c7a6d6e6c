"""Issue 41: the hedgerow's concealed Panzer IV never left the woods it set up in (a hidden
defender waited, ``[move] hidden_stays``, however the enemy went), so the careful Americans
drove past corners no German saw and off the west edge, and level 3's plans could not differ
for it. Now a
hidden defender moves when it must (``game.ai.valuation.exits``): a move out of every enemy's
sight keeps its concealment (RD-11) and costs it nothing, a move in sight less as far as an
enemy heading for its exit edge (RD-13) goes unwatched; a concealed vehicle with no turret out
of sight turns its Covered Arc to the way out (HX-2); and a concealed firer gives itself away
for a poorer shot at an enemy about to leave."""

from __future__ import annotations

from ai_helpers import exit_duel
from engine_helpers import table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.tuning import tuning
from game.ai.valuation.exits import hidden_shot, in_enemy_sight, must_move, ways_out
from game.ai.valuation.objective import aims, watched
from game.ai.valuation.targets import shots
from game.board.hexes import label
from game.engine import Game, UnitSetup
from game.engine.actions import Fire, Turn

# A hedgerow of woods (row 4, columns A-H) hides the north from the south; the T-34 comes from
# the east (J) for the west edge.
RIDGE = [
    "o o o o o o o o o o",
    "o o o o o o o o o o",
    "o o o o o o o o o o",
    "w w w w w w w w o o",
    "o o o o o o o o o o",
    "o o o o o o o o o o",
    "o o o o o o o o o o",
]


def behind_the_ridge(
    hx: str = "B2",
    kind: str = "pz4h",
    t34: str = "J6",
    exit_victory: bool = True,
    facing: int = 1,
    enemy: str = "t34m43",
) -> Game:
    """A concealed German vehicle (the scenario defender, which wins on time) in ``hx`` facing
    ``facing`` at its Movement Phase, turn 1 of 6; a T-34 (or ``enemy``) in ``t34`` that wins
    by leaving by the west edge (RD-13), or, without ``exit_victory``, by knocking the German
    out."""
    return exit_duel(
        RIDGE,
        UnitSetup("ger-1", kind, "german", hx, facing=facing, concealed=True),
        UnitSetup("rus-t34-1", enemy, "russian", t34, facing=3),
        exit_victory,
    )


def play_phase(game: Game, player: ComputerPlayer) -> list:
    """``player``'s decisions until its Movement Phase ends; the actions."""
    done = []
    for _ in range(60):
        table = table_of(game, "german")
        if table.phase != "movement" or table.to_act != "german":
            break
        action = table.engine_action(player.choose(table).action)
        game.apply(action)
        done.append(action)
    return done


def test_issue41_rd13_the_way_out_of_the_t34_and_how_much_of_it_goes_unwatched():
    """The T-34's way west is the ground nearer the west edge than it, and the Panzer in the
    hollow sees little of it: it must move, more than half as much as if it saw none of it
    (``must_move``); none without the enemy's exit victory."""
    table = table_of(behind_the_ridge(), "german")
    (way,) = ways_out(table, "german", table.units())
    board = table.board
    cells = {label(board.hex_at(i)) for i in way.cells}
    assert {"A6", "E7", "I6"} <= cells and not any(c.startswith("J") for c in cells)
    me = next(u for u in table.units() if u["id"] == "ger-1")
    assert must_move(table, "german", me) > 0.5 * way.soon
    plain = table_of(behind_the_ridge(exit_victory=False), "german")
    assert ways_out(plain, "german", plain.units()) == []
    assert must_move(plain, "german", me) == 0.0


def test_issue41_rd11_a_hidden_defender_moves_out_of_sight_to_watch_the_way_out():
    """Before, the concealed Panzer waited in the hollow (``[move] hidden_stays``); now it
    moves where it watches more of the T-34's way west, out of the T-34's sight, and is still
    concealed there (RD-11)."""
    game = behind_the_ridge()
    table = table_of(game, "german")
    start = watched(table, aims(table, "german", "ger-1"), "B2")
    assert not in_enemy_sight(table, "german")[table.board.index(table.board.parse("B2"))]
    done = play_phase(game, ComputerPlayer("german", 2, seed=1))
    end = label(game.units["ger-1"].hex)
    assert end != "B2", done
    assert game.units["ger-1"].concealed
    table = table_of(game, "german")
    assert watched(table, aims(table, "german", "ger-1"), end) > start + 0.1


def test_issue41_hx2_a_hidden_stug_out_of_sight_turns_its_arc_to_the_way_out():
    """A concealed StuG (no turret: it fires only inside its Covered Arc, HX-2) out of every
    enemy's sight pivots towards the T-34's way west, and keeps its concealment (RD-11)."""
    game = behind_the_ridge("C4", kind="stug3g", facing=2)
    done = play_phase(game, ComputerPlayer("german", 2, seed=1))
    assert any(isinstance(a, Turn) for a in done), done
    assert game.units["ger-1"].concealed
    table = table_of(game, "german")
    a = aims(table, "german", "ger-1")
    hx = label(game.units["ger-1"].hex)
    assert watched(table, a, hx, game.units["ger-1"].facing) >= watched(table, a, "C4", 2) + 0.05


def test_issue41_rd11_a_concealed_tank_gives_itself_away_to_stop_an_exit():
    """A concealed Panzer's Defensive Fire shot at a Jeep in the woods of A4, on the west edge
    it must leave by (RD-13), is worth less than ``[fire] hidden_shot``: before, the Panzer
    kept its concealment (RD-11) and let the Jeep go; now the bar falls as the target could
    sooner leave (it is the last shot at it), and it fires. With no exit victory it holds."""
    game = behind_the_ridge("D2", t34="A4", kind="pz4h", enemy="jeep")
    to_phase(game, "defensive_fire", "russian")
    table = table_of(game, "german")
    best = shots(table, "german", table.actions())[0]
    assert 0.2 < best.value < tuning().fire.hidden_shot
    assert hidden_shot(table, "german", "rus-t34-1") < 0.2
    decision = ComputerPlayer("german", 2, seed=1).choose(table)
    assert isinstance(decision.action, Fire)
    plain = behind_the_ridge("D2", t34="A4", kind="pz4h", enemy="jeep", exit_victory=False)
    to_phase(plain, "defensive_fire", "russian")
    table = table_of(plain, "german")
    assert hidden_shot(table, "german", "rus-t34-1") == tuning().fire.hidden_shot
    assert not isinstance(ComputerPlayer("german", 2, seed=1).choose(table).action, Fire)
