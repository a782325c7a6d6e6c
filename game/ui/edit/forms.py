"""The Scenario tab's forms: the title, id, date, turns and briefing (applied together), who
moves first and who defends, the rules system (To Kill: ASL's C7 tables or the chart), and the
victory conditions (listed; one added from a side, a kind and its count or hexes; one
removed). Each change one named edit of the document, validated as every edit is."""

from __future__ import annotations

import threading
from typing import Any, Protocol

from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_edits import Edit, SetRules, SetSideFlag, SetTop, SetVictory
from game.ui.edit.lesson import lesson_form_values
from game.ui.edit.panel import EditPanel

TEXTS = ("title", "id", "date", "turns", "briefing")


class Editor(Protocol):
    """What the forms read of the editor screen."""

    panel: EditPanel
    doc: ScenarioDoc
    said: str

    def submit(self, edit: Edit, repaints: bool = False) -> None: ...


def describe(condition: Any) -> str:
    """One ``[[victory]]`` table in a line (as written: it may not be valid yet)."""
    c = dict(condition) if isinstance(condition, dict) else {}
    side, kind = c.get("side", "?"), c.get("kind", "?")
    if kind == "eliminate":
        what = ", ".join(map(str, c["units"])) if c.get("units") else f"{c.get('count', '?')} AFVs"
        return f"{side}: eliminate {what}"
    if kind == "hold":
        return f"{side}: hold {', '.join(map(str, c.get('hexes', [])))} at the end"
    if kind == "exit":
        what = {"vehicle": "vehicles", "afv": "AFVs"}.get(str(c.get("only")), "units")
        return f"{side}: exit {c.get('count', '?')} {what} off the {c.get('edge', '?')} edge"
    return f"{side}: {kind}"


def form_values(doc: ScenarioDoc) -> dict[str, Any]:
    """What the Scenario tab shows of the document."""
    d = doc.doc
    sides = d.get("sides") if isinstance(d.get("sides"), dict) else {}
    assert isinstance(sides, dict)

    def flagged(flag: str) -> str | None:
        return next((s for s, t in sides.items() if isinstance(t, dict) and t.get(flag)), None)

    rules = d.get("rules") if isinstance(d.get("rules"), dict) else {}
    assert isinstance(rules, dict)
    victory = d.get("victory", [])
    return {
        **{k: str(d.get(k, "")) for k in TEXTS},
        "moves_first": flagged("moves_first"),
        "defender": flagged("defender"),
        "to_kill": str(rules.get("to_kill", "asl")),
        "victory": [describe(v) for v in victory] if isinstance(victory, list) else [],
    }


class Forms:
    """The Scenario tab's buttons of one editor screen."""

    def __init__(self, editor: Editor):
        self.editor = editor

    def texts(self) -> None:
        """Apply the text fields that differ from the document: one edit each."""
        panel = self.editor.panel
        now = panel.values
        for key in TEXTS:
            typed = panel.text(key) if key != "briefing" else panel.briefing_text()
            if typed == now.get(key, "") or (
                key == "briefing" and typed.strip() == now[key].strip()
            ):
                continue
            value: str | int = typed
            if key == "turns":
                if not typed.isdigit():
                    self.editor.said = "turns: a whole number"
                    continue
                value = int(typed)
            if key == "briefing":
                value = typed.strip("\n") + "\n"
            self.editor.submit(SetTop(key, value))

    def choice(self, what: str) -> None:
        """A side for moves first or defender, or the rules system, chosen."""
        panel = self.editor.panel
        if what in ("moves_first", "defender"):
            side = getattr(panel, what)
            if side is not None:
                self.editor.submit(SetSideFlag(side, what))
        elif what == "to_kill":
            self.editor.submit(SetRules(panel.to_kill))

    def add_victory(self) -> None:
        panel = self.editor.panel
        detail = panel.text("victory_detail").upper().replace(",", " ").split()
        condition: tuple[tuple[str, Any], ...]
        if panel.victory_kind == "eliminate":
            if len(detail) != 1 or not detail[0].isdigit():
                self.editor.said = "eliminate: how many enemy AFVs (a number)"
                return
            condition = (
                ("side", panel.victory_side),
                ("kind", "eliminate"),
                ("count", int(detail[0])),
            )
        else:
            if not detail:
                self.editor.said = "hold: the hexes to hold (F6 G7 ...)"
                return
            condition = (("side", panel.victory_side), ("kind", "hold"), ("hexes", tuple(detail)))
        self.editor.submit(SetVictory(None, condition))

    def remove_victory(self) -> None:
        index = self.editor.panel.chosen_victory()
        if index is None:
            self.editor.said = "pick a victory condition in the list first"
            return
        self.editor.submit(SetVictory(index, None))


def read_values(panel: EditPanel, doc: ScenarioDoc, lock: threading.Lock | None) -> bool:
    """The Scenario or Lesson tab's fields read from ``doc`` into ``panel.values``, not while a
    job writes it (``lock`` held: an edit of a 200 x 200 map's document holds it for seconds,
    and the window waited; issue 44): False then, the last values kept."""
    if panel.tab not in ("scenario", "lesson"):
        return True
    if lock is not None and not lock.acquire(blocking=False):
        return False
    try:
        scenario = panel.tab == "scenario"
        panel.values = form_values(doc) if scenario else lesson_form_values(doc, panel.step)
    finally:
        if lock is not None:
            lock.release()
    return True
