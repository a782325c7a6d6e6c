"""The side panel's parts, drawn by hand: the hex under the mouse, the selected unit, and the
odds panel (the report lines of ``hexfire odds`` and a bar per outcome)."""

from __future__ import annotations

import pygame

from game.engine.catalogue import UnitType, unit_types
from game.engine.knowledge import ShotOdds
from game.engine.view import UnitRecord
from game.rules.report import odds_report_lines
from game.rules.rule_index import explain, rule_ids_in
from game.rules.words import facing_words
from game.session import Table
from game.ui.map.counters import marker_words
from game.ui.map.render import FONTS
from game.ui.style import RGB, style

LINE = 17

SPOTS: list[tuple[pygame.Rect, tuple[str, ...]]] = []
"""The panel lines of the frame drawn that cite rule ids, with where they are: hovering one
shows each id's title and plain line (:func:`draw_rule_tip`). The screen clears it each frame."""


class TextBlock:
    """Lines of text drawn top-down in a rectangle, clipped."""

    def __init__(self, surface: pygame.Surface, rect: pygame.Rect, size: int = 16):
        self.surface = surface
        self.rect = rect
        self.y = rect.top
        self.size = size

    def line(
        self, text: str, color: RGB | None = None, bold: bool = False, indent: int = 0
    ) -> None:
        """One line of text; a line wider than the block wraps (it was cut at the edge)."""
        width = self.rect.width - indent
        font = FONTS.get(self.size, bold)
        parts = [text] if font.size(text)[0] <= width else wrap(text, font, width)
        for part in parts:
            if self.y + LINE > self.rect.bottom:
                return
            t = FONTS.text(part, self.size, color or style().ui["text"], bold)  # kept
            ids = tuple(sorted(rule_ids_in(text)))
            if ids:
                SPOTS.append((pygame.Rect(self.rect.left, self.y, width, LINE), ids))
            self.surface.blit(
                t,
                (self.rect.left + indent, self.y),
                area=pygame.Rect(0, 0, width, LINE + 2),
            )
            self.y += LINE

    def gap(self, n: int = 6) -> None:
        self.y += n


def hex_info_lines(table: Table, label_text: str) -> list[str]:
    """The hex under the mouse: label, terrain, level, TEM (Case Q), vehicle MP / infantry MF."""
    h = table.board.parse(label_text)
    info = table.board.info(h)
    t = info.terrain
    mp = "no entry" if not t.enterable_by_vehicle else f"{t.mp:g} MP"
    lines = [
        f"{label_text}: {t.name}, level {info.level}",
        f"TEM {int(t.tem):+d} (Case Q, C6.8); vehicle {mp}; infantry {t.mf:g} MF (RD-10)",
    ]
    extra = []
    if info.wrecks:
        extra.append(f"wreck x{info.wrecks} (+1 hindrance, RD-9)")
    if info.smoke:
        extra.append("smoke")
    if extra:
        lines.append(", ".join(extra))
    return lines


def armament(ut: UnitType) -> str:
    if ut.gun:
        return f"{ut.gun} gun, ammo {'/'.join(ut.ammo)}, ROF {ut.rof}"
    if ut.sw:
        return f"AT support weapon {ut.sw}"
    return "no AT weapon"


def armor(ut: UnitType) -> str:
    if not ut.armored:
        return "unarmored" if ut.category != "infantry" else "infantry"
    hull = f"hull {ut.af_hull_front}/{ut.af_hull_side}/{ut.af_hull_side}"
    turret = f"turret {ut.af_turret_front}/{ut.af_turret_side}/{ut.af_turret_side}"
    chart = f"chart {ut.chart_front}/{ut.chart_rear}" if ut.chart_front else ""
    return f"AF front/side/rear: {hull}, {turret} {chart}".rstrip()


def unit_lines(
    view: UnitRecord, ammo: str | None, phasing: str | None = None
) -> list[tuple[str, RGB | None]]:
    """The selected unit as the side at the screen sees it (:meth:`Knowledge.units`) with its
    counter's printed values (the catalogue): type, armament, AF, MP left, status, the
    ammunition chosen, its special rounds (RD-17)."""
    ut = unit_types()[view["type"]]
    st = style()
    lines: list[tuple[str, RGB | None]] = [
        (f"{ut.name} ({view['id']}), {view['side']}", None),
        (
            f"{ut.category.upper()} in {view['hex']}, facing {facing_words(view['facing'])}"
            + (f", turret {facing_words(view['turret'])}" if ut.turret else ""),
            None,
        ),
        (armament(ut), None),
        (armor(ut), None),
    ]
    if ut.category != "gun":
        total = ut.mp if ut.is_vehicle else ut.mf
        word = "MP" if ut.is_vehicle else "MF"
        lines.append((f"{word} left {view.get('mp_left', total):g} of {total:g}", None))
    marks = ", ".join(marker_words(view, phasing))
    lines.append((f"status: {marks or 'ready'}", st.ui["dim"]))
    if ammo:
        lines.append((f"ammunition: {ammo}  (r: next)", st.ui["select"]))
    out = view.get("ammo_out", ())
    for special, n in view.get("depletion", {}).items():  # RD-17: the special rounds are scarce
        left = "out" if special in out else ("not issued" if not n else f"{n} or less")
        lines.append((f"{special}: {left} (RD-17)", st.ui["dim"]))
    if view.get("bore_sight"):
        lines.append((f"Bore Sighted: {view['bore_sight']} (C6.42)", st.ui["reach"]))
    return lines


def odds_headline(shot: ShotOdds) -> str:
    """The odds panel's first line, the player's question answered in words: "42% to hit,
    14% to knock it out (burn or eliminate)"; at a "?", what is not known yet (RD-11)."""
    hit = f"{100 * shot.p_hit:.0f}% to hit"
    if shot.p_kill is None:
        return f"{hit}; what a hit does is unknown until it is revealed (RD-11)"
    return f"{hit}, {100 * shot.p_kill:.0f}% to knock it out (burn or eliminate)"


def odds_lines(shot: ShotOdds) -> list[str]:
    """The odds report's lines, as ``hexfire odds`` prints them (one renderer)."""
    return odds_report_lines(shot.report)


def draw_odds(surface: pygame.Surface, rect: pygame.Rect, title: str, shot: ShotOdds) -> None:
    """The odds panel: title, the report lines, and a bar per outcome with its probability,
    as the side at the screen may be shown them (the engine's knowledge)."""
    st = style()
    pygame.draw.rect(surface, (30, 34, 38), rect, border_radius=4)
    pygame.draw.rect(surface, st.ui["target"], rect, 1, border_radius=4)
    block = TextBlock(surface, rect.inflate(-12, -10), 15)
    block.line(title, st.ui["select"], bold=True)
    block.line(odds_headline(shot), st.ui["text"], bold=True)  # the answer first, in words
    report = shot.report
    lines = odds_report_lines(report)
    cut = lines.index("Odds:") if "Odds:" in lines else len(lines)
    # the bars come first in a small panel: the derivation gives way, and says where it is
    room = (block.rect.height - 3 * LINE - 4) // LINE - len(report["p"])
    font = FONTS.get(15)
    text_lines = [part for text in lines[:cut] for part in wrap(text, font, block.rect.width)]
    if len(text_lines) > room:
        text_lines = [
            *text_lines[: max(0, room - 1)],
            "  ... (the rest: a taller window, or hexfire odds)",
        ]
    for text in text_lines:
        block.line(text, st.ui["text"] if not text.startswith(("   --", "  ...")) else st.ui["dim"])
    block.gap(4)
    bar_left = rect.left + 110
    bar_w = rect.width - 180
    for name, p in report["p"].items():
        if block.y + LINE > block.rect.bottom:
            break
        color = st.outcomes.get(name, (200, 200, 200))
        label = FONTS.get(15).render(name.replace("_", " "), True, st.ui["text"])
        surface.blit(label, (rect.left + 8, block.y))
        pygame.draw.rect(surface, (55, 60, 66), (bar_left, block.y + 3, bar_w, LINE - 6))
        pygame.draw.rect(surface, color, (bar_left, block.y + 3, int(bar_w * p), LINE - 6))
        pct = FONTS.get(15).render(f"{100 * p:5.1f}%", True, st.ui["text"])
        surface.blit(pct, (bar_left + bar_w + 6, block.y))
        block.y += LINE


def draw_rule_tip(surface: pygame.Surface, pos: tuple[int, int]) -> bool:
    """Over a panel line that cites rule ids: a box by the mouse with each id, its title and
    what it means in plain words. True when one was drawn."""
    ids = next((ids for rect, ids in reversed(SPOTS) if rect.collidepoint(pos)), None)
    if not ids:
        return False
    draw_tip(surface, pos, ids)
    return True


def draw_tip(surface: pygame.Surface, pos: tuple[int, int], ids: tuple[str, ...]) -> None:
    """The box by the mouse: each rule id with its title and plain line (an entry that is no
    rule id, a word's explanation, as it is)."""
    font = FONTS.get(15)
    width = 420
    lines = [part for i in ids[:4] for part in wrap(explain(i), font, width - 16, "  ")]
    box = pygame.Rect(pos[0] - 12 - width, pos[1] + 14, width, 10 + LINE * len(lines))
    box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, (16, 18, 22), box, border_radius=5)
    pygame.draw.rect(surface, style().ui["select"], box, 1, border_radius=5)
    for n, part in enumerate(lines):
        t = font.render(part, True, style().ui["text"])
        surface.blit(t, (box.left + 8, box.top + 5 + n * LINE))


def wrap(text: str, font: pygame.font.Font, width: int, hang: str = "    ") -> list[str]:
    """``text`` in lines no wider than ``width`` pixels, broken at spaces; a continued line is
    indented by ``hang`` under its first (the odds panel's lines were cut at its edge)."""
    if font.size(text)[0] <= width:
        return [text]
    indent = text[: len(text) - len(text.lstrip())]
    out: list[str] = []
    line = indent
    for word in text.split():
        trial = f"{line} {word}" if line.strip() else line + word
        if line.strip() and font.size(trial)[0] > width:
            out.append(line)
            line = indent + hang + word
        else:
            line = trial
    out.append(line)
    return out
