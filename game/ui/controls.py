"""Every key and mouse binding, in one table: the help screen (F1 / ?) shows it and the README
repeats it."""

from __future__ import annotations

CONTROLS: tuple[tuple[str, str], ...] = (
    ("Left click own unit", "select it (a stack opens a chooser)"),
    ("Drag own counter (set-up)", "place it in the green set-up area; , and . face it (HX-12)"),
    ("Tab / n", "next own unit that can still act"),
    ("Esc", "deselect; close a dialog or this help"),
    ("Left click a blue hex", "move the selected vehicle there (its MP cost is shown)"),
    (", and .", "turn the selected unit's hull one hexside left / right (1 MP)"),
    ("x", "stop the moving vehicle (1 MP)"),
    ("o", "leave the map over the edge the unit faces (exit victory conditions, RD-13)"),
    ("m", "end the move in Motion (no stop MP; Case J, no Case L against it)"),
    ("Hover an enemy", "with a firer selected: the odds panel (To Hit, To Kill, every outcome)"),
    ("Left click / Enter on an enemy", "fire at it"),
    ("r", "cycle the selected gun's ammunition"),
    ("b", "button up / crew exposed"),
    ("e / End Phase button", "end the phase (asks once if units have not acted)"),
    ("1-9, Space", "Defensive First Fire prompt: fire with that unit / continue (pass)"),
    ("k then click a hex", "set-up: bore sight that hex with the selected Gun (C6.42)"),
    ("h", "set-up: conceal the selected unit (RD-11)"),
    ("u / Ctrl+Z", "undo your last action (never across a die roll)"),
    ("Ctrl+S / Ctrl+O", "save as / load a game"),
    ("Right or middle drag, arrows, WASD", "pan the map"),
    ("Wheel, + / -", "zoom around the cursor"),
    (
        "Click or drag the overview",
        "centre the map there (the overview shows when the map is larger than the screen)",
    ),
    ("g", "hex labels on / off"),
    ("l then drag, or Shift + right-drag", "the LOS thread between two hexes (as hexfire los)"),
    ("v", "viewshed of the selected unit (or the hex under the mouse)"),
    ("t", "threat map for the selected vehicle (hover a hex: the shots behind it)"),
    ("f", "fire map: the selected firer's kill odds against each enemy it sees"),
    ("Replay: Right / Left, PgUp / PgDn", "step one action; jump a player turn (hexfire watch)"),
    ("Replay: Home / End, Space, + / -, Tab", "start / end; play / pause; speed; one side's view"),
    ("F1 / ?", "this help"),
)
