"""The vectorised LOS engine equals the scalar reference on every pair (RD-9)."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.board import Board
from game.board.los import los
from game.board.mapgen import random_map
from game.board.terrain import terrain_catalogue
from game.board.visibility import Visibility, line_tables


@st.composite
def boards(draw, max_cols=9, max_rows=7):
    """Random maps with elevation: any terrain at any level 0-4, some smoke and wrecks."""
    cols = draw(st.integers(1, max_cols))
    rows = draw(st.integers(1, max_rows))
    n = cols * rows
    ids = len(terrain_catalogue().terrains)
    terrain = np.array(draw(st.lists(st.integers(0, ids - 1), min_size=n, max_size=n)))
    ground = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    board = Board(cols, rows, terrain, ground)
    for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
        board.set_smoke(board.hex_at(i))
    for i in draw(st.lists(st.integers(0, n - 1), max_size=3)):
        board.add_wreck(board.hex_at(i))
    return board


def assert_equal_to_scalar(board: Board, clear: np.ndarray, hind: np.ndarray) -> None:
    for a in range(board.size):
        for b in range(board.size):
            r = los(board, board.hex_at(a), board.hex_at(b))
            assert r.clear == clear[a, b], (a, b, r.reason)
            if r.clear:
                assert r.hindrance == hind[a, b], (a, b)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_rd9_all_pairs_equal_the_scalar_reference_on_random_maps(board):
    clear, hind = Visibility(board).all_pairs()
    assert_equal_to_scalar(board, clear, hind)


@settings(max_examples=25, deadline=None)
@given(boards(), st.data())
def test_rd9_viewshed_equals_the_all_pairs_row(board, data):
    vis = Visibility(board)
    clear, hind = vis.all_pairs()
    a = data.draw(st.integers(0, board.size - 1))
    vc, vh = vis.viewshed(a)
    assert (vc == clear[a]).all() and (vh == hind[a]).all()


@settings(max_examples=25, deadline=None)
@given(boards(), st.data())
def test_smoke_and_wrecks_update_only_touched_pairs_to_the_same_result(board, data):
    vis = Visibility(board)
    vis.all_pairs()
    changed = data.draw(st.lists(st.integers(0, board.size - 1), min_size=1, max_size=3))
    for i in changed:
        if data.draw(st.booleans()):
            board.set_smoke(board.hex_at(i), not board.smoke[i])
        else:
            board.add_wreck(board.hex_at(i))
    vis.update(changed)
    fresh_clear, fresh_hind = Visibility(board).all_pairs()
    assert (vis.clear == fresh_clear).all()
    assert (vis.hindrance == fresh_hind).all()


def test_rd9_a_copy_shares_the_los_arrays_until_its_markers_change_them():
    """Copy on write: a copied Visibility reads the same arrays; smoke in the copy's board
    changes the copy's LOS only (and the original's next change is its own too)."""
    import copy

    board = random_map(20, 8, seed=3)
    vis = Visibility(board)
    vis.all_pairs()
    twin = copy.deepcopy(vis)
    assert twin.clear is vis.clear
    before = vis.clear.copy(), vis.hindrance.copy()
    spot = next(i for i in range(board.size) if 0 < vis.clear[i].sum() < board.size)
    twin.board.set_smoke(twin.board.hex_at(spot))
    twin.update([spot])
    assert twin.clear is not vis.clear
    assert (vis.clear == before[0]).all() and (vis.hindrance == before[1]).all()
    assert (twin.hindrance == Visibility(twin.board).all_pairs()[1]).all()
    assert (twin.hindrance != before[1]).any()
    vis.board.add_wreck(vis.board.hex_at(spot))
    vis.update([spot])
    for v in (twin, vis):
        fresh = Visibility(v.board).all_pairs()
        assert (v.clear == fresh[0]).all() and (v.hindrance == fresh[1]).all()


def test_update_recomputes_fewer_pairs_than_all():
    board = random_map(30, 10, seed=5)
    vis = Visibility(board)
    vis.all_pairs()
    board.set_smoke(board.hex_at(0))
    redone = vis.update([0])
    total = board.size * (board.size - 1) // 2
    assert 0 < redone < total // 4


def test_a_larger_seeded_map_matches_the_reference_on_a_sample():
    board = random_map(40, 14, seed=9)
    clear, hind = Visibility(board).all_pairs()
    rng = np.random.default_rng(0)
    for a, b in rng.integers(0, board.size, (400, 2)):
        r = los(board, board.hex_at(a), board.hex_at(b))
        assert r.clear == clear[a, b]
        if r.clear:
            assert r.hindrance == hind[a, b]


def test_line_tables_are_shared_by_boards_of_one_size():
    assert line_tables(12, 7) is line_tables(12, 7)


def test_los_is_symmetric_where_no_end_hex_hinders():
    board = random_map(20, 8, seed=3)
    clear, _ = Visibility(board).all_pairs()
    no_end_hindrance = (board.hindrance == 0) & ~board.smoke & (board.wrecks == 0)
    sel = np.flatnonzero(no_end_hindrance)
    sub = clear[np.ix_(sel, sel)]
    assert (sub == sub.T).all()
