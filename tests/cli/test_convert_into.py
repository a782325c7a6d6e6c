"""hexfire convert MAP.tmx OUT.toml --into SCENARIO.toml (issue 42): the scenario with the
converted [map] in place of its own, every other byte as written; refused in one located line
when a unit or a set-up area falls off the new map."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.board import Board
from game.cli import main
from game.files.scenario import load_board, load_scenario
from game.files.tiled import write_tiled

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "scenarios" / "road-ambush.toml"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def ambush_map(columns: int = 18, rows: int = 9, first: str | None = None) -> dict:
    t = load_board(AMBUSH).to_map_table()
    hexes = [" ".join(r.split()[:columns]) for r in t["hexes"][:rows]]
    if first:
        hexes[0] = " ".join([first, *hexes[0].split()[1:]])
    return {"columns": columns, "rows": rows, "hexes": hexes}


def test_into_keeps_every_byte_but_the_map_rows_that_changed(tmp_path, capsys):
    tmx = tmp_path / "painted.tmx"
    write_tiled(Board.from_map_table(ambush_map(first="w")), tmx)
    out = tmp_path / "out.toml"
    code, said, err = run(capsys, "convert", tmx, out, "--into", AMBUSH)
    assert code == 0 and err == "", err
    assert f"{out}: {AMBUSH} with the [map] of {tmx} (18 x 9 hexes)" in said
    before, after = AMBUSH.read_text().splitlines(), out.read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith('  "w  o  o')
    assert load_scenario(out).setup.board.terrain_at(load_board(out).parse("A1")).code == "w"


def test_the_same_map_into_its_scenario_gives_the_same_bytes(tmp_path, capsys):
    tmx = tmp_path / "same.tmj"
    write_tiled(load_board(AMBUSH), tmx)
    out = tmp_path / "same.toml"
    code, _, err = run(capsys, "convert", tmx, out, "--into", AMBUSH)
    assert code == 0 and out.read_bytes() == AMBUSH.read_bytes(), err


@pytest.mark.parametrize(
    ("columns", "rows", "line"),
    [
        (10, 9, f"{AMBUSH}:49: units[0].setup_area: columns A-K falls off the new 10 x 9 map"),
        (18, 6, f"{AMBUSH}:55: units[1].hex: D8 is off the new 18 x 6 map"),
    ],
)
def test_units_or_areas_off_the_new_map_are_refused_in_one_line(
    tmp_path, capsys, columns, rows, line
):
    tmx = tmp_path / "small.tmx"
    write_tiled(Board.from_map_table(ambush_map(columns, rows)), tmx)
    out = tmp_path / "out.toml"
    code, said, err = run(capsys, "convert", tmx, out, "--into", AMBUSH)
    assert code == 2 and said == "" and err == line + "\n"
    assert not out.exists()


def test_into_needs_a_tiled_source(tmp_path, capsys):
    code, _, err = run(capsys, "convert", AMBUSH, tmp_path / "o.tmx", "--into", AMBUSH)
    assert code == 2 and "--into takes a Tiled map" in err and err.count("\n") == 1


def test_a_scenario_that_would_not_validate_on_the_new_map_is_refused(tmp_path, capsys):
    table = ambush_map()
    row = table["hexes"][7].split()
    row[3] = "sb"  # D8 a stone building, where the 45 mm Gun rus-gun-2 sets up
    table["hexes"][7] = " ".join(row)
    tmx = tmp_path / "wet.tmx"
    write_tiled(Board.from_map_table(table), tmx)
    out = tmp_path / "out.toml"
    code, said, err = run(capsys, "convert", tmx, out, "--into", AMBUSH)
    assert code == 2 and said == "" and err.count("\n") == 1 and not out.exists()
    assert err.startswith(f"{AMBUSH}:") and "units[1].hex: D8 is Stone Building" in err
    assert err.rstrip().endswith("with the new map")
