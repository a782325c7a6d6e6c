"""A seat's standing order for its Defensive First Fire chances while it is away (issue 40,
C6.17): the server applies it so that the mover is not held up; "ask" waits for the seat; the
order is shown to its own side only."""

from __future__ import annotations

import asyncio

import pytest
from net_helpers import BOUND, FAST, new_game, seat, serving

from game.net.wire import DffOrder
from game.server.orders import J1_OR_BETTER, case_j


def run(coro):
    async def bounded():
        async with asyncio.timeout(BOUND):
            return await coro

    return asyncio.run(bounded())


async def _mover_plays_until_a_chance(server, created, russian, order: DffOrder | None):
    """The German defender sets ``order`` and leaves; the Russian moves until a Defensive
    First Fire chance came up (the server's stored actions say who took it)."""
    hosted = server.games[created.game]
    board = hosted.game.board  # (the map: public)
    goal = board.parse("G5")

    def toward(legal: list[dict]) -> dict:  # the T-34 dashes along the road to G5
        moves = [a for a in legal if a["type"] == "move" and a["to"] != "off"]
        if moves:
            return min(moves, key=lambda a: board.parse(a["to"]).distance(goal))
        return next((a for a in legal if a["type"] == "end_move"), legal[0])

    for _ in range(400):
        await russian.until(lambda: russian.ready, BOUND)
        if russian.end is not None or hosted.game.dff_pending:
            break
        view = russian.view
        if view.acting != "russian":
            break  # the German's turn: it is away and waits
        await russian.act(toward(list(view.legal)), view.version)
        if any(a.by == "server" and a.shown["type"] in ("pass", "fire") for a in hosted.actions):
            break
    return hosted


@pytest.mark.parametrize("policy", ["pass", "kill"])
def test_an_away_defenders_order_is_applied_and_the_mover_goes_on(tmp_path, policy):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "lesson-5-dff")
            german = await seat(url, created, "german")
            order = DffOrder(policy=policy, percent=1)
            assert await german.set_order(order) == order
            seen_by_russian = []
            russian = await seat(url, created, "russian", on_message=seen_by_russian.append)
            while german.view.acting == "german" and german.view.phase in (
                "setup",
                "setup_attacker",
            ):
                await german.act({"type": "end_phase"})
                await german.until(lambda: german.ready, BOUND)
            await german.close()
            await asyncio.sleep(0.1)
            hosted = await _mover_plays_until_a_chance(server, created, russian, order)
            taken = [a for a in hosted.actions if a.by == "server" and a.side == "german"]
            kinds = {a.shown["type"] for a in taken}
            assert kinds & {"pass", "fire"}, "no Defensive First Fire chance was taken for it"
            if policy == "pass":
                assert "fire" not in kinds
            else:  # a kill chance of 1% or more: it fires
                assert "fire" in kinds
            assert not hosted.game.dff_pending or hosted.game.to_act == "russian"
            # the German's order is its own: the Russian is told its own order only
            assert not [m for m in seen_by_russian if getattr(m, "t", "") == "order"]
            welcomes = [m for m in seen_by_russian if getattr(m, "t", "") == "welcome"]
            assert welcomes and all(w.order == DffOrder() for w in welcomes)
            await russian.close()

    run(main())


def test_ask_waits_for_the_away_defender_and_its_return_finds_the_prompt(tmp_path):
    async def main():
        async with serving(tmp_path, limits=FAST) as (server, url):
            created = await new_game(url, "lesson-5-dff")
            german = await seat(url, created, "german")
            russian = await seat(url, created, "russian")
            while german.view.acting == "german" and german.view.phase in (
                "setup",
                "setup_attacker",
            ):
                await german.act({"type": "end_phase"})
                await german.until(lambda: german.ready, BOUND)
            await german.close()
            hosted = await _mover_plays_until_a_chance(server, created, russian, None)
            assert hosted.game.dff_pending, "the Russian's move drew no chance"
            assert russian.view.acting == "german"  # the mover waits: the German was asked
            back = await seat(url, created, "german")
            assert back.view.dff is not None and back.view.acting == "german"
            assert back.welcome.order == DffOrder()
            await back.act({"type": "pass"})
            await back.close()
            await russian.close()

    run(main())


def test_case_j_is_read_from_the_shots_report():
    report = {"to_hit": {"drms": [{"case": "J1", "value": 3}, {"case": "Q", "value": 2}]}}
    assert case_j(report) == 3 <= J1_OR_BETTER
    assert case_j({"to_hit": {"drms": [{"case": "J2", "value": 4}]}}) == 4 > J1_OR_BETTER
    assert case_j({"to_hit": {"drms": []}}) is None
