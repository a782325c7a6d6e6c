"""The start screen's "Play online" panel (issue 40) against a real ``hexfire serve`` on the
loopback: create a game (the invitation shown, my seat opened), join by a link, the kept games
with whose move it is, and every failure (a bad link, a server down, a hostile links file) one
line in the panel."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pygame_gui
import pytest
from ui_driver import click_widget, key, post

from game.net.client import Link
from game.net.remote import RemoteSession
from game.ui.play.screen import PlayScene
from game.ui.scenes.opening import close_sessions
from game.ui.scenes.routes import Push, Replace, Start
from game.ui.start.online import links_path, load_links, whose_move
from game.ui.start.screen import StartScene

ROOT = Path(__file__).resolve().parents[2]
BOUND = 60.0
"""No wait here is longer (seconds)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def serve(tmp_path):
    """``hexfire serve`` in a process of its own on the loopback: its URL."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "game",
            "serve",
            "--port",
            str(port),
            "--data",
            str(tmp_path / "srv"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert f"ws://127.0.0.1:{port}" in line, line
    yield proc, f"ws://127.0.0.1:{port}"
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def _type(app, entry, text: str) -> None:
    """Click into ``entry``, select what it holds and type ``text`` over it (real events)."""
    click_widget(app, entry)
    key(app, pygame.K_a, "a", pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE, "")
    post(*(pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text))
    app.pump()
    assert entry.get_text() == text


def _wait(app, condition, seconds: float = BOUND) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "no answer in time"
        app.pump()
        time.sleep(0.01)


def _panel(app) -> StartScene:
    app.go(Push(Start()))
    app.pump()
    start = app.scene
    assert isinstance(start, StartScene)
    click_widget(app, start.online_button)
    assert start.online is not None and start.online.widgets
    return start


def _back_to_start(app) -> StartScene:
    close_sessions(app)
    app.go(Replace(Start()))
    app.pump()
    start = app.scene
    assert isinstance(start, StartScene)
    click_widget(app, start.online_button)
    return start


def test_create_join_and_the_kept_games_against_a_real_server(app, data_dir, serve):
    proc, url = serve
    start = _panel(app)
    panel = start.online
    assert panel is not None
    assert panel.server_entry.get_text() == "ws://127.0.0.1:8765"  # what hexfire serve prints
    sides = panel.sides()
    _type(app, panel.server_entry, url)
    click_widget(app, panel.side_button)  # I play the second side
    click_widget(app, panel.computer_button)  # the computer (level 0) on the other
    assert panel.computer == 0
    click_widget(app, panel.create)
    _wait(app, lambda: bool(panel.mine))
    assert app.scene is start and "Created" in panel.message, panel.message
    assert panel.invite == ""  # the other seat is the computer's: no invitation
    mine = Link.parse(panel.mine)
    assert mine.url.startswith(url)
    kept, problem = load_links()
    assert problem is None and [g.side for g in kept] == [sides[1]]
    click_widget(app, panel.open_mine)
    _wait(app, lambda: isinstance(app.scene, PlayScene))
    play = app.scene
    assert isinstance(play, PlayScene) and isinstance(play.remote, RemoteSession)
    assert play.remote.side == sides[1]

    # a game between two players: the invitation for the other seat, then joined by its link
    start = _back_to_start(app)
    panel = start.online
    assert panel is not None and panel.server_entry.get_text() == url  # the newest game's
    click_widget(app, panel.create)
    _wait(app, lambda: bool(panel.invite) and app.scene is start)
    assert panel.invite_entry.get_text() == panel.invite
    invite = Link.parse(panel.invite)
    _type(app, panel.link_entry, invite.text())
    click_widget(app, panel.join)
    _wait(app, lambda: isinstance(app.scene, PlayScene))
    joined = app.scene.remote  # type: ignore[attr-defined]
    assert joined.side == sides[1]  # the invited seat
    # the list's look at a seat takes no seat: the window open on it goes on
    assert whose_move(invite).endswith("move")
    time.sleep(0.3)
    app.pump()
    assert joined.status == "connected" and joined.client.client.error is None

    # the kept games, each with whose move it is; a click opens one
    start = _back_to_start(app)
    panel = start.online
    assert panel is not None and len(panel.games) == 3
    _wait(app, lambda: len(panel.statuses) == 3)
    lines = [str(t) for t in panel.lines()]
    assert all("move" in line or "Fire" in line or "over" in line for line in lines), lines
    _wait(app, lambda: panel.list.item_list[0]["text"] == lines[0])  # shown when it came
    click_widget(app, panel.list.item_list_container.elements[0])
    _wait(app, lambda: isinstance(app.scene, PlayScene))
    close_sessions(app)

    # the server down: the list says so, a create says why in one line, no crash
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    start = _back_to_start(app)
    panel = start.online
    assert panel is not None
    _wait(app, lambda: len(panel.statuses) == 3)
    assert set(panel.statuses.values()) == {"server not reachable"}
    click_widget(app, panel.create)
    _wait(app, lambda: app.scene is start and "cannot connect" in panel.message)
    assert "\n" not in panel.message
    click_widget(app, panel.list.item_list_container.elements[0])
    _wait(app, lambda: app.scene is start and "cannot connect" in panel.message)


def test_bad_links_and_addresses_are_one_line_in_the_panel(app, data_dir):
    start = _panel(app)
    panel = start.online
    assert panel is not None
    _type(app, panel.link_entry, "http://example.org/not-a-game")
    click_widget(app, panel.join)
    assert app.scene is start
    assert panel.message.startswith("not a hexfire link"), panel.message
    _type(app, panel.server_entry, "ftp://nowhere")
    click_widget(app, panel.create)
    assert app.scene is start and panel.message.startswith("server:"), panel.message
    click_widget(app, panel.server_entry)
    key(app, pygame.K_RETURN, "\r")  # Enter in a text entry starts no scenario
    assert app.scene is start


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"[1, 2]", b'{"link": 1}', b"[" * 5000, b'[{"link": "ws://x/game/zz#t"}]'],
)
def test_a_hostile_links_file_means_no_games_and_one_line(app, data_dir, content):
    path = links_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    start = _panel(app)
    panel = start.online
    assert panel is not None
    assert panel.games == [] and panel.message.startswith("online.json: ignored"), panel.message
    assert "\n" not in panel.message
    os.remove(path)


@pytest.mark.parametrize("size", [(960, 640), (1280, 800), (1920, 1080)])
def test_the_online_panel_is_whole_and_readable_at_every_window_size(app, data_dir, size):
    """Every widget of the "Play online" panel lies inside the panel and the window, none
    covers another, and each label's and button's words fit it (960 x 640: the smallest)."""
    post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
    app.pump()
    start = _panel(app)
    panel = start.online
    assert panel is not None
    panel.say("cannot connect: is hexfire serve running there? " * 2)
    app.pump()
    box = panel.panel.get_container().rect
    assert pygame.Rect((0, 0), app.size).contains(panel.panel.rect)
    inner = panel.panel.get_container()
    elements = [
        e
        for e in inner.elements
        if e.visible and e.ui_container is inner and not isinstance(e, pygame_gui.core.UIContainer)
    ]
    assert len(elements) >= 14
    for e in elements:
        assert box.contains(e.rect), (e, e.rect, box)
        words = getattr(e, "text", None)
        if isinstance(e, (pygame_gui.elements.UILabel, pygame_gui.elements.UIButton)) and words:
            assert e.font.size(words)[0] <= e.rect.width - 4, (words, e.rect)
    for i, a in enumerate(elements):
        for b in elements[i + 1 :]:
            assert not a.rect.colliderect(b.rect), (a, a.rect, b, b.rect)
    assert panel.list.rect.height >= 44  # two kept games at least
    assert panel.message_label.scroll_bar is None  # the message's two lines shown whole
