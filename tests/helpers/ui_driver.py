"""Drive the game window with real pygame events (clicks and keys), as a player would: the UI
tests and the play-through tests use it. Headless (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "disk")

import pygame  # noqa: E402

from game.board.hexes import label  # noqa: E402
from game.engine.actions import (  # noqa: E402
    Action,
    BoreSight,
    ButtonUp,
    Conceal,
    CrewExposed,
    EndMove,
    EndPhase,
    Fire,
    Move,
    Pass,
    Place,
    Turn,
)
from game.ui.overlays.scenes import DffPrompt, EndScene, Handover  # noqa: E402
from game.ui.play.screen import PlayScene  # noqa: E402
from game.ui.scenes.stack import App  # noqa: E402


def post(*events: pygame.event.Event) -> None:
    for e in events:
        pygame.event.post(e)


def key(app: App, k: int, unicode: str = "", mod: int = 0) -> None:
    post(
        pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=mod, scancode=0),
        pygame.event.Event(pygame.KEYUP, key=k, unicode=unicode, mod=mod, scancode=0),
    )
    app.pump()


def click(app: App, pos: tuple[int, int], button: int = 1) -> None:
    x, y = int(pos[0]), int(pos[1])
    post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=button),
    )
    for _ in range(3):  # the widgets' own events (pressed, then confirmed) arrive after
        app.pump()


def hover(app: App, pos: tuple[int, int]) -> None:
    post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=(int(pos[0]), int(pos[1])), rel=(0, 0), buttons=(0, 0, 0)
        )
    )
    app.pump()


def hex_pos(play: PlayScene, hex_label: str) -> tuple[int, int]:
    """The screen point of a hex's centre, panning the map first if it is out of view."""
    play.map.center_on(hex_label)
    x, y = play.map.camera.hex_to_screen(play.session.game.board.parse(hex_label))
    return int(x), int(y)


def click_hex(app: App, play: PlayScene, hex_label: str) -> None:
    click(app, hex_pos(play, hex_label))


def click_widget(app: App, widget) -> None:
    click(app, widget.rect.center)


def clear_overlays(app: App, play: PlayScene) -> None:
    """Click through handover screens (the next player takes the seat)."""
    for _ in range(4):
        if isinstance(app.scene, Handover):
            click(app, (app.size[0] // 2, app.size[1] // 2))
        elif app.scene is play and getattr(play, "over_pending", False):
            key(app, pygame.K_SPACE, " ")  # the deciding shot seen: the result
        else:
            return


def select(app: App, play: PlayScene, unit_id: str) -> None:
    if play.map.state.selected == unit_id:
        return
    if play.map.state.selected is not None:  # (Esc with nothing selected leaves a lesson)
        key(app, pygame.K_ESCAPE)
    click_hex(app, play, play.session.game.units[unit_id].label)
    if play.map.state.selected != unit_id:  # a stack: the chooser
        scene = app.scene
        buttons = getattr(scene, "buttons", {})
        if unit_id in buttons:
            click_widget(app, buttons[unit_id])
    assert play.map.state.selected == unit_id, f"could not select {unit_id}"


def perform(app: App, play: PlayScene, action: Action) -> None:
    """Do ``action`` with the mouse and keys only."""
    clear_overlays(app, play)
    scene = app.scene
    if isinstance(scene, DffPrompt):
        if isinstance(action, Pass):
            key(app, pygame.K_SPACE, " ")
            return
        assert isinstance(action, Fire)
        i = scene.number[action.unit]  # the number its button shows
        if action.ammo is not None:
            play.map.state.ammo[action.unit] = (
                action.ammo
            )  # the prompt fires the ammo chosen on the map
        key(app, getattr(pygame, f"K_{i}"), str(i))
        return
    if isinstance(action, EndPhase):
        key(app, pygame.K_e, "e")
        if play.dialogs.confirm is not None:
            click_widget(app, play.dialogs.confirm.confirm_button)
        return
    unit = getattr(action, "unit", None)
    if unit is not None:
        select(app, play, unit)
    if isinstance(action, Place):
        unit = play.session.game.units[action.unit]
        if action.hex != unit.label:  # drag the counter to the hex
            src = hex_pos(play, unit.label)
            dst = hex_pos(play, action.hex)
            src = tuple(int(v) for v in play.map.camera.hex_to_screen(unit.hex))
            post(
                pygame.event.Event(pygame.MOUSEMOTION, pos=src, rel=(0, 0), buttons=(0, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=src, button=1),
                pygame.event.Event(pygame.MOUSEMOTION, pos=dst, rel=(1, 1), buttons=(1, 0, 0)),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=dst, button=1),
            )
            app.pump()
        if unit.facing != action.facing:
            left = (unit.facing + 1) % 6 == action.facing
            key(app, pygame.K_COMMA if left else pygame.K_PERIOD, "," if left else ".")
        return
    if isinstance(action, Move):
        if action.to == "off":
            key(app, pygame.K_o, "o")
        else:
            click_hex(app, play, action.to)
    elif isinstance(action, Turn):
        left = (play.session.game.units[action.unit].facing + 1) % 6 == action.facing
        key(app, pygame.K_COMMA if left else pygame.K_PERIOD, "," if left else ".")
    elif isinstance(action, EndMove):
        key(app, pygame.K_m if action.motion else pygame.K_x, "m" if action.motion else "x")
    elif isinstance(action, ButtonUp | CrewExposed):
        key(app, pygame.K_b, "b")
    elif isinstance(action, Conceal):
        key(app, pygame.K_h, "h")
    elif isinstance(action, BoreSight):
        key(app, pygame.K_k, "k")
        click_hex(app, play, action.hex)
    elif isinstance(action, Fire):
        ut = play.session.game.units[action.unit].type
        want = action.ammo or (ut.ammo[0] if ut.ammo else None)
        for _ in range(len(ut.ammo)):
            if play.map.state.ammo.get(action.unit, ut.ammo[0] if ut.ammo else None) == want:
                break
            key(app, pygame.K_r, "r")
        click_hex(app, play, play.session.game.units[action.target].label)


def pick_file(app: App, dialog, path) -> None:
    """A file dialog answers with ``path`` (as its OK does with the path typed)."""
    import pygame_gui

    post(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path), ui_element=dialog)
    )
    app.pump()


def expressible(play: PlayScene, action: Action) -> bool:
    """Whether one gesture makes ``action``: a shot picks the first enemy shown in a hex; a set-up
    facing changes one hexside a key press."""
    if isinstance(action, Place):
        unit = play.session.game.units[action.unit]
        if action.hex != unit.label:
            return action.facing == unit.facing
        return (action.facing - unit.facing) % 6 in (1, 5)
    if isinstance(action, Fire):
        target = play.session.game.units[action.target]
        aimed = (
            play.map.target_in(target.label) if play.viewer == play.session.game.to_act else None
        )
        if aimed is None:  # the prompt or a handover: aim as the side to act sees the hex
            shown = [
                u
                for u in play.session.game.view(play.session.game.to_act)
                if u["hex"] == target.label
            ]
            enemies = [u for u in shown if u["side"] != play.session.game.units[action.unit].side]
            enemies.sort(key=lambda u: u.get("category") == "infantry")
            aimed = enemies[0] if enemies else None
        return aimed is not None and aimed["id"] == action.target
    return True


__all__ = ["EndScene", "click", "hover", "key", "label", "perform"]


def random_gesture(app: App, play: PlayScene, rng) -> Action:
    """A random legal action one gesture can make (a shot or a pass in the Defensive First
    Fire prompt), the random policy's pick when it can: the action chosen, to be performed."""
    from game.engine.randomplay import policy

    game = play.session.game
    choices = [a for a in game.legal_actions() if expressible(play, a)]
    if isinstance(app.scene, DffPrompt):
        choices = [a for a in choices if a.type in ("fire", "pass")]
    action = policy(game, rng, fire_p=0.9)
    return action if action in choices else rng.choice(choices)


def drawn_lines(monkeypatch) -> list[str]:
    """The text lines the panels draw from now on (each :meth:`TextBlock.line`), in order:
    what a test reads of a side panel or a result screen."""
    from game.ui.panel import parts

    drawn: list[str] = []
    real = parts.TextBlock.line
    monkeypatch.setattr(
        parts.TextBlock,
        "line",
        lambda self, text, *a, **k: (drawn.append(text), real(self, text, *a, **k))[1],
    )
    return drawn
