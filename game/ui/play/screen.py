"""The play screen: the map, the counters, the phase bar, the side panel with the odds panel,
the log; selecting, moving, turning, firing, ending phases, undo and save. A controller over
the one map view (:class:`game.ui.map.view.MapView`), with its orders and dialogs composed in. Every
change goes through the engine's ``Game.apply`` (via the session's autosave); everything shown
comes from the table of the side at the screen (:class:`game.session.Table`: its view and the
questions it may ask); who acts next is the session's to say (:meth:`Session.next_step`)."""

from __future__ import annotations

import time
from typing import Any

import pygame
import pygame_gui

from game.engine import IllegalAction
from game.engine.actions import Action, Place
from game.engine.events import Event
from game.files.collector import settle, unsettle
from game.net.remote import RemoteSession
from game.session import Session, Table
from game.ui.bindings import action_for
from game.ui.lessons.card import LessonCard
from game.ui.map.layout import BAR_H, BUTTONS_H, LESSON_DONE_H, LESSON_H, screen_rects
from game.ui.map.tiles import TILE_BUDGET_S
from game.ui.map.view import MapView
from game.ui.map.viewstate import shot_banner
from game.ui.panel import frame, parts
from game.ui.panel.buttons import button_row
from game.ui.panel.links import words_of
from game.ui.play.computer import ComputerTurn
from game.ui.play.dialogs import Dialogs
from game.ui.play.logpane import LogPane
from game.ui.play.online import NET_EVENT, OnlinePart
from game.ui.play.orders import Orders
from game.ui.play.setupmarks import SetUpMarks
from game.ui.scenes.routes import DffChance, GameOver, HandOver, Push
from game.ui.scenes.stack import Scene

COMPUTER_PAUSE = 0.7
"""Seconds each of the computer's actions stays on the screen before the next (Space skips)."""


class PlayScene(ComputerTurn, LogPane, SetUpMarks, OnlinePart, Scene):
    """A game in progress, played at one screen."""

    bindings_screen = "play"
    """The screen of data/bindings.toml whose keys this screen reads (and its help shows)."""

    def __init__(self, session: Session | Any, title: str = "", viewer: str | None = None):
        self.remote = session if isinstance(session, RemoteSession) else None  # hexfire join
        self.session: Session = self.remote or (  # type: ignore[assignment]
            session if isinstance(session, Session) else Session.of(session)
        )
        self.title = title
        self.map = MapView(lambda: self.session)
        self.map.tile_budget = TILE_BUDGET_S  # a zoom, a first frame: drawn over a few frames
        self.map.state.viewer = viewer
        self.map.acting = self.can_act
        self._legal_key: tuple | None = None
        self._legal: list[Action] = []
        self._acting_key: tuple | None = None
        self._acting: list[str] = []
        self.log: list[str] = []
        self.widgets: list = []
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.log_box: pygame_gui.elements.UITextBox | None = None
        self._log_lines = 0
        self.dialogs = Dialogs(self)
        self.dff_order: tuple[str, list[str]] = ("", [])  # the DFF prompt's numbers, per mover
        self._resumed_selection: tuple[str | None, str | None] = (None, None)
        self._opened = False
        """The screen has been shown once (what is due when a game opens is asked then)."""
        self.over_pending = False
        """The game ended by an action here: its map (the deciding shot) shows until a click or
        a key, then the end screen."""
        self.quiet: set[int] = set()
        """The phase lines of the phases that passed by themselves (but the last of each
        run), left out of the log."""
        self.passed: dict[int, str] = {}
        """HX-15's log lines, by the number of events the history held before the phase
        passed (so a rebuilt log shows them where they happened)."""
        self.orders = Orders(self)
        self._shot_line: str | None = None
        """The log line of the shot on the banner (kept in view while the banner is up)."""
        self._box_lines: list[str] = []
        self.tip: tuple[tuple[int, int], tuple[str, ...]] | None = None
        """A word of the log clicked: where, and its words (shown until the mouse leaves)."""
        self.computer = self.session.computer_side
        """The side the computer plays (docs/ai.md), or None: two players at one screen."""
        self.computer_pause = COMPUTER_PAUSE
        self._computer_at = 0.0  # when its next action is due (time.monotonic)
        if self.computer is not None and viewer is None:  # the human's seat, for good
            self.map.state.viewer = self.session.humans[0]
        lesson = self.session.lesson
        self.lesson = LessonCard(self, lesson, lesson.id) if lesson is not None else None
        """The scenario's lesson, step by step, when it is one (one learner plays both
        sides: no handover screens)."""
        for event in self.table.events():
            self._log_event(event)
        self._remote_at = (self.table.version, self.table.event_count())  # (version, logged)
        self._luck: list[str] | None = None

    # --- the game, as the side at the screen sees it ------------------------------------

    @property
    def table(self) -> Table:
        """The side at the screen's table: its view and the questions it may ask."""
        return self.session.table(self.viewer)

    @property
    def viewer(self) -> str | None:
        """The side at the screen (the map view's)."""
        return self.map.state.viewer

    def legal(self) -> list[Action]:
        """The actions the side at the screen may take now."""
        key = (self.session.version, self.viewer)
        if key != self._legal_key:
            self._legal_key = key
            self._legal = self.table.legal_actions()
        return self._legal

    def apply(self, action: Action, side: str | None = None) -> bool:
        """Submit ``action`` for the seat at the screen (``side``: the Defensive First Fire
        prompt's defender); a refusal shows its reason in the phase bar. While the computer is
        to act, the screen's actions are refused."""
        state = self.map.state
        if self.computer is not None and self.computer_acts():
            state.message = f"the computer ({self.computer.title()}) plays: wait, or Space"
            return False
        try:  # the seat at the screen acts: the one to act (a lesson's learner is both)
            if side is None:
                lesson = self.lesson is not None or self.viewer is None
                side = self.session.acting if lesson else self.viewer
            events = self.session.table(side).submit(action)
        except IllegalAction as e:
            state.message = e.reason
            return False
        state.banner = None  # the player acted: the last shot has been seen
        if self.remote is not None:  # the server's answer: its view, read as any other
            self.remote_changed()
            return True
        self._shown(events, action)
        return True

    def _shown(self, events: list[Event], action: Action | None) -> None:
        """After an action: the log and the banner of what the side at the screen may read of
        its events, the lesson's step, the end or what comes next."""
        state = self.map.state
        state.message = self.session.save_error or ""
        state.bore_sight_mode = False
        before = len(self.log)
        knows = self.map.knows()
        for event in events:
            self._log_event(event)
            seen = event.seen_by(state.viewer)
            banner = shot_banner(seen, knows, self.session.version) if seen else None
            if banner is not None:
                state.banner = banner
                self._shot_line = self.log[-1] if self.log else None
        self._append_log(self.log[before:] if len(self.log) > before else [])
        if self.lesson is not None and action is not None:
            self.lesson.applied(action)
            self.lesson.watch()
        if self.map.unit(state.selected) is None:
            state.selected = None
        if self.table.over:  # the deciding shot on the map first, then the result
            self.over_pending = True
            state.message = (
                f"Game over: {(self.table.winner or '?').title()} wins. Click or press a key "
                "for the result"
            )
            return
        self.after_change()

    def after_change(self) -> None:
        """What the screen must do next: the end screen, a handover, or the Defensive First
        Fire prompt."""

        if self.thought is not None:  # the computer is deciding: nothing changes meanwhile
            return
        self.pass_idle_phases()
        step = self.session.next_step(self.viewer, self.app.prefs.strict_hotseat)
        if step.kind == "over":
            self.app.go(Push(GameOver(self)))
        elif step.kind == "computer":
            self._computer_at = time.monotonic() + (
                0 if self._computer_dff() else self.computer_pause
            )
        elif step.kind == "remote":
            if step.side is not None and step.side != self.viewer:
                self.map.state.message = f"{step.side.title()} to act: waiting for them"
        elif self.lesson is not None:  # one learner at the screen: no handover
            if step.side is not None and self.viewer != step.side:
                self.hand_over(step.side, keep_shot=True)
            if step.kind == "dff":
                self.app.go(Push(DffChance(self)))
        elif step.kind == "handover" and step.side is not None:
            self.app.go(Push(HandOver(self, step.side, then_dff=step.then_dff)))
        elif step.kind == "dff":
            self.app.go(Push(DffChance(self)))

    def _computer_dff(self) -> bool:
        """The computer's Defensive First Fire chance during the human's move: decided at
        once, with no pause and no line (the mover must not learn that a unit it may not see
        could fire there, RD-11)."""
        return self.computer is not None and self.table.waiting_for_dff

    # --- layout and widgets ---------------------------------------------------------------

    def rects(self) -> dict[str, pygame.Rect]:
        card = self.lesson
        strip = 0 if card is None else LESSON_DONE_H if card.finished else LESSON_H
        return screen_rects(self.app.size, lesson=strip)

    def enter(self) -> None:
        if not self._opened:  # (not at each resize: a full collection took 90 ms)
            settle()  # the game's objects left out of the collector's passes during play
        ui = self.app.ui
        r = self.rects()
        self.map.rect = r["map"]
        self.map.renderer.show_labels = self.app.prefs.show_labels
        if not self.map.fitted:
            self.map.fit()
            self._restore_view()
        frame.warm_overview(self.map, r["side"])
        end = pygame_gui.elements.UIButton(
            pygame.Rect(r["bar"].right - 200, 6, 190, BAR_H - 12),
            "End Phase (e)",
            ui,
            object_id="#end_phase",
            tool_tip_text="End this phase (RD-12)",
        )
        self.buttons = {"end_phase": end}
        specs = [  # the label, its tooltip, and the short label of a narrow window
            ("turn_left", "Turn <  (,)", "Turn the hull one hexside counterclockwise (1 MP)", "<"),
            ("turn_right", "Turn >  (.)", "Turn the hull one hexside clockwise (1 MP)", ">"),
            ("stop", "Stop (x)", "Stop: spend the Stop MP (1 MP)", "Stop"),
            ("motion", "Motion (m)", "End the move in Motion (Case J, no Case L)", "Motion"),
            ("hatch", "BU / CE (b)", "Button up or go Crew Exposed", "BU/CE"),
            ("undo", "Undo (u)", "Take back your last action (never across a die roll)", "Undo"),
            ("help", "Help (F1)", "Every key and mouse binding", "Help"),
            ("start_screen", "Menu (^Q)", "Back to the start screen: the game is saved", "Menu"),
        ]
        self.buttons.update(button_row(ui, r["buttons"], specs, 108, BUTTONS_H - 8))
        self.buttons.update(self.online_buttons(ui, r["bar"]))  # a seat on a server's order
        self.log_box = pygame_gui.elements.UITextBox("", r["log"], ui)
        self.widgets = [*self.buttons.values(), self.log_box]
        self._refresh_log()
        opening, self._opened = not self._opened, True
        if opening and self.table.over and self.map.state.banner is None:
            self._show_last_shot()
        due = opening and self.session.next_step(self.viewer, self.app.prefs.strict_hotseat)
        if (
            self.viewer is None
            or (due and due.kind != "act")  # opened with a prompt, a handover or the computer due
            or (self.app.prefs.auto_pass and self.table.nothing_to_do())
        ):
            self.after_change()

    def may_close(self) -> bool:
        """Every action is autosaved, so closing loses nothing; unless the last save failed
        (a full disk): then ask first, with the reason (Save as elsewhere, or close)."""
        return self.dialogs.may_close()

    def closed(self) -> None:
        unsettle()  # the closed game's objects back to the collector (issue 44, item 7)

    def leave(self) -> None:
        for w in self.widgets:
            w.kill()
        self.widgets = []
        self.buttons = {}
        self.log_box = None
        self.dialogs.close()
        if self.away is not None:
            self.away.kill()
            self.away = None

    # --- input --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """One event, in this order: what ends or hurries the screen's own state (the result
        due, the lesson card, the computer's pause, a word of the log), the buttons and
        dialogs, the analysis tools, a key's binding, the map's own input, then the map."""
        if self._handle_first(event):
            return
        self._track_mouse(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.orders.command(key)
            return
        if self.dialogs.handle(event):
            return
        map_input = self.map.input
        if map_input.analysis_event(event):
            return
        if event.type == pygame.KEYDOWN:
            action = action_for(event, "play")  # the bindings table's action for the key
            if action is not None:
                self.orders.do(action)
            return
        if map_input.overview_event(event) or map_input.drag_and_wheel(event):
            return
        self._handle_map(event)

    def _handle_first(self, event: pygame.event.Event) -> bool:
        """The events that come before any order: a key or click once the game is over (the
        result), the lesson card's keys, Space to hurry the computer, a word of the log
        clicked (its words by the mouse); for a seat on a server, its news. True: the event
        was taken."""
        if event.type == NET_EVENT:  # the server said something (game.net.remote)
            self.remote_changed()
            return True
        if self.away_event(event):  # the "While you are away" dialog (a seat on a server)
            return True
        if self.over_pending and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.over_pending = False
            self.app.go(Push(GameOver(self)))
            return True
        if self.lesson is not None and self.lesson.key(event):
            return True
        if self.computer_acts() and event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self._computer_at = 0.0  # Space: the computer's next action now
            return True
        if event.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED:  # a word of the log: its meaning
            self.tip = (self.map.state.mouse, words_of(str(event.link_target)))
            return True
        return False

    def _track_mouse(self, event: pygame.event.Event) -> None:
        """The mouse's place; a click, or the mouse gone from a clicked word, puts its tip away."""
        tip = self.tip
        left = tip is not None and event.type == pygame.MOUSEMOTION and _far(event.pos, tip[0])
        if event.type == pygame.MOUSEBUTTONDOWN or left:
            self.tip = None
        if event.type == pygame.MOUSEMOTION:
            self.map.state.mouse = event.pos

    def _handle_map(self, event: pygame.event.Event) -> None:
        """The mouse on the map: the hover, a click (select, move, fire, place; the last
        shot's banner clicked away first), and a counter picked up and dropped in set-up."""
        state = self.map.state
        if event.type == pygame.MOUSEMOTION:
            self.map.mouse_moved(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not self.map.rect.collidepoint(event.pos):
                return
            if state.banner is not None and self.map.banner_rect.collidepoint(event.pos):
                state.banner = None  # the last shot clicked away; the click goes on (a shot)
            aiming = state.bore_sight_mode
            self.orders.click(event.pos)
            sel = self.map.unit(state.selected)
            if (
                not aiming
                and sel is not None
                and self.map.setting_up()
                and sel["id"] in self.placeable()
                and self.map.hex_at(event.pos) == sel["hex"]
            ):
                state.dragging = sel["id"]  # a press on the counter picks it up
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and state.dragging:
            unit, state.dragging = self.map.unit(state.dragging), None
            hx = self.map.hex_at(event.pos)
            if unit is not None and hx and hx != unit["hex"]:
                self.apply(Place(unit["id"], hx, unit["facing"]))

    def can_act(self) -> list[str]:
        """The own units that can still move (Movement) or fire (a fire phase), for the side
        at the screen when it is the one to act (their green dot)."""
        table = self.table
        if self.viewer != table.to_act or table.dff_pending or table.over:
            return []
        key = (self.session.version, self.viewer)
        if key != self._acting_key:
            self._acting_key = key
            self._acting = table.can_act()
        return self._acting

    def waiting(self) -> str:
        """The side the seat at the screen waits for, as the phase bar names it ("" when this
        seat acts, or acts for every side: a lesson's learner, a screen with no seat)."""
        table, viewer = self.table, self.viewer
        acting = table.to_act
        if self.lesson is not None or viewer is None or acting in (None, viewer) or table.over:
            return ""
        return f"the {acting.title()}" + (" (computer)" if acting == self.computer else "")

    def hand_over(self, side: str, keep_shot: bool = False) -> None:
        """The screen passes to ``side`` (the handover clicked): its view, no selection, no
        overlay or LOS thread left on by the other player, its own units in view."""
        state = self.map.state
        state.viewer = side
        state.selected = state.hover_hex = None  # the other player's hover is not this one's
        state.bore_sight_mode = False
        self.map.analysis.clear()
        if not keep_shot:
            state.banner = None
        mover = self.map.unit(self.table.moving_unit)
        if mover is not None and mover["side"] == side:  # back after Defensive First Fire
            state.selected = mover["id"]
        viewer, selected = self._resumed_selection
        if viewer == side:  # the selection its window had when it was closed
            own = self.map.unit(selected)
            state.selected = selected if own is not None and own["side"] == side else None
            self._resumed_selection = (None, None)
        self.rebuild_log()
        self.map.focus_own_units()

    # --- drawing ------------------------------------------------------------------------

    def animating(self) -> bool:
        """The computer's turn (:meth:`.ComputerTurn.animating`), or tiles owed: the window
        would otherwise sleep with the map half drawn until the mouse moved."""
        return super().animating() or self.tiles_owed()

    def tiles_owed(self) -> bool:
        return self.map.renderer.owed

    def draw(self, surface: pygame.Surface) -> None:
        r = self.rects()
        frame.draw_map_screen(self.map, surface, r)
        frame.draw_side(self.map, surface, r["side"], self.title)  # (clears the rule spots)
        frame.draw_bar(self.map, surface, r["bar"], self.away_width(r["bar"]), self.waiting())
        self._draw_unplaced(surface, r)
        if self.lesson is not None:
            self.lesson.watch()
            self.lesson.draw(surface, r)

    def draw_over_ui(self, surface: pygame.Surface) -> None:
        """The words of a rule id or a short word: over the widgets (drawn under them, a
        clicked word of the log had its tip hidden by the log box itself)."""
        if self.tip is not None:  # a word of the log clicked
            parts.draw_tip(surface, self.tip[0], self.tip[1])
        else:
            parts.draw_rule_tip(surface, self.map.state.mouse)  # a rule id hovered: its words


def _far(pos: tuple[int, int], at: tuple[int, int]) -> bool:
    """The mouse has left a clicked word's tip (it stays while the mouse is near)."""
    return abs(pos[0] - at[0]) > 60 or abs(pos[1] - at[1]) > 30
