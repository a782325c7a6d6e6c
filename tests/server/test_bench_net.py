"""``hexfire bench net`` runs and reports every figure (a smoke test, never a timed one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_smoke_bench_net_reports_every_figure():
    out = subprocess.run(
        [sys.executable, "-m", "game", "bench", "net", "--games", "3", "--concurrent", "2"]
        + ["--kills", "1", "--think", "0", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=280,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    for key in (
        "load_average",
        "reference_disk_commit_p50_ms",
        "reference_disk_commit_p95_ms",
        "round_trip_p50_ms",
        "round_trip_p95_ms",
        "actions_per_second",
        "server_memory_per_game_kib",
        "games_played_through",
        "desyncs",
        "server_kills",
        "lost_actions",
    ):
        assert key in figures, key
    assert figures["games_played_through"] == 3 and figures["server_kills"] == 1
    assert figures["desyncs"] == 0 and figures["lost_actions"] == 0


def test_bench_net_refuses_a_count_out_of_range():
    out = subprocess.run(
        [sys.executable, "-m", "game", "bench", "net", "--concurrent", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 2 and "--concurrent" in out.stderr and "Traceback" not in out.stderr


def test_bench_nets_server_is_started_with_the_sync_asked_for(tmp_path):
    """``--sync normal`` reaches the server (it was dropped: every run synced in full)."""
    from game.server.bench import ServerProcess, _free_port

    server = ServerProcess(tmp_path, _free_port(), "normal")
    server.start()
    try:
        assert server.proc is not None
        args = Path(f"/proc/{server.proc.pid}/cmdline").read_bytes().split(b"\0")
        assert args[args.index(b"--sync") + 1] == b"normal"
    finally:
        server.stop()
