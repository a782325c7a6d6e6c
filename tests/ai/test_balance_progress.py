"""The balance run's progress and stop (issue 42: the editor's Balance button runs it on a
background thread with a progress bar, and may stop it): each game reported as it ends with
the running tally, the run stopped at once with no worker left."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from children import live_children

from game.ai.balance import Cancelled, Progress, balance
from game.files.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SETUP = load_scenario(ROOT / "scenarios" / "lesson-3-shot.toml").setup


def test_progress_from_a_background_thread_counts_every_game_and_the_tally():
    seen: list[Progress] = []
    out: dict = {}
    worker = threading.Thread(
        target=lambda: out.update(balance(SETUP, 4, 1, 2, progress=seen.append)), daemon=True
    )
    worker.start()
    worker.join(240)
    assert not worker.is_alive() and out
    assert [p.done for p in seen] == [1, 2, 3, 4] and {p.total for p in seen} == {4}
    last = seen[-1]
    assert [side for side, _ in last.wins] == list(SETUP.sides)
    for side, n in last.wins:
        assert n == round(out["sides"][side]["win_rate"] * 4)
    assert last.undecided == 4 - sum(n for _, n in last.wins)
    assert all(a.done < b.done for a, b in zip(seen, seen[1:], strict=False))
    assert not live_children()


def test_the_same_seeds_give_the_same_figures_as_one_worker():
    assert balance(SETUP, 2, 1, 2) == balance(SETUP, 2, 1, 1)


def test_a_stopped_run_raises_cancelled_and_leaves_no_worker():
    stop = threading.Event()

    def progress(p: Progress) -> None:
        stop.set()  # the editor's Stop, pressed after the first game

    with pytest.raises(Cancelled) as e:
        balance(SETUP, 40, 1, 2, progress=progress, stop=stop)
    assert 1 <= e.value.progress.done < 40 and e.value.progress.total == 40
    assert "stopped after" in str(e.value)
    assert not live_children()


def test_stop_set_before_the_start_plays_nothing():
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled) as e:
        balance(SETUP, 3, 1, 1, stop=stop)
    assert e.value.progress.done == 0 and not live_children()
