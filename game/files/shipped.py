"""The scenarios, saved games and art shipped with hexfire, found from the installed package (any
folder, checkout or wheel): one list that the command line and the screen share. In the
repository they are the top-level ``scenarios/`` and ``assets/`` folders, packaged as
``game.scenarios`` and ``game.assets`` (pyproject's ``package-dir``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def scenarios_dir() -> Path:
    """The folder of the shipped scenarios (``scenarios/`` in the repository)."""
    return Path(str(resources.files("game.scenarios")))


def assets_dir() -> Path:
    """The folder of the art the screen draws (``assets/`` in the repository)."""
    return Path(str(resources.files("game.assets")))


def shipped_scenarios() -> list[Path]:
    """Every shipped scenario file, by name."""
    return sorted(scenarios_dir().glob("*.toml"))


def shipped_saves() -> list[Path]:
    """Every shipped saved game (games played to the end), by name."""
    return sorted((scenarios_dir() / "saves").glob("*.json"))


def find_scenario(name: str | Path) -> Path:
    """A scenario or save path as given if that file exists; else the shipped file it names:
    ``tutorial-duel``, ``tutorial-duel.toml``, or the path it has in a checkout,
    ``scenarios/tutorial-duel.toml`` and ``scenarios/saves/x.json`` (or ``game/scenarios/...``,
    where they were for a while), from any folder. Otherwise the path as given (the loader then
    says it cannot read it)."""
    p = Path(name)
    if p.exists():
        return p
    folder = p.parent.as_posix()
    if p.suffix == ".json":
        if folder in ("scenarios/saves", "game/scenarios/saves"):
            return next((s for s in shipped_saves() if s.name == p.name), p)
        return p
    if folder not in (".", "scenarios", "game/scenarios"):
        return p
    stem = p.name[:-5] if p.name.endswith(".toml") else p.name
    return next((s for s in shipped_scenarios() if s.stem == stem), p)
