"""The play screen's log: which events a side may read, and each event as a line of the
pygame-gui text box (a shot's To Hit DR as a white and a coloured die, RD-2)."""

from __future__ import annotations

import html

from game.engine.events import Event


def visible_to(event: Event, viewer: str | None, game_units: dict) -> bool:
    """Hidden information in the log: the set-up (placing, bore sighting, setting up concealed)
    is shown only to the side that made it, and a Defensive First Fire chance (which names the
    units that could fire) only to the defender."""
    if viewer is None:
        return True
    owner = None
    if event.kind in ("place", "bore_sight") or (
        event.kind == "concealment" and event.data.get("concealed")
    ):
        unit = game_units.get(event.data.get("unit", ""))
        owner = unit.side if unit is not None else None
    elif event.kind == "dff_chance":
        firers = [game_units[f] for f in event.data.get("firers", []) if f in game_units]
        owner = firers[0].side if firers else None
    return owner is None or owner == viewer


WHITE_DIE = "#ffffff"
COLORED_DIE = "#ff7060"


def dice_html(white: int, colored: int) -> str:
    """A DR as two dice: the white one and the coloured one (RD-2 reads them apart)."""
    return (
        f"<font color='{WHITE_DIE}'><b>[{white}]</b></font>"
        f"<font color='{COLORED_DIE}'><b>[{colored}]</b></font>"
    )


def event_html(event: Event) -> str:
    """One log line: the text (escaped); a shot's To Hit DR as a white and a coloured die."""
    text = html.escape(event.text)
    if event.kind == "fire":
        dr = event.data.get("dr")
        dice = f" {dice_html(dr['white'], dr['colored'])}" if dr else ""
        text = f"<b>{text}</b>{dice}"
    elif event.kind in ("phase", "game_over"):
        text = f"<font color='#ffe66a'><b>{text}</b></font>"
    elif event.kind in ("removed", "shock", "wreck"):
        text = f"<font color='#ff8a70'>{text}</font>"
    return text
