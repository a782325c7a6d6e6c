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


def _type(app, entry, text: str) -> None:
    """Click into ``entry``, select what it holds and type ``text`` over it (real events)."""
    click_widget(app, entry)
    key(app, pygame.K_a, "a", pygame.KMOD_CTRL)
    key(app, pygame.K_BACKSPACE, "")
    post(*(pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text))
    app.pump()
    assert entry.get_text() == text


def test_the_away_dialog_sets_any_standing_dff_order_c6_17_on_the_server(app, online):
    """The seat's standing Defensive First Fire order (C6.17): always ask me, pass, Case J1 or
    better, or a kill chance of any N from 1 to 99, typed or stepped; each the server's."""
    play = _join(app, online, "tutorial-duel", "german", "russian")
    hosted = next(iter(online.server.games.values()))
    assert play.buttons["away"].text == "Away: ask me"
    click_widget(app, play.buttons["away"])
    dialog = play.away
    assert dialog is not None and dialog.alive()
    assert dialog.window.rect.colliderect(pygame.Rect((0, 0), app.size).clip(dialog.window.rect))
    assert pygame.Rect((0, 0), app.size).contains(dialog.window.rect)

    def chosen(button, text: str) -> None:
        click_widget(app, button)
        _wait(app, lambda: play.buttons["away"].text == text)
        assert hosted.orders["russian"] == play.remote.client.client.order

    chosen(dialog.passing, "Away: pass")
    assert hosted.orders["russian"].policy == "pass"
    _type(app, dialog.entry, "37")  # any N: typed, Enter sets it
    key(app, pygame.K_RETURN, "\r")
    _wait(app, lambda: play.buttons["away"].text == "Away: fire at 37%+ kill")
    assert hosted.orders["russian"] == play.remote.client.client.order
    assert (hosted.orders["russian"].policy, hosted.orders["russian"].percent) == ("kill", 37)
    assert "C6.17" in play.map.state.message
    click_widget(app, dialog.plus)  # stepped: +5, -5, within 1..99
    assert dialog.entry.get_text() == "42"
    assert hosted.orders["russian"].percent == 37  # stepping sends nothing
    chosen(dialog.fire, "Away: fire at 42%+ kill")
    _type(app, dialog.entry, "97")
    click_widget(app, dialog.plus)
    assert dialog.entry.get_text() == "99"
    chosen(dialog.fire, "Away: fire at 99%+ kill")
    _type(app, dialog.entry, "3")
    click_widget(app, dialog.minus)
    assert dialog.entry.get_text() == "1"
    chosen(dialog.fire, "Away: fire at 1%+ kill")
    for bad in ("0", "100", "ab"):  # refused in the dialog, one line; the order stays
        _type(app, dialog.entry, bad)
        click_widget(app, dialog.fire)
        assert "from 1 to 99" in dialog.problem.text, dialog.problem.text
        assert hosted.orders["russian"].percent == 1
    click_widget(app, dialog.entry)
    version = play.table.version
    key(app, pygame.K_e, "e")  # typed into the box: not the map's keys (no End Phase)
    assert play.table.version == version
    chosen(dialog.j1, "Away: fire at J1+")
    assert hosted.orders["russian"].policy == "case_j1"
    chosen(dialog.ask, "Away: ask me")
    assert hosted.orders["russian"].policy == "ask"
    click_widget(app, dialog.close_button)
    assert play.away is None and not dialog.alive()

    click_widget(app, play.buttons["away"])  # Esc closes it too
    assert play.away is not None
    key(app, pygame.K_ESCAPE)
    assert play.away is None
    online.stop()  # the server gone: one line, the button as it was
    _wait(app, lambda: play.remote.status != "connected")
    click_widget(app, play.buttons["away"])
    assert play.away is not None
    click_widget(app, play.away.passing)
    assert play.map.state.message.startswith("the order was not set"), play.map.state.message
    assert play.buttons["away"].text == "Away: ask me"


@pytest.mark.parametrize("size", [(960, 640), (1280, 800), (1920, 1080)])
def test_the_away_control_is_whole_and_clear_of_the_bars_words(app, online, size):
    """The Away button and its dialog lie inside the window at every size, clear of the
    phase bar's words and of the End Phase button."""
    post(pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
    app.pump()
    play = _join(app, online, "tutorial-duel", "german", "russian")
    window = pygame.Rect((0, 0), app.size)
    away, end = play.buttons["away"], play.buttons["end_phase"]
    assert window.contains(away.rect) and not away.rect.colliderect(end.rect)
    assert away.font.size(away.text)[0] <= away.rect.width - 8, (away.text, away.rect)
    assert play.away_width(play.rects()["bar"]) == away.rect.width  # the bar's words stop short
    click_widget(app, away)
    assert play.away is not None
    inner = play.away.window.rect
    assert window.contains(inner)
    for element in play.away.window.get_container().elements:
        assert inner.contains(element.rect), element
