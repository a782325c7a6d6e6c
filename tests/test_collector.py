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
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError):
        read_save(tmp_path / "bad.json")
    assert gc.isenabled()
