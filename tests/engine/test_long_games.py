"""Random legal games on every shipped scenario (the 200 x 200 one included) played to their
end with the engine's invariants checked after every action, saved, and replayed from the save
to the same hash after every action. The short version runs in CI; ``-m long`` plays many more
games, and the 60-turn versions of the scenarios."""

from __future__ import annotations

import random
import time

import pytest
from engine_helpers import check_invariants

from game.engine import Game
from game.engine.randomplay import policy
from game.files.bench import long_version
from game.files.replay import replay
from game.files.savegame import SavedGame, parse_save, save
from game.files.scenario import Scenario, load_scenario
from game.files.shipped import shipped_scenarios


def play_and_replay(scenario: Scenario, seed: int, tmp_path, limit: int = 20_000) -> dict:
    """One game: every action checked, the save written and read back, the replay's hash after
    every action equal to the game's."""
    game = Game(scenario.setup, seed)
    saved = SavedGame.new(scenario, seed)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    while not game.over and len(saved.actions) < limit:
        action = policy(game, rng)
        game.apply(action)
        check_invariants(game)
        saved.record(action, game)
    path = tmp_path / f"{scenario.setup.title[:8]}-{seed}.json"
    save(saved, path)
    again = replay(parse_save(path.read_text(), path.name), name=path.name)  # every hash
    assert again.state_hash() == game.state_hash()
    return {"actions": len(saved.actions), "over": game.over, "s": time.perf_counter() - t0}


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_a_random_legal_game_to_its_end_replays_to_the_same_hashes(path, tmp_path):
    figures = play_and_replay(load_scenario(path), 11, tmp_path)
    assert figures["over"]


@pytest.mark.long
@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_long_many_games_and_the_60_turn_versions(path, tmp_path):
    scenario = load_scenario(path)
    played = [play_and_replay(scenario, seed, tmp_path) for seed in range(20)]
    played.append(play_and_replay(long_version(scenario), 1944, tmp_path))
    assert all(p["over"] for p in played)
    actions = sum(p["actions"] for p in played)
    seconds = sum(p["s"] for p in played)
    print(f"\n{path.stem}: {len(played)} games, {actions} actions, {seconds:.1f} s")
