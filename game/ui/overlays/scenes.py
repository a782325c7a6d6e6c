"""Scenes over the play screen: the hotseat handover, the Defensive First Fire prompt, a stack
chooser, the help table, and the end of the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.engine import IllegalAction
from game.engine.actions import Fire, Pass
from game.engine.knowledge import ShotOdds
from game.engine.phases import PHASES
from game.engine.view import UnitRecord
from game.rules.glossary import glossary
from game.session import Table
from game.ui.bindings import help_rows
from game.ui.map.layout import clear_corner
from game.ui.map.render import FONTS
from game.ui.panel.parts import LINE, TextBlock, draw_odds, wrap
from game.ui.scenes.opening import close_sessions, replaying
from game.ui.scenes.routes import DffChance, Push, Quit, Replace, Start
from game.ui.scenes.stack import Scene
from game.ui.style import style

if TYPE_CHECKING:
    from game.ui.play.screen import PlayScene


class Handover(Scene):
    """Covers the map between the sides: "Russian player, click when ready" (hotseat)."""

    def __init__(self, play: PlayScene, side: str, then_dff: bool = False):
        self.play = play
        self.side = side
        self.then_dff = then_dff

    def handle(self, event: pygame.event.Event) -> None:
        if (
            event.type == pygame.MOUSEBUTTONDOWN
            and event.button == 1
            or (
                event.type == pygame.KEYDOWN
                and event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)
            )
        ):
            self.done()

    def done(self) -> None:
        play = self.play
        play.hand_over(self.side, keep_shot=self.then_dff)
        self.app.pop()
        if self.then_dff:
            self.app.go(Push(DffChance(play)))
        else:
            play.after_change()

    def draw(self, surface: pygame.Surface) -> None:
        st = style()
        surface.fill((18, 20, 24))
        table = self.play.session.table(self.side)  # the side the screen passes to
        f = FONTS.get(54, bold=True)
        t = f.render(f"{self.side.title()} player, click when ready", True, st.ui["select"])
        w, h = surface.get_size()
        surface.blit(t, t.get_rect(center=(w // 2, h // 2 - 30)))
        if self.then_dff:  # why this side is asked: the mover, as this side sees it
            mover = table.moving_unit or ""
            name = table.name(mover)  # "a concealed unit in E3" for a "?"
            if not name.startswith("a concealed"):
                name = f"the {name} in {table.where(mover)}"
            what = f"Defensive First Fire at {name}: it moves in your sights (C6.17)"
        elif table.phase in ("setup", "setup_attacker"):
            what = f"Set up your units before turn 1 (HX-12): {PHASES[table.phase].title}"
        else:
            what = f"Turn {table.turn}: {PHASES[table.phase].title} ({table.phasing} player turn)"
        t = FONTS.get(26).render(what, True, st.ui["text"])
        surface.blit(t, t.get_rect(center=(w // 2, h // 2 + 30)))
        t = FONTS.get(20).render(
            "The other player looks away: the map shows what this side may see.", True, st.ui["dim"]
        )
        surface.blit(t, t.get_rect(center=(w // 2, h // 2 + 70)))
        shot = self.play.map.state.banner
        if shot is not None and shot.at == table.version:  # the shot just fired
            t = FONTS.get(24, bold=True).render(
                f"The last shot: {shot.firer_hex} -> {shot.target_hex}: {shot.text}",
                True,
                st.ui["target"],
            )
            surface.blit(t, t.get_rect(center=(w // 2, h // 2 + 120)))


class Overlay(Scene):
    """A scene drawn over the play screen (which stays visible behind it, widgets and all)."""

    keeps_below = True

    def __init__(self, play: PlayScene):
        self.play = play

    def draw(self, surface: pygame.Surface) -> None:
        self.play.draw(surface)


class DffPrompt(Overlay):
    """C6.17: the defending side may fire at the moving vehicle: each unit that may, with its
    odds against the mover; choose one and fire, or Continue."""

    def enter(self) -> None:
        knows = self.defender()  # the defender's prompt: what it may know and ask
        ui = self.app.ui
        mover = knows.moving_unit
        self.firers = list(knows.dff_pending)
        self.odds: dict[str, ShotOdds | str] = {}
        self.mover_name = knows.name(mover) if mover else ""
        for fid in self.firers:
            try:  # the odds of the shot a click fires: with the ammunition chosen (RD-17)
                self.odds[fid] = knows.odds(fid, mover or "", self.play.map.chosen_ammo(fid))
            except IllegalAction as e:
                self.odds[fid] = e.reason
        # each firer keeps its number for the whole DFF chance (a shot left the others as
        # they were: they were renumbered after each shot)
        order = self.play.dff_order
        if order[0] != mover or not set(self.firers) <= set(order[1]):
            order = (mover or "", list(self.firers))
        self.play.dff_order = order
        self.number = {fid: order[1].index(fid) + 1 for fid in self.firers}
        m = self.play.rects()["map"]
        width = 460
        height = 70 + 40 * (len(self.firers) + 1)
        cam = self.play.map.camera
        seen = {u["id"] for u in knows.units() if not u.get("concealed")}
        shown = [f for f in self.firers if f in seen or self.app.prefs.strict_hotseat]
        keep_clear = [  # never over the moving target, nor over a firer it offers (a concealed
            # one's place is not given away to a mover who may be looking)
            cam.hex_to_screen(knows.board.parse(knows.where(u)))
            for u in ([mover] if mover else []) + shown
        ]
        corners = ("top right", "top left", "bottom right", "bottom left")
        others = [  # and rather over no other counter the defender sees (an enemy tank)
            cam.hex_to_screen(knows.board.parse(u["hex"]))
            for u in knows.units()
            if u["id"] not in self.firers and u["id"] != mover
        ]
        box = self.play.map.tracking_rect  # nor over the box by the mover (it hid it)
        if box.width:
            others += [box.topleft, box.topright, box.bottomleft, box.bottomright, box.center]
        self.panel = clear_corner(
            m, (width, height), keep_clear, cam.zoom + 6, corners, 10, rather_clear=others
        )
        x, y = self.panel.topleft
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        own = {u["id"]: u for u in knows.units()}  # the defender's own firers
        for i, fid in enumerate(self.firers):
            o = self.odds[fid]
            kill = (
                "cannot fire"
                if isinstance(o, str)
                else (
                    f"{100 * o.p_hit:.0f}% hit, kill unknown"
                    if o.p_kill is None
                    else f"{100 * o.p_kill:.0f}% kill, {100 * o.p_hit:.0f}% hit"
                )
            )
            firer = own[fid]
            # its hex tells two of a name apart; a concealed firer's hex is not shown while
            # the moving player may be looking (no handover before the prompt)
            hidden = firer["concealed"] and not self.app.prefs.strict_hotseat
            where = "" if hidden else firer["hex"]
            name = firer["name"]
            self.buttons[fid] = pygame_gui.elements.UIButton(
                pygame.Rect(x + 10, y + 56 + 40 * i, width - 20, 34),
                f"{self.number[fid]}: Fire {name}{' in ' + where if where else ''} ({kill})",
                ui,
            )
        self.buttons[""] = pygame_gui.elements.UIButton(
            pygame.Rect(x + 10, y + 56 + 40 * len(self.firers), width - 20, 34),
            "Continue (Space): let it move on",
            ui,
        )
        self.hovered: str | None = self.firers[0] if self.firers else None

    def defender(self) -> Table:
        """The defender's table: the seat this prompt is for (the session's to say)."""
        session = self.play.session
        return session.table(session.acting)

    def leave(self) -> None:
        for b in self.buttons.values():
            b.kill()
        self.buttons = {}

    def choose(self, fid: str) -> None:
        play = self.play
        defender = self.defender()
        self.app.pop()
        if fid:
            mover = defender.moving_unit or ""
            play.apply(Fire(fid, mover, play.map.chosen_ammo(fid)), side=defender.side)
        else:
            play.apply(Pass(), side=defender.side)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for fid, b in self.buttons.items():
                if event.ui_element is b:
                    self.choose(fid)
                    return
        if event.type == pygame_gui.UI_BUTTON_ON_HOVERED:
            for fid, b in self.buttons.items():
                if event.ui_element is b and fid:
                    self.hovered = fid
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_SPACE, pygame.K_c):
                self.choose("")
            elif event.unicode.isdigit():
                chosen = [f for f, n in self.number.items() if n == int(event.unicode)]
                if chosen:
                    self.choose(chosen[0])
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.hovered:
                self.choose(self.hovered)
        if event.type == pygame.MOUSEMOTION:
            self.play.map.mouse_moved(event.pos)

    def draw(self, surface: pygame.Surface) -> None:
        self.play.draw(surface)
        st = style()
        knows = self.defender()
        mover = knows.moving_unit
        pygame.draw.rect(surface, (36, 30, 24), self.panel, border_radius=6)
        pygame.draw.rect(surface, st.ui["dff"], self.panel, 2, border_radius=6)
        t = FONTS.get(22, bold=True).render(
            f"{knows.non_phasing.title()}: Defensive First Fire (C6.17)", True, st.ui["dff"]
        )
        surface.blit(t, (self.panel.left + 12, self.panel.top + 8))
        where = f"at {self.mover_name} in {knows.where(mover)}" if mover else ""
        t = FONTS.get(18).render(f"{where}: fire, or let it move on", True, st.ui["text"])
        surface.blit(t, (self.panel.left + 12, self.panel.top + 32))
        if self.hovered and isinstance(self.odds.get(self.hovered), ShotOdds):
            side = self.play.rects()["side"]
            rect = pygame.Rect(side.left + 6, side.top + 250, side.width - 12, side.height - 256)
            pygame.draw.rect(surface, st.ui["panel"], rect)
            o = self.odds[self.hovered]
            assert isinstance(o, ShotOdds)
            draw_odds(surface, rect, f"{knows.name(self.hovered)} -> {self.mover_name}", o)


class StackChooser(Overlay):
    """A stack of own units: pick one."""

    def __init__(self, play: PlayScene, units: Sequence[UnitRecord], pos: tuple[int, int]):
        super().__init__(play)
        self.units = units
        self.pos = pos

    def enter(self) -> None:
        x, y = self.pos
        self.buttons = {
            u["id"]: pygame_gui.elements.UIButton(
                pygame.Rect(x, y + 32 * i, 240, 30),
                f"{u.get('name', u['id'])} ({u['id']})",
                self.app.ui,
            )
            for i, u in enumerate(self.units)
        }

    def leave(self) -> None:
        for b in self.buttons.values():
            b.kill()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for uid, b in self.buttons.items():
                if event.ui_element is b:
                    self.play.map.state.selected = uid
                    self.app.pop()
                    return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()


class HelpScene(Scene):
    """F1 / ?: every key and mouse binding of the screen below it (play or replay), then the
    words of the game (the glossary, a page or more): Right / Left turn the pages, any other
    key closes."""

    keeps_below = True

    def __init__(self, owner: Scene):
        self.owner = owner
        self.page = 0

    def draw(self, surface: pygame.Surface) -> None:
        self.owner.draw(surface)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in PAGE_KEYS:
            step = PAGE_KEYS[event.key]
            self.page = max(0, min(self.pages() - 1, self.page + step))
            return
        if event.type == pygame.KEYDOWN or (
            event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
        ):
            self.app.pop()

    def _box(self, size: tuple[int, int]) -> pygame.Rect:
        w, h = size
        rect = pygame.Rect(0, 0, min(900, w - 40), h - 40)
        rect.center = (w // 2, h // 2)
        return rect

    def word_pages(self, rect: pygame.Rect) -> list[list[tuple[str, str]]]:
        """The glossary in lines (term, or "" for a continued line; its words), page by page."""
        font = FONTS.get(19)
        lines: list[tuple[str, str]] = []
        for term, text in glossary().items():
            for k, part in enumerate(wrap(text, font, rect.width - 30 - WORDS_INDENT, hang="")):
                lines.append((term if k == 0 else "", part))
        per_page = max(1, (rect.height - 70) // LINE)
        return [lines[i : i + per_page] for i in range(0, len(lines), per_page)]

    def pages(self) -> int:
        return 1 + len(self.word_pages(self._box(self.app.size)))

    def draw_over_ui(self, surface: pygame.Surface) -> None:
        """Above the widgets (the button bar, the log, the replay's turn list)."""
        st = style()
        box = self._box(surface.get_size())
        words = self.word_pages(box)
        total = 1 + len(words)
        if self.page == 0:
            rows = help_rows(getattr(self.owner, "bindings_screen", "play"))
            pad = 4 if 60 + (LINE + 4) * len(rows) <= box.height else 0  # a small window
            box.height = min(60 + (LINE + pad) * len(rows), box.height)
        else:
            rows, pad = words[self.page - 1], 0
        box.center = (surface.get_width() // 2, surface.get_height() // 2)
        pygame.draw.rect(surface, (26, 28, 32), box, border_radius=8)
        pygame.draw.rect(surface, st.ui["select"], box, 2, border_radius=8)
        block = TextBlock(surface, box.inflate(-30, -24), 19)
        what = "keys and mouse" if self.page == 0 else "the words of the game"
        block.line(
            f"hexfire: {what} ({self.page + 1}/{total}; Right / Left: pages; any other key closes)",
            st.ui["select"],
            bold=True,
        )
        block.gap()
        indent = 300 if self.page == 0 else WORDS_INDENT
        for keys, text in rows:
            y = block.y
            block.line(keys.replace("`", ""), st.ui["select"], bold=True)
            block.y = y
            block.line(text, indent=indent)
            block.y += pad


PAGE_KEYS = {pygame.K_RIGHT: 1, pygame.K_PAGEDOWN: 1, pygame.K_LEFT: -1, pygame.K_PAGEUP: -1}
WORDS_INDENT = 190
"""Where a glossary line's words begin (its term before them)."""


class EndScene(Scene):
    """The result: who won and by which condition, the turn reached, units lost each side."""

    def __init__(self, play: PlayScene):
        self.play = play

    def enter(self) -> None:
        ui = self.app.ui
        w, h = self.app.size
        self.new = pygame_gui.elements.UIButton(
            pygame.Rect(w // 2 - 320, h - 140, 200, 44), "New game", ui
        )
        self.replay = pygame_gui.elements.UIButton(
            pygame.Rect(w // 2 - 100, h - 140, 200, 44), "Replay this game", ui
        )
        self.quit = pygame_gui.elements.UIButton(
            pygame.Rect(w // 2 + 120, h - 140, 200, 44), "Quit", ui
        )

    def leave(self) -> None:
        self.new.kill()
        self.quit.kill()
        self.replay.kill()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.new:
                close_sessions(self.app)  # the finished game's lock released
                self.app.go(Replace(Start()))
            elif event.ui_element is self.quit:
                self.app.go(Quit())
            elif event.ui_element is self.replay:
                saved = self.play.session.saved
                if saved is not None:  # replayed off the window's thread, its progress shown
                    self.app.go(Push(replaying(saved, "<this game>", self.play.title, at=0)))

    def losses(self) -> dict[str, list[str]]:
        return self.play.map.knows().losses()

    def draw(self, surface: pygame.Surface) -> None:
        st = style()
        table = self.play.table
        surface.fill((18, 20, 24))
        w, _ = surface.get_size()
        t = FONTS.get(60, bold=True).render(
            f"{(table.winner or '?').title()} wins", True, st.ui["select"]
        )
        surface.blit(t, t.get_rect(center=(w // 2, 90)))
        block = TextBlock(surface, pygame.Rect(w // 2 - 420, 150, 840, 500), 22)
        block.line(table.end_reason[:1].upper() + table.end_reason[1:])
        block.line(f"Turn reached: {min(table.turn, table.turns)} of {table.turns}")
        shot = self.play.map.state.banner
        if shot is not None and "eliminate" in table.end_reason:  # the shot that decided it
            block.gap(8)  # (not an earlier one, when an exit or the turn limit decided it)
            text = f"The last shot: {shot.firer_hex} -> {shot.target_hex}: {shot.text}"
            block.line(text, st.ui["select"], bold=True)
        block.gap(14)
        for side, lost in self.losses().items():
            block.line(
                f"{side.title()} lost {len(lost)}:" if lost else f"{side.title()} lost nothing",
                bold=True,
            )
            for x in lost:
                block.line(x, st.ui["dim"], indent=20)
            block.gap(8)
        luck = self.play.luck_lines()
        if luck:
            block.line("Luck (the dice against the exact odds of the shots taken):", bold=True)
            for line in luck:
                block.line(line, st.ui["dim"], indent=20)
            block.gap(8)
        if self.play.session.path:
            block.line(f"The game is saved in {self.play.session.path}", st.ui["dim"])
