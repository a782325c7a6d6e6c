"""The window and its scenes: a small stack of scenes, each with ``handle(event)``,
``update(dt)`` and ``draw(surface)``; pygame-gui for the widgets. Redraws only when something
changed (an idle window sleeps in ``pygame.event.wait``). ``screenshot`` renders one frame to a
PNG without a display."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.ui.map.render import FONTS
from game.ui.memory import compact_theme_ids, release
from game.ui.prefs import Prefs, saves_dir, scenarios_dir
from game.ui.scenes.routes import Pop, Push, Quit, Replace, Screen, Start, Transition

DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (960, 640)
MAX_SHADOW_BYTES = 16 * 2**20
"""The most pygame-gui's shadow pictures may hold. It keeps one for each element size made,
for 10 s of its own clock (frames' time): a storm of window resizes (each one rebuilds the
widgets at new sizes) piled up hundreds before a frame came (182 MB after 500 resizes)."""
FONTS_TO_PRELOAD: list[dict[str, str | int | float]] = [
    {"name": "noto_sans", "point_size": 13, "style": "bold", "antialiased": "1"},
    {"name": "noto_sans", "point_size": 14, "style": "bold", "antialiased": "1"},
    {"name": "noto_sans", "point_size": 13, "style": "italic", "antialiased": "1"},
    {"name": "noto_sans", "point_size": 14, "style": "italic", "antialiased": "1"},
]


EVENT_BUDGET_S = 0.05
"""A pass of the loop handles events for this long at most, then draws a frame: the rest wait
in :attr:`App.backlog` for the next pass, in order. A storm of input faster than frames (a
hundred gestures a frame in ``bench soak``) kept the window from drawing for 6 s (issue 44)."""


def theme_path() -> str:
    return str(resources.files("game.ui").joinpath("data/theme.json"))


class Scene:
    """One screen of the game. ``app`` is set when it is pushed. ``keeps_below``: a scene
    drawn over the one below it (a prompt, a chooser), which keeps its widgets meanwhile."""

    app: App
    keeps_below = False
    home = False
    """A screen a game opened from it comes back to (the editor's Test play): leaving that
    game for the start screen returns here instead."""

    def enter(self) -> None:
        """Build its widgets (called when it becomes the top scene)."""

    def leave(self) -> None:
        """Remove its widgets."""

    def closed(self) -> None:
        """Taken off the window for good (popped, or replaced by another screen): let go of
        what outlives widgets (threads, processes)."""

    def handle(self, event: pygame.event.Event) -> None:
        del event

    def update(self, dt: float) -> None:
        del dt

    def draw(self, surface: pygame.Surface) -> None:
        del surface

    def animating(self) -> bool:
        """Whether the scene needs frames with no event (a replay playing on its clock)."""
        return False

    def tiles_owed(self) -> bool:
        """Map tiles on screen left for the next frames (:class:`.tiles.Deadline`)."""
        return False

    def frame_rate(self) -> int:
        """The most frames a second drawn while it animates or the window is busy."""
        return 60

    def may_close(self) -> bool:
        """Whether the window may close now (False: the scene asked the player first)."""
        return True

    def draw_over_ui(self, surface: pygame.Surface) -> None:
        """Drawn after the widgets: a modal (the help) stays above the button bar and the log."""
        del surface

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: rebuild the widgets."""
        self.leave()
        self.enter()


class App:
    """The window, the UI manager and the scene stack."""

    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        save_dir: str | Path | None = None,
        headless: bool = False,
        build: Callable[[Screen], Scene] | None = None,
    ):
        if headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        pygame.key.set_repeat(350, 40)
        flags = pygame.RESIZABLE
        self.screen = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("hexfire")
        self.size = self.screen.get_size()
        self.ui = pygame_gui.UIManager(self.size, theme_path())
        compact_theme_ids(self.ui.get_theme())
        self.ui.preload_fonts(FONTS_TO_PRELOAD)
        self.save_dir = saves_dir(save_dir)
        self.scenario_dir = scenarios_dir(save_dir)
        """Where the editor keeps the player's scenarios (:func:`.prefs.scenarios_dir`)."""
        self.prefs = Prefs.load()
        self.scenes: list[Scene] = []
        self.running = True
        self.dirty = True
        self.clock = pygame.time.Clock()
        self.backlog: deque[pygame.event.Event] = deque()
        """Events taken off pygame's queue and not handled yet (:meth:`take`)."""
        self.build = build
        """Builds the scene a transition names (:func:`game.ui.screens.build`; the window made by
        :func:`game.ui.screens.window` has it)."""
        self.questions: dict[object, Callable[[], None]] = {}
        """Open yes/no dialogs (:meth:`ask`) and what their yes does."""
        self.askers: dict[pygame_gui.windows.UIConfirmationDialog, Scene] = {}
        """The screen that asked each open question: the question dies with it."""
        self._shadows_seen = 0
        self.windows: dict[Any, Scene] = {}
        """Each pygame-gui window open (a file dialog, a message, a question) and the screen on
        top when it opened: it closes with that screen (:meth:`own_windows`)."""

    # --- the scene stack ----------------------------------------------------------------

    def ask(
        self,
        text: str,
        title: str,
        yes: str,
        then: Callable[[], None],
        asker: Scene | None = None,
    ) -> None:
        """A yes/no dialog over whatever screen is open; ``then`` runs on yes (the text is
        escaped: pygame-gui reads it as HTML). The question belongs to ``asker`` (default: the
        screen on top): closed, it takes the question with it (:meth:`forget_questions`)."""
        import html

        dialog = pygame_gui.windows.UIConfirmationDialog(
            pygame.Rect(self.size[0] // 2 - 280, 170, 560, 240),
            html.escape(text),
            self.ui,
            window_title=title,
            action_short_name=yes,
        )
        self.questions[dialog] = then
        asker = asker if asker is not None else (self.scenes[-1] if self.scenes else None)
        if asker is not None:
            self.askers[dialog] = asker

    def own_windows(self) -> None:
        """The windows opened since the last look belong to the screen on top (looked at after
        each event and frame); closed ones are let go. A window no screen closed stayed open
        and alive to the window's end: a second Load dialog opened over the first, a Balance
        report over an editor since closed (the soak's file dialogs and their lists, issue 44
        item 7)."""
        self.windows = {w: s for w, s in self.windows.items() if w.alive()}
        if self.scenes:
            for w in self.ui.get_window_stack().get_full_stack():
                self.windows.setdefault(w, self.scene)

    def forget_questions(self, scene: Scene) -> None:
        """The questions ``scene`` asked, closed unanswered: a closed screen's question stayed
        on screen, its yes calling the closed screen (the editor's "Resume the draft"), and
        kept the screen alive to the window's end (issue 44, item 7)."""
        for dialog in [d for d, asker in self.askers.items() if asker is scene]:
            del self.askers[dialog]
            self.questions.pop(dialog, None)
            dialog.kill()

    def go(self, transition: Transition) -> None:
        """Apply a transition a scene asked for (:mod:`game.ui.scenes.routes`)."""
        match transition:
            case Pop():
                self.pop()
            case Quit():
                self.running = False
            case Replace(Start()) if any(scene.home for scene in self.scenes[:-1]):
                # a screen opened from a home (a test play from the editor) goes back to it;
                # the home itself asking (the editor closing) goes to the start screen
                while not self.scene.home:
                    self.pop()
                release()
            case Push(screen) | Replace(screen):
                if self.build is None:
                    raise RuntimeError("this window builds no screens (use screens.window)")
                scene = self.build(screen)
                if isinstance(transition, Push):
                    self.push(scene)
                else:
                    self.replace(scene)

    @property
    def scene(self) -> Scene:
        return self.scenes[-1]

    def push(self, scene: Scene) -> None:
        if self.scenes and not scene.keeps_below:
            self.scenes[-1].leave()
        scene.app = self
        self.scenes.append(scene)
        scene.enter()
        self.dirty = True

    def pop(self) -> Scene:
        scene = self.scenes.pop()
        self._take_off(scene)
        if self.scenes and not scene.keeps_below:
            self.scenes[-1].enter()
        self.dirty = True
        return scene

    def replace(self, scene: Scene) -> None:
        """Another screen: what the old ones held goes back to the system
        (:func:`.memory.release`: a closed game's boards, a storm's widgets), their texts
        with it (:meth:`.Fonts.forget_texts`)."""
        self.close_all()
        FONTS.forget_texts()
        self.push(scene)
        release()

    # --- the loop -----------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """One event: to the widgets, then to the top scene; pygame-gui's shadow pictures
        kept within :data:`MAX_SHADOW_BYTES`."""
        self._handle(event)
        self.bound_shadows()
        self.own_windows()

    def bound_shadows(self) -> None:
        """Drop pygame-gui's kept shadow pictures (one for each element size made; it drops
        them itself only every 10 s of frames) once they hold more than
        :data:`MAX_SHADOW_BYTES`: they are made again when next needed."""
        shadows = self.ui.get_theme().get_shadow_generator()
        kept: dict = getattr(shadows, "short_term_rect_cache", {})
        if len(kept) == self._shadows_seen:  # nothing new since the last look
            return
        size = sum(s.get_width() * s.get_height() * s.get_bytesize() for s in kept.values())
        if size > MAX_SHADOW_BYTES:
            shadows.clear_short_term_caches()
        self._shadows_seen = len(kept)

    def _handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            if all(scene.may_close() for scene in reversed(self.scenes)):
                self.running = False
            self.dirty = True
            return
        if event.type == pygame.VIDEORESIZE:
            w, h = max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h)
            self.size = (w, h)
            if self.screen.get_size() != self.size:  # smaller than the screen lays out
                self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
            self.ui.set_window_resolution(self.size)
            for scene in reversed(self.scenes):  # the scenes whose widgets are on screen
                scene.resize(self.size)
                if not scene.keeps_below:
                    break
            self.dirty = True
            return
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and (
            event.ui_element in self.questions
        ):
            self.askers.pop(event.ui_element, None)
            self.questions.pop(event.ui_element)()
            self.dirty = True
            return
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            self.questions.pop(event.ui_element, None)
            self.askers.pop(event.ui_element, None)
        if self.scenes:
            self.scene.handle(event)
        self.dirty = True

    def frame(self, dt: float = 0.0) -> None:
        """Update and draw one frame."""
        self.ui.update(dt)
        self.bound_shadows()
        if self.scenes:
            self.scene.update(dt)
        self.own_windows()
        self.render(self.screen)

    def render(self, surface: pygame.Surface) -> None:
        if self.scenes:
            self.scene.draw(surface)
        self.ui.draw_ui(surface)
        if self.scenes:
            self.scene.draw_over_ui(surface)

    def run(self) -> None:
        """Until the window closes. Waits for events when nothing changes (idle: no CPU)."""
        while self.running and self.scenes:
            if self.dirty or self.backlog or self.ui_animating():
                dt = self.clock.tick(self.frame_rate()) / 1000.0
                events = pygame.event.get()
            else:
                events = [pygame.event.wait(500)]
                dt = self.clock.tick() / 1000.0
            self.take(events)
            if self.dirty or self.ui_animating():
                self.dirty = False  # a change made during the frame asks for another one
                self.frame(dt)
                pygame.display.flip()
        pygame.display.quit()

    def close_all(self) -> None:
        """Every screen taken off for good (:meth:`Scene.closed`): on another screen, and once
        the window has closed and its games' locks are released (game/ui/main.py; a Balance
        run's workers left going kept the process alive for minutes after it)."""
        while self.scenes:
            self._take_off(self.scenes.pop())

    def _take_off(self, scene: Scene) -> None:
        """A screen off the stack for good: its widgets, what it holds, its questions and the
        other windows it opened (:meth:`own_windows`)."""
        scene.leave()
        scene.closed()
        self.forget_questions(scene)
        for window in [w for w, owner in self.windows.items() if owner is scene]:
            del self.windows[window]
            window.kill()

    def take(self, events: list[pygame.event.Event], budget: float = EVENT_BUDGET_S) -> int:
        """Handle the backlog and then ``events``, in order, for ``budget`` seconds at most (at
        least one event); what is left waits for the next pass (:data:`EVENT_BUDGET_S`). Returns
        the events handled."""
        self.backlog.extend(e for e in events if e.type != pygame.NOEVENT)
        end = time.perf_counter() + budget
        done = 0
        while self.backlog and (done == 0 or time.perf_counter() < end):
            self.handle(self.backlog.popleft())
            done += 1
        if self.backlog:
            self.dirty = True  # draw what was done so far, then go on
        return done

    def window_open(self) -> bool:
        """Whether a pygame-gui window (a question, a file dialog, a result) is on screen: the
        map under it takes no clicks meanwhile."""
        return bool(self.ui.get_window_stack().get_full_stack())

    def frame_rate(self) -> int:
        """The scene's frame rate (:meth:`Scene.frame_rate`)."""
        return self.scene.frame_rate() if self.scenes else 60

    def ui_animating(self) -> bool:
        """pygame-gui widgets that need frames: a hovered button or its tooltip, a text
        field's caret (a file dialog). Otherwise the window sleeps until an event."""
        if self.ui.get_hovering_any_element():
            return True
        if self.scenes and self.scene.animating():
            return True
        focus = self.ui.get_focus_set() or set()
        return any(isinstance(e, pygame_gui.elements.UITextEntryLine) for e in focus)

    def pump(self, events: list[pygame.event.Event] | None = None) -> None:
        """Tests: handle the posted events (or the given ones) and draw one frame."""
        for event in events if events is not None else pygame.event.get():
            self.handle(event)
        for _ in range(8):  # work off the window's thread (a file opening, the computer
            # deciding): let it finish first
            wait = getattr(self.scene, "wait_done", None) if self.scenes else None
            if wait is None or not wait():
                break
            self.frame(0.016)
        self.frame(0.016)
        self.draw_owed()

    def draw_owed(self, most: int = 200) -> None:
        """Tests: frames until the map's tiles on screen are all drawn (a frame draws
        :data:`.tiles.TILE_BUDGET_S` of new ones), so that its pixels are the whole picture."""
        for _ in range(most):
            if not (self.scenes and self.scene.tiles_owed()):
                return
            self.frame(0.016)

    def screenshot(self, path: str | Path) -> None:
        """Render a frame and write it as a PNG."""
        self.frame(0.016)
        self.frame(0.016)
        self.draw_owed()
        pygame.image.save(self.screen, str(path))
