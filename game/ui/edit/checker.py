"""The editor's validation in a process of its own: the document's text checked as
``hexfire validate`` checks a file (``parse_scenario``: some 0.1 s on the 200 x 200 map, all of
it Python holding the interpreter lock), its units read as counters and each side's set-up
area, there; back come plain values (the errors, the counters, the areas), never the parsed
scenario (a 2 MB pickle, slower to read back than to parse). The window's thread paints on
meanwhile. When the process cannot be used (it died), the check runs here instead."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from game.board.board import MapError
from game.board.hexes import Hex
from game.engine.view import UnitView
from game.files.scenario import Scenario, ScenarioError, parse_scenario
from game.files.scenario_read import parse_toml
from game.ui.edit.sketch import board_of, setup_areas, unit_views


@dataclass(frozen=True)
class Report:
    """The document checked: its located errors (none: it plays), its units as counters
    (on its map), each side's set-up area (None: its map cannot be read)."""

    errors: tuple[str, ...]
    units: tuple[UnitView, ...]
    areas: dict[str, list[Hex]] | None


def report(text: str, name: str) -> Report:
    """Check ``text`` (a scenario's TOML, named ``name`` in the errors)."""
    errors: tuple[str, ...] = ()
    scenario: Scenario | None = None
    try:
        scenario = parse_scenario(text, name)
    except ScenarioError as e:
        errors = tuple(e.errors)
    try:
        plain = parse_toml(text, name)
        board = scenario.setup.board if scenario is not None else board_of(plain)
    except (ScenarioError, MapError):
        return Report(errors, (), None)
    return Report(errors, tuple(unit_views(plain, board)), setup_areas(plain, board))


def _ready() -> bool:
    """In the process: nothing (calling it there reads this module and what it imports)."""
    return True


class Checker:
    """One process checking documents, one at a time (started at once, so that the first
    check does not wait for it)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._warm: Future | None = None
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a window with threads
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        self._warm = self._pool.submit(_ready)  # the process started and its imports read, now

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait for the process to be started (a benchmark: not timing its start)."""
        if self._warm is not None:
            self._warm.result(timeout)

    def check(self, text: str, name: str) -> Report:
        """The report of ``text``, made in the process (here when it died: then a new one)."""
        if self._pool is not None:
            try:
                return self._pool.submit(report, text, name).result()
            except (BrokenProcessPool, OSError, RuntimeError):
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        result = report(text, name)
        self._start()
        return result

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
