"""A lesson on the play screen: the card over the map with the step's words, the ring and
arrow at what it points to, and the check that the step is done (an action the engine applied,
a unit selected, a line of sight traced, or Space). Progress is kept in the preferences, by
scenario id; Esc (with nothing selected) leaves the lesson for the start screen."""

from __future__ import annotations

import math
import time

import pygame

from game.board.hexes import label
from game.engine.actions import Action, action_from_json
from game.engine.phases import PHASES
from game.files.lesson import POINTS, Lesson, Step
from game.ui.map.host import PlayHost
from game.ui.map.render import FONTS
from game.ui.panel.parts import wrap
from game.ui.style import style


class LessonCard:
    """The lesson of the game on the play screen, step by step."""

    def __init__(self, play: PlayHost, lesson: Lesson, lesson_id: str):
        self.play = play
        self.lesson = lesson
        self.id = lesson_id
        records = getattr(play.session, "saved", None)
        actions = [action_from_json(r["action"]) for r in records.actions] if records else []
        self.at = lesson.reached(actions)
        self.said = ""
        """The words of the step just done (why it came out so), shown above the next."""
        self._advanced_at = -1  # the action count of the last step done (several at once join)
        self.arrived = False
        """A ``phase`` step whose phase came by itself (HX-15) before the learner did anything:
        its words are shown, and Space goes on (it was passed through unseen: lesson 1's step
        counter went from 6 to 8, lesson 6's step on not turning the gun never showed)."""
        self._acted = False  # the learner applied an action while this step was shown
        self.card = pygame.Rect(0, 0, 0, 0)
        self.next_button = pygame.Rect(0, 0, 0, 0)
        self.shown: list[str] = []
        """The card's rows drawn last frame (those that fitted)."""

    # --- the steps --------------------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        return self.lesson.steps[self.at] if self.at < len(self.lesson.steps) else None

    @property
    def finished(self) -> bool:
        return self.at >= len(self.lesson.steps)

    def advance(self) -> None:
        """The step is done: its "why" is said, the next step shown, the progress kept."""
        step = self.step
        if step is None:
            return
        chained = self._advanced_at == self.play.session.version and self.said
        self.said = f"{self.said} {step.why}".strip() if chained else step.why
        self._advanced_at = self.play.session.version
        self.at += 1
        self.arrived = self._acted = False
        prefs = self.play.app.prefs
        steps = self.lesson.steps
        reached = self.at
        if self.at == len(steps) - 1 and steps[-1].kind == "read":
            reached = len(steps)  # its last words shown: the lesson is done
        if reached > prefs.lessons.get(self.id, 0):
            prefs.lessons[self.id] = reached
            why = prefs.try_save()  # a full or read-only folder: this session remembers
            if why is not None:
                self.play.map.state.message = f"lesson progress not saved: {why}"

    def applied(self, action: Action) -> None:
        """An action the engine applied: the step waiting for it is done. A Defensive First
        Fire decision awaited (fire, or let the mover go on) is done by either choice, the
        card saying which was made (the lesson goes on from there)."""
        step = self.step
        if step is None:
            return
        self._acted = True
        if step.done_by(action):
            self.advance()
            return
        awaited = dict(step.do).get("type")
        if awaited in ("pass", "fire") and action.type in ("pass", "fire") and self._dff(step):
            self.advance()
            chose = "fired" if action.type == "fire" else "held fire"
            self.said = f"You {chose} instead; that is your call to make. {self.said}"

    def _dff(self, step: Step) -> bool:
        """Whether ``step`` awaits a Defensive First Fire decision (a pass, or a shot at the
        mover), rather than a shot of a fire phase."""
        kind = dict(step.do).get("type")
        return kind == "pass" or (kind == "fire" and self.play.table.phase == "movement")

    @property
    def reading(self) -> bool:
        """The step shown waits for Space (or Next): one that only explains, or a phase step
        whose phase came by itself."""
        step = self.step
        return step is not None and (step.kind == "read" or self.arrived)

    def watch(self) -> None:
        """The steps that wait for the screen: a unit selected, a line of sight traced, an
        overlay shown, a phase reached."""
        step = self.step
        if step is None:
            return
        state = self.play.map.state
        gone = [
            u
            for key, u in step.do
            if key in ("unit", "target") and isinstance(u, str) and not self._in_play(u)
        ]
        if step.select and not self._in_play(step.select):
            gone.append(step.select)
        if gone:  # the dice took the unit the step is about: the step cannot be done
            self.advance()
            self.said = "The unit it was about is out of play, so that step was skipped."
            return
        table = self.play.table
        if step.kind == "phase" and table.over:  # the dice ended the game before that phase
            self.advance()
            self.said = "The game ended before that phase, so that step was skipped."
            self.watch()
            return
        if (
            step.kind == "phase"
            and table.phase == step.phase
            and not (table.dff_pending or table.waiting_for_dff)
        ):
            if step.side is None or table.to_act == step.side:
                if self._acted:
                    self.advance()
                else:  # it came by itself: shown, until Space
                    self.arrived = True
        elif step.kind == "select" and state.selected == step.select:
            self.advance()
        elif step.kind == "show" and self.play.map.analysis.overlay == step.show:
            if step.select is None or state.selected == step.select:
                self.advance()
        elif step.kind == "look":
            thread = self.play.map.analysis.thread
            ends = {label(thread.firer), label(thread.target)} if thread is not None else set()
            if step.look is not None and ends == set(step.look):
                self.advance()

    def _in_play(self, unit_id: str) -> bool:
        """Whether the unit is in play: a lesson's one learner plays both sides, so it is
        asked of the view of both (a side's own units are hidden from the other while it sets
        up, HX-12)."""
        return self.play.session.table(None).unit(unit_id) is not None

    def key(self, event: pygame.event.Event) -> bool:
        """Space (or a click on the card) goes on from a step that only explains; Esc with
        nothing selected leaves the lesson. True when the card took the event."""
        step = self.step
        reading = self.reading
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE and reading:
            self.advance()
            return True
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            and self.next_button.collidepoint(event.pos)
            and step is not None
        ):  # Next, or Skip for a step that waits (the rest of the card lets a click through)
            skipped = not reading
            self.advance()
            if skipped:
                self.said = "(skipped)"
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.may_leave():
            self.play.orders.command("start_screen")
            return True
        return False

    def may_leave(self) -> bool:
        """Esc leaves the lesson: at once when it is done, else once nothing is selected or
        traced (Esc clears those first)."""
        if self.play.dialogs.open:
            return False
        return self.finished or self.escapes() == 1

    def escapes(self) -> int:
        """How many presses of Esc leave the lesson now: one clears the LOS thread and the
        overlays, one the selection, then one leaves (the card said "Esc twice" when three
        were needed)."""
        if self.finished:
            return 1
        analysis = self.play.map.analysis
        busy = analysis.thread is not None or analysis.overlay is not None or analysis.armed
        return 1 + busy + (self.play.map.state.selected is not None)

    # --- drawing ----------------------------------------------------------------------------

    def target(self, rects: dict[str, pygame.Rect]) -> pygame.Rect | None:
        """The screen rectangle the step points at (a hex's, a button's, a panel's)."""
        step = self.step
        point = step.point if step is not None else None
        if point is None:
            return None
        if point in POINTS:
            button = self.play.buttons.get(point)
            if button is not None:
                return pygame.Rect(button.rect)
            return rects.get(point)
        m = self.play.map
        try:
            sx, sy = m.camera.hex_to_screen(m.table.board.parse(point))
        except ValueError:
            return None
        size = max(16, int(m.camera.zoom * 0.9))
        return pygame.Rect(int(sx) - size, int(sy) - size, 2 * size, 2 * size)

    def lines(self) -> list[tuple[str, str]]:
        """The card's lines: (colour name, text)."""
        n, total = min(self.at + 1, len(self.lesson.steps)), len(self.lesson.steps)
        out: list[tuple[str, str]] = []
        step = self.step
        if step is None:  # one line in a thin strip: the map has the room back
            done = f"Lesson {self.lesson.number} complete."
            out.append(("select", f"{done} Esc: the start screen, which marks the lessons done."))
            if self.said:
                out.append(("good", f"Done. {self.said}"))
            return out
        out.append(("select", f"Lesson {self.lesson.number}, step {n} of {total}"))
        out.append(("text", step.say))
        title = PHASES[step.phase].title if step.phase in PHASES else ""
        follow = {
            "read": "Space or Next to go on.",
            "do": "Do it on the map; the lesson goes on when the game has done it.",
            "select": "Click the unit to select it.",
            "look": "Press l, then drag from the first hex to the second.",
            "show": "Press the key; the lesson goes on when the map shows it.",
            "phase": "The lesson goes on when the game reaches the "
            f"{title}{' of the ' + step.side.title() if step.side else ''}.",
        }[step.kind]
        if self.arrived:
            follow = "It is here (the phases between passed by themselves): Space or Next."
        n_esc = self.escapes()
        times = {1: "Esc", 2: "Esc twice", 3: "Esc three times"}[min(3, n_esc)]
        leave = f"{times}: leave the lesson."
        out.append(("dim", f"{follow}  {leave}"))
        if self.said:  # under the step: words of several steps done at once ran to five lines
            # and pushed the step's own words off the card
            out.append(("good", f"Done. {self.said}"))
        return out

    def draw(self, surface: pygame.Surface, rects: dict[str, pygame.Rect]) -> None:
        """The card in its strip over the map (its words, Next or Skip), the ring at what the
        step points to, and an arrow to a hex."""
        st = style()
        font, bold = FONTS.get(17), FONTS.get(17, bold=True)
        self.card = rects["lesson"].inflate(-12, -8)
        width = self.card.width - 24 - 104  # the button's column on the right
        rows: list[tuple[str, str, bool]] = []
        for colour, text in self.lines():
            f = bold if colour == "select" else font
            rows += [(colour, part, colour == "select") for part in wrap(text, f, width, "")]
        pygame.draw.rect(surface, (20, 24, 30), self.card, border_radius=6)
        pygame.draw.rect(surface, st.ui["select"], self.card, 2, border_radius=6)
        line_h = min(20, max(14, (self.card.height - 12) // max(1, len(rows))))
        y = self.card.top + 6
        self.shown = []
        for colour, text, strong in rows:
            if y + line_h > self.card.bottom - 2:
                break  # the card cuts from the bottom: what was done comes last
            f = bold if strong else font
            surface.blit(f.render(text, True, st.ui[colour]), (self.card.left + 12, y))
            self.shown.append(text)
            y += line_h
        step = self.step
        if step is not None:
            reading = self.reading
            self.next_button = pygame.Rect(self.card.right - 100, self.card.bottom - 34, 90, 26)
            fill = st.ui["select"] if reading else (70, 76, 84)
            pygame.draw.rect(surface, fill, self.next_button, border_radius=5)
            ink = (20, 24, 30) if reading else st.ui["text"]
            t = bold.render("Next >" if reading else "Skip step", True, ink)
            surface.blit(t, t.get_rect(center=self.next_button.center))
        else:
            self.next_button = pygame.Rect(0, 0, 0, 0)
        aim = self.target(rects)
        if aim is not None:
            pulse = 3 + int(2 * (1 + math.sin(time.monotonic() * 6)))
            pygame.draw.rect(surface, st.ui["select"], aim.inflate(8, 8), pulse, border_radius=8)
            if (
                step is not None
                and step.point not in POINTS
                and rects["map"].collidepoint(aim.center)
            ):  # a hex in view: the arrow from the card to it
                start = _nearest_edge(self.card, aim.center)
                end = _nearest_edge(aim.inflate(8, 8), start)
                pygame.draw.line(surface, st.ui["select"], start, end, 3)


def _nearest_edge(rect: pygame.Rect, point: tuple[int, int]) -> tuple[int, int]:
    """The point of ``rect``'s border nearest ``point`` (the arrow starts there)."""
    x = min(max(point[0], rect.left), rect.right)
    y = min(max(point[1], rect.top), rect.bottom)
    return x, y
