"""``hexfire bench``: the benchmarks, each printing its figures beside its goals."""

from __future__ import annotations

import argparse
import json

from .common import CliError


def _print_figures(figures: dict, as_json: bool, title: str) -> None:
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    print(title)
    width = max(len(k) for k in figures)
    for k, v in figures.items():
        if k == "goals":
            continue
        goal = figures.get("goals", {}).get(k)
        tail = f"   (goal {goal})" if goal else ""
        print(f"  {k:<{width}}  {v}{tail}")


def _cmd_bench_soak(args: argparse.Namespace) -> int:
    from game.files.shipped import scenarios_dir
    from game.ui.bench.soak import bench_soak

    for name, value, low, high in (
        ("--minutes", args.minutes, 0.01, 24 * 60),
        ("--events", args.events, 1, 10**9),
        ("--burst", args.burst, 1, 10_000),
        ("--warm-up", args.warm_up, 0, 24 * 3600),
    ):
        if not low <= value <= high:
            raise CliError(f"{name}: expected {low}-{high}, got {value}")
    if args.scenario not in {p.stem for p in scenarios_dir().glob("*.toml")}:
        raise CliError(f"--scenario: no shipped scenario {args.scenario!r}")
    title = (
        f"hexfire bench soak: {args.scenario}, seed {args.seed}, random input for up to "
        f"{args.minutes} minutes or {args.events} events, {args.burst} gesture(s) a frame"
    )
    figures = bench_soak(
        args.minutes,
        args.events,
        args.burst,
        args.seed,
        args.scenario,
        warm_up=args.warm_up,
        trim=not args.no_trim,
    )
    if args.json:
        _print_figures(figures, True, title)
        return 0
    holders = figures.pop("kept_since_warm_up", [])
    slowest = figures.pop("slowest_passes", [])
    _print_figures(figures, False, title)
    print("  kept since the warm-up (tracemalloc, largest first):")
    for line in holders:
        print(f"    {line}")
    print("  the slowest passes of the loop:")
    for line in slowest:
        print(f"    {line}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "los":
        from game.board.bench import bench_los, bench_los_large
        from game.files.largegame import measure

        figures = bench_los()
        goals = figures.pop("goals")
        figures.update(bench_los_large())
        figures.update(measure())
        figures["goals"] = goals
        title = "hexfire bench los: LOS on a 4-board map and on a 200 x 200 map"
        _print_figures(figures, args.json, title)
        return 0
    if args.what == "engine":
        from game.engine.bench import bench_engine
        from game.files.bench import LARGE
        from game.files.scenario import load_scenario

        setup = load_scenario(LARGE).setup
        title = "hexfire bench engine: a random legal game on the four-board map"
        _print_figures(bench_engine(setup), args.json, title)
        return 0
    if args.what == "replay":
        from game.files.bench import bench_replay

        _print_figures(bench_replay(), args.json, "hexfire bench replay: load, replay, verify")
        return 0
    if args.what == "files":
        from game.files.bench import bench_files

        title = "hexfire bench files: read and validate the shipped scenarios and saves"
        _print_figures(bench_files(), args.json, title)
        return 0
    if args.what == "render":
        from game.ui.bench.render import bench_render

        title = (
            "hexfire bench render: the play screen on the four-board and 200 x 200 maps, headless"
        )
        _print_figures(bench_render(), args.json, title)
        return 0
    if args.what == "open":
        from game.ui.bench.opening import bench_open

        title = "hexfire bench open: long saves opened in the replay viewer, headless"
        _print_figures(bench_open(), args.json, title)
        return 0
    if args.what == "reliability":
        from game.ui.bench.opening import bench_reliability_window

        title = (
            "hexfire bench reliability: the window with the longest legal saves and the "
            "largest set-up, headless (hostile files: python3 tests/helpers/reliability.py)"
        )
        _print_figures(bench_reliability_window(), args.json, title)
        return 0
    if args.what == "soak":
        return _cmd_bench_soak(args)
    if args.what == "net":
        from game.server.bench import bench_net

        for name, value, low, high in (
            ("--games", args.games, 1, 100_000),
            ("--concurrent", args.concurrent, 1, 1000),
            ("--kills", args.kills, 0, 1000),
        ):
            if not low <= value <= high:
                raise CliError(f"{name}: expected {low}-{high}, got {value}")
        title = (
            f"hexfire bench net: {args.games} games, {args.concurrent} at once, through "
            f"websocket clients on the loopback against one server process, {args.kills} kills"
        )
        if not 0 <= args.think <= 60:
            raise CliError(f"--think: expected 0-60 seconds, got {args.think}")
        if args.db:
            return _bench_shared(args)
        figures = bench_net(args.games, args.concurrent, args.kills, args.think, args.sync)
        _print_figures(figures, args.json, title)
        return 0
    if args.what == "edit":
        from game.ui.bench.edit import bench_edit

        title = "hexfire bench edit: brush strokes in the scenario editor on the 200 x 200 map"
        _print_figures(bench_edit(), args.json, title)
        return 0
    if args.what == "ai":
        from .ai import _cmd_bench_ai

        return _cmd_bench_ai(args)
    if args.what == "odds":
        from game.rules.bench import bench_odds

        _print_figures(bench_odds(), args.json, "hexfire bench odds: exact odds of AT attacks")
        return 0
    raise CliError(f"unknown benchmark {args.what!r}")


def _bench_shared(args: argparse.Namespace) -> int:
    """``bench net --db postgresql://... --servers N``: issue 43's figures."""
    from game.server.bench_shared import bench_shared

    if not args.db.startswith(("postgresql://", "postgres://")):
        raise CliError(f"--db: expected postgresql://..., got {args.db[:40]!r}")
    if not 1 <= args.servers <= 16:
        raise CliError(f"--servers: expected 1-16, got {args.servers}")
    if not 5 <= args.seconds <= 3600 or not 1 <= args.kill_every <= 3600:
        raise CliError("--seconds: expected 5-3600; --kill-every: expected 1-3600")
    title = (
        f"hexfire bench net: {args.concurrent} games at once over {args.servers} server "
        f"processes on one PostgreSQL store for {args.seconds:g} s, one killed every "
        f"{args.kill_every:g} s"
    )
    try:
        figures = bench_shared(
            args.db,
            args.servers,
            args.concurrent,
            args.seconds,
            args.kill_every,
            args.think,
            args.sync,
            freeze=True,  # its own process: the clients' collector pauses left out (issue 43)
        )
    except Exception as e:  # the database refused (psycopg's errors): one line
        first = (str(e).splitlines() or [type(e).__name__])[0]
        raise CliError(f"bench net --db: {first}") from None
    _print_figures(figures, args.json, title)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
    bench = sub.add_parser(
        "bench",
        help="benchmarks that print figures",
        description="Benchmarks: each prints its figures and the goal beside each.",
    )
    bench.add_argument(
        "what",
        choices=[
            "los",
            "odds",
            "engine",
            "replay",
            "files",
            "render",
            "edit",
            "open",
            "reliability",
            "soak",
            "ai",
            "net",
        ],
        help="los: all-pairs LOS, viewshed, vs scalar; odds: exact odds per second; "
        "engine: actions applied per second; replay: a 2,000-action save verified; "
        "files: scenarios and saves read and validated; "
        "render: the play screen's frame times; "
        "edit: a brush stroke in the editor on the 200 x 200 map, against drawing it afresh; "
        "open: long saves opened in the window (first frame, whole game, memory); "
        "reliability: open's figures and the largest set-up's clicks, against issue 17's goals; "
        "soak: the window under seeded random input (memory each minute, frame times, what "
        "is kept); "
        "ai: the computer's strength and speed (about 13 minutes on 2 cores); "
        "net: games through websocket clients against one server process (round trips, "
        "desyncs, server kills)",
    )
    bench.add_argument("--workers", type=int, help="ai: processes, 1-64 (default: one per core)")
    bench.add_argument(
        "--ai-scenario",
        action="append",
        metavar="NAME",
        help="ai: play only this shipped scenario (repeat for more; default: all but the lessons)",
    )
    bench.add_argument(
        "--ai-games",
        type=int,
        metavar="N",
        help="ai: games a side for each pairing (default 20; 10 on steppe-200)",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--minutes", type=float, default=20.0, help="soak: minutes at most (default 20)"
    )
    bench.add_argument(
        "--events", type=int, default=10**9, help="soak: events at most (default: no limit)"
    )
    bench.add_argument(
        "--burst",
        type=int,
        default=1,
        help="soak: gestures posted before each frame (default 1; a storm: 100)",
    )
    bench.add_argument(
        "--warm-up",
        type=float,
        default=120.0,
        help="soak: seconds before the growth counts and tracing starts (default 120; at "
        "most 10,000 events; 0: trace what the first minutes fill)",
    )
    bench.add_argument("--seed", type=int, default=1, help="soak: the input's seed (default 1)")
    bench.add_argument(
        "--no-trim",
        action="store_true",
        help="soak: the window keeps what it freed when its screen changes (no malloc_trim), "
        "to compare",
    )
    bench.add_argument(
        "--scenario",
        default="bagration-4-boards",
        help="soak: a shipped scenario's name (default bagration-4-boards)",
    )
    bench.add_argument(
        "--games", type=int, default=1000, help="net: games played through (default 1000)"
    )
    bench.add_argument(
        "--concurrent", type=int, default=100, help="net: games at once (default 100)"
    )
    bench.add_argument(
        "--kills", type=int, default=20, help="net: server kills with SIGKILL (default 20)"
    )
    bench.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="net: seconds a client takes to choose an action in the timed games (default 1)",
    )
    bench.add_argument(
        "--sync",
        choices=["full", "normal"],
        default="full",
        help="net: the server's --sync (default full: each action synced to disk)",
    )
    bench.add_argument(
        "--db",
        metavar="URL",
        help="net: the servers keep the games in this PostgreSQL (issue 43's bench: "
        "--servers processes, one killed every --kill-every seconds, for --seconds)",
    )
    bench.add_argument(
        "--servers", type=int, default=2, help="net --db: server processes (default 2)"
    )
    bench.add_argument(
        "--seconds", type=float, default=95.0, help="net --db: how long (default 95)"
    )
    bench.add_argument(
        "--kill-every",
        type=float,
        default=30.0,
        help="net --db: a server process killed (SIGKILL) every this many seconds (default 30)",
    )
    bench.set_defaults(run=_cmd_bench)
