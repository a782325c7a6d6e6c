"""hexfire convert: exit 0 converted (both ways), 2 refused with one located line; never a
traceback."""

import subprocess
import sys
from pathlib import Path

from game.cli import main
from game.files.scenario import load_board

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_scenario_to_tmx_and_tmj_and_back_exit_0(tmp_path, capsys):
    for suffix in (".tmx", ".tmj"):
        out = tmp_path / f"duel{suffix}"
        code, said, err = run(capsys, "convert", "tutorial-duel", out)
        assert code == 0 and err == "", err
        assert "12 x 8 hexes" in said and "hexfire-terrain.tsx" in said
        assert (tmp_path / "hexfire-terrain.png").is_file()
        back = tmp_path / f"duel{suffix}.toml"
        code, said, err = run(capsys, "convert", out, back)
        assert code == 0 and f"{back}: the [map] of {out} (12 x 8 hexes)" in said
        duel = load_board(ROOT / "scenarios" / "tutorial-duel.toml")
        assert load_board(back).to_map_table() == duel.to_map_table()


def test_refusals_exit_2_with_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.tmx"
    bad.write_text('<map orientation="isometric"/>')
    code, out, err = run(capsys, "convert", bad, tmp_path / "o.toml")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "map: orientation 'isometric'" in err and not (tmp_path / "o.toml").exists()
    for argv, words in (
        (["tutorial-duel", tmp_path / "o.toml"], "expected MAP.tmx|MAP.tmj OUT.toml"),
        ([bad, tmp_path / "o.tmx"], "expected MAP.tmx|MAP.tmj OUT.toml"),
        (["tutorial-duel", tmp_path / "nowhere" / "o.tmx"], "no such folder"),
        ([bad, bad], "expected MAP.tmx"),
        (["no-such-scenario", tmp_path / "o.tmx"], "cannot read"),
    ):
        code, out, err = run(capsys, "convert", *argv)
        assert code == 2 and words in err and err.count("\n") == 1, err


def test_hostile_input_never_prints_a_traceback(tmp_path):
    bad = tmp_path / "bad.tmj"
    bad.write_text("[" * 50_000)
    r = subprocess.run(
        [sys.executable, "-m", "game", "convert", str(bad), str(tmp_path / "o.toml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr and "not valid JSON" in r.stderr
