"""Line of sight, the scalar reference: each clause of RD-9 (and Case R, C6.9)."""

import pytest

from game.board import Board
from game.board.hexes import Hex, parse_label
from game.board.los import los


def column(*tokens: str) -> Board:
    """A one-column map: A1 at the top, each hex the next one straight down."""
    return Board.from_map_table({"columns": 1, "rows": len(tokens), "hexes": list(tokens)})


def see(board: Board, a: str, b: str):
    return los(board, parse_label(a), parse_label(b))


def test_rd9_open_ground_is_clear():
    r = see(column("o", "o", "o", "o"), "A1", "A4")
    assert r.clear and r.range == 3 and r.hindrance == 0 and r.blocked_by is None


def test_rd9_obstacle_higher_than_the_line_blocks():
    r = see(column("o", "o", "w", "o", "o"), "A1", "A5")
    assert not r.clear
    assert r.blocked_by == parse_label("A3")
    assert "rises above the LOS" in r.reason


def test_rd9_same_level_obstacle_blocks():
    # both ends on level 1; woods on level 0 reach level 1: equal to the line, ends level with it
    r = see(column("o1", "w", "o1"), "A1", "A3")
    assert not r.clear
    assert "same-level obstacle" in r.reason


@pytest.mark.parametrize("building", ["wb", "sb"])
def test_rd9_buildings_block_like_woods(building):
    assert not see(column("o", building, "o"), "A1", "A3").clear


def test_rd9_higher_firer_sees_over_an_obstacle_at_the_line():
    # firer on level 2, target level 0 at range 4: the line is at level 1 over A3 -> woods
    # (top level 1) equals the line but the firer is higher: not blocked
    assert see(column("o2", "o", "w", "o", "o"), "A1", "A5").clear


def test_rd9_obstacle_higher_than_the_line_blocks_a_blind_hex():
    # the same firer; woods next to the target: the line is at level 1/2 there, below the top
    r = see(column("o2", "o", "o", "w", "o"), "A1", "A5")
    assert not r.clear and r.blocked_by == parse_label("A4")


def test_rd9_hill_higher_than_both_ends_blocks():
    r = see(column("o", "o1", "o"), "A1", "A3")
    assert not r.clear and "ground rises above" in r.reason


def test_rd9_bare_hill_at_the_ends_level_does_not_block():
    assert see(column("o1", "o1", "o1"), "A1", "A3").clear


def test_rd9_woods_on_a_hill_block_two_units_on_that_hill():
    assert not see(column("o1", "w1", "o1"), "A1", "A3").clear


def test_rd9_woods_below_both_ends_do_not_block():
    assert see(column("o2", "w", "o2"), "A1", "A3").clear


def test_rd9_hindrance_adds_one_per_hex():
    r = see(column("o", "gr", "br", "o"), "A1", "A4")
    assert r.clear and r.hindrance == 2
    assert "Case R" in r.reason


def test_rd9_firer_hex_never_hinders_target_hex_does():
    board = column("gr", "o", "gr")
    assert see(board, "A1", "A3").hindrance == 1
    assert see(board, "A3", "A1").hindrance == 1
    one_end = column("gr", "o", "o")
    assert see(one_end, "A1", "A3").hindrance == 0
    assert see(one_end, "A3", "A1").hindrance == 1


def test_rd9_hindrance_total_of_six_blocks():
    five = see(column("o", "gr", "gr", "gr", "gr", "gr", "o"), "A1", "A7")
    assert five.clear and five.hindrance == 5
    six = see(column("o", "gr", "gr", "gr", "gr", "gr", "gr", "o"), "A1", "A8")
    assert not six.clear and six.hindrance >= 6 and "6 or more" in six.reason


def test_rd9_hindrance_below_the_line_does_not_count():
    # from level 2 down to level 0 at range 4: grain next to the firer lies 1.5 levels below
    assert see(column("o2", "gr", "o", "o", "o"), "A1", "A5").hindrance == 0


def test_rd9_orchard_is_a_hindrance_at_its_own_level():
    r = see(column("o", "or", "o"), "A1", "A3")
    assert r.clear and r.hindrance == 1


def test_rd9_orchard_is_an_obstacle_to_los_from_higher():
    # firer on level 1, target on level 0 at range 3: the line is below the orchard's top
    r = see(column("o1", "o", "or", "o"), "A1", "A4")
    assert not r.clear and r.blocked_by == parse_label("A3")


def test_rd9_smoke_and_wrecks_hinder_the_hex_they_stand_in():
    board = column("o", "o", "o", "o")
    board.set_smoke(parse_label("A2"))
    assert see(board, "A1", "A4").hindrance == 1
    board.add_wreck(parse_label("A3"))
    board.add_wreck(parse_label("A3"))
    assert see(board, "A1", "A4").hindrance == 3
    board.remove_wreck(parse_label("A3"))
    board.set_smoke(parse_label("A2"), False)
    assert see(board, "A1", "A4").hindrance == 1


def test_rd9_wreck_does_not_hinder_a_line_a_level_above_it():
    board = column("o2", "o", "o2")
    board.add_wreck(parse_label("A2"))
    assert see(board, "A1", "A3").hindrance == 0


def _hexside_board(left: str, right: str) -> tuple[Board, Hex, Hex, Hex, Hex]:
    """A 3 x 2 map where the LOS A2 -> C2 runs along the hexside between B1 and B2."""
    a, b = parse_label("A2"), parse_label("C2")
    board = Board.from_map_table(
        {"columns": 3, "rows": 2, "hexes": [f"o {left} o", f"o {right} o"]}
    )
    return board, a, b, parse_label("B1"), parse_label("B2")


def test_rd9_los_along_a_hexside_is_blocked_only_if_both_sides_block():
    board, a, b, _, _ = _hexside_board("w", "o")
    assert los(board, a, b).clear
    board, a, b, _, _ = _hexside_board("o", "w")
    assert los(board, a, b).clear
    board, a, b, _, _ = _hexside_board("w", "w")
    assert not los(board, a, b).clear


def test_rd9_hexside_los_takes_the_side_with_less_hindrance():
    board, a, b, _, _ = _hexside_board("gr", "o")
    assert los(board, a, b).hindrance == 0
    board, a, b, _, _ = _hexside_board("gr", "br")
    assert los(board, a, b).hindrance == 1


def test_rd9_line_along_the_map_edge_is_seen_down_the_on_map_side():
    board = Board.from_map_table({"columns": 3, "rows": 1, "hexes": ["o o o"]})
    # A1 -> C1 runs along the hexside between B1 and the off-map hex above it
    r = los(board, Hex(0, 0), Hex(2, -1))
    assert r.clear
    assert all(h.status != "off-map" for h in r.hexes)


def test_same_hex_is_clear_at_range_zero():
    r = see(column("w"), "A1", "A1")
    assert r.clear and r.range == 0


def test_off_map_hex_is_refused():
    with pytest.raises(KeyError):
        los(column("o"), Hex(0, 0), Hex(5, 5))


def test_thread_lists_every_hex_with_its_status():
    r = see(column("o", "gr", "w", "o"), "A1", "A4")
    assert [h.label for h in r.hexes] == ["A1", "A2", "A3", "A4"]
    assert [h.status for h in r.hexes] == ["firer", "hindrance", "blocking", "target"]
    d = r.to_dict()
    assert d["blocked_by"] == "A3" and d["rule"] == "RD-9"
