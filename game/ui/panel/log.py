"""The play screen's log: each event (as the side at the screen may read it, from the engine's
``Event.seen_by``) as a line of the pygame-gui text box (a shot's To Hit DR as a white and a
coloured die, RD-2)."""

from __future__ import annotations

import html

from game.engine.events import Event

WHITE_DIE = "#ffffff"
COLORED_DIE = "#ff7060"


def dice_html(white: int, colored: int) -> str:
    """A DR as two dice, named: the white one and the coloured one (RD-2 reads them apart; a
    newcomer could not tell what a lone red "[4]" was)."""
    return (
        f"(TH dice: <font color='{WHITE_DIE}'><b>{white}</b></font> white, "
        f"<font color='{COLORED_DIE}'><b>{colored}</b></font> colored)"
    )


def note_html(text: str) -> str:
    """A line of the screen's own (HX-15's phases passed, the computer's reason) in grey; its
    text escaped: it names sides and units from the scenario file ("<img src=x>" as a side
    made pygame-gui load a file the player never named)."""
    return f"<font color='#9a9a9a'>{html.escape(text)}</font>"


def event_html(event: Event) -> str:
    """One log line: the text (escaped); a shot's To Hit DR as a white and a coloured die."""
    text = html.escape(event.text[:1].upper() + event.text[1:])  # "German passes", not "german"
    if event.kind == "fire":
        dr = event.data.get("dr")
        dice = f" {dice_html(dr['white'], dr['colored'])}" if dr else ""
        text = f"<b>{text}</b>{dice}"
    elif event.kind in ("phase", "game_over"):
        text = f"<font color='#ffe66a'><b>{text}</b></font>"
    elif event.kind in ("removed", "shock", "wreck"):
        text = f"<font color='#ff8a70'>{text}</font>"
    return text
