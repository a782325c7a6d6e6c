"""Issue 43: one of two ``hexfire serve --db`` processes killed with SIGKILL every 30 s during a
load run (games against the server's computer at a player's pace, new ones as they end): 0
acknowledged actions lost, 0 games stuck, every cut-off client back on a live process within
5 s. Real processes on one port and a real PostgreSQL (``HEXFIRE_TEST_PG``; skipped without
one). About 75 s: listed in tests/conftest.py SLOW, so CI runs it."""

from __future__ import annotations

from store_helpers import pg_url

from game.server.bench_shared import bench_shared


def test_a_server_process_killed_every_30_s_loses_no_action_and_strands_no_game():
    figures = bench_shared(pg_url(), servers=2, games=16, seconds=70, kill_every=30, think=0.3)
    assert figures["server_kills"] == 2, figures
    assert figures["clients_cut_off"] >= 1  # the kills cut clients off (they came back)
    assert figures["lost_actions"] == 0, figures
    assert figures["games_stuck"] == 0, figures
    assert figures["failover_seconds"] <= 5.0
    assert figures["games_played_through"] >= 1
