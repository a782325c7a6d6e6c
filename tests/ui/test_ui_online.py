"""The window on a seat of a game on a server (``hexfire join``, issue 40): the normal play
screen on the seat's view, its actions sent to the server, the other side's pushed to it, the
Defensive First Fire prompt as it happens, and the result with the luck report."""

from __future__ import annotations

import time

import pygame
import pytest
from net_helpers import ServerThread
from ui_driver import click_widget, hover, key, post

from game.net.client import invitation
from game.net.remote import RemoteSession, ThreadedClient
from game.ui.overlays.scenes import DffPrompt, EndScene
from game.ui.play.screen import NET_EVENT, PlayScene
from game.ui.scenes.routes import Play, Push


@pytest.fixture
def online(tmp_path):
    thread = ServerThread(tmp_path / "server")
    yield thread
    thread.stop()


def _join(app, online: ServerThread, name: str, computer: str, side: str) -> PlayScene:
    created = online.create(name, computer)
    client = ThreadedClient(
        invitation(online.url, created.game, created.tokens[side]),
        on_change=lambda: post(pygame.event.Event(NET_EVENT)),
    )
    session = RemoteSession(client)
    app.go(Push(Play(session, session.title, viewer=side)))
    app.pump()
    play = app.scene
    assert isinstance(play, PlayScene) and play.remote is session
    return play


def _wait(app, condition, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "the server did not answer in time"
        app.pump()
        time.sleep(0.005)


def test_a_seat_plays_a_whole_game_against_the_servers_computer_in_the_window(app, online):
    play = _join(app, online, "tutorial-duel", "german", "russian")
    session = play.remote
    assert session is not None
    odds_seen = False
    for _ in range(400):
        _wait(app, lambda: session.client.client.ready or session.end is not None)
        if isinstance(app.scene, EndScene) or session.end is not None and play.table.over:
            break
        scene = app.scene
        if isinstance(scene, DffPrompt):  # the defender's chance, as it happens
            key(app, pygame.K_SPACE, " ")
            continue
        if play.over_pending:
            key(app, pygame.K_SPACE, " ")
            continue
        table = play.table
        if table.to_act != "russian":
            app.pump()
            continue
        own = [u for u in table.units() if u.side == "russian" and u.has_gun]
        enemies = [u for u in table.units() if u.side != "russian"]
        if not odds_seen and own and enemies and table.phase != "setup_attacker":
            play.map.state.selected = own[0].id  # a hover over an enemy: the server's odds
            play.map.center_on(enemies[0].hex)
            x, y = play.map.camera.hex_to_screen(table.board.parse(enemies[0].hex))
            hover(app, (int(x), int(y)))
            shown = play.map.hover_odds()
            assert shown is not None
            local = online.server.games[next(iter(online.server.games))].session.table("russian")
            try:
                expected = local.odds(own[0].id, enemies[0].id).report
            except Exception as e:  # refused: the same reason
                assert shown[1] == getattr(e, "reason", None)
            else:
                assert shown[1].report == expected
            odds_seen = True
        version = table.version
        key(app, pygame.K_e, "e")
        if play.dialogs.confirm is not None:
            click_widget(app, play.dialogs.confirm.confirm_button)
        _wait(app, lambda v=version: play.table.version != v or play.table.over)
    _wait(app, lambda: session.end is not None)
    for _ in range(20):
        if isinstance(app.scene, EndScene):
            break
        key(app, pygame.K_SPACE, " ")
        app.pump()
    assert isinstance(app.scene, EndScene)
    lines = play.luck_lines()
    assert [line.split(":")[0] for line in lines] == ["German", "Russian"]
    assert session.saved.seed == session.end.seed  # the whole save, after the end
    assert odds_seen
