"""Build the game in progress that docs/screenshot-odds.png shows: the tutorial duel, a T-34
driving into the Panzer's sights, the German player considering a Defensive Fire shot.

    python3 tools/docs/duel_save.py /tmp/duel.json
    hexfire play /tmp/duel.json --screenshot docs/screenshot-odds.png --select ger-pz4-1 --hover E3
"""

from __future__ import annotations

import sys

from game.board.hexes import label
from game.engine.actions import EndMove, EndPhase, Move, Pass, Turn
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir


def main(path: str) -> None:
    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 7, path)
    game = session.game
    while game.phase != "movement":
        session.apply(EndPhase())
    tank = game.units["rus-t34-2"]
    route = ["J2", "I2", "H1", "G2", "F2", "E3"]
    for step in route:
        ahead = label(tank.hex.neighbor(tank.facing))
        for _ in range(6):
            if ahead == step:
                break
            session.apply(Turn(tank.id, (tank.facing + 1) % 6))
            if game.dff_pending:
                session.apply(Pass())
            ahead = label(tank.hex.neighbor(tank.facing))
        session.apply(Move(tank.id, step))
        if game.dff_pending:
            session.apply(Pass())
    session.apply(EndMove(tank.id, False))
    if game.dff_pending:
        session.apply(Pass())
    session.apply(EndPhase())
    print(f"{path}: {game.phase}, {game.to_act} to act; the T-34 in {tank.label}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/duel.json")
