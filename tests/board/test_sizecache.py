"""The line tables kept per board size (issue 44, item 7): the size in use, and any other only
while a board's LOS uses it. ``lru_cache`` kept the last 4 sizes of line tables (28 MiB at the
four-board map) and 2 of sight lines (66 MiB at 200 x 200) to the end of the process: a window
whose editor, lessons and games met other sizes kept them all."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from game.board.lines import line_tables
from game.board.mapgen import random_map
from game.board.sightlines import sight_lines
from game.board.sizecache import OneSize
from game.board.viewsheds import Viewsheds
from game.board.visibility import Visibility


def _gone(ref: weakref.ref) -> bool:
    gc.collect()
    return ref() is None


@pytest.mark.parametrize("tables", [line_tables, sight_lines], ids=["line_tables", "sight_lines"])
def test_a_board_size_no_longer_used_is_let_go_when_another_is_asked_for(tables):
    """Two board sizes in turn: once the first is used by no board, the tables of the second
    are the only ones kept."""
    first = weakref.ref(tables(11, 7))
    assert first() is tables(11, 7)  # the size in use: kept, not made again
    second = tables(13, 6)
    assert _gone(first), "the tables of a size no board uses are still kept"
    assert tables(13, 6) is second


def test_a_size_still_used_by_a_games_los_is_not_made_again():
    """A game open on one size while the editor checks another: each board's LOS keeps its
    own size's tables, so neither is drawn again when asked for again."""
    game_board, other_board = random_map(11, 7, 3), random_map(13, 6, 4)
    game_los = Visibility(game_board)
    other = Visibility(other_board)
    assert line_tables(11, 7) is game_los.tables
    assert line_tables(13, 6) is other.tables
    del other
    gone = weakref.ref(line_tables(13, 6))
    line_tables(11, 7)  # the game's size asked for again: the other size is used by no board
    assert _gone(gone)
    assert line_tables(11, 7) is game_los.tables


def test_viewsheds_keep_their_sight_lines_while_they_live():
    """The on-demand LOS of a large map holds its sight lines: another size asked for
    meanwhile does not drop them, and they go once the LOS does."""
    board = random_map(12, 9, 5)
    sheds = Viewsheds(board)
    sight_lines(7, 5)
    assert sight_lines(12, 9) is sheds.tables
    ref = weakref.ref(sheds.tables)
    del sheds
    sight_lines(7, 5)
    assert _gone(ref)


def test_one_size_makes_a_size_once_however_many_threads_ask():
    """The editor's worker and the window may ask for one size at once: one copy is kept and
    returned to both."""
    gate = threading.Barrier(4)

    class Tables:
        def __init__(self, columns: int, rows: int):
            self.size = (columns, rows)

    cache = OneSize(Tables)
    got: list[Tables] = []

    def ask() -> None:
        gate.wait()
        got.append(cache(5, 4))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(g is got[0] for g in got) and len(got) == 4
    assert cache.cache_info().kept == ((5, 4),)


def test_the_all_pairs_results_kept_stay_within_their_bytes(monkeypatch):
    """Visibility.of kept the last 4 maps' all-pairs results whatever their size (12.5 MiB
    each on the four-board map: 50 MiB once the editor had tried a few maps). They stay within
    _KEEP_BYTES now, the newest kept: a game started again on its map computes nothing."""
    import game.board.visibility as visibility

    monkeypatch.setattr(visibility, "_COMPUTED", {})
    boards = [random_map(20, 15, seed) for seed in range(4)]
    Visibility.of(boards[0])
    one = visibility._held()
    monkeypatch.setattr(visibility, "_KEEP_BYTES", 2 * one + one // 2)
    for board in boards[1:]:
        Visibility.of(board)
    assert len(visibility._COMPUTED) == 2 and visibility._held() <= 2 * one + one // 2
    monkeypatch.setattr(Visibility, "all_pairs", lambda self: pytest.fail("computed again"))
    again = Visibility.of(boards[-1])
    assert again.clear is not None and again.clear.shape == (300, 300)


def test_a_large_maps_sight_lines_go_once_another_size_is_in_use():
    """A 200 x 200 game closed, a four-board game opened: the large map's sight lines (66 MiB)
    stayed the last size sight_lines had been asked for, kept to the end of a 20-minute soak.
    Asking any size's tables makes it the size in use for all of them."""
    sight = weakref.ref(sight_lines(12, 9))
    line_tables(11, 7)
    assert _gone(sight), "the sight lines of a size no board uses are still kept"
    assert (11, 7) in line_tables.cache_info().kept
