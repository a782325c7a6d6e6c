"""Hex coordinates after Red Blob Games (RD-6): axial (q, r) with cube helpers.

Flat-top hexes, as on ASL boards. Columns are lettered (A..Z, AA..ZZ, AAA..) and rows numbered
from 1; odd columns are shoved down half a hex ("odd-q" offset), as column B sits below column A
on an ASL board. Direction 0-5 is also the facing of a unit toward that hexside (RD-7).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

EPSILON = 1e-6
"""Red Blob's nudge for line drawing, (1, 2, -3) x EPSILON: unequal components, so that no two
cube components tie when a sample lies on a hexside or a vertex. A line along a hexside is traced
once with the nudge and once with its negation (RD-9)."""


class Hex(NamedTuple):
    """An axial hex coordinate; the cube coordinate s is -q - r. A named tuple, not a
    dataclass: its hash and equality run in C (hexes key every dict of the engine; the
    dataclass's Python ``__eq__`` and ``__hash__`` were a fifth of listing legal actions)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r  # (self - other).length(), inline
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbor(self, direction: int) -> Hex:
        return self + DIRECTIONS[direction % 6]

    def neighbors(self) -> list[Hex]:
        return [self + d for d in DIRECTIONS]

    def diagonal_neighbor(self, direction: int) -> Hex:
        return self + DIAGONALS[direction % 6]


@dataclass(frozen=True, slots=True)
class FractionalHex:
    """A cube coordinate with real components, for lerp and rounding."""

    q: float
    r: float
    s: float

    def round(self) -> Hex:
        return hex_round(self)


# Red Blob's direction order: 0 lower-right, 1 upper-right, 2 up, 3 upper-left, 4 lower-left,
# 5 down on a flat-top layout with y growing downwards.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1),
    Hex(1, -2),
    Hex(-1, -1),
    Hex(-2, 1),
    Hex(-1, 2),
    Hex(1, 1),
)


def direction(d: int) -> Hex:
    """The unit step toward hexside ``d`` (0-5)."""
    return DIRECTIONS[d % 6]


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: the range of C6.3 and of every range band."""
    return a.distance(b)


def hex_round(h: FractionalHex) -> Hex:
    """Cube rounding: round each component, then fix the one that moved most."""
    q, r, s = round(h.q), round(h.r), round(h.s)
    dq, dr, ds = abs(q - h.q), abs(r - h.r), abs(s - h.s)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_lerp(a: FractionalHex, b: FractionalHex, t: float) -> FractionalHex:
    return FractionalHex(a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t, a.s + (b.s - a.s) * t)


def _nudged(h: Hex, sign: int) -> FractionalHex:
    e = EPSILON * sign
    return FractionalHex(h.q + e, h.r + 2 * e, h.s - 3 * e)


def line(a: Hex, b: Hex, nudge: int = 1) -> list[Hex]:
    """The hexes from ``a`` to ``b`` (both included), nudged to one side (+1) or the other (-1).

    Red Blob's line drawing: N+1 samples of the lerp between the centres, each rounded. The
    nudge settles a sample lying exactly on a hexside; RD-9 traces both sides.
    """
    n = a.distance(b)
    if n == 0:
        return [a]
    fa, fb = _nudged(a, nudge), _nudged(b, nudge)
    return [hex_round(hex_lerp(fa, fb, i / n)) for i in range(n + 1)]


def ring(center: Hex, radius: int) -> Iterator[Hex]:
    """The hexes at exactly ``radius`` from ``center``."""
    if radius == 0:
        yield center
        return
    h = center + DIRECTIONS[4].scale(radius)
    for side in range(6):
        for _ in range(radius):
            yield h
            h = h.neighbor(side)


def direction_to(a: Hex, b: Hex) -> float:
    """The angle in degrees (0-360) from ``a`` to ``b`` on the flat-top layout, measured the way
    the directions are numbered: direction d points at 60*d - 30 degrees counterclockwise from
    screen-right (so 0 at -30, 2 straight up at 90)."""
    x, y = FLAT.to_pixel_unit(b - a)
    return math.degrees(math.atan2(-y, x)) % 360.0


def facing_angle(d: int) -> float:
    """The angle in degrees of hexside direction ``d`` (see :func:`direction_to`)."""
    return (60.0 * d - 30.0) % 360.0


# --- layouts ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Orientation:
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float

    def to_pixel_unit(self, h: Hex) -> tuple[float, float]:
        return (self.f0 * h.q + self.f1 * h.r, self.f2 * h.q + self.f3 * h.r)


_SQ3 = math.sqrt(3.0)
FLAT = Orientation(3 / 2, 0.0, _SQ3 / 2, _SQ3, 2 / 3, 0.0, -1 / 3, _SQ3 / 3)


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel <-> hex: an orientation, a hex size (x, y radius) and the pixel of Hex(0, 0)."""

    orientation: Orientation = FLAT
    size: tuple[float, float] = (30.0, 30.0)
    origin: tuple[float, float] = (0.0, 0.0)

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        o = self.orientation
        x = (o.f0 * h.q + o.f1 * h.r) * self.size[0]
        y = (o.f2 * h.q + o.f3 * h.r) * self.size[1]
        return (x + self.origin[0], y + self.origin[1])

    def pixel_to_fractional(self, x: float, y: float) -> FractionalHex:
        o = self.orientation
        px = (x - self.origin[0]) / self.size[0]
        py = (y - self.origin[1]) / self.size[1]
        q = o.b0 * px + o.b1 * py
        r = o.b2 * px + o.b3 * py
        return FractionalHex(q, r, -q - r)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        return hex_round(self.pixel_to_fractional(x, y))


# --- offset coordinates and ASL labels ------------------------------------------------------


def axial_distance(dq, dr):
    """The range of an axial step (dq, dr): ints, or numpy arrays of them alike."""
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial -> (column, row), 0-based, odd columns shoved down (Red Blob's odd-q)."""
    return h.q, h.r + (h.q - (h.q & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    """(column, row), 0-based odd-q -> axial."""
    return Hex(col, row - (col - (col & 1)) // 2)


def column_letters(col: int) -> str:
    """ASL column letters: A..Z, then AA..ZZ, AAA..ZZZ (a letter repeated per lap of 26)."""
    if col < 0:
        raise ValueError(f"column index must be >= 0, got {col}")
    return chr(ord("A") + col % 26) * (col // 26 + 1)


def column_index(letters: str) -> int:
    """Inverse of :func:`column_letters`."""
    if (
        not (letters.isascii() and letters.isalpha() and letters.isupper())
        or len(set(letters)) != 1
    ):
        raise ValueError(f"bad column letters {letters!r}: expected A..Z, AA..ZZ, AAA..")
    return (len(letters) - 1) * 26 + ord(letters[0]) - ord("A")


@lru_cache(maxsize=1 << 17)
def label(h: Hex) -> str:
    """The ASL-style label of a hex: column letter(s) + row number from 1 (e.g. "W6"); kept
    for the hexes asked (the largest map's 40,000 and more)."""
    col, row = to_offset(h)
    if col < 0 or row < 0:
        return f"off-map({h.q},{h.r})"
    return f"{column_letters(col)}{row + 1}"


def parse_label(text: str) -> Hex:
    """ "W6" -> the hex; ValueError with the reason for anything else. A hex has one spelling:
    upper-case ASCII column letters (A..Z, AA..ZZ, ...) then the row number from 1 in ASCII
    digits, no leading zero, no spaces ("w6", "W06", " W6" and non-ASCII digits are errors)."""
    if not isinstance(text, str) or not _LABEL.fullmatch(text):
        raise ValueError(
            f"bad hex label {text!r:.40}: expected column letters A-Z then a row number "
            "from 1, like W6 or AA3"
        )
    i = 0
    while text[i].isalpha():
        i += 1
    return from_offset(column_index(text[:i]), int(text[i:]) - 1)


_LABEL = re.compile(r"([A-Z])\1{0,7}[1-9][0-9]{0,5}", re.ASCII)
