"""The replay viewer (``hexfire watch SAVE``): a saved game on the map, action by action. Right /
Left step one action, PageDown / PageUp jump to the next / previous player turn (and the turn
list on the side), Home / End, Space plays and pauses, + / - change the speed; the log follows
and marks the current action. Both sides are shown (it is a replay); Tab cycles one side's view.
A save that does not verify opens up to its last good action, with the reason on screen."""

from __future__ import annotations

import bisect

import pygame
import pygame_gui

from game.engine.actions import Action, action_from_json
from game.engine.events import Event
from game.files.timeline import Timeline
from game.session import Snapshot
from game.ui.bindings import action_for
from game.ui.map.input import MAP_ACTIONS
from game.ui.map.layout import screen_rects
from game.ui.map.render import FONTS
from game.ui.map.view import MapView
from game.ui.map.viewstate import shot_banner
from game.ui.panel import frame
from game.ui.panel.buttons import SHORT_BELOW, button_row
from game.ui.panel.log import event_html
from game.ui.panel.parts import TextBlock
from game.ui.scenes.routes import Help, Pop, Push
from game.ui.scenes.stack import Scene
from game.ui.style import style

SPEEDS = (0.5, 1, 2, 4, 8, 16)
"""Actions per second when playing."""
STEPS_PER_FRAME = 4
"""The most actions Play steps in one frame; a slower machine plays slower rather than
catching up (each frame's catching up made the next one longer: frames of 1.2, 4.3, 13.7 s)."""
LOG_LINES = 150
"""The log lines shown: those of the actions before the one shown, the newest last."""
LOG_LOOKBACK = 2_000
"""The most actions the log looks back through for them (one side's view of a long stretch
it saw nothing of: the log then starts there), so a step costs the same at any action."""
LOG_EVERY_S = 0.25
"""While playing, the log is written again at most this often (it takes a frame's time)."""


class WatchScene(Scene):
    """A controller over the one map view (:class:`game.ui.map.view.MapView`) for a
    :class:`Timeline`: the replay controls, the turn list and a log that marks the current
    action."""

    bindings_screen = "replay"
    """The screen of data/bindings.toml whose keys this screen reads (and its help shows)."""

    def __init__(self, timeline: Timeline, title: str, at: int | None = None):
        self.timeline = timeline
        self.title = title
        self.at = timeline.length if at is None else max(0, min(at, timeline.length))
        self.snapshot = Snapshot(timeline.game_at(self.at))
        """The position shown, looked at through each side's table (never read whole)."""
        self.map = MapView(lambda: self.snapshot, shows_all=True)  # both sides, or Tab: one
        self.sides: list[str | None] = [None, *self.snapshot.table(None).sides]
        if timeline.only is not None:  # a game against the computer not over: its secrets
            self.sides = [timeline.only]  # stay its own (RD-11), the player's view alone
            self.map.state.viewer = timeline.only
        self.playing = False
        self.speed = 2
        self.clock = 0.0
        self.widgets: list = []
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.log_box: pygame_gui.elements.UITextBox | None = None
        self.turn_list: pygame_gui.elements.UISelectionList | None = None
        self._turn_at = [start for start, _, _ in timeline.turn_starts]
        self._marked: int | None = -1
        """The turn the turn list shows marked (-1: none yet)."""
        self._log_stale = False
        """The action shown changed since the log was written (it is written once a frame)."""
        self._log_age = 0.0

    @property
    def viewer(self) -> str | None:
        """The side whose view is shown (None: both sides)."""
        return self.map.state.viewer

    # --- position -----------------------------------------------------------------------

    def seek(self, n: int) -> None:
        """Show the game after action ``n``: one step forward applies it (its shot's banner
        shown), any other jump takes the timeline's state at ``n``."""
        n = max(0, min(n, self.timeline.length))
        if n == self.at:
            return
        state = self.map.state
        state.banner = None
        if n == self.at + 1:
            events = self.snapshot.step(_action(self.timeline, self.at))
            knows = self.map.knows()
            for event in events:
                seen = event.seen_by(state.viewer)
                banner = shot_banner(seen, knows, knows.version) if seen else None
                if banner is not None:
                    state.banner = banner
        else:
            self.snapshot = Snapshot(self.timeline.game_at(n))
        self.at = n
        self.map.refresh()
        if self.map.unit(state.selected) is None:
            state.selected = None
        self._log_stale = True  # the log follows once a frame (Play steps several actions
        # in one; writing the log costs as much as a frame)
        self.mark_turn()

    def current_turn(self) -> int | None:
        """The index in the turn list of the player turn the action shown belongs to."""
        k = bisect.bisect_right(self._turn_at, self.at)
        return k - 1 if k else None

    def mark_turn(self) -> None:
        """Highlight the player turn shown in the turn list (a click's highlight stayed on
        the turn clicked while the replay stepped on)."""
        if self.turn_list is None:
            return
        now = self.current_turn()
        if now == self._marked:
            return
        self._marked = now
        items = self.turn_list.item_list
        bar = self.turn_list.scroll_bar
        if bar is not None and now is not None and len(items) > 1:  # the turn shown in view
            bar.set_scroll_from_start_percentage(now / (len(items) - 1))
            self.turn_list.update(0.0)  # its buttons follow the scroll now
        for i, item in enumerate(items):
            item["selected"] = i == now
            button = item.get("button_element")
            if button is not None:
                button.select() if i == now else button.unselect()

    def jump_turn(self, step: int) -> None:
        starts = [s for s, _, _ in self.timeline.turn_starts]
        if step > 0:
            later = [s for s in starts if s > self.at]
            self.seek(later[0] if later else self.timeline.length)
        else:
            earlier = [s for s in starts if s < self.at]
            self.seek(earlier[-1] if earlier else 0)

    # --- the screen's pieces ----------------------------------------------------------------

    def seen_before(self) -> list[tuple[int, Event]]:
        """(action index, event as the viewer may read it) of the last :data:`LOG_LINES`
        events before the action shown, looked for back through at most
        :data:`LOG_LOOKBACK` actions (every event up to the action was read at each step: the
        steps of a long save grew slower and slower)."""
        found: list[tuple[int, Event]] = []
        events = self.timeline.events
        for i in range(self.at - 1, max(-1, self.at - 1 - LOG_LOOKBACK), -1):
            for event in reversed(events[i]):
                seen = event.seen_by(self.viewer)  # one side's view: its own
                if seen is not None:
                    found.append((i, seen))
            if len(found) >= LOG_LINES:
                break
        return found[:LOG_LINES][::-1]

    def _refresh_log(self) -> None:
        self._log_stale = False
        self._log_age = 0.0
        if self.log_box is None:
            return
        lines = []
        for i, event in self.seen_before():
            text = event_html(event)
            if i == self.at - 1:
                text = f"<font color='#ffe66a'>&gt; {text}</font>"
            lines.append(text)
        self.log_box.set_text("<br>".join(lines) or "(the start of the game)")
        if self.log_box.scroll_bar is not None:
            self.log_box.scroll_bar.set_scroll_from_start_percentage(1.0)

    def rects(self) -> dict[str, pygame.Rect]:
        return screen_rects(self.app.size)

    def turn_names(self) -> list[str]:
        return [
            f"Turn {turn}, {side}: action {start}"
            for start, turn, side in self.timeline.turn_starts
        ]

    def enter(self) -> None:
        ui = self.app.ui
        r = self.rects()
        self.map.rect = r["map"]
        self.map.renderer.show_labels = self.app.prefs.show_labels
        self.map.fit()
        specs = [  # the label, its tooltip, and the short one a narrow window shows
            ("start", "|< Home", "|< Home", "|<"),
            ("prev_turn", "<< PgUp", "<< PgUp", "<<"),
            ("back", "< Left", "< Left", "<"),
            ("play", "Play (Space)", "Play (Space)", "Play"),
            ("forward", "Right >", "Right >", ">"),
            ("next_turn", "PgDn >>", "PgDn >>", ">>"),
            ("end", "End >|", "End >|", ">|"),
            ("side", "View (Tab)", "View (Tab)", "View"),
            ("help", "Help (F1)", "Help (F1)", "Help"),
            ("leave", "Back (Esc)", "Back (Esc)", "Back"),
        ]
        self.buttons = button_row(ui, r["buttons"], specs, 108, 30)
        self.log_box = pygame_gui.elements.UITextBox("", r["log"], ui)
        names: list[str | tuple[str, str]] = list(self.turn_names())
        side = r["side"]
        self.turn_list = pygame_gui.elements.UISelectionList(
            pygame.Rect(side.left + 8, side.bottom - 250, side.width - 16, 240), names, ui
        )
        self.widgets = [*self.buttons.values(), self.log_box, self.turn_list]
        self._marked = -1  # a new list: mark it
        self._refresh_log()
        self.mark_turn()
        self.show_play_state()

    def leave(self) -> None:
        for w in self.widgets:
            w.kill()
        self.widgets = []
        self.buttons = {}
        self.log_box = None
        self.turn_list = None

    def command(self, key: str) -> None:
        """One action of the replay viewer (its keys in data/bindings.toml, its buttons)."""
        if key == "leave":  # back to where the viewer was opened from (or out of the window)
            self.app.go(Pop())
        elif key == "faster":
            self.speed = min(len(SPEEDS) - 1, self.speed + 1)
        elif key == "slower":
            self.speed = max(0, self.speed - 1)
        elif key in MAP_ACTIONS:
            self.map.input.do(key)
        elif key == "labels":
            renderer = self.map.renderer
            renderer.show_labels = not renderer.show_labels
            self.app.prefs.show_labels = renderer.show_labels
        elif key == "start":
            self.seek(0)
        elif key == "end":
            self.seek(self.timeline.length)
        elif key == "back":
            self.seek(self.at - 1)
        elif key == "forward":
            self.seek(self.at + 1)
        elif key == "prev_turn":
            self.jump_turn(-1)
        elif key == "next_turn":
            self.jump_turn(1)
        elif key == "play":
            if not self.playing and self.at >= self.timeline.length:
                self.seek(0)  # at the end, Play plays it again from the start
            self.playing = not self.playing
            self.clock = 0.0
            self.show_play_state()
        elif key == "side":  # the next side's view (what it may know), then both again
            state = self.map.state
            i = self.sides.index(state.viewer)
            state.viewer = self.sides[(i + 1) % len(self.sides)]
            shown = self.map.unit(state.selected)
            if shown is None or shown.get("type") == "?":  # not this side's to know
                state.selected = None
            self._refresh_log()
        elif key == "help":
            self.app.go(Push(Help(self)))

    def handle(self, event: pygame.event.Event) -> None:
        map_input = self.map.input
        if map_input.analysis_event(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.command(key)
            return
        if (
            event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION
            and event.ui_element is self.turn_list
        ):
            names = self.turn_names()
            if event.text in names:
                self.seek(self.timeline.turn_starts[names.index(event.text)][0])
            return
        if event.type == pygame.KEYDOWN:
            action = action_for(event, "replay")
            if action is not None:
                self.command(action)
            return
        if map_input.drag_and_wheel(event):
            return
        if event.type == pygame.MOUSEMOTION:
            self.map.mouse_moved(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hx = self.map.hex_at(event.pos)
            here = [u for u in self.map.units_at(hx) if u.get("type") != "?"] if hx else []
            self.map.state.selected = here[0]["id"] if here else None

    def show_play_state(self) -> None:
        """The Play button says what a click does now: Pause while playing, else Play."""
        button = self.buttons.get("play")
        if button is not None:
            short = button.rect.width + 4 < SHORT_BELOW
            word = "Pause" if self.playing else "Play"
            button.set_text(word if short else f"{word} (Space)")

    def animating(self) -> bool:
        return self.playing

    def update(self, dt: float) -> None:
        self._play(dt)
        self._log_age += dt
        if self._log_stale and (not self.playing or self._log_age >= LOG_EVERY_S):
            self._refresh_log()

    def _play(self, dt: float) -> None:
        """Play: the actions due since the last frame, at most :data:`STEPS_PER_FRAME`."""
        if not self.playing:
            return
        self.clock += dt
        step = 1.0 / SPEEDS[self.speed]
        steps = 0
        while self.clock >= step and self.playing and steps < STEPS_PER_FRAME:
            self.clock -= step
            steps += 1
            if self.at >= self.timeline.length:
                self.playing = False
                self.show_play_state()
            else:
                self.seek(self.at + 1)
        self.clock = min(self.clock, step)  # behind: the rest is dropped, not caught up
        self.app.dirty = True

    def draw(self, surface: pygame.Surface) -> None:
        r = self.rects()
        frame.draw_map_screen(self.map, surface, r)
        self.draw_bar(surface, r["bar"])
        self.draw_side(surface, r["side"])

    def draw_bar(self, surface: pygame.Surface, bar: pygame.Rect) -> None:
        st = style()
        table = self.map.table
        pygame.draw.rect(surface, st.ui["panel"], bar)
        where = f"Replay: action {self.at} of {self.timeline.length}"
        turn = (
            f"turn {table.turn}, {table.phasing}"
            if table.phase not in ("setup", "setup_attacker")
            else "set-up"
        )
        who = "both sides" if self.viewer is None else f"{self.viewer}'s view"
        if self.timeline.only is not None:
            who += " only (not over: the computer's secrets kept)"
        state = f"playing x{SPEEDS[self.speed]:g}/s" if self.playing else "paused"
        t = FONTS.get(22, bold=True).render(
            f"{where}   {turn}   {who}   {state}", True, st.ui["text"]
        )
        surface.blit(t, (10, 6))
        if self.timeline.error:
            t = FONTS.get(17).render(f"Stops here: {self.timeline.error}", True, st.ui["bad"])
        else:
            t = FONTS.get(17).render(
                "Right/Left step, PgUp/PgDn turns, Space play, Tab view", True, st.ui["dim"]
            )
        surface.blit(t, (10, 27), area=pygame.Rect(0, 0, bar.width - 20, 20))

    def draw_side(self, surface: pygame.Surface, side: pygame.Rect) -> None:
        frame.draw_side(  # Tab changes the view here
            self.map,
            surface,
            side,
            self.title,
            overview=False,
            nothing_selected="No unit selected: click one to read it",
        )
        st = style()
        block = TextBlock(
            surface, pygame.Rect(side.left + 8, side.bottom - 290, side.width - 16, 40), 16
        )
        block.line("Player turns (click to jump):", st.ui["select"], bold=True)


def _action(timeline: Timeline, i: int) -> Action:
    return action_from_json(timeline.saved.actions[i]["action"])
