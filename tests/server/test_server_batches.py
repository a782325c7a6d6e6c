"""The server's own actions in a row (the quick computer's, the phases passed by themselves)
are stored in one transaction, then sent: one sync of the disk and one view for them all
(game/server/seats.py, BATCH; docs/online.md: every action durable before anyone is told of
it). ``hexfire bench net``'s round trip depends on it (docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from net_helpers import BOUND, new_game, seat, serving

from game.server.store import SqliteStore


class CountingStore(SqliteStore):
    """A SQLite store that records the actions each transaction stored (their indexes)."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.transactions: list[list[int]] = []
        self._open: list[int] | None = None

    def together(self):
        store = self
        inner = super().together()

        class Counted:
            def __enter__(self):
                store._open = []
                return inner.__enter__()

            def __exit__(self, *exc):
                done, store._open = store._open, None
                out = inner.__exit__(*exc)
                if exc[0] is None and done:
                    store.transactions.append(done)
                return out

        return Counted()

    def append(self, game_id, index, action, state) -> None:
        super().append(game_id, index, action, state)
        if self._open is not None:
            self._open.append(index)
        else:
            self.transactions.append([index])


def test_the_quick_computers_actions_in_a_row_are_one_transaction_then_one_view(tmp_path):
    async def main():
        store = CountingStore(tmp_path / "games.sqlite")
        try:
            async with serving(tmp_path, store=store) as (server, url):
                created = await new_game(url, "tutorial-duel", computer="german", level=1)
                sent: list[tuple[int, int]] = []  # each view sent: (its actions, those stored)
                server.taps[(created.game, "russian")] = lambda text: sent.append(
                    (
                        len(server.games[created.game].session.saved_actions),
                        len(store.load(created.game).actions),
                    )
                    if json.loads(text).get("t") == "view"
                    else (-1, -1)
                )
                russian = await seat(url, created, "russian")
                for _ in range(60):  # the Russian ends its phases; the computer plays between
                    await russian.until(lambda: russian.ready, BOUND)
                    view = russian.view
                    if russian.end is not None or view.acting != "russian":
                        break
                    await russian.act({"type": "end_phase"}, view.version)
                hosted = server.games[created.game]
                by_server = [i for i, a in enumerate(hosted.actions) if a.by != "seat"]
        finally:
            store.close()
        return store.transactions, sent, by_server

    transactions, sent, by_server = asyncio.run(main())
    assert len(by_server) >= 4
    # several of the server's actions went in one transaction (not one sync each)
    assert max(len(t) for t in transactions) >= 2, transactions
    stored = sorted(i for t in transactions for i in t)
    assert stored == list(range(len(stored)))  # each action once, none missing
    # no view went out before every action it shows was stored
    views = [(made, kept) for made, kept in sent if made >= 0]
    assert views and all(made <= kept for made, kept in views), views


def test_serve_freezes_each_game_out_of_the_collectors_passes_once_built(tmp_path, monkeypatch):
    """``hexfire serve`` asks for it; a game created (or opened) then moves what lives to the
    collector's permanent generation (a test's server leaves the collector alone)."""
    import gc

    import game.server.server as server_module
    from game.cli import main

    asked: dict = {}

    async def fake_run(store, host, port, ssl_context=None, **options):
        asked.update(options)

    monkeypatch.setattr(server_module, "run", fake_run)
    assert main(["serve", "--port", "0", "--data", str(tmp_path / "cli")]) == 0
    assert asked.get("freeze") is True

    async def create(freeze: bool) -> int:
        gc.unfreeze()
        async with serving(tmp_path / str(freeze), freeze=freeze) as (_, url):
            await new_game(url, "tutorial-duel")
            return gc.get_freeze_count()

    try:
        assert asyncio.run(create(False)) == 0
        assert asyncio.run(create(True)) > 0
    finally:
        gc.unfreeze()
