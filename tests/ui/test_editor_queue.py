"""The editor's queue of changes under a storm of strokes (issue 44): Test play shows its
loading screen at once instead of waiting on the window's thread for the queued checks (74 s
on the four-board map in the soak), and a change with more queued behind it leaves the
validation and the draft to the last of them."""

from __future__ import annotations

import threading

import pygame
from test_editor import at, button, open_editor
from ui_driver import click, key, post

from game.ui.edit.outings import draft_name
from game.ui.scenes.loading import LoadingScene


def held_checks(scene, monkeypatch) -> tuple[threading.Event, list[str]]:
    """The editor's checker made to wait for ``release`` (a slow check of a large map), and
    the texts it was asked to check."""
    release = threading.Event()
    seen: list[str] = []
    real = scene.worker.checker.check

    def check(text: str, name: str):
        seen.append(text)
        release.wait(10.0)
        return real(text, name)

    monkeypatch.setattr(scene.worker.checker, "check", check)
    return release, seen


def handle_posted(app, frames: int = 3) -> None:
    """The posted events handled and frames drawn, without waiting for a loading screen's
    work as ``App.pump`` does."""
    for _ in range(frames):
        for event in pygame.event.get():
            app.handle(event)
        app.frame(0.016)


def stroke(app, pos: tuple[int, int]) -> None:
    """One click of the brush, handled without waiting for its job (as a player's next
    stroke comes while the last is being checked)."""
    post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    )
    handle_posted(app, 2)


def test_test_play_shows_its_loading_screen_while_the_editors_checks_are_still_queued(
    app, tmp_path, monkeypatch
):
    from game.ui.play.screen import PlayScene

    scene, _ = open_editor(app, tmp_path)
    release, _ = held_checks(scene, monkeypatch)
    for hx in ("A1", "B2", "C3"):
        stroke(app, at(scene, hx))
    assert scene.worker.busy
    stroke(app, button(scene, "do", "test").rect.center)
    handle_posted(app)
    assert isinstance(app.scene, LoadingScene)  # shown at once ...
    assert scene.worker.busy  # ... while the checks are still queued behind it
    release.set()
    for _ in range(4):
        app.pump()
    play = next(s for s in app.scenes if isinstance(s, PlayScene))
    board = play.table.board
    assert all(board.terrain_at(board.parse(h)).key == "woods" for h in ("A1", "B2", "C3"))


def test_a_change_with_more_queued_behind_it_leaves_the_check_and_draft_to_the_last(
    app, tmp_path, monkeypatch
):
    scene, path = open_editor(app, tmp_path)
    release, seen = held_checks(scene, monkeypatch)
    strokes = ("A1", "B2", "C3", "D4", "E5")
    for hx in strokes:
        stroke(app, at(scene, hx))
    release.set()
    scene.worker.wait()
    app.pump()
    # the first stroke's check had started; the three behind the second left theirs to the last
    assert len(seen) == 2 and seen[-1] == scene.doc.text
    draft = app.save_dir / "drafts" / draft_name(path)
    assert draft.read_text() == scene.doc.text and scene.unsaved
    assert scene.errors == () and scene.panel.errors is not None
    for _ in strokes:  # every stroke undone: the file as saved, and no draft left to offer
        key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    scene.worker.wait()
    app.pump()
    assert scene.doc.text == path.read_text() and not draft.exists()


def test_test_play_of_a_scenario_that_does_not_validate_comes_back_saying_why(app, tmp_path):
    from game.files.scenario_edits import MoveUnit

    scene, _ = open_editor(app, tmp_path)
    scene.worker.apply(MoveUnit("rus-t34-1", "C7"), repaints=False)  # off its set-up area
    app.pump()
    assert scene.errors
    click(app, button(scene, "do", "test").rect.center)
    assert app.scene is scene and len(app.scenes) == 1
    assert scene.said == "Test play: fix the errors listed first (it must validate to play)"
