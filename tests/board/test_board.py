"""The board: the [map] table, terrain catalogue (RD-10, Case Q), index <-> hex."""

import pytest

from game.board import Board, MapError
from game.board.hexes import from_offset, parse_label
from game.board.terrain import terrain_catalogue
from game.files.scenario import ScenarioError, load_board


def small() -> Board:
    return Board.from_map_table({"columns": 3, "rows": 2, "hexes": ["o w2 r", "gr sb or1"]})


def test_map_table_reads_codes_and_levels():
    b = small()
    assert b.size == 6
    assert b.terrain_at(parse_label("B1")).key == "woods"
    assert b.info(parse_label("B1")).level == 2
    assert b.terrain_at(parse_label("C2")).key == "orchard"
    assert b.info(parse_label("C2")).level == 1


def test_map_table_round_trip():
    b = small()
    again = Board.from_map_table(b.to_map_table())
    assert (again.terrain == b.terrain).all() and (again.ground == b.ground).all()


def test_index_and_hex_agree():
    b = small()
    for i in range(b.size):
        assert b.index(b.hex_at(i)) == i
    with pytest.raises(KeyError):
        b.index(parse_label("D1"))


def test_case_q_tem_of_the_terrain_chart():
    cat = terrain_catalogue()
    assert {t.key: t.tem for t in cat.terrains} == {
        "open": 0,
        "road": 0,
        "brush": 0,
        "grain": 0,
        "orchard": 0,
        "woods": 1,
        "wooden_building": 2,
        "stone_building": 3,
    }


def test_rd10_vehicle_mp_costs():
    cat = terrain_catalogue()
    assert cat.by_key("open").mp == 1
    assert cat.by_key("road").mp == 0.5
    assert cat.by_key("grain").mp == cat.by_key("brush").mp == cat.by_key("orchard").mp == 2
    assert cat.by_key("woods").mp == 4
    assert not cat.by_key("stone_building").enterable_by_vehicle
    assert cat.climb_mp == 2


@pytest.mark.parametrize(
    "table, path, words",
    [
        ({"columns": 2, "rows": 1, "hexes": ["o o"], "size": 3}, "map.size", "unknown key"),
        ({"columns": 0, "rows": 1, "hexes": []}, "map.columns", "1-200"),
        ({"columns": 2, "rows": 2, "hexes": ["o o"]}, "map.hexes", "expected 2 rows"),
        ({"columns": 2, "rows": 1, "hexes": ["o"]}, "map.hexes[0]", "expected 2 hexes"),
        ({"columns": 2, "rows": 1, "hexes": ["o x"]}, "map.hexes[0]", "B1: bad token 'x'"),
        ({"columns": 2, "rows": 1, "hexes": ["o o7"]}, "map.hexes[0]", "level 7"),
        ({"columns": 2, "rows": 1, "hexes": [3]}, "map.hexes[0]", "expected a string"),
    ],
)
def test_bad_map_tables_say_where_and_why(table, path, words):
    with pytest.raises(MapError) as e:
        Board.from_map_table(table)
    assert e.value.path == path
    assert words in str(e.value)


def test_scenario_file_errors_give_file_line_and_field(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text(
        '# a map with a typo\n[map]\ncolumns = 3\nrows = 2\nhexes = [\n  "o o o",\n  "o q o",\n]\n'
    )
    with pytest.raises(ScenarioError) as e:
        load_board(f)
    assert str(e.value).startswith(f"{f}:7: map.hexes[1]: hex B2: bad token 'q'")


def test_scenario_file_that_is_not_toml(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("[map]\ncolumns = \n")
    with pytest.raises(ScenarioError) as e:
        load_board(f)
    assert str(e.value).startswith(f"{f}:2: not valid TOML")


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="cannot read"):
        load_board(tmp_path / "nope.toml")


def test_a_copy_of_the_board_shares_its_terrain_and_owns_its_markers():
    """A snapshot of the 200 x 200 map took 0.4 s (every hex copied): the read-only terrain is
    shared, the markers that change in play (wrecks, smoke) are the copy's own."""
    import copy

    import numpy as np
    import pytest

    from game.board import Board

    board = Board.from_map_table({"columns": 3, "rows": 2, "hexes": ["o o o", "o w o"]})
    twin = copy.deepcopy(board)
    assert twin.terrain is board.terrain and twin._hexes is board._hexes
    twin.add_wreck(twin.hex_at(1))
    twin.add_wreck(twin.hex_at(1))
    twin.set_smoke(twin.hex_at(0))
    assert twin.wrecks[1] == 2 and twin.markers() == (((1, 2),), (0,))
    assert board.wrecks[1] == 0 and not board.smoke[0] and board.markers() == ((), ())
    with pytest.raises(ValueError):
        twin.wrecks[1] = 0  # only through add_wreck / remove_wreck (the hash's key stays right)
    assert np.array_equal(twin.terrain, board.terrain)
    with pytest.raises(ValueError):
        twin.tem[0] = 3  # shared, so never written


def test_rd13_the_edge_an_off_map_hex_lies_beyond():
    """An exit is by the edge the unit leaves through (RD-13): the off-map hex's edge, None on
    the map."""
    board = Board.from_map_table({"columns": 4, "rows": 3, "hexes": ["o o o o"] * 3})
    assert board.edge_beyond(board.parse("B2")) is None
    assert board.edge_beyond(from_offset(-1, 1)) == "west"
    assert board.edge_beyond(from_offset(4, 1)) == "east"
    assert board.edge_beyond(from_offset(1, -1)) == "north"
    assert board.edge_beyond(from_offset(1, 3)) == "south"
