"""Counters and their markers, from the units as a side may see them (:meth:`Knowledge.units`):
the side colour, a type symbol, the short name, hull and turret facing; the marker chips laid on
the counter (inside its hex); an Acquired counter on its Location (C6.5)."""

from __future__ import annotations

import pygame

from game.engine.catalogue import unit_types
from game.engine.view import UnitRecord
from game.ui.map.geometry import direction_vector
from game.ui.map.render import FONTS
from game.ui.map.silhouettes import draw_silhouette, kind_of
from game.ui.style import RGB, style


def short_name(name: str) -> str:
    """A counter's short name: the nickname in parentheses if any, else the name shortened."""
    if "(" in name and ")" in name:
        return name[name.index("(") + 1 : name.index(")")]
    return name.replace("PzKpfw ", "Pz ").replace("Sd.Kfz. ", "SdKfz ")


def gun_and_armor(unit: UnitRecord) -> str:
    """The counter's top line: the gun and the front armor ("75L 11"), the gun alone for a
    Gun, nothing for a unit without either."""
    t = unit_types().get(str(unit.get("type", "")))
    if t is None:
        return ""
    front = t.af_hull_front
    parts = [t.gun or "", f"{front}" if front is not None else ""]
    return " ".join(p for p in parts if p)


_NAMES: dict[tuple, pygame.Surface] = {}


def fitting_name(name: str, z: int, width: int) -> str:
    """The name a counter of zoom ``z`` shows: the short name if it fits at a readable size
    (10 px and up), else its first part ("T-34/76 M43" -> "T-34/76" -> "T-34"); the full name
    shows on hover."""
    font = FONTS.get(max(10, int(z * 0.36)), bold=True)
    tries = [name, name.split(" ")[0], name.split(" ")[0].split("/")[0]]
    for candidate in tries:
        if font.size(candidate)[0] <= width:
            return candidate
    return tries[-1]


def _name_picture(name: str, size: int, ink: RGB, width: int) -> pygame.Surface:
    """A counter's name, squeezed to ``width`` when longer (kept: it is drawn every frame)."""
    key = (name, size, tuple(ink), width)
    t = _NAMES.get(key)
    if t is None:
        t = FONTS.text(name, size, ink, bold=True)
        smaller = size
        while t.get_width() > width and smaller > 9:  # a smaller font before a squeeze
            smaller -= 1
            t = FONTS.text(name, smaller, ink, bold=True)
        if t.get_width() > width:
            t = pygame.transform.smoothscale(t, (max(1, width), t.get_height()))
        if len(_NAMES) > 2048:
            _NAMES.clear()
        _NAMES[key] = t
    return t


AWAITING_ALPHA = 90
"""How much of an enemy counter shows that sets up after the side at the screen (HX-12)."""


def draw_awaiting(target: pygame.Surface, unit: UnitRecord, cx: float, cy: float, z: int) -> None:
    """An enemy counter that will set up after this side (HX-12), faint on its file's hex:
    drawn at full strength it read as where the enemy will be."""
    size = 2 * z + 4
    ghost = pygame.Surface((size, size), pygame.SRCALPHA)
    draw_counter(ghost, unit, size / 2, size / 2, z)
    ghost.set_alpha(AWAITING_ALPHA)
    target.blit(ghost, (int(cx - size / 2), int(cy - size / 2)))


def chip_size(z: int) -> int:
    """A marker chip's font size at zoom ``z``: 13 pixels at the duel's zoom (it was 10, and
    "-1A" and "ID A" could not be read), never so large that the chips leave the hex."""
    return min(max(11, int(z * 0.36)), 19)


def draw_counter(
    target: pygame.Surface, unit: UnitRecord, cx: float, cy: float, z: int, selected: bool = False
) -> pygame.Rect:
    """One counter from a unit of a side's view (:class:`UnitView`): side colour, a type
    symbol, the short name, hull facing (a notch on the hexside it faces) and turret facing
    (the barrel)."""
    st = style()
    side = st.side(unit["side"])
    size = int(z * 1.15)
    rect = pygame.Rect(0, 0, size, size)
    rect.center = (int(cx), int(cy))
    pygame.draw.rect(target, side.fill, rect, border_radius=max(2, z // 8))
    pygame.draw.rect(
        target,
        st.ui["select"] if selected else side.edge,
        rect,
        3 if selected else 2,
        border_radius=max(2, z // 8),
    )
    if unit.get("type") == "?":
        t = FONTS.text("?", int(z * 0.9), side.ink, bold=True)
        target.blit(t, t.get_rect(center=rect.center))
        return rect
    category = unit.get("category", "afv")
    ink = side.ink
    sym = pygame.Rect(0, 0, int(size * 0.8), int(size * 0.44))
    sym.center = (rect.centerx, int(rect.top + size * 0.42))
    kind = kind_of(str(unit.get("type", "")), category, bool(unit.get("turreted", True)))
    draw_silhouette(target, kind, sym, ink)  # assets/silhouettes.toml
    stats = gun_and_armor(unit)
    if stats and z >= 40:  # the gun and the front armor at a glance, when there is room
        t = _name_picture(stats, max(9, int(z * 0.24)), ink, size - 6)
        target.blit(t, t.get_rect(midtop=(rect.centerx, rect.top + 2)))
    if category != "infantry":
        fx, fy = direction_vector(unit.get("facing", 0))
        # hull facing: a notch on the counter edge toward the hexside faced
        nx, ny = rect.centerx + fx * size * 0.5, rect.centery + fy * size * 0.5
        px, py = -fy, fx
        pygame.draw.polygon(
            target,
            st.ui["select"] if selected else side.edge,
            [  # at least a few pixels: the facing reads at every zoom
                (nx + fx * max(6.0, z * 0.24), ny + fy * max(6.0, z * 0.24)),
                (nx + px * max(4.0, z * 0.17), ny + py * max(4.0, z * 0.17)),
                (nx - px * max(4.0, z * 0.17), ny - py * max(4.0, z * 0.17)),
            ],
        )
        if unit.get("has_gun"):
            tx, ty = direction_vector(unit.get("turret", unit.get("facing", 0)))
            start = sym.center
            pygame.draw.line(
                target,
                ink,
                start,
                (start[0] + tx * size * 0.42, start[1] + ty * size * 0.42),
                max(2, z // 10),
            )
    name = fitting_name(short_name(unit.get("name", unit.get("type", ""))), z, size - 4)
    t = _name_picture(name, max(10, int(z * 0.36)), ink, size - 4)
    target.blit(t, t.get_rect(midbottom=(rect.centerx, rect.bottom - 2)))
    return rect


MARKERS = (
    ("immobilized", "IMM", (230, 190, 60)),
    ("shock", "SHK", (120, 160, 255)),
    ("uk", "UK", (160, 120, 255)),
    ("motion", "MOT", (255, 140, 0)),
    ("ce", "CE", (255, 255, 255)),
    ("concealed", "?", (30, 30, 30)),
    ("bore_sight", "BS", (90, 200, 255)),
    ("fired", "FIRED", (220, 80, 60)),
    ("moved", "MOVED", (170, 170, 170)),
)


MARKER_WORDS = {
    "IMM": "immobilized",
    "SHK": "SHK: Shocked, no move and no fire (C7.42)",
    "UK": "UK: Unconfirmed Kill, the crew may be dead (C7.42)",
    "MOT": "in Motion",
    "CE": "Crew Exposed",
    "?": "concealed (the enemy sees a ?)",
    "BS": "Bore Sighting",
    "FIRED": "fired",
    "MOVED": "moved",
    "ROF": "kept its Multiple ROF: may fire again (RD-4)",
}
"""What each marker chip means, in words (the side panel's status line)."""


def marker_words(unit: UnitRecord, phasing: str | None = None) -> list[str]:
    """A unit's markers as the side panel says them: "in Motion", "its -1 Acquired counter
    (A) on F4 (C6.5)" (the chips "MOT", "ID A" were not understood)."""
    out = []
    for text, _ in unit_markers(unit, phasing):
        if text.startswith("ID "):
            letter, level, where = unit["acquisition"][:3]
            out.append(
                f"ID {letter}: it acquired a target, its -{level}{letter} Acquired counter on "
                f"{where} (C6.5)"
            )
        else:
            out.append(MARKER_WORDS.get(text, text))
    return out


def unit_markers(unit: UnitRecord, phasing: str | None = None) -> list[tuple[str, RGB]]:
    """The marker chips for a unit (from its :meth:`Game.view` entry). ``phasing``: the side
    whose player turn it is; a unit's MOVED marker is its own player turn's only (it stayed
    on through the enemy's turn)."""
    out = []
    for key, text, color in MARKERS:
        v = unit.get(key)
        if key == "moved" and phasing is not None and unit.get("side") != phasing:
            continue
        if key == "shock":
            if v == "shock":
                out.append((text, color))
            elif v == "uk":
                out.append(("UK", (160, 120, 255)))
            continue
        if key == "uk":
            continue
        if key == "fired" and not v and unit.get("shots_this_phase"):
            out.append(("ROF", (230, 160, 60)))
            continue
        if v:
            out.append((text, color))
    acq = unit.get("acquisition")
    if acq:  # the firer's own ID; its Acquired counter is drawn on the Location (C6.5)
        out.append((f"ID {acq[0]}", (255, 120, 200)))
    return out


def draw_acquired(
    target: pygame.Surface, acq: list, cx: float, cy: float, z: int, firer_name: str
) -> None:
    """An Acquired counter (C6.5) on the Location it lies on: "-1 Acq A" (the Acquirer's ID
    letter; "-1A" when the map is zoomed out, the firer's name too when zoomed in), across the
    top of the hex (the counter's markers are on its right), never outside the hex."""
    letter, level = acq[0], acq[1]
    word = "Area" if len(acq) > 4 and acq[4] else "Acq"  # C6.521: the whole hex
    text = f"-{level}{letter}" if z < 40 else f"-{level} {word} {letter}"
    if z >= 56:
        text += f" {firer_name}"
    t = FONTS.text(text, chip_size(z), (0, 0, 0), bold=True)
    width = min(t.get_width() + 4, int(z * 1.0))
    chip = pygame.Rect(int(cx - z * 0.5), int(cy - z * 0.8), width, t.get_height() + 1)
    pygame.draw.rect(target, (255, 120, 200), chip, border_radius=2)
    pygame.draw.rect(target, (20, 20, 20), chip, 1, border_radius=2)
    target.blit(t, (chip.x + 2, chip.y + 1), area=pygame.Rect(0, 0, width - 3, chip.height))


CAN_ACT = (90, 220, 90)
"""The dot of a unit that can still act this phase."""


def draw_can_act(target: pygame.Surface, rect: pygame.Rect, z: int) -> None:
    """A green dot on the counter's upper left corner (clear of its name): this unit can
    still move or fire."""
    r = max(3, z // 9)
    centre = (rect.left + r // 2, rect.top + r // 2)
    pygame.draw.circle(target, CAN_ACT, centre, r)
    pygame.draw.circle(target, (10, 30, 10), centre, r, 1)


def stack_offset(i: int, z: int) -> int:
    """How far the ``i``-th counter of a stack is drawn up and right of the one below."""
    return i * max(3, z // 8)


def draw_markers(
    target: pygame.Surface,
    unit: UnitRecord,
    rect: pygame.Rect,
    z: int,
    phasing: str | None = None,
    centre: tuple[float, float] | None = None,
) -> None:
    """Marker chips laid on the counter as ASL's markers lie on it: a column down its right
    side that never leaves the hex (the hex is 2 x 1.73 hex radii; the chips keep within 0.62
    of its centre, so they cannot run into the next hex's counter or into a wreck below). When
    more chips than fit, the last says how many more."""
    chips = unit_markers(unit, phasing)
    if not chips:
        return
    f = FONTS.get(chip_size(z), bold=True)
    cx = centre[0] if centre is not None else rect.centerx
    right = int(cx + z * 0.62)
    y = rect.top + 1
    room = max(1, (rect.height - 2) // (f.get_height() + 1))
    if len(chips) > room:
        chips = [*chips[: room - 1], (f"+{len(chips) - room + 1}", (200, 200, 200))]
    for text, color in chips:
        ink = (0, 0, 0) if sum(color) > 300 else (255, 255, 255)
        t = FONTS.text(text, chip_size(z), ink, bold=True)
        chip = pygame.Rect(0, y, min(t.get_width() + 4, int(z * 1.3)), t.get_height() + 1)
        chip.right = right
        pygame.draw.rect(target, color, chip, border_radius=2)
        pygame.draw.rect(target, (20, 20, 20), chip, 1, border_radius=2)
        target.blit(
            t, (chip.x + 2, chip.y + 1), area=pygame.Rect(0, 0, chip.width - 3, chip.height)
        )
        y += chip.height + 1
