"""Issue 41, tenth session: level 3's playouts ended after its player turn and the enemy's
answer, and on the duel every plan played out alike there (71 of 82 searches of its Russian
against level 2): the game is decided three turns on, by where the T-34s that do not hold F6
wait. On a map of at most ``[search] horizon_hexes`` hexes a playout now plays ``[search]
horizon`` player turns (0: on to the game's end), each side by the same playout player
throughout, within ``[search] horizon_work``; elsewhere two, as before."""

from __future__ import annotations

from engine_helpers import decide
from test_ai_search import duel_game

from game.ai import ComputerPlayer
from game.ai.lookahead import Budget, playout
from game.ai.tuning import tuning
from game.engine.table import Snapshot


def _played(turns: int) -> tuple[int, int, bool]:
    """A playout of the duel's German from its Movement Phase of turn 1, ``turns`` player
    turns long: the actions, the turn it ended in, whether the game ended."""
    world = Snapshot(duel_game(), play=True)
    me, them = ComputerPlayer("german", 2, 1), ComputerPlayer("russian", 2, 2)
    n = playout(world, "german", me, them, 4000, turns=turns)
    table = world.table("german")
    return n, table.turn, table.over


def test_issue41_a_playout_plays_as_many_player_turns_as_its_horizon():
    two, turn, over = _played(2)
    assert turn == 2 or over  # the German's turn 1 and the Russian's answer, as before
    four, turn4, over4 = _played(4)
    assert four > two and (turn4 == 3 or over4)
    end, _, done = _played(0)
    assert done and end >= four  # on to the game's end


def test_issue41_rd13_a_search_on_the_smallest_maps_plays_on_to_its_horizon():
    t = tuning().search
    game = duel_game()
    assert game.board.size <= t.horizon_hexes
    short = ComputerPlayer("german", 3, seed=1, budget=Budget(horizon_hexes=0))
    long = ComputerPlayer("german", 3, seed=1)
    assert short._budget(Snapshot(game).table("german")).turns == 2
    assert long._budget(Snapshot(game).table("german")).turns == t.horizon
    decide(short, game)
    decide(long, game)
    assert short.last_search is not None and long.last_search is not None
    per_short = short.last_search.actions / short.last_search.playouts
    per_long = long.last_search.actions / long.last_search.playouts
    assert per_long > per_short  # played on past the enemy's answer
