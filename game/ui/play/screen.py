"""The play screen: the map, the counters, the phase bar, the side panel with the odds panel,
the log; selecting, moving, turning, firing, ending phases, undo and save. A controller over
the one map view (:class:`game.ui.map.view.MapView`), with its orders and dialogs composed in. Every
change goes through the engine's ``Game.apply`` (via the session's autosave); everything shown
comes from the table of the side at the screen (:class:`game.session.Table`: its view and the
questions it may ask); who acts next is the session's to say (:meth:`Session.next_step`)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game.engine import IllegalAction
from game.engine.actions import Action, Place
from game.engine.events import Event
from game.files.collector import settle
from game.session import Session, Table
from game.ui.bindings import action_for
from game.ui.lessons.card import LessonCard
from game.ui.map.geometry import ZOOMS, map_extent
from game.ui.map.layout import BAR_H, BUTTONS_H, LESSON_DONE_H, LESSON_H, screen_rects
from game.ui.map.view import MapView
from game.ui.map.viewstate import shot_banner
from game.ui.panel import frame, parts
from game.ui.panel.buttons import button_row
from game.ui.panel.links import linked, words_of
from game.ui.panel.log import event_html, note_html
from game.ui.play.dialogs import Dialogs
from game.ui.play.orders import Orders
from game.ui.scenes.routes import DffChance, GameOver, HandOver, Push
from game.ui.scenes.stack import Scene

EMPTY_LOG = (
    "<font color='#9a9a9a'>The log: every move, every die roll and the rule behind each result "
    "appears here.</font>"
)
LOG_KEEP = 400
LOG_SHOWN = 120
LOG_ROWS = 6
"""The log lines the box shows at once (about: a long line wraps)."""
COMPUTER_PAUSE = 0.7
"""Seconds each of the computer's actions stays on the screen before the next (Space skips)."""


class PlayScene(Scene):
    """A game in progress, played at one screen."""

    bindings_screen = "play"
    """The screen of data/bindings.toml whose keys this screen reads (and its help shows)."""

    def __init__(self, session: Session | Any, title: str = "", viewer: str | None = None):
        self.session: Session = session if isinstance(session, Session) else Session.of(session)
        self.title = title
        self.map = MapView(lambda: self.session)
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
        self._thinking = False
        if self.computer is not None and viewer is None:  # the human's seat, for good
            self.map.state.viewer = self.session.humans[0]
        lesson = self.session.lesson
        self.lesson = LessonCard(self, lesson, lesson.id) if lesson is not None else None
        """The scenario's lesson, step by step, when it is one (one learner plays both
        sides: no handover screens)."""
        for event in self.table.events():
            self._log_event(event)

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

        self.pass_idle_phases()
        step = self.session.next_step(self.viewer, self.app.prefs.strict_hotseat)
        if step.kind == "over":
            self.app.go(Push(GameOver(self)))
        elif step.kind == "computer":
            self._computer_at = time.monotonic() + (
                0 if self._computer_dff() else self.computer_pause
            )
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

    def pass_idle_phases(self) -> None:
        """HX-15: while the side to act can do nothing but end its phase, the phase ends by
        itself (through the autosave, like a press of End Phase); one log line names the
        phases passed (their own phase lines left out of the log but the last), and a shot
        just fired stays on the map. The preference ``auto_pass`` turns it off."""
        if not self.app.prefs.auto_pass:
            return
        state = self.map.state
        fresh = state.banner is not None and state.banner.at == self.session.version
        first = self.table.event_count()
        passed, _ = self.session.pass_idle_phases()
        if not passed:
            return
        new = self.table.events()[first:]
        phase_lines = [i for i, e in enumerate(new, first) if e.kind == "phase"]
        if self.lesson is not None:  # a step waiting for a phase passed by
            self.lesson.watch()
        self.quiet.update(phase_lines[:-1])  # the phase now to act keeps its line
        line = f"Nothing to do, so passed by themselves (HX-15): {', '.join(passed)}"
        self.passed[first] = line
        before = len(self.log)
        self.log.append(note_html(line))
        for i, event in enumerate(new, first):
            if i not in self.quiet:
                self._log_event(event)
        self._append_log(self.log[before:])
        state.message = line
        if fresh and state.banner is not None:  # the shot stays up until the player acts
            state.banner = replace(state.banner, at=self.session.version)

    def _log_event(self, event: Event) -> None:
        seen = event.seen_by(self.viewer)  # what this side may read (its view's are already)
        if seen is not None:
            self.log.append(event_html(seen))
        if len(self.log) > LOG_KEEP:
            del self.log[: len(self.log) - LOG_KEEP]

    def _refresh_log(self) -> None:
        """Set the log box's whole text: its last lines (a new viewer, a new screen)."""
        if self.log_box is not None:
            shown = self.log[-LOG_SHOWN:]
            self.log_box.set_text("<br>".join(map(linked, shown)) or EMPTY_LOG)  # words: links
            self._log_lines = len(shown)
            self._box_lines = list(shown)
            self._scroll_log()

    def _append_log(self, lines: list[str]) -> None:
        """An action's new lines, appended to the log box (setting its whole text again cost
        80 ms an action); the text is set anew only when the box holds twice its lines."""
        if self.log_box is None or not lines:
            return
        if self._log_lines + len(lines) > 2 * LOG_SHOWN or not self._log_lines:
            self._refresh_log()
            return
        self.log_box.append_html_text("<br>" + "<br>".join(map(linked, lines)))
        self._log_lines += len(lines)
        self._box_lines += lines
        self._scroll_log()

    def _scroll_log(self) -> None:
        """The newest line in view; while the last shot's banner is up, its line stays in view
        (the phases that passed after it and the computer's moves scrolled it away)."""
        bar = self.log_box.scroll_bar if self.log_box is not None else None
        if bar is None:
            return
        at = 1.0
        shot, lines = self._shot_line, self._box_lines
        if self.map.state.banner is not None and shot is not None and shot in lines:
            k = len(lines) - 1 - lines[::-1].index(shot)
            if len(lines) - k > LOG_ROWS:  # more lines after it than the box shows
                at = max(0.0, (k - 0.5) / len(lines))
        bar.set_scroll_from_start_percentage(at)

    def rebuild_log(self) -> None:
        """The viewer changed: the log shows what that side may know."""
        self.log = []
        history = self.table.events()
        for k in [k for k in self.passed if k >= len(history)]:  # undone
            del self.passed[k]
        self.quiet = {i for i in self.quiet if i < len(history)}
        for i, event in enumerate(history):
            if i in self.passed:
                self.log.append(note_html(self.passed[i]))
            if i not in self.quiet:
                self._log_event(event)
        self._refresh_log()

    # --- layout and widgets ---------------------------------------------------------------

    def rects(self) -> dict[str, pygame.Rect]:
        card = self.lesson
        strip = 0 if card is None else LESSON_DONE_H if card.finished else LESSON_H
        return screen_rects(self.app.size, lesson=strip)

    def enter(self) -> None:
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
        self.log_box = pygame_gui.elements.UITextBox("", r["log"], ui)
        self.widgets = [*self.buttons.values(), self.log_box]
        self._refresh_log()
        opening, self._opened = not self._opened, True
        due = opening and self.session.next_step(self.viewer, self.app.prefs.strict_hotseat)
        if (
            self.viewer is None
            or (due and due.kind != "act")  # opened with a prompt, a handover or the computer due
            or (self.app.prefs.auto_pass and self.table.nothing_to_do())
        ):
            self.after_change()

    def remember_view(self) -> None:
        """Keep this game's zoom, centre and selection for its Resume (in the preferences)."""
        path = getattr(self.session, "path", None)
        if path is None:
            return
        m, cam, state = self.map.rect, self.map.camera, self.map.state
        x, y = cam.screen_to_world(*m.center)
        view = {"zoom": cam.zoom, "center": [x, y], "viewer": state.viewer}
        self.app.prefs.remember(Path(path), {**view, "selected": state.selected})

    def _restore_view(self) -> None:
        """A resumed game opens as its window last showed it: the zoom and the centre now,
        the selection once the same side takes the seat again (its handover)."""
        path = getattr(self.session, "path", None)
        view = self.app.prefs.view_of(Path(path)) if path else None
        if view is None:
            return
        m, cam = self.map.rect, self.map.camera
        cam.zoom = min(ZOOMS, key=lambda z: abs(z - view["zoom"]))  # one of the zoom levels
        board = self.table.board
        x0, y0, x1, y1 = map_extent(board.columns, board.rows)
        x, y = view["center"]  # on the map, whatever the file said
        cam.center_on(min(max(x, x0), x1), min(max(y, y0), y1), m.width, m.height, m.left)
        cam.oy += m.top
        self._resumed_selection = (view["viewer"], view["selected"])
        if view["viewer"] is not None and view["viewer"] == self.viewer:  # its seat, no handover
            own = self.map.unit(view["selected"])  # (against the computer)
            if own is not None and own["side"] == self.viewer:
                self.map.state.selected = own["id"]
                self._resumed_selection = (None, None)

    def may_close(self) -> bool:
        """Every action is autosaved, so closing loses nothing; unless the last save failed
        (a full disk): then ask first, with the reason (Save as elsewhere, or close)."""
        return self.dialogs.may_close()

    def leave(self) -> None:
        for w in self.widgets:
            w.kill()
        self.widgets = []
        self.buttons = {}
        self.log_box = None
        self.dialogs.close()

    # --- input --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if self.over_pending and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.over_pending = False
            self.app.go(Push(GameOver(self)))
            return
        if self.lesson is not None and self.lesson.key(event):
            return
        if self.computer_acts() and event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self._computer_at = 0.0  # Space: the computer's next action now
            return
        if event.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED:  # a word of the log: its meaning
            self.tip = (self.map.state.mouse, words_of(str(event.link_target)))
            return
        tip = self.tip
        left = tip is not None and event.type == pygame.MOUSEMOTION and _far(event.pos, tip[0])
        if event.type == pygame.MOUSEBUTTONDOWN or left:
            self.tip = None
        if event.type == pygame.MOUSEMOTION:
            self.map.state.mouse = event.pos
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

    # --- the computer opponent -------------------------------------------------------------

    def computer_acts(self) -> bool:
        """Whether the computer is the one to act now (its phase, or its Defensive First Fire
        chance during the human's move)."""
        return self.computer is not None and not self.over_pending and self.session.computer_acts()

    def animating(self) -> bool:
        """The computer's turn needs frames with no event (the window otherwise sleeps until
        the mouse moves: its turn stalled)."""
        return self.computer_acts()

    def update(self, dt: float) -> None:
        """The computer's turn, an action at a time: each shown for a moment (the log, the
        dice, the banner), a "thinking" line while it decides, Space to hurry it."""
        del dt
        if not self.computer_acts() or time.monotonic() < self._computer_at:
            return
        computer = self.computer
        assert computer is not None
        quiet = self._computer_dff()  # its DFF chance: no pause, no line (RD-11)
        if not self._thinking and not quiet:  # a frame that says so first: it may take a moment
            self._thinking = True
            self.map.state.message = f"The computer ({computer.title()}) is thinking..."
            return
        self._thinking = False
        move = self.session.computer_move(self.viewer)
        if move.note is not None:
            self.log.append(note_html(move.note))
            self._append_log(self.log[-1:])
        self._shown(move.events, move.action)
        if not self.map.state.message and not quiet:
            self.map.state.message = move.note or f"{computer.title()} (computer) plays"
        self._computer_at = time.monotonic() + self.computer_pause

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

    def placeable(self) -> set[str]:
        """Own units the side at the screen may still place (HX-12)."""
        return set(self.table.placeable())

    def unplaced(self) -> list[str]:
        """The units the side setting up may place and has not touched yet (HX-12): no
        placement, turn, concealment or Bore Sight of theirs. They stand where the scenario
        set them, which is a legal place: their counters are ringed and End Phase says how many
        are unmoved (it said "to place", which a newcomer read as a duty, and it kept counting
        a unit concealed where it stood)."""
        if self.viewer != self.table.to_act:
            return []
        placed = {
            r["action"].get("unit")
            for r in self.session.saved_actions
            if r["action"].get("type") in ("place", "conceal", "bore_sight")
        }
        return sorted(u for u in self.placeable() if u not in placed)

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

    def _draw_unplaced(self, surface: pygame.Surface, r: dict[str, pygame.Rect]) -> None:
        """In the set-up: a ring on each unit still to place, and the count on End Phase."""
        button = self.buttons.get("end_phase")
        left = self.unplaced() if self.map.setting_up() else []
        text = f"End Phase: {len(left)} unmoved" if left else "End Phase (e)"
        if button is not None and button.text != text:
            button.set_text(text)
        if not left:
            return
        cam, z = self.map.camera, self.map.camera.zoom
        surface.set_clip(r["map"])
        for unit_id in left:
            unit = self.map.unit(unit_id)
            if unit is not None:
                x, y = cam.hex_to_screen(self.table.board.parse(unit["hex"]))
                pygame.draw.circle(surface, (110, 210, 110), (int(x), int(y)), int(z * 0.85), 2)
        surface.set_clip(None)

    def draw(self, surface: pygame.Surface) -> None:
        r = self.rects()
        frame.draw_map_screen(self.map, surface, r)
        frame.draw_side(self.map, surface, r["side"], self.title)  # (clears the rule spots)
        frame.draw_bar(self.map, surface, r["bar"])
        self._draw_unplaced(surface, r)
        if self.lesson is not None:
            self.lesson.watch()
            self.lesson.draw(surface, r)
        if self.tip is not None:  # a word of the log clicked
            parts.draw_tip(surface, self.tip[0], self.tip[1])
        else:
            parts.draw_rule_tip(surface, self.map.state.mouse)  # a rule id hovered: its words


def _far(pos: tuple[int, int], at: tuple[int, int]) -> bool:
    """The mouse has left a clicked word's tip (it stays while the mouse is near)."""
    return abs(pos[0] - at[0]) > 60 or abs(pos[1] - at[1]) > 30
