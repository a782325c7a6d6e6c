"""Drawing the play screen: the map with its highlights, counters, markers, the last shot and
the movement tracking; the phase bar; the side panel. Functions of the scene (the replay
viewer draws with the same ones)."""

from __future__ import annotations

import pygame

from game.engine.phases import PHASES

from .host import MapHost
from .maprender import FONTS, draw_counter, draw_markers
from .minimap import HEIGHT, map_fits
from .panels import TextBlock, draw_odds, hex_info_lines, unit_lines
from .style import style


def draw_map(scene: MapHost, surface: pygame.Surface, m: pygame.Rect) -> None:
    st = style()
    cam = scene.camera
    scene.renderer.draw(surface, cam, m)
    surface.set_clip(m)
    z = cam.zoom
    game = scene.game
    if scene.selected and game.units[scene.selected].active:
        sel = game.units[scene.selected]
        if scene.setting_up() and sel.side == game.to_act:
            area = [game.board.parse(hx) for hx in game.setup_hexes(sel.id)]
            scene.renderer.shade(surface, cam, area, st.ui["good"], 90, m)
        if game.phase == "movement" and sel.side == game.to_act:
            for hx, cost in scene.game.move_costs(scene.selected).items():
                h = game.board.parse(hx)
                scene.renderer.highlight(surface, cam, h, st.ui["reach"], 2, fill_alpha=60)
                sx, sy = cam.hex_to_screen(h)
                t = FONTS.get(max(12, int(z * 0.5)), bold=True).render(
                    f"{cost:g} MP", True, (10, 40, 70)
                )
                surface.blit(t, t.get_rect(center=(sx, sy + z * 0.55)))
    for own in game.units.values():  # the side's own Bore Sighted Locations (C6.42)
        if own.active and own.side == scene.viewer and own.bore_sight:
            h = game.board.parse(own.bore_sight)
            scene.renderer.highlight(surface, cam, h, st.ui["reach"], 1)
            sx, sy = cam.hex_to_screen(h)
            t = FONTS.get(max(11, z // 3), bold=True).render(f"BS {own.name}", True, st.ui["reach"])
            surface.blit(t, t.get_rect(midtop=(sx, sy + z * 0.45)))
    if scene.hover_hex:
        scene.renderer.highlight(surface, cam, game.board.parse(scene.hover_hex), st.ui["hover"], 2)
    scene.analysis.draw_under(surface, m)
    by_hex: dict[str, list[dict]] = {}
    for u in scene.view():
        by_hex.setdefault(u["hex"], []).append(u)
    for hx, stack in by_hex.items():
        sx, sy = cam.hex_to_screen(game.board.parse(hx))
        for i, u in enumerate(stack):
            off = i * max(3, z // 8)
            rect = draw_counter(
                surface, u, sx + off, sy - off, z, selected=u["id"] == scene.selected
            )
            draw_markers(surface, u, rect, z, game.phasing)
        if len(stack) > 1:
            t = FONTS.get(max(12, z // 2), bold=True).render(str(len(stack)), True, (255, 255, 255))
            surface.blit(t, (sx - z * 0.75, sy - z * 0.8))
    if scene.dragging:
        for dragged in (v for v in scene.view() if v["id"] == scene.dragging):
            draw_counter(surface, dragged, scene.mouse[0], scene.mouse[1], z, selected=True)
    scene.draw_tracking(surface)
    if scene.last_shot and game.actions_applied - scene.last_shot_at <= 1:
        # the banner lasts until the action after the shot, midway along the line of fire
        # (over the target it covered the moving tank and its MP label)
        a, b, text = scene.last_shot
        pa = cam.hex_to_screen(game.board.parse(a))
        pb = cam.hex_to_screen(game.board.parse(b))
        pygame.draw.line(surface, st.ui["target"], pa, pb, 2)
        t = FONTS.get(18, bold=True).render(text, True, (255, 255, 255))
        mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2 - z * 0.5)
        box = t.get_rect(center=mid).inflate(8, 4)
        pygame.draw.rect(surface, (120, 30, 20), box, border_radius=3)
        surface.blit(t, t.get_rect(center=box.center))
    scene.analysis.draw_over(surface, m)
    surface.set_clip(None)


def draw_tracking(scene: MapHost, surface: pygame.Surface) -> None:
    """While a vehicle moves: the MP it has spent in each visible enemy firer's continuous
    LOS (C6.15), and the Case J subcase a Defensive First Fire shot would have."""
    game = scene.game
    mover = game.moving_unit
    if not mover or game.phase != "movement":
        return
    visible = {u["id"]: u for u in scene.view()}
    if mover not in visible:
        return
    rows = []
    m = game.units[mover]
    unknown = visible[mover].get("type") == "?"  # a "?": its Motion is not for this side
    moved = unknown or m.entered_new_hex or m.motion or m.was_motion  # else no Case J (C6.1)
    for firer, (mp, exempt) in sorted(game.los_tracking(mover).items()):
        u = visible.get(firer)
        if u is None or u.get("type") == "?" or mp <= 0:
            continue
        # the MP of the whole move in this firer's LOS (C6.15-.16); the odds panel gives the
        # MP the shot claims in the target's Location (C6.17), which sets its Case J
        what = f"{mp:g} MP of this move in its LOS (C6.16)"
        if exempt:
            what += "; Case J (C6.15)"
        if not moved:
            what = "only pivots: no Case J (C6.1)"
        rows.append(f"{u.get('name', firer)}: {what}")
    if not rows:
        return
    sx, sy = scene.camera.hex_to_screen(game.units[mover].hex)
    f = FONTS.get(15, bold=True)
    y = sy + scene.camera.zoom * 0.7
    right = scene.rects()["map"].right
    for text in rows:
        t = f.render(text, True, (255, 220, 160))
        box = t.get_rect(topleft=(sx + scene.camera.zoom * 0.7, y)).inflate(6, 2)
        if box.right > right:  # near the map's right edge: on the counter's left instead
            box.right = int(sx - scene.camera.zoom * 0.7)
        pygame.draw.rect(surface, (40, 30, 20), box)
        surface.blit(t, t.get_rect(center=box.center))
        y += box.height + 1


def draw_bar(scene: MapHost, surface: pygame.Surface, bar: pygame.Rect) -> None:
    st = style()
    game = scene.game
    pygame.draw.rect(surface, st.ui["panel"], bar)
    phase = PHASES[game.phase]
    when = (
        "Before turn 1"
        if scene.setting_up()
        else f"Turn {game.turn}/{game.setup.turns}   {game.phasing.title()} player turn"
    )
    text = f"{when}   {phase.title} ({phase.rule})   {game.to_act.title()} to act"
    if game.dff_pending:
        text += "   Defensive First Fire (C6.17)"
    t = FONTS.get(22, bold=True).render(text, True, st.ui["text"])
    surface.blit(t, (10, 6))
    hint = scene.message or scene.hint()
    color = (
        st.ui["bad"]
        if scene.message and not scene.message.startswith(("saved", "undone", "click"))
        else st.ui["dim"]
    )
    t = FONTS.get(17).render(hint, True, color)
    surface.blit(t, (10, 27), area=pygame.Rect(0, 0, bar.width - 170, 20))


def hint(scene: MapHost) -> str:
    phase = scene.game.phase
    if phase == "setup":
        return (
            "Set Up: drag counters within the green area, , . to face them; k then a hex "
            "Bore Sights with a Gun; h conceals; then End Phase"
        )
    if phase == "setup_attacker":
        return "Set Up: drag your counters within the green area, , . to face them; End Phase"
    if phase == "movement":
        return (
            "Select a vehicle; click a blue hex to move, , . to turn, x to stop, m for "
            "Motion; hover enemies for odds"
        )
    if phase in ("prep_fire", "defensive_fire", "advancing_fire"):
        return "Select a firer, hover an enemy for the odds, click to fire; e ends the phase"
    return "e ends the phase"


def draw_side(scene: MapHost, surface: pygame.Surface, side: pygame.Rect) -> None:
    st = style()
    pygame.draw.rect(surface, st.ui["panel"], side)
    pygame.draw.line(surface, (20, 22, 25), side.topleft, side.bottomleft, 2)
    block = TextBlock(surface, side.inflate(-16, -12), 16)
    block.line(scene.title, st.ui["select"], bold=True)
    block.line(f"At the screen: {(scene.viewer or 'both sides (replay)').title()}", st.ui["dim"])
    block.gap()
    if scene.hover_hex:
        for i, text in enumerate(hex_info_lines(scene.game, scene.hover_hex)):
            block.line(text, bold=i == 0)
    else:
        block.line("(hover a hex)", st.ui["dim"])
    block.gap()
    if scene.selected:
        unit = scene.game.units[scene.selected]
        view = next((u for u in scene.view() if u["id"] == unit.id), {})
        ammo = scene.chosen_ammo(unit.id) or (unit.type.ammo[0] if unit.type.ammo else None)
        specials = {
            a: n for a in unit.type.ammo if (n := scene.game.state.depletion(unit, a)) is not None
        }
        for i, (text, color) in enumerate(
            unit_lines(unit, view, ammo, specials, scene.game.phasing)
        ):
            block.line(text, color, bold=i == 0)
    else:
        block.line("No unit selected: click one, or Tab", st.ui["dim"])
    block.gap(10)
    for i, text in enumerate(scene.analysis.side_lines()):
        block.line(text, st.ui["select"] if i == 0 else None, bold=i == 0)
    odds = scene.hover_odds()
    scene.minimap.rect = None
    if odds is not None:
        title, o = odds
        rect = pygame.Rect(side.left + 6, block.y, side.width - 12, side.bottom - block.y - 6)
        if isinstance(o, str):
            block.line(title, st.ui["select"], bold=True)
            for part in _wrap(f"Cannot fire: {o}", 44):
                block.line(part, st.ui["bad"])
        else:
            draw_odds(surface, rect, title, o)
    elif scene.overview:
        draw_overview(scene, surface, side, block.y)


def draw_overview(scene: MapHost, surface: pygame.Surface, side: pygame.Rect, top: int) -> None:
    """The overview map at the foot of the side panel, when the map is larger than the screen
    shows and the panel has room below its text."""
    m = scene.rects()["map"]
    box = pygame.Rect(side.left + 10, side.bottom - HEIGHT - 10, side.width - 20, HEIGHT)
    if map_fits(scene.game.board, scene.camera, m) or top > box.top - 22:
        return
    t = FONTS.get(14).render("Overview: click or drag to go there", True, style().ui["dim"])
    surface.blit(t, (box.left, box.top - 18))
    units = scene.view() if scene.viewer else scene.game.view(None)
    scene.minimap.draw(surface, box, scene.camera, m, units)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if len(line) + len(w) + 1 > width and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        lines.append(line)
    return lines
