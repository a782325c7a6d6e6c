"""The cyclic collector paused over a save's long reads (game/files/collector.py)."""

from __future__ import annotations

import gc

import pytest

from game.files.collector import collector_paused


def test_the_collector_is_paused_inside_and_runs_again_after_even_on_an_error():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the outer block decides
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a bad save")
    assert gc.isenabled()


def test_two_threads_pausing_in_turn_leave_the_collector_running():
    """Thread A's pause ends while thread B's is still open, then B's: the collector runs
    again only after the last one (each block had read "was it running?" for itself, and a
    block begun while another was ending could leave it off for good)."""
    import threading

    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []  # what B saw once A's pause had ended (asserted here, not there)

    def first():
        with collector_paused():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def second():
        a_in.wait(5)
        with collector_paused():
            b_in.set()
            a_out.wait(5)
            seen.append(gc.isenabled())

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == [False]  # A's end did not end B's pause
    assert gc.isenabled()


def test_a_collector_already_off_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_reading_a_save_leaves_the_collector_running(tmp_path):
    from game.engine import Game
    from game.files.savegame import SavedGame, read_save, save
    from game.files.scenario import load_scenario
    from game.files.shipped import scenarios_dir

    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    saved = SavedGame.new(sc, 3)
    game = Game(sc.setup, 3)
    for action in game.legal_actions()[:1]:
        game.apply(action)
        saved.record(action, game)
    save(saved, tmp_path / "a.json")
    assert len(read_save(tmp_path / "a.json").actions) == 1
    assert gc.isenabled()
    import game.files.collector as collector
    import game.files.savegame as savegame

    paused = []
    real = collector.collector_paused

    def counted():
        paused.append(1)
        return real()

    savegame.collector_paused, kept = counted, savegame.collector_paused
    try:
        read_save(tmp_path / "a.json")  # a short save: no pause (no full collection first)
        assert paused == []
        savegame.PAUSE_FROM, limit = 0, savegame.PAUSE_FROM
        try:
            read_save(tmp_path / "a.json")
        finally:
            savegame.PAUSE_FROM = limit
        assert paused == [1] and gc.isenabled()
    finally:
        savegame.collector_paused = kept
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError):
        read_save(tmp_path / "bad.json")
    assert gc.isenabled()
