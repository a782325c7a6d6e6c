"""The "While you are away" dialog of a seat on a server (issue 40; docs/online.md): the seat's
standing order for its Defensive First Fire chances while its window is closed (C6.17): always
ask me, pass, fire at a kill chance of at least N% (N from 1 to 99, typed or stepped by -/+),
or fire at Case J1 or better. The order is the server's to keep and apply; its own side only
sees it. The dialog only picks one: :meth:`AwayDialog.event` says which (the screen sends it)."""

from __future__ import annotations

import pygame
import pygame_gui

from game.net.wire import DffOrder

LOWEST, HIGHEST = 1, 99
"""The kill chances the dialog takes (percent)."""
STEP = 5
"""What - and + add or take (a typed number is any of LOWEST..HIGHEST)."""
SIZE = (400, 292)
"""The dialog's size: it fits the smallest window (960 x 640)."""


class PercentError(ValueError):
    """A kill chance typed that is not a whole number from 1 to 99 (one line)."""


def away_words(order: DffOrder) -> str:
    """An order as the bar's button says it."""
    if order.policy == "kill":
        return f"fire at {order.percent}%+ kill"
    return {"ask": "ask me", "pass": "pass", "case_j1": "fire at J1+"}[order.policy]


def short_words(order: DffOrder) -> str:
    """An order in a narrow window's bar."""
    if order.policy == "kill":
        return f"{order.percent}%+"
    return {"ask": "ask", "pass": "pass", "case_j1": "J1+"}[order.policy]


def parse_percent(text: str) -> int:
    """A kill chance as typed: a whole number from 1 to 99 (a trailing % allowed)."""
    words = text.strip().removesuffix("%").strip()
    if not words.isdigit() or not LOWEST <= int(words) <= HIGHEST:
        shown = text.strip()[:12] or "nothing"
        raise PercentError(
            f"a kill chance is a whole number from {LOWEST} to {HIGHEST}, not {shown}"
        )
    return int(words)


def stepped(percent: int, step: int) -> int:
    """``percent`` moved by ``step`` and kept within LOWEST..HIGHEST."""
    return max(LOWEST, min(HIGHEST, percent + step))


class AwayDialog:
    """The dialog's widgets over the play screen (``ui``: its manager, ``size``: the window's),
    opened on the seat's current order."""

    def __init__(self, ui, size: tuple[int, int], order: DffOrder) -> None:
        w, h = SIZE
        rect = pygame.Rect((size[0] - w) // 2, max(10, (size[1] - h) // 3), w, h)
        self.window = pygame_gui.elements.UIWindow(
            rect, ui, window_display_title="While you are away", resizable=False
        )
        inner = self.window.get_container().get_rect().width - 20
        c = {"manager": ui, "container": self.window}
        half = (inner - 10) // 2

        def at(x: int, y: int, width: int, height: int = 32) -> pygame.Rect:
            return pygame.Rect(10 + x, y, width, height)

        self.now = pygame_gui.elements.UILabel(at(0, 6, inner, 24), self._now(order), **c)
        pygame_gui.elements.UILabel(
            at(0, 30, inner, 22), "Your Defensive First Fire chances (C6.17):", **c
        )
        self.ask = pygame_gui.elements.UIButton(
            at(0, 58, half),
            "Always ask me",
            tool_tip_text="The mover waits until you come back and decide",
            **c,
        )
        self.passing = pygame_gui.elements.UIButton(
            at(half + 10, 58, half), "Pass", tool_tip_text="Never fire while away", **c
        )
        pygame_gui.elements.UILabel(at(0, 98, inner, 22), "Fire at a kill chance of at least:", **c)
        percent = order.percent if order.policy == "kill" else 50
        self.minus = pygame_gui.elements.UIButton(
            at(0, 124, 36), "-", tool_tip_text=f"{STEP} less", **c
        )
        self.entry = pygame_gui.elements.UITextEntryLine(at(42, 124, 56), **c)
        self.entry.set_text(str(min(HIGHEST, percent)))
        self.entry.set_text_length_limit(3)
        self.plus = pygame_gui.elements.UIButton(
            at(104, 124, 36), "+", tool_tip_text=f"{STEP} more", **c
        )
        pygame_gui.elements.UILabel(at(142, 124, 24), "%", **c)
        self.fire = pygame_gui.elements.UIButton(
            at(172, 124, inner - 172),
            "Fire at this chance",
            tool_tip_text="Fire with the best shot when its kill chance is at least this "
            f"({LOWEST}-{HIGHEST}%; Enter in the box sets it too)",
            **c,
        )
        self.j1 = pygame_gui.elements.UIButton(
            at(0, 166, inner),
            "Fire at Case J1 or better",
            tool_tip_text="Fire when the best shot has Case J1 or better (C6.11)",
            **c,
        )
        self.problem = pygame_gui.elements.UILabel(at(0, 204, inner, 22), " ", **c)
        self.close_button = pygame_gui.elements.UIButton(at(0, 228, half), "Close", **c)

    @staticmethod
    def _now(order: DffOrder) -> str:
        return f"Now: {away_words(order)}"

    def showing(self, order: DffOrder) -> None:
        """The order the server keeps now."""
        self.now.set_text(self._now(order))

    def say(self, text: str) -> None:
        self.problem.set_text(text or " ")

    def alive(self) -> bool:
        return self.window.alive()

    def kill(self) -> None:
        self.window.kill()

    def typing(self) -> bool:
        return bool(self.entry.is_focused)

    def event(self, event: pygame.event.Event) -> DffOrder | str | None:
        """An event of the dialog: the order picked, "close", "taken" (its own: nothing to
        send), or None (not the dialog's)."""
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.window:
            return "close"
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            return self._kill_order()
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return "close"
        if event.type == pygame.KEYDOWN and self.typing():  # digits are not the map's keys
            return "taken"
        clicks = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
        if event.type in clicks and self.window.rect.collidepoint(event.pos):
            return "taken"  # a click on the dialog is not the map's
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return None
        element = event.ui_element
        if element is self.ask:
            return DffOrder(policy="ask")
        if element is self.passing:
            return DffOrder(policy="pass")
        if element is self.j1:
            return DffOrder(policy="case_j1")
        if element is self.fire:
            return self._kill_order()
        if element in (self.minus, self.plus):
            try:
                now = parse_percent(self.entry.get_text())
            except PercentError:
                now = 50
            self.entry.set_text(str(stepped(now, STEP if element is self.plus else -STEP)))
            self.say("")
            return "taken"
        if element is self.close_button:
            return "close"
        return None

    def _kill_order(self) -> DffOrder | str:
        try:
            percent = parse_percent(self.entry.get_text())
        except PercentError as e:
            self.say(str(e))
            return "taken"
        return DffOrder(policy="kill", percent=percent)
