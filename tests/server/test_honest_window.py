"""The window's check of the whole save a server sends at a game's end (issue 40, honest
dice; game/net/remote.py ``honest_problem``): the save must be the game committed to when the
seat joined (the seed's commitment and the scenario's SHA-256 then), with the seed and salt the
end revealed, and a hash chain that reaches the end's head. Any change is named."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

from net_helpers import BOUND, FAST, new_game, play, seat, serving

from game.files.savegame import SavedGame, parse_save
from game.net.remote import honest_problem
from game.net.wire import Commitment, End


def _finished(tmp_path) -> tuple[Commitment, End, SavedGame]:
    async def main():
        async with serving(tmp_path, limits=FAST) as (_, url):
            created = await new_game(url, "tutorial-duel")
            a = await seat(url, created, "german")
            b = await seat(url, created, "russian")
            await asyncio.gather(play(a, 1), play(b, 2))
            assert a.end is not None and a.welcome.commitment == created.commitment
            full = await a.record()
            await a.close()
            await b.close()
            return created.commitment, a.end, parse_save(json.dumps(full.record))

    async def bounded():
        async with asyncio.timeout(BOUND):
            return await main()

    return asyncio.run(bounded())


def test_the_window_accepts_the_save_of_the_game_committed_to_and_names_any_change(tmp_path):
    published, end, saved = _finished(tmp_path)
    assert honest_problem(published, end, saved) is None

    other = Commitment(sha256="0" * 64, scenario_sha256=published.scenario_sha256)
    why = honest_problem(other, end.model_copy(update={"commitment": other}), saved)
    assert why is not None and "commitment" in why  # another seed committed to than shown

    assert "not the ones revealed" in str(
        honest_problem(published, end, replace(saved, seed=saved.seed + 1))
    )
    assert "another commitment" in str(
        honest_problem(published, end.model_copy(update={"commitment": other}), saved)
    )
    swapped = Commitment(sha256=published.sha256, scenario_sha256="f" * 64)
    assert "scenario" in str(
        honest_problem(swapped, end.model_copy(update={"commitment": swapped}), saved)
    )
    actions = [dict(a) for a in saved.actions]
    actions[0] = {**actions[0], "hash": "0" * len(str(actions[0]["hash"]))}  # one entry changed
    assert "chain" in str(honest_problem(published, end, replace(saved, actions=actions)))
    assert "chain" in str(
        honest_problem(published, end.model_copy(update={"chain": "1" * 64}), saved)
    )
