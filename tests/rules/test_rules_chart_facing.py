"""The chart system (002, RD-15) and Target Facing (RD-8)."""

import pytest

from game.board.hexes import Hex
from game.rules.chart import LETTERS, chart_result, elimination_number
from game.rules.drm import RuleError
from game.rules.facing import asl_aspect, chart_aspect, facing_offset


def test_rd15_chart_is_7_on_the_diagonal_plus_or_minus_2_a_step():
    for i, atfp in enumerate(LETTERS):
        for j, af in enumerate(LETTERS):
            n = 7 + 2 * (i - j)
            expected = "E" if n > 12 else ("-" if n < 3 else n)
            assert elimination_number(atfp, af) == expected, (atfp, af)


def test_002_chart_examples():
    assert elimination_number("D", "D") == 7
    assert elimination_number("D", "E") == 5  # a Panzerfaust vs an M4A3E8's front


def test_002_chart_dr_below_en_eliminates_equal_immobilizes_above_no_effect():
    assert chart_result(7, 6) == ("eliminated", "002")
    assert chart_result(7, 7) == ("immobilized", "002")
    assert chart_result(7, 8) == ("no_effect", "002")


def test_rd15_e_always_eliminates_dash_never_affects():
    assert chart_result("E", 12)[0] == "eliminated"
    assert chart_result("-", 2)[0] == "no_effect"


def test_chart_letters_are_checked():
    with pytest.raises(RuleError):
        elimination_number("G", "A")


def test_rd8_facing_offset_by_hexside():
    target = Hex(0, 0)
    for d in range(6):  # a firer straight ahead is at 0 degrees
        assert facing_offset(target, d, Hex(0, 0).neighbor(d)) == pytest.approx(0)
    assert facing_offset(target, 0, Hex(0, 0).neighbor(3)) == pytest.approx(180)
    assert facing_offset(target, 0, Hex(0, 0).neighbor(1)) == pytest.approx(60)
    assert facing_offset(target, 0, Hex(0, 0).neighbor(2)) == pytest.approx(120)


def test_rd8_asl_aspect_boundaries_favour_the_target():
    assert asl_aspect(60) == "front"
    assert asl_aspect(60.1) == "side"
    assert asl_aspect(120) == "side"
    assert asl_aspect(120.1) == "rear"


def test_rd8_asl_aspect_through_a_vertex():
    # a firer two hexes out along a vertex line (diagonal) sits at 30 degrees: front
    assert asl_aspect(facing_offset(Hex(0, 0), 0, Hex(0, 0).diagonal_neighbor(0))) == "front"


def test_rd8_chart_aspect_front_below_90_rear_above_a_die_at_90():
    assert chart_aspect(89.9) == "front"
    assert chart_aspect(90.1) == "rear"
    assert chart_aspect(90, die=3) == "front"
    assert chart_aspect(90, die=4) == "rear"
    with pytest.raises(RuleError):
        chart_aspect(90)
    # exactly 90: the firer on the line through the two side vertices
    assert facing_offset(Hex(0, 0), 0, Hex(0, 0).diagonal_neighbor(1)) == pytest.approx(90)
