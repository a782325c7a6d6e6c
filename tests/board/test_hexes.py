"""Hex coordinates (RD-6), with Red Blob Games' published test vectors."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.board.hexes import (
    FLAT,
    FractionalHex,
    Hex,
    Layout,
    column_index,
    column_letters,
    direction,
    direction_to,
    facing_angle,
    from_offset,
    hex_lerp,
    hex_round,
    label,
    line,
    parse_label,
    ring,
    to_offset,
)


def cube(q, r, s):
    assert q + r + s == 0
    return Hex(q, r)


# --- Red Blob's own tests (implementation guide, "test" section) ---


def test_redblob_hex_arithmetic():
    assert cube(1, -3, 2) + cube(3, -7, 4) == cube(4, -10, 6)
    assert cube(1, -3, 2) - cube(3, -7, 4) == cube(-2, 4, -2)


def test_a_hex_is_an_immutable_value_ordered_q_then_r_with_a_stable_repr():
    """Hex became a named tuple (its hash and equality in C); what the engine reads of it is
    unchanged: the repr (a state key must never change with it), the order (q, then r), the
    hash of equal hexes, immutability, and vector arithmetic (not tuple concatenation)."""
    h = Hex(1, -2)
    assert repr(h) == "Hex(q=1, r=-2)" and h.s == 1
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]
    assert {Hex(1, -2): "x"}[Hex(1, -2)] == "x" and len({h, Hex(1, -2)}) == 1
    with pytest.raises(AttributeError):
        h.q = 3  # type: ignore[misc]
    assert h + Hex(2, 2) == Hex(3, 0) and h - Hex(1, -2) == Hex(0, 0)
    assert type(h + h) is Hex and h.scale(3) == Hex(3, -6)


def test_redblob_hex_direction():
    assert direction(2) == cube(0, -1, 1)


def test_redblob_hex_neighbor():
    assert cube(1, -2, 1).neighbor(2) == cube(1, -3, 2)


def test_redblob_hex_diagonal():
    assert cube(1, -2, 1).diagonal_neighbor(3) == cube(-1, -1, 2)


def test_redblob_hex_distance():
    assert cube(3, -7, 4).distance(cube(0, 0, 0)) == 7


def test_redblob_hex_round():
    a = FractionalHex(0.0, 0.0, 0.0)
    b = FractionalHex(1.0, -1.0, 0.0)
    c = FractionalHex(0.0, -1.0, 1.0)
    assert hex_round(hex_lerp(FractionalHex(0, 0, 0), FractionalHex(10, -20, 10), 0.5)) == cube(
        5, -10, 5
    )
    assert hex_round(a) == hex_round(hex_lerp(a, b, 0.499))
    assert hex_round(b) == hex_round(hex_lerp(a, b, 0.501))
    mix1 = FractionalHex(
        a.q * 0.4 + b.q * 0.3 + c.q * 0.3,
        a.r * 0.4 + b.r * 0.3 + c.r * 0.3,
        a.s * 0.4 + b.s * 0.3 + c.s * 0.3,
    )
    mix2 = FractionalHex(
        a.q * 0.3 + b.q * 0.3 + c.q * 0.4,
        a.r * 0.3 + b.r * 0.3 + c.r * 0.4,
        a.s * 0.3 + b.s * 0.3 + c.s * 0.4,
    )
    assert hex_round(mix1) == hex_round(a)
    assert hex_round(mix2) == hex_round(c)


def test_redblob_hex_linedraw():
    expected = [
        cube(0, 0, 0),
        cube(0, -1, 1),
        cube(0, -2, 2),
        cube(1, -3, 2),
        cube(1, -4, 3),
        cube(1, -5, 4),
    ]
    assert line(cube(0, 0, 0), cube(1, -5, 4)) == expected


def test_redblob_layout():
    flat = Layout(FLAT, (10.0, 15.0), (35.0, 71.0))
    h = cube(3, 4, -7)
    assert flat.pixel_to_hex(*flat.hex_to_pixel(h)) == h


def test_redblob_offset_from_cube_odd_q():
    assert to_offset(cube(1, 2, -3)) == (1, 2)
    assert from_offset(1, 2) == cube(1, 2, -3)


# --- hexfire's own ---


@given(st.integers(-50, 50), st.integers(-50, 50))
def test_offset_roundtrip(col, row):
    assert to_offset(from_offset(col, row)) == (col, row)


@given(st.integers(0, 200), st.integers(0, 98))
def test_label_roundtrip(col, row):
    h = from_offset(col, row)
    assert parse_label(label(h)) == h


def test_asl_labels():
    assert label(Hex(0, 0)) == "A1"
    assert column_letters(25) == "Z"
    assert column_letters(26) == "AA"
    assert column_letters(65) == "NNN"
    assert column_index("GG") == 32
    w6 = parse_label("W6")
    assert to_offset(w6) == (22, 5)
    assert label(w6) == "W6"


@pytest.mark.parametrize("other", ["w6", "W06", " W6", "W6 ", "W\u0666", "Ｗ6", "W+6", "WW6x"])
def test_a_hex_has_one_spelling(other):
    """Issue 12: two spellings of one hex let two vehicles share it; anything but the canonical
    label is an error."""
    with pytest.raises(ValueError, match="bad hex label"):
        parse_label(other)


@pytest.mark.parametrize("bad", ["", "6W", "W", "W0", "AB3", "W-1", "Ä3"])
def test_bad_labels_are_refused(bad):
    with pytest.raises(ValueError):
        parse_label(bad)


def test_odd_columns_sit_half_a_hex_lower():
    layout = Layout(FLAT, (10.0, 10.0))
    _, ya = layout.hex_to_pixel(from_offset(0, 0))
    _, yb = layout.hex_to_pixel(from_offset(1, 0))
    assert yb - ya == pytest.approx(10 * math.sqrt(3) / 2)


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_line_has_distance_plus_one_adjacent_hexes(q1, r1, q2, r2):
    a, b = Hex(q1, r1), Hex(q2, r2)
    for nudge in (1, -1):
        hexes = line(a, b, nudge)
        assert len(hexes) == a.distance(b) + 1
        assert hexes[0] == a and hexes[-1] == b
        assert all(x.distance(y) == 1 for x, y in zip(hexes, hexes[1:], strict=False))


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_line_reversed_is_the_same_hexes(q1, r1, q2, r2):
    a, b = Hex(q1, r1), Hex(q2, r2)
    for nudge in (1, -1):
        assert line(b, a, nudge) == line(a, b, nudge)[::-1]


def test_line_along_a_hexside_differs_by_nudge():
    a, b = Hex(0, 0), Hex(2, -1)
    assert line(a, b, 1) != line(a, b, -1)
    assert {line(a, b, 1)[1], line(a, b, -1)[1]} == {Hex(1, 0), Hex(1, -1)}


def test_ring_sizes():
    assert len(list(ring(Hex(0, 0), 0))) == 1
    assert len(list(ring(Hex(0, 0), 3))) == 18
    assert all(h.distance(Hex(0, 0)) == 3 for h in ring(Hex(0, 0), 3))


def test_facing_angles_match_directions():
    for d in range(6):
        assert direction_to(Hex(0, 0), direction(d)) == pytest.approx(facing_angle(d))
    assert facing_angle(2) == pytest.approx(90.0)
