"""The enemy's way in (game/ai/valuation/approach.py): the way a vehicle would drive in the
fewest MP (RD-10), not the straight line (issue 41: the hedgerow's and the Orel road's set-up
watched straight lines through woods that no tank drives through)."""

from __future__ import annotations

from game.ai.valuation.approach import soonest_way
from game.board import Board
from game.board.hexes import label

WOODS = ["o o o o o o o", "o w w w w w o", "o o o o o o o"]
ROAD = ["o r o"] * 7  # a road down column B: a straight line of hexes


def board(rows: list[str]) -> Board:
    return Board.from_map_table({"columns": len(rows[0].split()), "rows": len(rows), "hexes": rows})


def test_rd10_the_way_in_drives_round_the_woods():
    b = board(WOODS)
    west = {h for h in b.hexes if label(h).startswith("A")}
    way = [label(h) for h in soonest_way(b, b.parse("G2"), west)]
    assert way[0] == "G2" and way[-1].startswith("A")
    assert not {"B2", "C2", "D2", "E2", "F2"} & set(way)  # woods: 4 MP a hex, RD-10


def test_rd10_the_way_in_keeps_to_the_road():
    b = board(ROAD)
    south = {h for h in b.hexes if label(h).endswith("7")}
    way = [label(h) for h in soonest_way(b, b.parse("A1"), south)]
    assert way[:2] == ["A1", "B1"] or way[:2] == ["A1", "B2"]
    assert way[-1] == "B7" and {"B3", "B4", "B5", "B6"} <= set(way)  # 1/2 MP a hex along it


def test_the_way_in_is_empty_when_nothing_can_be_reached():
    b = board(["o wb o", "wb wb o", "o o o"])
    assert soonest_way(b, b.parse("C3"), {b.parse("A1")}) == []
