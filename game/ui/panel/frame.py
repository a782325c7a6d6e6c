"""Drawing the play screen's phase bar and side panel (the hex under the mouse, the selected
unit, the odds panel, the overview) from its map view (the replay viewer draws its side panel
with the same functions)."""

from __future__ import annotations

import pygame

from game.engine.phases import PHASES
from game.engine.table import Table
from game.rules.glossary import glossary
from game.rules.rule_index import rule_ids_in
from game.ui.map.counters import marker_words
from game.ui.map.host import MapHost
from game.ui.map.minimap import HEIGHT, map_fits
from game.ui.map.render import FONTS
from game.ui.panel.parts import SPOTS, TextBlock, draw_odds, hex_info_lines, unit_lines
from game.ui.style import style


def draw_map_screen(view: MapHost, surface: pygame.Surface, r: dict[str, pygame.Rect]) -> None:
    """A map screen's background, its map (in ``r["map"]``) and its button bar's panel; the
    screen then draws its own phase bar and side panel."""
    st = style()
    surface.fill(st.ui["background"])
    view.rect = r["map"]
    view.draw(surface)
    pygame.draw.rect(surface, st.ui["panel"], r["buttons"])


def draw_bar(
    view: MapHost, surface: pygame.Surface, bar: pygame.Rect, more: int = 0, waiting: str = ""
) -> None:
    """The phase bar: the turn, the phase and its rule, the side to act; then the message (a
    refusal's reason) or the hint; ``more``: the width of another button left of End Phase
    (a seat on a server's Away), kept clear; ``waiting``: the side the seat at the screen
    waits for (its name as the screen says it), whose hint is not this seat's."""
    st = style()
    table = view.table
    pygame.draw.rect(surface, st.ui["panel"], bar)
    phase = PHASES[table.phase]
    when = (
        "Before turn 1"
        if view.setting_up()
        else f"Turn {table.turn}/{table.turns}   {table.phasing.title()} player turn"
    )
    text = f"{when}   {phase.title} ({phase.rule})   {(table.to_act or 'nobody').title()} to act"
    if table.dff_pending or table.waiting_for_dff:
        text += "   Defensive First Fire (C6.17)"
    room = bar.width - 215 - (more + 10 if more else 0)  # the End Phase button's place
    t = FONTS.text(text, 22, st.ui["text"], bold=True)
    if t.get_width() > room:  # a narrow window: a smaller font, then cut
        t = FONTS.text(text, 18, st.ui["text"], bold=True)
    surface.blit(t, (10, 6), area=pygame.Rect(0, 0, room, 24))
    # hovered: the phase in words and its rules (the side panel's lines had them, the bar not)
    words = glossary().get(phase.title.removesuffix(" (scenario defender)"))
    ids = ((f"{phase.title}: {words}",) if words else ()) + tuple(sorted(rule_ids_in(text)))
    SPOTS.append((pygame.Rect(bar.left + 10, bar.top + 6, min(room, t.get_width()), 22), ids))
    message = view.state.message
    text = message or hint(view, waiting)
    color = (
        st.ui["bad"]
        if message
        and not message.startswith(("Game over",))
        and not message.startswith(("saved", "undone", "click", "Nothing to do", "Path to"))
        and "(computer)" not in message
        else st.ui["dim"]
    )
    t = FONTS.get(17).render(text, True, color)
    surface.blit(t, (10, 27), area=pygame.Rect(0, 0, room, 20))


def hint(view: MapHost, waiting: str = "") -> str:
    """What to do next in this phase; while another side acts (``waiting``: its name), that
    the seat at the screen waits, never the other side's keys."""
    table = view.table
    phase = table.phase
    if waiting:
        return f"Waiting for {waiting}: {PHASES[phase].title}"
    if table.dff_pending or table.waiting_for_dff:
        return (
            f"{table.non_phasing.title()}: Defensive First Fire: press a firer's number (or "
            "click it) to fire, Space to let the vehicle move on (C6.17)"
        )
    if phase in ("setup", "setup_attacker"):
        # the green area only where the side has units to place (a lesson's stand where they are)
        parts = (
            ["drag counters within the green area (or leave them), , . to face them"]
            if table.placeable()
            else []
        )
        if phase == "setup":
            parts += ["k then a hex Bore Sights with a Gun", "h conceals"]
        return f"Set Up: {'; '.join(parts)}; then End Phase" if parts else "Set Up: End Phase"
    on = view.state.route_on
    mover = view.unit(on[0]) if phase == "movement" and on else None
    if on and mover is not None and mover.get("moving") and mover.get("hex") != on[1]:
        return (
            f"{mover.get('name', on[0])} stopped in {mover.get('hex')} for Defensive First "
            f"Fire (C6.17): click {on[1]} again to go on, x to stop there"
        )
    if phase == "movement":
        return (
            "Select a vehicle; click a blue hex to move, , . to turn, x to stop, m for "
            "Motion; hover enemies for odds"
        )
    if phase in ("prep_fire", "defensive_fire", "advancing_fire"):
        return "Select a firer, hover an enemy for the odds, click to fire; e ends the phase"
    return "e ends the phase"


def draw_side(
    view: MapHost,
    surface: pygame.Surface,
    side: pygame.Rect,
    title: str,
    overview: bool = True,
    nothing_selected: str = "No unit selected: click one, or Tab",
) -> None:
    """The side panel: the title, who is at the screen, the hex under the mouse, the selected
    unit, the analysis lines, then the odds panel or (``overview``) the overview map."""
    st = style()
    state = view.state
    SPOTS.clear()  # this frame's lines that cite rule ids (their words on hover)
    pygame.draw.rect(surface, st.ui["panel"], side)
    pygame.draw.line(surface, (20, 22, 25), side.topleft, side.bottomleft, 2)
    block = TextBlock(surface, side.inflate(-16, -12), 16)
    block.line(title, st.ui["select"], bold=True)
    block.line(f"At the screen: {(state.viewer or 'both sides (replay)').title()}", st.ui["dim"])
    block.gap()
    if state.hover_hex:
        for i, text in enumerate(hex_info_lines(view.table, state.hover_hex)):
            block.line(text, bold=i == 0)
        for text in marker_lines(view, state.hover_hex):
            block.line(text, st.ui["dim"])
    else:
        block.line("(hover a hex)", st.ui["dim"])
    block.gap()
    unit = view.unit(state.selected)
    if unit is not None and unit.get("type") != "?":
        ammo = view.chosen_ammo(unit["id"]) or (unit["ammo"][0] if unit.get("ammo") else None)
        for i, (text, color) in enumerate(unit_lines(unit, ammo, view.table.phasing)):
            block.line(text, color, bold=i == 0)
    else:
        block.line(nothing_selected, st.ui["dim"])
        block.gap()
        for text in victory_lines(view.table):  # public: both sides read them (RD-13)
            block.line(text, st.ui["dim"])
    block.gap(10)
    for i, text in enumerate(view.analysis.side_lines()):
        block.line(text, st.ui["select"] if i == 0 else None, bold=i == 0)
    odds = view.hover_odds()
    view.minimap.rect = None
    if odds is not None:
        title, o = odds
        rect = pygame.Rect(side.left + 6, block.y, side.width - 12, side.bottom - block.y - 6)
        if isinstance(o, str):
            block.line(title, st.ui["select"], bold=True)
            block.line(f"Cannot fire: {o}", st.ui["bad"])  # wrapped at the panel's edge
        else:
            draw_odds(surface, rect, title, o)
    elif overview:
        draw_overview(view, surface, side, block.y)


def victory_lines(table: Table) -> list[str]:
    """The scenario's victory conditions in words (an ASL player's trial found them only on
    the start screen), and who wins when none is met by the last turn."""
    return [
        "To win (RD-13):",
        *(f"  {v}" for v in table.view.victory),  # the side's view: here or a server's
        f"  otherwise at the end of turn {table.turns}: {table.defender} wins (HX-11)",
    ]


def marker_lines(view: MapHost, hx: str) -> list[str]:
    """The markers in the hex under the mouse, in words: each unit's chips (UK, ID A, MOT...)
    and the Acquired counters lying there (-1B: whose, and what it does), with their rules."""
    phasing = view.table.phasing
    out = []
    for u in view.units_at(hx):
        marks = marker_words(u, phasing)
        if marks:
            out.append(f"{u.get('name') or 'a concealed unit'}: {', '.join(marks)}")
    for u in view.units():
        acq = u.get("acquisition")
        if acq and acq[2].split()[0] == hx:
            letter, level = acq[0], acq[1]
            out.append(
                f"-{level}{letter} here: {u.get('name', '?')}'s Acquired counter: its next shot "
                f"at this target -{level} to hit (Case N, C6.5)"
            )
    return out


def overview_box(side: pygame.Rect) -> pygame.Rect:
    """Where the overview map goes: the foot of the side panel."""
    return pygame.Rect(side.left + 10, side.bottom - HEIGHT - 10, side.width - 20, HEIGHT)


def warm_overview(view: MapHost, side: pygame.Rect) -> None:
    """Draw the overview's terrain picture now (a few ms), not in the first frame that shows
    it (the frame after an action, when the odds panel gives way to it)."""
    if not map_fits(view.table.board, view.camera, view.rect):
        view.minimap.picture(view.minimap.fit(overview_box(side)).size)


def draw_overview(view: MapHost, surface: pygame.Surface, side: pygame.Rect, top: int) -> None:
    """The overview map at the foot of the side panel, when the map is larger than the screen
    shows and the panel has room below its text."""
    m = view.rect
    box = overview_box(side)
    if map_fits(view.table.board, view.camera, m) or top > box.top - 22:
        return
    t = FONTS.get(14).render("Overview: click or drag to go there", True, style().ui["dim"])
    surface.blit(t, (box.left, box.top - 18))
    at = view.positions()
    view.minimap.draw(
        surface, box, view.camera, m, [(u["side"], at[u["id"]]) for u in view.units()]
    )
