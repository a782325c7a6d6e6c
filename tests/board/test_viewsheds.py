"""On-demand viewsheds for large maps equal the scalar reference (RD-9), are cached, and are
dropped when smoke or wrecks change the map."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_visibility import boards

from game.board.lines import line_tables
from game.board.los import los
from game.board.mapgen import large_map, random_map
from game.board.sightlines import sight_lines
from game.board.viewsheds import ALL_PAIRS_MAX_HEXES, CACHE_VIEWSHEDS, Viewsheds, sight_for
from game.board.visibility import Visibility


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_rd9_viewsheds_both_ways_equal_the_all_pairs_arrays_on_random_maps(board):
    """Every origin: what it sees is its all-pairs row, what sees it is its column (the
    all-pairs arrays are held to the scalar reference by test_visibility)."""
    clear, hind = Visibility(board).all_pairs()
    vs = Viewsheds(board)
    for a in range(board.size):
        out_c, out_h, in_c, in_h = vs.compute(a)
        assert (out_c == clear[a]).all() and (out_h == hind[a]).all(), a
        assert (in_c == clear[:, a]).all() and (in_h == hind[:, a]).all(), a


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 14), st.integers(1, 12))
def test_sight_lines_hold_the_same_traces_as_the_line_tables(cols, rows):
    lt, sl = line_tables(cols, rows), sight_lines(cols, rows)
    assert len(sl.dist) == len(lt.dist)
    where = {tuple(x): i for i, x in enumerate(lt.disp.tolist())}
    for d in range(len(sl.dist)):
        i, n = where[tuple(sl.disp[d].tolist())], int(sl.dist[d])
        assert lt.dist[i] == n and sl.two_traces[d] == lt.two_traces[i]
        plus = sl.offsets[sl.ptr_plus[d] : sl.ptr_plus[d] + n - 1]
        minus = sl.offsets[sl.ptr_minus[d] : sl.ptr_minus[d] + n - 1]
        assert (plus == lt.off_plus[i, 1:n]).all() and (minus == lt.off_minus[i, 1:n]).all()


def test_rd9_a_200_by_200_map_matches_the_scalar_reference_on_a_sample():
    board = large_map(1944)
    vs = Viewsheds(board)
    rng = np.random.default_rng(7)
    for a in rng.integers(0, board.size, 6):
        clear, hind = vs.seen_from(int(a))
        for b in rng.integers(0, board.size, 60):
            r = los(board, board.hex_at(int(a)), board.hex_at(int(b)))
            assert r.clear == clear[b], (a, b, r.reason)
            assert (r.hindrance if r.clear else 0) == hind[b], (a, b)


def test_viewsheds_are_cached_up_to_the_bound_and_answer_pairs_both_ways():
    board = random_map(45, 40, seed=3)
    vs = Viewsheds(board)
    clear, hind = vs.seen_from(10)
    assert vs.seen_from(10)[0] is clear and vs.computed == 1
    assert not clear.flags.writeable
    # a pair whose first hex has no viewshed yet is read from the other end's "seen by"
    b = int(np.flatnonzero(clear)[-1])
    assert vs.sees(b, 10) == bool(vs.seeing(10)[0][b]) and vs.computed == 1
    assert vs.hindrance_between(10, b) == int(hind[b])
    assert vs.keep >= CACHE_VIEWSHEDS
    vs.keep = 20
    for a in range(25):
        vs.seen_from(a)
    assert len(vs._cache) == 20 and 0 not in vs._cache and 24 in vs._cache


def test_rd9_smoke_and_wrecks_drop_the_kept_viewsheds_and_the_answers_follow():
    board = random_map(45, 40, seed=4)
    vs = Viewsheds(board)
    for a in (0, 100, 900):
        vs.seen_from(a)
    for i in (101, 950):
        board.add_wreck(board.hex_at(i))
    board.set_smoke(board.hex_at(500))
    assert vs.update([101, 950, 500]) == 3
    for a in (0, 100, 900, 501):
        clear, hind = vs.seen_from(a)
        fresh = Viewsheds(board).compute(a)
        assert (clear == fresh[0]).all() and (hind == fresh[1]).all()
    rng = np.random.default_rng(1)
    for b in rng.integers(0, board.size, 80):
        r = los(board, board.hex_at(100), board.hex_at(int(b)))
        assert r.clear == vs.sees(100, int(b))


def test_a_game_map_gets_all_pairs_up_to_the_limit_and_viewsheds_above():
    assert isinstance(sight_for(random_map(40, 40, seed=1)), Visibility)
    assert 40 * 40 <= ALL_PAIRS_MAX_HEXES < 41 * 40
    assert isinstance(sight_for(random_map(41, 40, seed=1)), Viewsheds)


def test_bench_los_large_figures_and_a_game_on_the_largest_map_within_1_gib():
    """``hexfire bench los``'s 200 x 200 figures: the sample agrees with the scalar reference,
    and a whole game on the shipped 200 x 200 scenario (validated, loaded, played to its end
    and replayed to the same hash) peaks well under 1 GiB in a process of its own."""
    from game.board.bench import bench_los_large
    from game.files.largegame import measure

    figures = bench_los_large(origins=3, sample=40)
    assert figures["large_sample_mismatches"] == 0
    assert figures["large_setup_s"] > 0 and figures["large_viewshed_ms"] > 0
    game = measure()
    assert game["large_game_over"] and game["large_game_actions"] > 50
    assert game["large_peak_mib"] <= 1024


def test_rd9_a_game_with_on_demand_viewsheds_plays_exactly_as_with_all_pairs(monkeypatch):
    """The four-board battle played twice with the same seed and choices: once with all-pairs
    LOS, once with on-demand viewsheds (the large maps' way); every state hash agrees, wrecks
    included."""
    import random

    import game.board.viewsheds as viewsheds
    from game.engine import Game
    from game.engine.randomplay import policy
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    setup = load_scenario(scenarios_dir() / "bagration-4-boards.toml").setup
    games = [Game(setup, 5)]
    monkeypatch.setattr(viewsheds, "ALL_PAIRS_MAX_HEXES", 0)
    games.append(Game(setup, 5))
    assert isinstance(games[0].state.visibility, Visibility)
    assert isinstance(games[1].state.visibility, Viewsheds)
    rng = random.Random(5)
    wrecks = 0
    for _ in range(600):
        if games[0].over:
            break
        action = policy(games[0], rng, 0.8)
        for g in games:
            g.apply(action)
        assert games[0].state_hash() == games[1].state_hash()
        wrecks = int(games[1].board.wrecks.sum())
    assert wrecks > 0 and games[1].state.visibility.computed > 0


@settings(max_examples=30, deadline=None)
@given(boards(max_cols=12, max_rows=9), st.data())
def test_rd9_a_new_wreck_drops_only_the_viewsheds_it_may_change(board, data):
    """A wreck only adds hindrance: the viewsheds kept after it are exactly what a fresh
    computation gives (the ones it may change, through a clear line, are dropped)."""
    vs = Viewsheds(board)
    origins = data.draw(st.lists(st.integers(0, board.size - 1), min_size=1, max_size=8))
    for a in origins:
        vs.seen_from(a)
    changed = data.draw(st.lists(st.integers(0, board.size - 1), min_size=1, max_size=2))
    for i in changed:
        board.add_wreck(board.hex_at(i))
    vs.update(changed, only_added=True)
    fresh = Viewsheds(board)
    for a, got in vs._cache.items():
        for mine, theirs in zip(got, fresh.compute(a), strict=True):
            assert (mine == theirs).all()


def test_a_wreck_drops_the_viewsheds_that_see_through_it_and_keeps_the_others():
    board = random_map(45, 40, seed=6)
    vs = Viewsheds(board)
    for a in range(0, board.size, 97):
        vs.seen_from(a)
    kept = len(vs._cache)
    seen = np.flatnonzero(vs.seen_from(0)[0])
    h = int(seen[len(seen) // 2])  # a hex the first origin sees: its viewshed must go
    board.add_wreck(board.hex_at(h))
    dropped = vs.update([h], only_added=True)
    assert 0 not in vs._cache and 0 < dropped < kept
