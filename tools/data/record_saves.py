"""Record the shipped saved games (scenarios/saves/): random legal games played to the end.

    python3 tools/data/record_saves.py

Each save is searched for from a fixed seed upward until the game ends (and, for road-ambush,
until it uses set-up concealment and bore sighting, RD-11 / C6.42), so the files are the same
on every run of the same engine. Re-run it when a rules change makes the old saves diverge.
"""

from __future__ import annotations

from game.files.bench import record
from game.files.replay import replay
from game.files.savegame import save
from game.files.scenario import load_scenario
from game.files.shipped import scenarios_dir

WANTED = {
    "tutorial-duel": set(),
    "hedgerow-chart": set(),
    "road-ambush": {"bore_sight", "conceal", "place"},
}


def main() -> None:
    for name, needs in WANTED.items():
        sc = load_scenario(scenarios_dir() / f"{name}.toml")
        for seed in range(1, 500):
            saved = record(sc, seed, 5000)
            game = replay(saved)
            kinds = {a["action"]["type"] for a in saved.actions}
            if game.over and needs <= kinds:
                path = scenarios_dir() / "saves" / f"{name}-played.json"
                save(saved, path)
                print(f"{path}: seed {seed}, {len(saved.actions)} actions, {game.end_reason}")
                break
        else:
            raise SystemExit(f"{name}: no seed gave a finished game using {sorted(needs)}")


if __name__ == "__main__":
    main()
