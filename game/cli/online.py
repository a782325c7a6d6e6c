"""``hexfire serve``, ``host`` and ``join``: play across machines (docs/online.md)."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from .common import CliError, say

DEFAULT_PORT = 8765


def data_folder(given: str | None) -> Path:
    """Where the server keeps its games: ``--data``, else the user data folder's ``server``."""
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_data_dir("hexfire", appauthor=False)) / "server"


def _ssl_context(certfile: str | None, keyfile: str | None):
    if not certfile and not keyfile:
        return None
    if not certfile:
        raise CliError("--keyfile needs --certfile")
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as e:
        raise CliError(f"--certfile/--keyfile: {getattr(e, 'strerror', None) or e}") from None
    return context


def open_store(args: argparse.Namespace) -> tuple:
    """The store ``--db`` (PostgreSQL) or ``--data`` (SQLite, the default) names, and where
    it is, said without a password."""
    from game.server.store import SqliteStore, StoreError

    try:
        if args.db:
            if args.data:
                raise CliError("--db and --data: give one (--db: PostgreSQL; --data: SQLite)")
            if not args.db.startswith(("postgresql://", "postgres://")):
                raise CliError(f"--db: expected postgresql://..., got {args.db[:40]!r}")
            from game.server.pgstore import PgStore

            pg = PgStore(args.db, sync=args.sync)
            return pg, pg.where
        path = data_folder(args.data) / "games.sqlite"
        return SqliteStore(path, args.sync), str(path)
    except StoreError as e:
        raise CliError(str(e)) from None


def _cmd_serve(args: argparse.Namespace) -> int:
    import logging

    from game.server.server import run

    if not 0 <= args.port <= 65535:
        raise CliError(f"--port: expected 0-65535, got {args.port}")
    context = _ssl_context(args.certfile, args.keyfile)
    store, where = open_store(args)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    for noisy in ("websockets", "websockets.server", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    scheme = "wss" if context else "ws"

    kept = len(store.game_ids())

    def ready(port: int) -> None:
        say(
            f"hexfire serve: {scheme}://{args.host}:{port} ({kept} game{'s' * (kept != 1)} "
            f"kept in {where})"
        )
        sys.stdout.flush()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = loop.create_future()

        def stopping() -> None:
            if not stop.done():
                stop.set_result(None)

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stopping)
        await run(
            store,
            args.host,
            args.port,
            context,
            ready=ready,
            stop=stop,
            freeze=True,
            relay_host=args.relay_host,
        )

    try:
        asyncio.run(main())
    except OSError as e:
        raise CliError(f"{args.host}:{args.port}: {e.strerror or e}") from None
    finally:
        store.close()
    say("hexfire serve: stopped")
    return 0


def _cmd_host(args: argparse.Namespace) -> int:
    from game.files.scenario import ScenarioError, load_scenario
    from game.files.shipped import find_scenario
    from game.net.client import LinkError, NetError, Refusal, create_game, invitation, server_url

    try:
        server = server_url(args.server)
    except LinkError as e:
        raise CliError(str(e)) from None
    scenario = load_scenario(find_scenario(args.scenario))  # ScenarioError: its located lines
    sides = tuple(scenario.setup.sides)
    for flag, side in (("--side", args.side), ("--ai", args.ai)):
        if side is not None and side not in sides:
            raise CliError(f"{flag}: expected one of {', '.join(sides)}, got {side!r}")
    if args.ai is not None and args.ai == args.side:
        raise CliError("--side and --ai name the same side: the computer plays --ai")
    if args.level is not None and args.ai is None:
        raise CliError("--level needs --ai SIDE (the side the computer plays)")
    mine = args.side or next(s for s in sides if s != args.ai)
    try:
        created = asyncio.run(
            create_game(
                server,
                Path(scenario.path).name,
                scenario.text,
                args.ai,
                2 if args.level is None else args.level,
            )
        )
    except (NetError, Refusal) as e:
        raise CliError(str(e)) from None
    except ScenarioError as e:  # pragma: no cover - checked above
        raise CliError(str(e)) from None
    say(f"{scenario.title}: game {created.game} on {server}")
    say(f"seed commitment (SHA-256): {created.commitment.sha256}")
    for side in sides:
        if side == args.ai:
            say(f"{side}: the computer (level {2 if args.level is None else args.level})")
            continue
        who = " (you)" if side == mine else " (send it to your opponent)"
        link = invitation(server, created.game, created.tokens[side])
        say(f"{side}{who}: {link.text()}")
    say("each link is its seat's key: keep it to yourself; open one with: hexfire join LINK")
    return 0


def away_order(text: str | None):
    """``--away``: ask, pass, kill:N (fire at a kill chance of N% or more) or j1 (fire at
    Case J1 or better)."""
    from game.net.wire import DffOrder

    if text is None:
        return None
    word, _, n = text.partition(":")
    if word in ("ask", "pass") and not n:
        return DffOrder(policy=word)  # type: ignore[arg-type]
    if word == "j1" and not n:
        return DffOrder(policy="case_j1")
    if word == "kill" and n.isdigit() and 1 <= int(n) <= 100:
        return DffOrder(policy="kill", percent=int(n))
    raise CliError(f"--away: expected ask, pass, kill:N (N 1-100) or j1, got {text!r}")


def _cmd_join(args: argparse.Namespace) -> int:
    from game.net.client import Link, LinkError, NetError

    from .window import _size

    try:
        Link.parse(args.link)
    except LinkError as e:
        raise CliError(str(e)) from None
    size = _size(args.size)
    order = away_order(args.away)
    from game.ui.main import run_join

    try:
        return run_join(args.link, size, order=order)
    except (NetError, LinkError) as e:
        raise CliError(str(e)) from None


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register this module's commands."""
    srv = sub.add_parser(
        "serve",
        help="run a server that hosts games across machines (docs/online.md)",
        description="Host hexfire games: each seat sees only its side, every action is stored "
        "before it is acknowledged, the dice are committed to at creation and revealed at the "
        "end. Ctrl+C or SIGTERM stops it; a restart goes on with every game.",
    )
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    srv.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any)"
    )
    srv.add_argument("--data", metavar="DIR", help="where the games are kept (SQLite, default)")
    srv.add_argument(
        "--db",
        metavar="URL",
        help="keep the games in PostgreSQL (postgresql://USER@HOST:PORT/DB): any number of "
        "server processes may share it",
    )
    srv.add_argument(
        "--sync",
        choices=["full", "normal"],
        default="full",
        help="full (default): each action synced to disk before it is acknowledged (a power "
        "cut loses none); normal: written, not synced (a killed server loses none, a power "
        "cut may lose the last; much quicker on a slow disk; with --db: PostgreSQL's "
        "synchronous_commit on or off)",
    )
    srv.add_argument(
        "--relay-host",
        default="127.0.0.1",
        metavar="ADDR",
        help="with --db: the address the other server processes reach this one at, on a port "
        "of its own, to relay a seat to the process that plays its game (default 127.0.0.1: "
        "all on this machine; plain ws://, so a private network between machines)",
    )
    srv.add_argument("--certfile", metavar="F", help="TLS certificate (wss://)")
    srv.add_argument("--keyfile", metavar="F", help="TLS private key")
    srv.set_defaults(run=_cmd_serve)

    host = sub.add_parser(
        "host",
        help="create a game on a server and print one invitation link per seat",
        description="Create a game of SCENARIO on the server at URL and print each seat's "
        "link (the computer's seat, --ai, has none). Open yours with hexfire join LINK.",
    )
    host.add_argument("scenario", metavar="SCENARIO", help="a scenario (.toml or a shipped name)")
    host.add_argument("--server", required=True, metavar="URL", help="ws://HOST:PORT or wss://...")
    host.add_argument(
        "--side", metavar="S", help="your side (default: the first not the computer's)"
    )
    host.add_argument("--ai", metavar="SIDE", help="the server's computer plays SIDE")
    host.add_argument(
        "--level",
        type=int,
        choices=[0, 1, 2, 3],
        help="with --ai: the computer's level (default 2)",
    )
    host.set_defaults(run=_cmd_host)

    join = sub.add_parser(
        "join",
        help="open the game window on a seat of a game on a server (its invitation link)",
        description="Play your seat of an online game: the normal window, your side's view "
        "only. Close it any time and join again with the same link: the game waits.",
    )
    join.add_argument("link", metavar="LINK", help="ws://HOST:PORT/game/GAME#TOKEN")
    join.add_argument("--size", default="1280x800", help="window size WxH (default 1280x800)")
    join.add_argument(
        "--away",
        metavar="ORDER",
        help="your standing Defensive First Fire order while your window is closed (C6.17): "
        "ask (the mover waits for you; the default), pass, kill:N (fire at a kill chance of "
        "N%% or more) or j1 (fire at Case J1 or better); the server keeps it, your opponent "
        "never sees it",
    )
    join.set_defaults(run=_cmd_join)
