"""The replay viewer (``hexfire watch SAVE``): a saved game on the map, action by action. Right /
Left step one action, PageDown / PageUp jump to the next / previous player turn (and the turn
list on the side), Home / End, Space plays and pauses, + / - change the speed; the log follows
and marks the current action. Both sides are shown (it is a replay); Tab cycles one side's view.
A save that does not verify opens up to its last good action, with the reason on screen."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from game.engine import Game, IllegalAction
from game.engine.actions import Action, action_from_json
from game.engine.events import Event
from game.files.savegame import SavedGame, save
from game.files.timeline import Timeline

from .bindings import action_for
from .buttonbar import SHORT_BELOW, button_row
from .eventlog import event_html
from .mapinput import MAP_ACTIONS
from .maprender import FONTS
from .panels import TextBlock
from .play import PlayScene
from .routes import Help, Pop, Push
from .style import style

SPEEDS = (0.5, 1, 2, 4, 8, 16)
"""Actions per second when playing."""


class _ReplaySession:
    """What the play screen needs of a session, for a replay: nothing is played or saved."""

    path: Path | None = None

    def __init__(self, game: Game, saved: SavedGame):
        self.game = game
        self.saved = saved

    def apply(self, action: Action) -> list[Event]:
        raise IllegalAction("replay", "this is a replay: nothing can be played here")

    def undo(self) -> str | None:
        return "this is a replay"

    def save_as(self, path: str | Path) -> None:
        save(self.saved, path)


class WatchScene(PlayScene):
    """The play screen's map and panels over a :class:`Timeline`, with the replay controls."""

    bindings_screen = "replay"

    overview = False  # the side panel's foot holds the list of player turns

    def __init__(self, timeline: Timeline, title: str, at: int | None = None):
        self.timeline = timeline
        self.at = timeline.length if at is None else max(0, min(at, timeline.length))
        super().__init__(_ReplaySession(timeline.game_at(self.at), timeline.saved), title)
        self.viewer = None
        self.sides: list[str | None] = [None, *timeline.game_at(0).setup.sides]
        self.playing = False
        self.speed = 2
        self.clock = 0.0
        self.turn_list: pygame_gui.elements.UISelectionList | None = None

    # --- position -----------------------------------------------------------------------

    def seek(self, n: int) -> None:
        n = max(0, min(n, self.timeline.length))
        if n == self.at:
            return
        if n == self.at + 1:
            game = self.session.game
            game.apply(_action(self.timeline, self.at))
        else:
            self.session.game = self.timeline.game_at(n)
        self.at = n
        self._view_key = self._legal_key = self._odds_key = None
        self.renderer.board = self.session.game.board
        self.renderer.invalidate()
        self.last_shot = None
        self._refresh_log()
        self.mark_turn()

    def current_turn(self) -> int | None:
        """The index in the turn list of the player turn the action shown belongs to."""
        starts = [i for i, (s, _, _) in enumerate(self.timeline.turn_starts) if s <= self.at]
        return starts[-1] if starts else None

    def mark_turn(self) -> None:
        """Highlight the player turn shown in the turn list (a click's highlight stayed on
        the turn clicked while the replay stepped on)."""
        if self.turn_list is None:
            return
        now = self.current_turn()
        for i, item in enumerate(self.turn_list.item_list):
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

    def view(self) -> list[dict]:
        key = (self.at, self.viewer)
        if key != self._view_key:
            self._view_key = key
            self._view = self.game.view(self.viewer)
        return self._view

    def after_change(self) -> None:
        """A replay asks nobody anything: no handover, no prompt."""

    def _refresh_log(self) -> None:
        if self.log_box is None:
            return
        lines = []
        seen_events = [
            (i, seen)
            for i, event in self.timeline.events_until(self.at)
            if (seen := event.seen_by(self.viewer)) is not None  # one side's view: its own
        ]
        for i, event in seen_events[-150:]:
            text = event_html(event)
            if i == self.at - 1:
                text = f"<font color='#ffe66a'>&gt; {text}</font>"
            lines.append(text)
        self.log_box.set_text("<br>".join(lines) or "(the start of the game)")
        if self.log_box.scroll_bar is not None:
            self.log_box.scroll_bar.set_scroll_from_start_percentage(1.0)

    def rebuild_log(self) -> None:
        self._refresh_log()

    def enter(self) -> None:
        super().enter()
        for button in self.buttons.values():  # the play screen's buttons: its own below
            button.kill()
        self.buttons = {}
        ui = self.app.ui
        r = self.rects()
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
        names: list[str | tuple[str, str]] = [
            f"Turn {turn}, {side}: action {start}"
            for start, turn, side in self.timeline.turn_starts
        ]
        side = r["side"]
        self.turn_list = pygame_gui.elements.UISelectionList(
            pygame.Rect(side.left + 8, side.bottom - 250, side.width - 16, 240), names, ui
        )
        self.widgets = [*self.buttons.values(), self.log_box, self.turn_list]
        self._refresh_log()
        self.mark_turn()

    def leave(self) -> None:
        super().leave()
        if self.turn_list is not None:
            self.turn_list.kill()
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
            self.map_input.do(key)
        elif key == "labels":
            self.orders.toggle_labels()
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
        elif key == "side":
            i = self.sides.index(self.viewer)
            self.viewer = self.sides[(i + 1) % len(self.sides)]
            self._view_key = None
        elif key == "help":
            self.app.go(Push(Help(self)))

    def do(self, action: str) -> None:
        self.command(action)

    def handle(self, event: pygame.event.Event) -> None:
        if self.map_input.analysis_event(event):
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
            names = [
                f"Turn {turn}, {side}: action {start}"
                for start, turn, side in self.timeline.turn_starts
            ]
            if event.text in names:
                self.seek(self.timeline.turn_starts[names.index(event.text)][0])
            return
        if event.type == pygame.KEYDOWN:
            action = action_for(event, "replay")
            if action is not None:
                self.do(action)
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hx = self.hex_at(event.pos)
            here = [u for u in self.view() if u["hex"] == hx] if hx else []
            self.selected = here[0]["id"] if here else None
            return
        super().handle(event)

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
        if not self.playing:
            return
        self.clock += dt
        step = 1.0 / SPEEDS[self.speed]
        while self.clock >= step and self.playing:
            self.clock -= step
            if self.at >= self.timeline.length:
                self.playing = False
                self.show_play_state()
            else:
                self.seek(self.at + 1)
        self.app.dirty = True

    def draw_bar(self, surface: pygame.Surface, bar: pygame.Rect) -> None:
        st = style()
        game = self.game
        pygame.draw.rect(surface, st.ui["panel"], bar)
        where = f"Replay: action {self.at} of {self.timeline.length}"
        turn = (
            f"turn {game.turn}, {game.phasing}"
            if game.phase not in ("setup", "setup_attacker")
            else "set-up"
        )
        who = "both sides" if self.viewer is None else f"{self.viewer}'s view"
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
        super().draw_side(surface, side)
        st = style()
        block = TextBlock(
            surface, pygame.Rect(side.left + 8, side.bottom - 290, side.width - 16, 40), 16
        )
        block.line("Player turns (click to jump):", st.ui["select"], bold=True)


def _action(timeline: Timeline, i: int) -> Action:
    return action_from_json(timeline.saved.actions[i]["action"])
