"""tools/docs/figures.py: the figure tables of docs/benchmarks.md and docs/ai.md are written from
the ``--json`` output of ``hexfire bench`` and ``hexfire balance``, never by hand; and the README
stays a player's page (at most 12 KB)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tools_docs import DOCS_TOOLS, docs_tool

ROOT = Path(__file__).resolve().parents[2]
figures = docs_tool("figures")

ODDS = {  # `hexfire bench odds --json`, as printed on 2026-12-04
    "attacks": 514,
    "attacks_per_s": 12477,
    "attacks_per_s_warm": 69152,
    "monte_carlo_1000_rolls_ms": 28.66,
    "speedup_vs_monte_carlo_1000": 357.5,
    "goals": {"attacks_per_s": ">= 20000"},
}


def balance(stem: str, german: int, games: int = 40) -> dict:
    """A `hexfire balance SCENARIO --json` output of that shape."""
    from game.ai.selfplay import wilson

    def side(wins: int, lost: float) -> dict:
        lo, hi = wilson(wins, games)
        return {
            "win_rate": round(wins / games, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "afvs_lost_mean": lost,
        }

    return {
        "scenario": f"/somewhere/scenarios/{stem}.toml",
        "games": games,
        "level": 2,
        "sides": {"german": side(german, 0.42), "russian": side(games - german, 1.45)},
        "mean_end_turn": 4.53,
        "decided_by": {"german: eliminate 2 enemy AFVs": german, "the last turn ended": 2},
    }


AI = {  # `hexfire bench ai --json`, one scenario
    "strength": {
        "tutorial-duel": {
            "games_per_side": 20,
            "top_vs_random": {"win_rate": 0.925, "ci95": [0.801, 0.974]},
            "top_vs_lowest": {"win_rate": 0.875, "ci95": [0.739, 0.945]},
            "lowest_vs_random": {"win_rate": 0.825, "ci95": [0.68, 0.913]},
        }
    },
    "note": "20 games per side",
    "speed": {"decisions": 812, "decision_median_s": 0.0091, "player_turn_max_s": 4.1},
    "goals": {"top_vs_random": ">= 95%", "decision_median_s": "<= 0.2", "player_turn_s": "<= 15"},
}


@pytest.fixture
def docs(tmp_path):
    """A docs folder with every block's markers, empty, amid text that must stay."""
    out = tmp_path / "docs"
    out.mkdir()
    for doc in {k.doc for k in figures.KINDS}:
        parts = [f"# {doc}\n"]
        for k in figures.KINDS:
            if k.doc == doc:
                parts.append(f"text before {k.name}\n\n{figures.begin(k.name)}\nold\n")
                parts.append(f"{figures.end(k.name)}\n\ntext after {k.name}\n")
        (out / doc).write_text("".join(parts), encoding="utf-8")
    return out


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def run(docs: Path, *args: str) -> int:
    return figures.main([*args, "--docs", str(docs), "--machine", "a test machine"])


def block(docs: Path, doc: str, name: str) -> str:
    text = (docs / doc).read_text(encoding="utf-8")
    return text.split(figures.begin(name) + "\n")[1].split("\n" + figures.end(name))[0]


def test_a_bench_output_becomes_its_table_with_the_date_and_the_machine(docs, tmp_path):
    src = write(tmp_path, "odds.json", ODDS)
    assert run(docs, src, "--date", "2026-12-04", "--note", "A busy day.") == 0
    assert block(docs, "benchmarks.md", "bench-odds") == "\n".join(
        [
            "Measured 2026-12-04 on a test machine: `hexfire bench odds --json`. A busy day.",
            "",
            "| figure | measured | goal |",
            "| --- | --- | --- |",
            "| `attacks` | 514 |  |",
            "| `attacks_per_s` | 12,477 | >= 20000 |",
            "| `attacks_per_s_warm` | 69,152 |  |",
            "| `monte_carlo_1000_rolls_ms` | 28.66 |  |",
            "| `speedup_vs_monte_carlo_1000` | 357.5 |  |",
        ]
    )
    kept = json.loads((docs / "figures" / "bench-odds.json").read_text(encoding="utf-8"))
    assert kept == {
        "date": "2026-12-04",
        "machine": "a test machine",
        "note": "A busy day.",
        "figures": ODDS,
    }
    text = (docs / "benchmarks.md").read_text(encoding="utf-8")
    assert "text before bench-odds\n" in text and "\ntext after bench-odds\n" in text
    assert "old" not in block(docs, "benchmarks.md", "bench-los")  # no figures: says how
    assert "hexfire bench los --json > out.json" in block(docs, "benchmarks.md", "bench-los")


def test_balance_outputs_are_rows_one_a_scenario_and_a_new_run_replaces_its_row(docs, tmp_path):
    duel = write(tmp_path, "duel.json", balance("tutorial-duel", 23))
    road = write(tmp_path, "road.json", balance("road-ambush", 15))
    assert run(docs, duel, road, "--date", "2026-12-03") == 0
    rows = block(docs, "ai.md", "balance").splitlines()
    assert rows[4] == (
        "| `road-ambush` | 40 | 2 | german 37.5% (24-53) / russian 62.5% (47-76) | 4.53 | "
        "0.42 / 1.45 | 15: german: eliminate 2 enemy AFVs; 2: the last turn ended | 2026-12-03 |"
    )
    assert rows[5].startswith("| `tutorial-duel` | 40 | 2 | german 57.5% (42-72) / russian")
    again = write(tmp_path, "duel2.json", balance("tutorial-duel", 20))
    assert run(docs, again, "--date", "2026-12-05") == 0
    rows = block(docs, "ai.md", "balance").splitlines()
    assert rows[4].startswith("| `road-ambush` |") and rows[4].endswith("| 2026-12-03 |")
    assert rows[5].startswith("| `tutorial-duel` | 40 | 2 | german 50% (35-65) / russian 50%")
    assert rows[5].endswith("| 2026-12-05 |") and len(rows) == 8


def test_bench_ai_gives_the_strength_table_and_the_speed_figures_with_their_goals(docs, tmp_path):
    assert run(docs, write(tmp_path, "ai.json", AI), "--date", "2026-12-03") == 0
    lines = block(docs, "ai.md", "bench-ai").splitlines()
    assert lines[0] == (
        "Measured 2026-12-03 on a test machine: `hexfire bench ai --json`. 20 games per side."
    )
    # an output from before the top level was played against level 2 (issue 41): "-"
    assert "| `tutorial-duel` | 20 | 92.5% (80-97) | 87.5% (74-94) | 82.5% (68-91) | - |" in lines
    assert "Goals: top (3) vs random (0) >= 95%." in lines
    assert "| `decision_median_s` | 0.0091 | <= 0.2 |" in lines
    assert "| `player_turn_max_s` | 4.1 | <= 15 |" in lines  # its goal is filed as player_turn_s
    assert "| `decisions` | 812 |  |" in lines


def test_issue41_bench_ai_gives_each_sides_wins_against_the_careful_player_and_a_readme_line(
    docs, tmp_path
):
    def won(wins: int, games: int = 4) -> dict:
        from game.ai.selfplay import wilson

        lo, hi = wilson(wins, games)
        return {"wins": wins, "games": games, "win_rate": wins / games, "ci95": [lo, hi]}

    def side(wins: int, hold: int) -> dict:
        plans = {"hold": won(hold, 2), "rush": won(0, 2)}
        return {**won(wins), "careful_plans_won": plans}

    row = dict(AI["strength"]["tutorial-duel"])
    row["top_vs_random"] = {**row["top_vs_random"], "sides": {"german": won(3), "russian": won(4)}}
    row["vs_careful"] = {
        "2": {"german": side(2, 2), "russian": side(4, 0)},
        "3": {"german": side(3, 1), "russian": side(4, 0)},
    }
    goals = {**AI["goals"], "top_vs_careful": ">= 60% on each side"}
    output = {**AI, "strength": {"tutorial-duel": row}, "goals": goals}
    assert run(docs, write(tmp_path, "ai.json", output), "--date", "2026-12-05") == 0
    lines = block(docs, "ai.md", "bench-ai").splitlines()
    head = "| scenario | side | top (3) vs random (0) | top (3) vs level 2 | level 2 vs careful |"
    assert head + " level 3 vs careful | careful's best plan |" in lines
    assert (
        "| `tutorial-duel` | german | 3/4 75% (30-95) | - | 2/4 50% (15-85) | 3/4 75% (30-95) | "
        "2: hold 2/2; 3: hold 1/2 |"
    ) in lines
    russian = "| `tutorial-duel` | russian | 4/4 100% (51-100) | - | 4/4 100% (51-100) | "
    assert russian + "4/4 100% (51-100) | 2: none; 3: none |" in lines
    assert "Goals against the careful player: >= 60% on each side." in lines
    readme = block(docs, "../README.md", "strength").splitlines()
    assert readme[0].startswith("How often the computer's top level wins (`hexfire bench ai`, 2026")
    assert "| `tutorial-duel` | 92.5% | German 75%, Russian 100% |" in readme
    assert (docs.parent / "README.md").read_text().startswith("# ../README.md\ntext before")


def test_issue41_bench_ai_gives_the_top_level_against_level_2_beside_the_others(docs, tmp_path):
    """Issue 41: the top level against level 2 with its 95% interval and its goal, over the
    scenario and each side, its games a side said where they are not the row's; and the note
    said once when the record's own note repeats it (it was written twice)."""
    row = dict(AI["strength"]["tutorial-duel"])
    sides = {
        "german": {"wins": 26, "games": 40, "win_rate": 0.65, "ci95": [0.49, 0.78]},
        "russian": {"wins": 24, "games": 40, "win_rate": 0.6, "ci95": [0.45, 0.74]},
    }
    row["top_vs_2"] = {
        "win_rate": 0.625,
        "ci95": [0.52, 0.72],
        "sides": sides,
        "games_per_side": 40,
    }
    row["top_vs_random"] = {**row["top_vs_random"], "sides": {"german": sides["german"]}}
    plans = {"rush": {"wins": 0, "games": 40, "win_rate": 0.0, "ci95": [0.0, 0.09]}}
    row["vs_careful"] = {"3": {"german": {**sides["german"], "careful_plans_won": plans}}}
    goals = {**AI["goals"], "top_vs_2": ">= 60%"}
    output = {**AI, "strength": {"tutorial-duel": row}, "goals": goals}
    note = "a quiet machine. 20 games per side."
    path = write(tmp_path, "ai.json", output)
    assert run(docs, path, "--date", "2026-12-06", "--note", note) == 0
    lines = block(docs, "ai.md", "bench-ai").splitlines()
    assert lines[0].count("20 games per side") == 1
    assert lines[2].endswith("| lowest (1) vs random (0) | top (3) vs level 2 |")
    assert lines[4].endswith("| 82.5% (68-91) | 62.5% (52-72), 40 a side |")
    assert "Goals: top (3) vs random (0) >= 95%; top (3) vs level 2 >= 60%." in lines
    german = "| `tutorial-duel` | german | 26/40 65% (49-78) | 26/40 65% (49-78) | 26/40 65% "
    assert any(line.startswith(german) for line in lines)


@pytest.mark.parametrize(
    "text, why",
    [
        ("{", "not JSON"),
        ("[1, 2]", "expected one JSON object"),
        ('{"fps": 60}', "not the --json output of hexfire bench"),
        ('{"scenario": "x", "games": 4, "sides": {"german": {}}}', "balance: a figure is missing"),
        ('{"scenario": "../../x y", "games": 4, "sides": {}}', "a scenario name of letters"),
        ('{"strength": {"duel": 3}, "speed": {}}', "bench-ai: a figure is missing"),
    ],
)
def test_a_file_that_is_not_a_benchmarks_output_is_a_one_line_error(
    docs, tmp_path, capsys, text, why
):
    good = write(tmp_path, "odds.json", ODDS)
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    assert run(docs, good, str(bad)) == 2
    err = capsys.readouterr().err
    assert err.startswith("figures.py: ") and why in err and err.count("\n") == 1, err
    assert not (docs / "figures").exists()  # nothing kept, the good file neither
    assert "old" in block(docs, "benchmarks.md", "bench-odds")


def test_a_bad_date_a_missing_file_and_a_doc_without_its_markers_are_one_line_errors(
    docs, tmp_path, capsys
):
    src = write(tmp_path, "odds.json", ODDS)
    assert run(docs, src, "--date", "4 Dec") == 2
    assert run(docs, str(tmp_path / "nowhere.json")) == 2
    (docs / "ai.md").write_text("# no markers\n", encoding="utf-8")
    assert run(docs, src) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "figures.py: --date: expected YYYY-MM-DD, got '4 Dec'"
    assert err[1].startswith("figures.py: ") and "nowhere.json" in err[1]
    assert err[2].startswith("figures.py: ") and "no <!-- figures: bench-ai" in err[2]
    assert len(err) == 3


def test_the_script_runs_from_the_command_line_and_check_sees_a_stale_table(docs, tmp_path):
    script = str(DOCS_TOOLS / "figures.py")
    src = write(tmp_path, "odds.json", ODDS)
    common = ["--docs", str(docs), "--machine", "m"]
    done = subprocess.run(
        [sys.executable, script, src, *common], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "kept" in done.stdout and "wrote" in done.stdout
    check = [sys.executable, script, "--check", *common]
    assert subprocess.run(check, capture_output=True, timeout=60).returncode == 0
    doc = docs / "benchmarks.md"
    doc.write_text(doc.read_text().replace("| 12,477 |", "| 30,000 |"), encoding="utf-8")
    stale = subprocess.run(check, capture_output=True, text=True, timeout=60)
    assert stale.returncode == 1 and "out of date" in stale.stderr


def test_the_docs_figure_tables_are_the_ones_docs_figures_holds():
    """Never edited by hand: run the benchmark with --json, then tools/docs/figures.py."""
    records = figures.stored(figures.DOCS)
    assert records["bench-ai"] and len(records["balance"]) >= 5 and records["bench-los"]
    for path, text in figures.written(figures.DOCS).items():
        assert path.read_text(encoding="utf-8") == text, (
            f"run python3 tools/docs/figures.py: {path}"
        )


def test_the_readme_is_a_players_page_of_at_most_12_kib():
    readme = (ROOT / "README.md").read_bytes()
    assert len(readme) <= 12_288, f"README.md is {len(readme)} bytes: move detail to docs/"
    text = readme.decode("utf-8")
    for link in ("docs/commands.md", "docs/playing.md", "docs/ai.md", "docs/benchmarks.md"):
        assert f"]({link})" in text and (ROOT / link).is_file(), link
