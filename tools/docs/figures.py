"""Write the figure tables of docs/benchmarks.md, docs/ai.md and the README from the ``--json``
output of ``hexfire bench NAME``, ``hexfire bench ai`` and ``hexfire balance SCENARIO``:

    hexfire bench los --json > los.json
    python3 tools/docs/figures.py los.json [more.json ...] [--date YYYY-MM-DD] [--machine TEXT]
        [--note TEXT]

Each file given is kept in docs/figures/ (its kind read from its keys), with the date (default
today), the machine (default this one's system, processor and cores) and the note, and every
table is written again from what docs/figures/ holds, between its markers in the docs. A test
holds the docs to docs/figures/: a table is never edited by hand. With no file, the tables are
written again from docs/figures/ alone; ``--check`` only says whether they are up to date."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
STORE = "figures"
"""The folder under docs/ that keeps the last figures of each kind."""
MAX_BYTES = 1 << 20
"""The largest file read (a benchmark's output is a few kilobytes)."""


class FiguresError(ValueError):
    """A file that is not a benchmark's ``--json`` output, or docs without a block's markers."""


@dataclass(frozen=True)
class Kind:
    """One kind of output: its name (the block's and the stored file's), the doc its table is
    in, the command that prints it, and the keys that tell it apart."""

    name: str
    doc: str
    command: str
    keys: tuple[str, ...]
    source: str = ""
    """Another kind whose stored figures this block is written from (none kept of its own)."""


KINDS = (
    Kind("bench-ai", "ai.md", "hexfire bench ai --json", ("strength", "speed")),
    Kind("balance", "ai.md", "hexfire balance SCENARIO --json", ("scenario", "sides", "games")),
    Kind(
        "bench-reliability",
        "benchmarks.md",
        "hexfire bench reliability --json",
        ("limit_whole_s", "setup_click_worst_ms"),
    ),
    Kind("bench-open", "benchmarks.md", "hexfire bench open --json", ("limit_whole_s",)),
    Kind("bench-los", "benchmarks.md", "hexfire bench los --json", ("pairs_per_s",)),
    Kind("bench-odds", "benchmarks.md", "hexfire bench odds --json", ("attacks_per_s",)),
    Kind(
        "bench-engine",
        "benchmarks.md",
        "hexfire bench engine --json",
        ("actions_per_s_scalar_los",),
    ),
    Kind(
        "bench-replay",
        "benchmarks.md",
        "hexfire bench replay --json",
        ("actions_per_s_unverified",),
    ),
    Kind("bench-files", "benchmarks.md", "hexfire bench files --json", ("scenarios_validate_ms",)),
    Kind("bench-render", "benchmarks.md", "hexfire bench render --json", ("naive_frame_ms",)),
    Kind(
        "bench-soak",
        "benchmarks.md",
        "hexfire bench soak [--minutes M] [--events N] [--burst B] --json",
        ("growth_after_warm_up_mib", "burst"),
    ),
    Kind("bench-net", "benchmarks.md", "hexfire bench net --json", ("desyncs", "lost_actions")),
    Kind("strength", "../README.md", "hexfire bench ai --json", (), source="bench-ai"),
)
"""Tried in this order: the first whose keys the output has is its kind."""

GOAL_OF = {"player_turn_max_s": "player_turn_s"}
"""A figure whose goal ``bench ai`` files under another key."""
PAIRINGS = (
    ("top_vs_random", "top (3) vs random (0)"),
    ("top_vs_lowest", "top (3) vs lowest (1)"),
    ("lowest_vs_random", "lowest (1) vs random (0)"),
    ("top_vs_2", "top (3) vs level 2"),
)
"""The pairings of ``bench ai`` and their headings (an older output without one: "-")."""


def begin(name: str) -> str:
    return f"<!-- figures: {name} (written by tools/docs/figures.py from docs/figures/) -->"


def end(name: str) -> str:
    return f"<!-- /figures: {name} -->"


# --- reading ------------------------------------------------------------------------------


def read_json(path: Path) -> dict:
    """A saved ``--json`` output, or a one-line :class:`FiguresError`."""
    try:
        if path.stat().st_size > MAX_BYTES:
            raise FiguresError(f"{path}: larger than {MAX_BYTES} bytes: not a benchmark's output")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise FiguresError(f"{path}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise FiguresError(f"{path}: not JSON ({e})") from None
    if not isinstance(data, dict):
        raise FiguresError(f"{path}: expected one JSON object, got {type(data).__name__}")
    return data


def kind_of(figures: dict, where: str = "") -> Kind:
    """The kind of an output, from its keys."""
    for kind in KINDS:
        if not kind.source and all(k in figures for k in kind.keys):
            return kind
    raise FiguresError(
        f"{where or 'input'}: not the --json output of hexfire bench NAME, bench ai or balance "
        f"(keys: {', '.join(list(figures)[:6]) or 'none'})"
    )


def stored_name(kind: Kind, figures: dict) -> str:
    """The file in docs/figures/ that keeps this output (one a scenario for ``balance``)."""
    if kind.name == "balance":
        stem = Path(str(figures["scenario"])).stem
        if not stem or not all(c.isalnum() or c in "-_" for c in stem):
            raise FiguresError(
                f"balance: a scenario name of letters, digits, - and _, not {stem!r}"
            )
        return f"balance-{stem}.json"
    if kind.name == "bench-soak":  # one a pace: a player's (burst 1), a storm's by its size
        burst = figures["burst"]
        if not isinstance(burst, int) or isinstance(burst, bool) or burst < 1:
            raise FiguresError(f"bench soak: a burst of 1 or more, not {burst!r}")
        if burst == 1:
            return "bench-soak-burst-1.json"
        events = figures.get("events")
        if not isinstance(events, int) or isinstance(events, bool) or events < 1:
            raise FiguresError(f"bench soak: a count of events, not {events!r}")
        return f"bench-soak-burst-{burst}-{round(events, -4) // 1000}k.json"
    return f"{kind.name}.json"


def this_machine() -> str:
    """The system, processor and cores of the machine running this."""
    system = f"{platform.system()} {platform.machine()}".strip()
    return f"{system}, {os.cpu_count() or '?'} cores"


# --- writing a table ------------------------------------------------------------------------


def cell(value: object) -> str:
    """One figure as a Markdown table cell."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, int | float):
        return f"{value:,}"
    if isinstance(value, dict):
        return ", ".join(f"{k} {cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(cell(v) for v in value)
    return str(value).replace("|", "\\|").replace("\n", " ")


def percent(x: object) -> str:
    """A rate as the docs write it: 0.575 -> 57.5%; a range written by hand stays as it is."""
    if isinstance(x, int | float) and not isinstance(x, bool):
        return f"{100 * x:.1f}".removesuffix(".0") + "%"
    return cell(x)


def rate(f: dict) -> str:
    """A win rate and its 95% interval: "57.5% (42-72)"."""
    lo, hi = f["ci95"]
    return f"{percent(f['win_rate'])} ({100 * lo:.0f}-{100 * hi:.0f})"


def heading(record: dict, command: str) -> str:
    """The line over a table: when, where and how it was measured."""
    line = f"Measured {record['date']} on {record['machine']}: `{command}`."
    if record.get("note"):
        line += f" {record['note']}"
    return line


def figure_rows(figures: dict, goals: dict) -> list[str]:
    rows = ["| figure | measured | goal |", "| --- | --- | --- |"]
    for k, v in figures.items():
        if k == "goals":
            continue
        goal = goals.get(k, goals.get(GOAL_OF.get(k, ""), ""))
        rows.append(f"| `{k}` | {cell(v)} | {cell(goal) if goal else ''} |")
    return rows


def bench_table(kind: Kind, records: list[dict]) -> list[str]:
    (record,) = records
    figures = record["figures"]
    goals = figures.get("goals") or {}
    return [heading(record, kind.command), "", *figure_rows(figures, goals)]


def ai_table(kind: Kind, records: list[dict]) -> list[str]:
    (record,) = records
    f = record["figures"]
    goals = f.get("goals") or {}
    head = heading(record, kind.command)
    if f.get("note") and cell(f["note"]) not in head:  # a --note that repeats it: said once
        head += f" {cell(f['note'])}."
    lines = [head, "", "| scenario | games per side | " + " | ".join(t for _, t in PAIRINGS) + " |"]
    lines.append("| --- | --- |" + " --- |" * len(PAIRINGS))
    for stem, row in f["strength"].items():
        cells = [pairing(row, key) for key, _ in PAIRINGS]
        lines.append(f"| `{stem}` | {cell(row['games_per_side'])} | " + " | ".join(cells) + " |")
    wanted = [f"{t} {goals[k]}" for k, t in PAIRINGS if k in goals]
    if wanted:
        lines += ["", "Goals: " + "; ".join(wanted) + "."]
    lines += careful_rows(f, goals)
    lines += ["", *figure_rows(f["speed"], goals)]
    return lines


def pairing(row: dict, key: str) -> str:
    """A pairing's cell: its win rate and interval, its games a side when they are not the
    row's (the top level against level 2: 40), "-" where the output has none."""
    f = row.get(key)
    if not f:
        return "-"
    n = f.get("games_per_side")
    return rate(f) + (f", {n} a side" if n and n != row["games_per_side"] else "")


def readme_table(kind: Kind, records: list[dict]) -> list[str]:
    """The README's line per scenario (issue 41): how often the top level wins against random
    play and, each side, against the careful sparring player."""
    (record,) = records
    lines = [
        f"How often the computer's top level wins (`{kind.command.removesuffix(' --json')}`, "
        f"{record['date']}; [docs/ai.md](docs/ai.md)):",
        "",
        "| scenario | vs random play | vs a careful player, by its side |",
        "| --- | --- | --- |",
    ]
    for stem, row in record["figures"]["strength"].items():
        top = row.get("vs_careful", {}).get("3", {})
        sides = ", ".join(f"{side.title()} {percent(c['win_rate'])}" for side, c in top.items())
        lines.append(f"| `{stem}` | {percent(row['top_vs_random']['win_rate'])} | {sides} |")
    return lines


def careful_rows(f: dict, goals: dict) -> list[str]:
    """Each side of each scenario: the top level's wins against random play and each level's
    against the careful sparring player (issue 41), wins/games with the 95% interval, and the
    plan of the careful player that won most (none in an output from before it)."""
    rows = [(stem, row) for stem, row in f["strength"].items() if row.get("vs_careful")]
    if not rows:
        return []
    levels = sorted(rows[0][1]["vs_careful"], key=int)
    head = " | ".join(f"level {lv} vs careful" for lv in levels)
    lines = [
        "",
        f"| scenario | side | top (3) vs random (0) | top (3) vs level 2 | {head} "
        "| careful's best plan |",
        "| --- | --- | --- | --- |" + " --- |" * len(levels) + " --- |",
    ]
    for stem, row in rows:
        for side, r in row["top_vs_random"]["sides"].items():
            two = row.get("top_vs_2", {}).get("sides", {}).get(side)
            cells, best = [f"{two['wins']}/{two['games']} {rate(two)}" if two else "-"], []
            for lv in levels:
                c = row["vs_careful"][lv][side]
                cells.append(f"{c['wins']}/{c['games']} {rate(c)}")
                plan, p = max(
                    c["careful_plans_won"].items(), key=lambda kv: (kv[1]["win_rate"], kv[0])
                )
                won = f"{cell(plan)} {p['wins']}/{p['games']}" if p["wins"] else "none"
                best.append(f"{lv}: {won}")
            lines.append(
                f"| `{stem}` | {cell(side)} | {r['wins']}/{r['games']} {rate(r)} | "
                + " | ".join(cells)
                + f" | {'; '.join(best)} |"
            )
    wanted = [goals[k] for k in ("top_vs_careful", "careful_plan") if k in goals]
    if wanted:
        lines += ["", "Goals against the careful player: " + "; ".join(wanted) + "."]
    return lines


def balance_table(kind: Kind, records: list[dict]) -> list[str]:
    lines = [
        "Each row: `hexfire balance SCENARIO --games N --level L --json`, the computer against "
        "itself.",
        "",
        "| scenario | games | level | win rate (95% CI) | mean end turn | AFVs lost per game | "
        "decided by (games) | measured |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    machines: dict[str, None] = {}
    for record in sorted(records, key=lambda r: Path(str(r["figures"]["scenario"])).stem):
        f = record["figures"]
        sides = f["sides"]
        win = " / ".join(f"{side} {rate(s)}" for side, s in sides.items())
        lost = " / ".join(cell(s["afvs_lost_mean"]) for s in sides.values())
        decided = "; ".join(f"{cell(n)}: {cell(why)}" for why, n in f["decided_by"].items())
        when = record["date"] + (f" ({record['note']})" if record.get("note") else "")
        lines.append(
            f"| `{Path(str(f['scenario'])).stem}` | {cell(f['games'])} | {cell(f['level'])} | "
            f"{win} | {cell(f['mean_end_turn'])} | {lost} | {decided} | {cell(when)} |"
        )
        machines[record["machine"]] = None
    lines += ["", "Measured on " + "; ".join(machines) + "."]
    return lines


def soak_table(kind: Kind, records: list[dict]) -> list[str]:
    """The soaks side by side, one column a pace, then what each kept since its warm-up."""
    records = sorted(records, key=lambda r: (r["figures"]["burst"], r["figures"]["events"]))
    runs = [r["figures"] for r in records]
    keys = list(dict.fromkeys(k for f in runs for k in f if k not in NOT_IN_SOAK_TABLE))
    goals = runs[0].get("goals") or {}
    lines = [heading(r, kind.command) for r in records]
    columns = " | ".join(_soak_column(f) for f in runs)
    lines += ["", f"| figure | {columns} | goal |"]
    lines.append("| --- |" + " --- |" * (len(runs) + 1))
    for k in keys:
        cells = " | ".join(cell(f.get(k)) for f in runs)
        lines.append(f"| `{k}` | {cells} | {cell(goals[k]) if k in goals else ''} |")
    for f in runs:
        title = f"Kept since the warm-up, {_soak_column(f)} (tracemalloc, by line):"
        lines += ["", title, ""]
        lines += [f"- `{cell(h)}`" for h in f.get("kept_since_warm_up") or ["nothing traced"]]
        if f.get("slowest_passes"):
            lines += ["", f"The slowest passes, {_soak_column(f)}:", ""]
            lines += [f"- {cell(p)}" for p in f["slowest_passes"]]
    return lines


NOT_IN_SOAK_TABLE = ("goals", "kept_since_warm_up", "slowest_passes")
"""Listed under the table, not in it."""


def _soak_column(f: dict) -> str:
    """A soak's column: its pace, and a storm's size."""
    if f["burst"] == 1:
        return "burst 1"
    return f"burst {cell(f['burst'])}, {cell(f['events'])} events"


TABLES: dict[str, Callable[[Kind, list[dict]], list[str]]] = {
    "bench-ai": ai_table,
    "balance": balance_table,
    "bench-soak": soak_table,
    "strength": readme_table,
}


def table(kind: Kind, records: list[dict]) -> str:
    """The Markdown of one block: its table(s) from the records stored for it."""
    if not records:
        return (
            f"No figures kept yet: run `{kind.command} > out.json`, then "
            "`python3 tools/docs/figures.py out.json`."
        )
    try:
        return "\n".join(TABLES.get(kind.name, bench_table)(kind, records))
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as e:
        raise FiguresError(f"{kind.name}: a figure is missing or malformed ({e!r})") from None


# --- the store and the docs -----------------------------------------------------------------


def stored(docs: Path) -> dict[str, list[dict]]:
    """Kind name -> the records docs/figures/ keeps for it."""
    out: dict[str, list[dict]] = {k.name: [] for k in KINDS}
    for path in sorted((docs / STORE).glob("*.json")):
        record = read_json(path)
        figures = record.get("figures")
        if not isinstance(figures, dict):
            raise FiguresError(f"{path}: no 'figures' object: not written by this script")
        out[kind_of(figures, str(path)).name].append(record)
    return out


def with_blocks(text: str, blocks: dict[str, str], where: str) -> str:
    """``text`` with each block's lines between its markers replaced."""
    for name, body in blocks.items():
        head, found, rest = text.partition(begin(name))
        _, closed, tail = rest.partition(end(name))
        if not found or not closed:
            raise FiguresError(f"{where}: no {begin(name)} ... {end(name)} block")
        text = f"{head}{begin(name)}\n{body}\n{end(name)}{tail}"
    return text


def written(docs: Path) -> dict[Path, str]:
    """Each doc with a block, as the store writes it."""
    records = stored(docs)
    out: dict[Path, str] = {}
    for doc in sorted({k.doc for k in KINDS}):
        path = (docs / doc).resolve()
        blocks = {k.name: table(k, records[k.source or k.name]) for k in KINDS if k.doc == doc}
        out[path] = with_blocks(path.read_text(encoding="utf-8"), blocks, str(path))
    return out


def record_of(figures: dict, date: str, machine: str, note: str | None) -> dict:
    record: dict = {"date": date, "machine": machine}
    if note:
        record["note"] = note
    record["figures"] = figures
    return record


def keep(docs: Path, inputs: Iterable[Path], date: str, machine: str, note: str | None) -> list:
    """Check every input, then keep each in docs/figures/; returns the files written."""
    kept = []
    for path in inputs:
        figures = read_json(path)
        kind = kind_of(figures, str(path))
        name = stored_name(kind, figures)
        record = record_of(figures, date, machine, note)
        table(kind, [record])  # a malformed output fails here, before anything is written
        kept.append((docs / STORE / name, record))
    for target, record in kept:
        target.parent.mkdir(exist_ok=True)
        target.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return [t for t, _ in kept]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 tools/docs/figures.py",
        description="Keep benchmark figures (the --json output of hexfire bench / balance) in "
        "docs/figures/ and write the tables of docs/benchmarks.md and docs/ai.md from them.",
    )
    parser.add_argument("files", nargs="*", type=Path, help="saved --json outputs")
    parser.add_argument("--date", help="when they were measured, YYYY-MM-DD (default today)")
    parser.add_argument("--machine", help="where (default: this machine's system and cores)")
    parser.add_argument("--note", help="one line shown with the figures (a busy machine, ...)")
    parser.add_argument("--docs", type=Path, default=DOCS, help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="exit 1 if a table is out of date")
    args = parser.parse_args(argv)
    try:
        date = args.date or datetime.date.today().isoformat()
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise FiguresError(f"--date: expected YYYY-MM-DD, got {date!r}") from None
        if args.check:
            stale = [p for p, text in written(args.docs).items() if p.read_text("utf-8") != text]
            for p in stale:
                print(f"{p}: out of date: run python3 tools/docs/figures.py", file=sys.stderr)
            return 1 if stale else 0
        for path in keep(args.docs, args.files, date, args.machine or this_machine(), args.note):
            print(f"kept {path}")
        for path, text in written(args.docs).items():
            if path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
    except FiguresError as e:
        print(f"figures.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
