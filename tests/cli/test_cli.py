"""The hexfire command line: los, odds, bench; bad input exits 2 with one line, no traceback."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "scenarios" / "tutorial-duel.toml")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    out, _ = capsys.readouterr()
    assert e.value.code == 0 and "los" in out and "odds" in out and "play" in out


def test_hexfire_alone_opens_the_start_screen(monkeypatch, tmp_path):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from game.ui.scenes.stack import App

    shown = []

    def one_frame(app):
        app.frame(0.016)
        shown.append(type(app.scene).__name__)

    monkeypatch.setattr(App, "run", one_frame)
    assert main([]) == 0
    assert shown == ["StartScene"]


def test_python_dash_m_game_is_hexfire():
    r = subprocess.run([sys.executable, "-m", "game", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "los" in r.stdout


@pytest.mark.parametrize("cmd", ["los", "odds", "bench"])
def test_each_command_has_help(cmd):
    r = subprocess.run(
        [sys.executable, "-m", "game", cmd, "--help"], capture_output=True, text=True
    )
    assert r.returncode == 0 and "usage" in r.stdout


def test_every_commands_help_reads_as_written():
    """A help text printed with its escapes showing ("95%% confidence") tells a player the
    program is broken: each command's --help and the command list print a percent sign as
    one."""
    from game.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    texts = [parser.format_help()] + [p.format_help() for p in sub.choices.values()]
    assert len(texts) > 5 and not [t for t in texts if "%%" in t]


def test_los_prints_the_thread(capsys):
    code, out, _ = run(capsys, "los", DUEL, "A1", "L4")
    assert code == 0
    assert "BLOCKED" in out and "D1" in out and "range      11" in out


def test_los_reads_the_labels_a_person_types_case_insensitively(capsys):
    code, out, _ = run(capsys, "los", DUEL, "a1", "l4")
    assert code == 0 and out.startswith("LOS A1 -> L4")


def test_los_json(capsys):
    code, out, _ = run(capsys, "los", DUEL, "A1", "C2", "--json")
    d = json.loads(out)
    assert code == 0 and d["clear"] is True and d["range"] == 2 and d["rule"] == "RD-9"
    assert [h["hex"] for h in d["hexes"]][0] == "A1"


def test_los_off_the_map_exits_2(capsys):
    code, _, err = run(capsys, "los", DUEL, "A1", "Z9")
    assert code == 2 and "off the map" in err and "Traceback" not in err


def test_los_bad_file_exits_2_with_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\ncolumns = 2\nrows = 1\nhexes = ["o zz"]\n')
    code, _, err = run(capsys, "los", str(bad), "A1", "B1")
    assert code == 2 and f"{bad}:4: map.hexes[0]: hex B1" in err


def test_odds_asl_json_c7_24_example(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "--rules",
        "asl",
        "--firer",
        "gun",
        "--gun",
        "50L",
        "--ammo",
        "AP",
        "--range",
        "25",
        "--aspect",
        "rear",
        "--location",
        "hull",
        "--af",
        "8",
        "--json",
    )
    d = json.loads(out)
    assert code == 0
    assert d["to_hit"]["number"] == 6 and d["to_hit"]["drms"] == []
    tk = d["to_kill"]
    assert (tk["table"], tk["basic"], tk["modified"], tk["af"], tk["final"]) == ("AP", 13, 12, 8, 4)
    assert [(m["case"], m["value"], m["rule"]) for m in tk["modifications"]] == [
        ("A", 1, "C7.21"),
        ("D", -2, "C7.24"),
    ]
    assert abs(sum(d["p"].values()) - 1) < 1e-9
    assert set(d["p"]) == {
        "miss",
        "dud",
        "burn",
        "eliminated",
        "immobilized",
        "abandoned",
        "shock",
        "no_effect",
    }


def test_odds_to_hit_drms_in_json(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "--gun",
        "75L",
        "--range",
        "2",
        "--af",
        "8",
        "--moving",
        "--concealed",
        "--acquired",
        "2",
        "--bore-sighted",
        "--size",
        "-1",
        "--tem",
        "1",
        "--hindrance",
        "1",
        "--json",
    )
    drms = {x["case"]: (x["value"], x["rule"]) for x in json.loads(out)["to_hit"]["drms"]}
    assert drms == {
        "J": (2, "C6.1"),
        "K": (2, "C6.2"),
        "L": (-1, "C6.3"),
        "M": (-2, "C6.4"),
        "P": (-1, "C6.7"),
        "Q": (1, "C6.8"),
        "R": (1, "C6.9"),
    }


def test_odds_chart_json_elimination_number(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "--rules",
        "chart",
        "--firer",
        "sw",
        "--weapon",
        "PF",
        "--armor",
        "E",
        "--range",
        "1",
        "--json",
    )
    d = json.loads(out)
    assert code == 0 and d["to_kill"]["elimination_number"] == 5
    assert d["to_hit"]["number"] == 8


def test_odds_chart_e_and_dash(capsys):
    _, out, _ = run(
        capsys, "odds", "--rules", "chart", "--atfp", "F", "--armor", "A", "--range", "3", "--json"
    )
    assert json.loads(out)["to_kill"]["elimination_number"] == "E"
    _, out, _ = run(
        capsys, "odds", "--rules", "chart", "--atfp", "A", "--armor", "F", "--range", "3", "--json"
    )
    d = json.loads(out)
    assert d["to_kill"]["elimination_number"] == "-" and d["p"]["eliminated"] == 0


def test_odds_text_table(capsys):
    code, out, _ = run(
        capsys, "odds", "--gun", "50L", "--range", "25", "--aspect", "rear", "--af", "8"
    )
    assert code == 0 and "Final TK# 4" in out and "C7.24" in out and "%" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--gun", "20L", "--range", "60", "--af", "1"], "NA"),
        (["--gun", "75L", "--range", "3", "--target", "infantry"], "Infantry"),
        (["--firer", "sw", "--weapon", "PIAT", "--range", "4", "--af", "8"], "range"),
        (["--gun", "75L", "--range", "3"], "--af"),
        (["--gun", "99Q", "--range", "3", "--af", "3"], "bad gun"),
    ],
)
def test_refused_shots_exit_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, "odds", *argv)
    assert code == 2 and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_smoke_bench_odds_runs_and_reports_json(capsys):
    """A smoke test: the benchmark runs and reports its figures (not a test of speed)."""
    code, out, _ = run(capsys, "bench", "odds", "--json")
    d = json.loads(out)
    assert code == 0 and d["attacks"] > 100 and d["attacks_per_s"] > 0


def test_scenarios_lists_the_shipped_scenarios_and_saves(capsys):
    code, out, _ = run(capsys, "scenarios", "--json")
    listing = json.loads(out)
    names = {r["name"] for r in listing["scenarios"]}
    assert code == 0 and {"tutorial-duel", "road-ambush", "hedgerow-chart"} <= names
    assert all(Path(p).exists() for p in listing["saves"]) and len(listing["saves"]) >= 3


def test_a_shipped_scenario_is_found_by_name_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "los", "tutorial-duel", "A1", "L4", "--json")
    assert code == 0 and json.loads(out)["clear"] is False
    code, out, _ = run(capsys, "validate")
    assert code == 0 and out.count(": ok: ") >= 4


def test_play_a_bad_file_says_one_line_and_exits_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("id = [\n")
    r = subprocess.run(
        [sys.executable, "-m", "game", "play", str(bad), "--screenshot", str(tmp_path / "x.png")],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert r.returncode == 2 and "bad.toml" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    missing = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "play",
            str(tmp_path / "nope.json"),
            "--screenshot",
            "x.png",
        ],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_play_screenshot_renders_a_png(tmp_path):
    out = tmp_path / "shot.png"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "play",
            "tutorial-duel",
            "--screenshot",
            str(out),
            "--size",
            "1024x700",
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    import pygame

    image = pygame.image.load(str(out))
    assert image.get_size() == (1024, 700)


def test_the_wheel_packages_every_package_of_game_and_the_top_level_scenarios_and_assets():
    import tomllib

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {
        ".".join(p.parent.relative_to(root).parts)
        for p in (root / "game").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert set(config["packages"]) == found | {"game.scenarios", "game.assets"}
    assert config["package-dir"] == {"game.scenarios": "scenarios", "game.assets": "assets"}
    assert (root / "scenarios" / "tutorial-duel.toml").is_file()
    assert not (root / "game" / "scenarios").exists()


def test_the_checkout_paths_of_the_shipped_files_work_from_any_folder(tmp_path):
    """The checkout's scenarios/ paths (and game/scenarios/, where they were for a while) name
    the shipped files from any folder."""
    run = [sys.executable, "-m", "game"]
    shot = tmp_path / "s.png"
    for argv in (
        ["play", "scenarios/tutorial-duel.toml", "--screenshot", str(shot)],
        ["play", "game/scenarios/bagration-4-boards.toml", "--screenshot", str(shot)],
        ["replay", "scenarios/saves/tutorial-duel-played.json", "--verify"],
        ["los", "scenarios/tutorial-duel.toml", "A1", "L4"],
    ):
        r = subprocess.run([*run, *argv], capture_output=True, text=True, cwd=tmp_path)
        assert r.returncode == 0, (argv, r.stderr)
    r = subprocess.run(
        [*run, "los", "elsewhere/tutorial-duel.toml", "A1", "L4"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_plain_hexfire_takes_a_saves_folder_for_its_start_screen(monkeypatch, tmp_path):
    """`hexfire --save-dir DIR` was refused ("invalid choice"), so the start screen's Resume
    could not reach a saves folder of one's own."""
    from game.cli import main, window

    seen = {}

    def fake_play(args):
        seen["save_dir"], seen["file"] = args.save_dir, args.file
        return 0

    monkeypatch.setattr(window, "_cmd_play", fake_play)
    assert main(["--save-dir", str(tmp_path)]) == 0
    assert seen == {"save_dir": str(tmp_path), "file": None}


def test_balance_prints_each_sides_win_rate_with_its_interval(capsys):
    code, out, _ = run(
        capsys, "balance", "lesson-3-shot", "--games", "3", "--workers", "1", "--json"
    )
    assert code == 0
    figures = json.loads(out)
    assert set(figures["sides"]) == {"german", "russian"} and figures["games"] == 3
    assert figures["level"] == 3  # issue 41: the balance is the top level against itself
    rates = [f["win_rate"] for f in figures["sides"].values()]
    assert sum(rates) == pytest.approx(1.0)
    for f in figures["sides"].values():
        lo, hi = f["ci95"]
        assert 0 <= lo <= f["win_rate"] <= hi <= 1
    assert sum(figures["decided_by"].values()) == 3 and figures["mean_end_turn"] >= 1
    code, out, _ = run(capsys, "balance", "lesson-3-shot", "--games", "2", "--workers", "1")
    assert code == 0 and "95% CI" in out and "decided by" in out


def test_validate_balance_warns_of_a_side_outside_35_to_65_percent(capsys):
    code, out, _ = run(capsys, "validate", "--balance", "--games", "3", "lesson-3-shot")
    assert code == 0 and "ok: Lesson 3" in out
    # three games cannot split 35-65%: one side is warned of, with the figure
    assert "warning:" in out and "outside 35-65%" in out


def test_issue41_validate_balance_plays_the_top_level_as_hexfire_balance_plays(capsys, monkeypatch):
    """Level 1 against itself stands still and the scenario defender wins every game on time:
    its warning said every shipped scenario was 100/0. validate --balance plays the top level
    (3), as hexfire balance does (issue 41: the top level against itself; docs/ai.md's table),
    or the --level given."""
    import game.cli.ai as cli_ai

    levels = []
    real = cli_ai.balance

    def spy(path, games, level, workers, quiet=False):
        levels.append(level)
        return real(path, games, level, workers, quiet)

    monkeypatch.setattr(cli_ai, "balance", spy)
    # a lesson set up to teach: one side wins both games, so the warning names the level
    code, out, _ = run(capsys, "validate", "--balance", "--games", "2", "lesson-1-move")
    assert code == 0 and levels == [3] and "(level 3)" in out
    code, out, _ = run(
        capsys, "validate", "--balance", "--games", "2", "--level", "1", "lesson-1-move"
    )
    assert code == 0 and levels == [3, 1]


def test_play_against_the_computer_refuses_a_side_the_scenario_lacks(capsys):
    code, _, err = run(capsys, "play", "tutorial-duel", "--ai", "martians")
    assert code == 2 and "--ai martians: expected one of german, russian" in err
    code, _, err = run(capsys, "play", "tutorial-duel", "--level", "1")
    assert code == 2 and "--level needs --ai" in err
