"""A replay of a game against the computer that is not over shows the player's side alone
(RD-11: the computer's set-up, its "?" and its Bore Sighting stay its own until the game
ends; an ASL player found `hexfire replay` on his autosave printing which "?" was which and
where the hidden Panzer had Bore Sighted). A finished game, or one without the computer,
replays whole, as before."""

from __future__ import annotations

import json
from pathlib import Path

from game.ai import ComputerPlayer
from game.cli import main
from game.engine.table import Table
from game.files.replay import replay, shown_side
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.files.timeline import Timeline

HEDGEROW = scenarios_dir() / "hedgerow-chart.toml"


def _played(path: Path, actions: int, computer: dict | None) -> Path:
    """Hedgerow's first ``actions`` actions, both sides played by level 1 (seeded)."""
    auto = new_game(load_scenario(HEDGEROW), 5, path, computer=computer)
    players = {s: ComputerPlayer(s, 1, seed=9) for s in auto.game.setup.sides}
    try:
        for _ in range(actions):
            if auto.game.over:
                break
            table = Table(auto.game, auto.game.to_act, auto.game.actions_applied)
            auto.apply(table.engine_action(players[table.to_act].choose(table).action))
    finally:
        auto.close()
    return path


def _log(capsys, path: Path, *flags: str) -> str:
    assert main(["replay", str(path), *flags]) == 0
    return capsys.readouterr().out


def test_rd11_a_replay_of_a_game_against_the_computer_not_over_shows_the_players_side(
    tmp_path, capsys
):
    path = _played(tmp_path / "vs.json", 60, {"side": "german", "level": 1})
    saved = read_save(path)
    game = replay(saved)
    assert not game.over and shown_side(saved, game) == "american"
    hidden = [
        e for events in Timeline(saved).events for e in events if e.seen_by("american") is not e
    ]
    assert hidden  # the German set-up holds secrets from the American
    mine = _log(capsys, path)
    assert "as the american side saw it (RD-11)" in mine
    everything = _log(capsys, _played(tmp_path / "hotseat.json", 60, None))
    secrets = [e.text for e in hidden if e.text not in mine]
    assert secrets and all(text in everything for text in secrets)
    for line in _log(capsys, path, "--json").splitlines():
        assert "action" not in json.loads(line)  # the computer's placements name its units
    assert Timeline(saved).only == "american"


def test_rd11_a_finished_game_against_the_computer_replays_whole(tmp_path, capsys):
    path = _played(tmp_path / "vs.json", 5000, {"side": "german", "level": 1})
    saved = read_save(path)
    assert replay(saved).over and Timeline(saved).only is None
    assert "saw it" not in _log(capsys, path)


def test_rd11_the_replay_window_shows_the_players_view_alone_while_the_game_is_not_over(
    app, tmp_path
):
    """The window's replay of the same save: the player's view, and Tab keeps it there (it
    cycled both sides, the American's and the German's, showing the computer's "?")."""
    from game.ui.replay.viewer import WatchScene

    saved = read_save(_played(tmp_path / "vs.json", 60, {"side": "german", "level": 1}))
    watch = WatchScene(Timeline(saved), "hedgerow")
    app.push(watch)
    app.pump([])
    for _ in range(3):
        assert watch.viewer == "american"
        watch.command("side")
    game = replay(saved)
    shown = watch.map.units()
    assert shown == Table(game, "american", game.actions_applied).units()
    assert any(u["type"] == "?" for u in shown)  # the PaK, as the American knows it
