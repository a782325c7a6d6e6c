"""The play screen's log (a part of :class:`game.ui.play.screen.PlayScene`): each event as the
side at the screen may read it, HX-15's lines for the phases that passed by themselves, the box
kept in step by appending (setting its whole text cost 80 ms an action), and the last shot's
line kept in view."""

from __future__ import annotations

from dataclasses import replace

import pygame_gui

from game.engine.events import Event
from game.session import Session, Table
from game.ui.lessons.card import LessonCard
from game.ui.map.view import MapView
from game.ui.panel.links import linked
from game.ui.panel.log import event_html, note_html
from game.ui.scenes.stack import App

EMPTY_LOG = (
    "<font color='#9a9a9a'>The log: every move, every die roll and the rule behind each result "
    "appears here.</font>"
)
LOG_KEEP = 400
LOG_SHOWN = 120
LOG_ROWS = 6
"""The log lines the box shows at once (about: a long line wraps)."""


class LogPane:
    """The log's part of the play screen (its state is set up by the screen)."""

    app: App
    map: MapView
    session: Session

    def _seen(self) -> Table:
        """The side at the screen's table."""
        return self.session.table(self.map.state.viewer)

    lesson: LessonCard | None
    log: list[str]
    log_box: pygame_gui.elements.UITextBox | None
    quiet: set[int]
    passed: dict[int, str]
    _shot_line: str | None
    _box_lines: list[str]
    _log_lines: int

    def pass_idle_phases(self) -> None:
        """HX-15: while the side to act can do nothing but end its phase, the phase ends by
        itself (through the autosave, like a press of End Phase); one log line names the
        phases passed (their own phase lines left out of the log but the last), and a shot
        just fired stays on the map. The preference ``auto_pass`` turns it off."""
        if not self.app.prefs.auto_pass:
            return
        state = self.map.state
        fresh = state.banner is not None and state.banner.at == self.session.version
        first = self._seen().event_count()
        passed, _ = self.session.pass_idle_phases()
        if not passed:
            return
        new = self._seen().events()[first:]
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
        seen = event.seen_by(
            self.map.state.viewer
        )  # what this side may read (its view's are already)
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
        history = self._seen().events()
        for k in [k for k in self.passed if k >= len(history)]:  # undone
            del self.passed[k]
        self.quiet = {i for i in self.quiet if i < len(history)}
        for i, event in enumerate(history):
            if i in self.passed:
                self.log.append(note_html(self.passed[i]))
            if i not in self.quiet:
                self._log_event(event)
        self._refresh_log()
