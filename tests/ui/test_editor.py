"""The scenario editor (issue 42), driven with real pygame events: paint, fill, a line, undo
and redo, the located errors, save (the bytes of an unchanged file kept), closing asks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame
from ui_driver import click, key, post

from game.board.hexes import label, to_offset
from game.files.scenario_doc import ScenarioDoc
from game.ui.edit.outings import draft_name
from game.ui.edit.panel import find_types
from game.ui.edit.screen import EditScene
from game.ui.scenes.routes import Edit, Push, Replace, Start

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "tutorial-duel.toml"


def open_editor(app, tmp_path: Path, name: str = "tutorial-duel.toml") -> tuple[EditScene, Path]:
    path = tmp_path / name
    shutil.copyfile(ROOT / "scenarios" / name, path)
    app.go(Push(Edit(path)))
    app.pump()
    scene = app.scene
    assert isinstance(scene, EditScene)
    return scene, path


def at(scene: EditScene, hx: str) -> tuple[int, int]:
    sx, sy = scene.view.camera.hex_to_screen(scene.sketch.board.parse(hx))
    return int(sx), int(sy)


def drag(app, points: list[tuple[int, int]]) -> None:
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=points[0], rel=(0, 0), buttons=(0, 0, 0)))
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=points[0], button=1))
    for p in points[1:]:
        post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=points[-1], button=1))
    app.pump()
    app.pump()


def button(scene: EditScene, what: str, value: object):
    assert scene.panel is not None
    return next(b for b, wv in scene.panel.buttons.items() if wv == (what, value))


def scroll_down(app, panel) -> None:
    """The wheel turned down over the editor's panel (the mouse moved there first: the widgets
    read where it is), and the scroll let glide to its end."""
    pygame.mouse.set_pos(panel.box.rect.center)
    post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=panel.box.rect.center, rel=(0, 0), buttons=(0, 0, 0)
        )
    )
    app.pump()
    for _ in range(12):
        post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
        app.pump()
    for _ in range(30):
        app.frame(0.05)


def rows(path_or_text: str) -> list[list[str]]:
    doc = ScenarioDoc(path_or_text)
    return [str(r).split() for r in doc.doc["map"]["hexes"]]


def test_a_brush_stroke_paints_the_board_and_the_document_as_one_undoable_edit(app, tmp_path):
    scene, path = open_editor(app, tmp_path)
    before_text = path.read_text()
    click(app, button(scene, "terrain", "w").rect.center)
    click(app, button(scene, "brush", 3).rect.center)
    pixel_before = app.screen.get_at(at(scene, "H7"))
    drag(app, [at(scene, "G7"), at(scene, "H7")])
    grid = rows(scene.doc.text)
    # a brush 3 across: G7 and its neighbours, then H7 and its neighbours, all woods
    for hx in ("G7", "G6", "G8", "H7", "H8", "F7"):
        h = scene.sketch.board.parse(hx)
        col, row = to_offset(h)
        assert grid[row][col].startswith("w"), hx
        assert scene.sketch.board.terrain_at(h).key == "woods"
    assert scene.doc.undo_title == "terrain w in 10 hexes"  # the ones it changed
    assert app.screen.get_at(at(scene, "H7")) != pixel_before  # drawn on screen at once
    assert scene.unsaved and scene.errors == ()
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    app.pump()
    assert scene.doc.text == before_text and scene.doc.undo_title is None  # one edit
    assert scene.sketch.board.terrain_at(scene.sketch.board.parse("H7")).key == "open"
    key(app, pygame.K_y, "y", pygame.KMOD_CTRL)
    app.pump()
    assert rows(scene.doc.text)[6][7].startswith("w")
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    app.pump()
    assert path.read_text() == scene.doc.text != before_text
    assert not scene.unsaved
    assert "# [map] rows run from row 1" in path.read_text()  # the comments kept


def test_a_stroke_paints_a_new_board_the_same_as_the_document_parses_to(app, tmp_path):
    """One way to paint a board (Board.painted, the files layer's apply_stroke's): a stroke
    leaves a board taken before it as it was (a test game, a snapshot, may hold it), and the
    board drawn is the one the edited document parses to."""
    import numpy as np

    from game.ui.edit.sketch import board_of

    scene, _ = open_editor(app, tmp_path)
    before = scene.sketch.board
    g7 = before.parse("G7")
    was = (before.terrain_at(g7).key, before.level_at(g7))
    click(app, button(scene, "terrain", "w").rect.center)
    click(app, button(scene, "level", 2).rect.center)
    drag(app, [at(scene, "G7"), at(scene, "H7")])
    board = scene.sketch.board
    assert board is not before and scene.view.renderer.board is board
    assert (before.terrain_at(g7).key, before.level_at(g7)) == was  # untouched
    assert (board.terrain_at(g7).key, board.level_at(g7)) == ("woods", 2)
    scene.wait_done()
    parsed = board_of(scene.doc)
    for name in ("terrain", "ground", "obstacle", "hindrance", "hindrance_top2", "tem"):
        assert np.array_equal(getattr(board, name), getattr(parsed, name)), name


def test_fill_and_a_road_line_and_a_ground_level(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    click(app, button(scene, "tool", "line").rect.center)
    click(app, button(scene, "terrain", "r").rect.center)
    drag(app, [at(scene, "A8"), at(scene, "E8")])
    grid = rows(scene.doc.text)
    assert [grid[7][c] for c in range(5)] == ["r"] * 5 or all(
        any(grid[r][c] == "r" for r in range(6, 8)) for c in range(5)
    )
    click(app, button(scene, "tool", "fill").rect.center)
    click(app, button(scene, "terrain", None).rect.center)
    click(app, button(scene, "level", 2).rect.center)
    click(app, at(scene, "H4"))  # the woods on the level-2 hill: one hex
    app.pump()
    assert rows(scene.doc.text)[3][7] == "w2"
    click(app, at(scene, "J8"))  # the open ground around J8: every o joined to it
    app.pump()
    grid = rows(scene.doc.text)
    assert grid[7][9] == grid[7][11] == grid[7][6] == "o2"  # J8, L8, G8
    assert grid[0][0] == "o" and grid[6][4] == "br"  # A1 beyond the road, E7 brush: not


def test_an_error_is_listed_and_its_entry_shows_its_hex(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    from game.files.scenario_edits import MoveUnit

    scene.worker.apply(MoveUnit("rus-t34-1", "C7"), repaints=False)
    app.pump()
    assert scene.errors and any("rus-t34-1" in e or "units[1]" in e for e in scene.errors)
    assert scene.panel is not None
    items = scene.panel.errors.item_list
    assert len(items) == len(scene.errors)
    entry = scene.panel.errors.item_list_container.elements[0]
    click(app, entry.rect.center)
    assert scene.view.state.hover_hex is not None or scene.view.state.selected == "rus-t34-1"


def test_an_unchanged_file_saves_byte_identical_and_closing_unsaved_work_asks(app, tmp_path):
    scene, path = open_editor(app, tmp_path)
    before = path.read_bytes()
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    app.pump()
    assert path.read_bytes() == before
    drag(app, [at(scene, "A1")])
    assert scene.unsaved
    draft = app.save_dir / "drafts" / draft_name(path)
    assert draft.name.startswith("tutorial-duel-")
    assert draft.read_text() == scene.doc.text  # unsaved work kept
    post(pygame.event.Event(pygame.QUIT))
    app.pump()
    assert app.running and app.questions  # it asked
    app.questions.popitem()[1]()
    assert not app.running


def test_a_new_scenario_opens_on_a_blank_map_and_says_what_is_missing(app, tmp_path):
    app.go(Push(Edit(None)))
    app.pump()
    scene = app.scene
    assert isinstance(scene, EditScene)
    assert (scene.sketch.board.columns, scene.sketch.board.rows) == (20, 12)
    assert scene.errors  # no unit yet: the validator says so
    assert label(scene.sketch.board.hex_at(0)) == "A1"


def test_a_draft_left_by_a_crash_is_offered_and_brought_back(app, tmp_path):
    scene, path = open_editor(app, tmp_path)
    drag(app, [at(scene, "A1")])
    painted = scene.doc.text
    scene.close()
    app.pop()  # the editor gone without saving (a crash leaves the draft as this does)
    assert path.read_text() != painted
    app.go(Push(Edit(path)))
    app.pump()
    again = app.scene
    assert isinstance(again, EditScene) and app.questions  # it asks
    app.questions.popitem()[1]()
    assert again.doc.text == painted and again.unsaved
    assert again.sketch.board.terrain_at(again.sketch.board.parse("A1")).key == "woods"
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    app.pump()
    assert path.read_text() == painted and not (app.save_dir / "drafts" / draft_name(path)).exists()


def test_a_stroke_redraws_only_its_part_of_the_tiles_and_the_same_pixels_as_afresh(app, tmp_path):
    """The tiles a stroke touched, drawn again in part, match the whole map drawn afresh
    (a road's neighbours, a hill's contour and the labels included)."""
    scene, _ = open_editor(app, tmp_path)
    scene.view.tile_budget = None  # every tile on screen drawn in its frame (here: afresh)
    click(app, button(scene, "terrain", "r").rect.center)
    click(app, button(scene, "level", 2).rect.center)
    click(app, button(scene, "brush", 3).rect.center)
    kept = dict(scene.view.renderer._cache)
    drag(app, [at(scene, "E4"), at(scene, "F5"), at(scene, "G5")])
    assert all(scene.view.renderer._cache[k] is v for k, v in kept.items())  # kept, not made
    app.frame(0.016)
    painted = pygame.image.tobytes(app.screen, "RGB")
    scene.view.renderer._cache.clear()
    app.frame(0.016)
    assert pygame.image.tobytes(app.screen, "RGB") == painted


def test_smoke_bench_edit():
    from game.ui.bench.edit import bench_edit

    figures = bench_edit(strokes=3)
    assert figures["map"].startswith("200 x 200") and figures["stroke_ms"] > 0
    assert figures["reference_redraw_ms"] > figures["stroke_ms"]


def pick(app, scene: EditScene, path: Path) -> None:
    """A file picked in the Save as dialog (as its OK button does)."""
    import pygame_gui

    dialog = scene.file_dialog
    dialog.kill()  # as its OK button does, then the event
    post(
        pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path), ui_element=dialog)
    )
    app.pump()
    app.pump()


def typed(app, text: str) -> None:
    post(*(pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text))
    app.pump()
    app.pump()  # the entry's change event, posted while the first was handled


def unit_table(scene: EditScene, uid: str) -> dict | None:
    return next((dict(u) for u in scene.doc.doc.get("units", []) if u["id"] == uid), None)


def test_units_found_in_the_catalogue_placed_turned_moved_given_an_area_and_removed(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    click(app, button(scene, "tab", "units").rect.center)
    assert scene.panel.tab == "units" and scene.panel.types is not None
    search = scene.panel.entries["search"]
    click(app, search.rect.center)
    typed(app, "panther")
    shown = [item["text"] for item in scene.panel.types.item_list]
    assert shown and all("panther" in t.lower() for t in shown)
    click(app, scene.panel.types.item_list_container.elements[0].rect.center)
    assert scene.panel.type is not None
    click(app, button(scene, "side", "german").rect.center)
    click(app, button(scene, "facing", 2).rect.center)
    click(app, at(scene, "F2"))
    uid = f"ger-{scene.panel.type}-1"
    table = unit_table(scene, uid)
    assert table is not None and (table["hex"], table["facing"], table["side"]) == (
        "F2",
        2,
        "german",
    )
    assert scene.view.unit(uid) is not None  # drawn
    drag(app, [at(scene, "F2"), at(scene, "G3")])
    assert unit_table(scene, uid)["hex"] == "G3"
    click(app, button(scene, "facing", 4).rect.center)
    assert unit_table(scene, uid)["facing"] == 4
    click(app, scene.panel.entries["area_columns"].rect.center)
    typed(app, "f-h")
    click(app, button(scene, "do", "area").rect.center)
    assert unit_table(scene, uid)["setup_area"] == {"columns": "F-H"}
    assert scene.errors == ()
    german = {label(h) for h in scene.sketch.areas["german"]}
    assert {"F1", "H8", "A1"} <= german  # the Panzer's A-E and the new F-H
    click(app, button(scene, "do", "remove").rect.center)
    assert unit_table(scene, uid) is None
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert unit_table(scene, uid) is not None


def test_the_unit_search_finds_by_name_nationality_and_year_in_service(app, tmp_path):
    """The catalogue's own search (game.engine.catalogue.search_units): a year typed keeps
    the types in service by then, a nationality button only its types, pressed again any."""
    scene, _ = open_editor(app, tmp_path)
    click(app, button(scene, "tab", "units").rect.center)

    def shown() -> list[str]:
        return [item["text"] for item in scene.panel.types.item_list]

    click(app, scene.panel.entries["year"].rect.center)
    typed(app, "1941")
    assert "KV-1E (russian, from 1941-06)" in shown()
    assert not any("1943" in t or "1944" in t for t in shown())  # not in service yet
    click(app, button(scene, "nationality", "russian").rect.center)
    assert shown() and all("(russian" in t for t in shown())
    click(app, scene.panel.entries["search"].rect.center)
    typed(app, "kv")
    assert shown() == ["KV-1E (russian, from 1941-06)"]
    click(app, button(scene, "nationality", "russian").rect.center)  # again: any nationality
    assert scene.panel.nationality is None
    click(app, scene.panel.entries["year"].rect.center)
    key(app, pygame.K_END)
    for _ in range(4):
        key(app, pygame.K_BACKSPACE)
    typed(app, "1944")
    assert "KV-1E (russian, from 1941-06)" in shown() and len(shown()) == 1
    click(app, scene.panel.entries["search"].rect.center)
    key(app, pygame.K_END)
    for _ in range(2):
        key(app, pygame.K_BACKSPACE)
    typed(app, "american")  # a nationality typed among the words counts as chosen
    assert shown() and all("(american" in t for t in shown())
    click(app, scene.panel.types.item_list_container.elements[0].rect.center)
    assert scene.panel.type is not None and scene.panel.type in {
        k for _, k in find_types("", "american")
    }


def test_c6_42_a_bore_sight_is_set_by_a_click_validated_drawn_and_cleared(app, tmp_path):
    """The defender's Panzer Bore Sights F4 (C6.41-C6.42: in its LOS from C4): the key
    written, drawn on the map; H4 (no LOS) and a Russian T-34's (not the defender) listed as
    errors that name their rule; No bore sight removes the key."""
    scene, _ = open_editor(app, tmp_path)
    click(app, button(scene, "tab", "units").rect.center)
    click(app, at(scene, "C4"))
    assert scene.view.state.selected == "ger-pz4-1"
    pixel = app.screen.get_at(at(scene, "F4"))
    click(app, button(scene, "do", "bore_sight").rect.center)
    click(app, at(scene, "F4"))
    assert unit_table(scene, "ger-pz4-1")["bore_sight"] == "F4" and scene.errors == ()
    assert scene.view.unit("ger-pz4-1")["bore_sight"] == "F4"
    app.pump()
    assert app.screen.get_at(at(scene, "F4")) != pixel  # ringed and named on the map
    assert scene.view.state.selected == "ger-pz4-1"  # the click aimed, it selected nothing
    click(app, button(scene, "do", "bore_sight").rect.center)
    click(app, at(scene, "H4"))
    assert unit_table(scene, "ger-pz4-1")["bore_sight"] == "H4"
    assert any("H4 is not in the LOS from C4 (C6.42)" in e for e in scene.errors)
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert unit_table(scene, "ger-pz4-1")["bore_sight"] == "F4" and scene.errors == ()
    click(app, at(scene, "L7"))
    click(app, button(scene, "do", "bore_sight").rect.center)
    click(app, at(scene, "H7"))
    assert unit_table(scene, "rus-t34-1")["bore_sight"] == "H7"
    assert any("scenario defender (german) may Bore Sight (C6.41)" in e for e in scene.errors)
    click(app, button(scene, "do", "no_bore_sight").rect.center)
    assert "bore_sight" not in unit_table(scene, "rus-t34-1") and scene.errors == ()


def test_the_lesson_tab_sets_the_number_and_adds_moves_sets_and_removes_steps(app, tmp_path):
    """The [lesson] table edited by events (game.files.scenario_edits_lesson): a step picked
    shows its fields; Apply writes the ones changed (a second thing to wait for is listed as
    the validator's error); Add, Up, Remove; the number; No lesson, undone."""
    scene, path = open_editor(app, tmp_path, "lesson-1-move.toml")
    steps = len(scene.doc.doc["lesson"]["steps"])
    click(app, button(scene, "tab", "lesson").rect.center)
    listed = scene.panel.lesson["steps"]
    assert len(listed.item_list) == steps and listed.item_list[1]["text"].startswith("2. This")
    assert scene.panel.content_height <= scene.panel.box.rect.height  # no scrolling at 800
    click(app, listed.item_list_container.elements[2].rect.center)
    assert scene.panel.step == 2
    assert scene.panel.wait_kind == "do" and scene.panel.dropped("do_type") == "move"
    assert scene.panel.text("do_unit") == "rus-t34-1" and scene.panel.text("do_to") == "B4"
    assert scene.panel.text("step_point") == "B4" and "blue hexes" in scene.panel.step_say()
    retype(app, scene.panel.entries["do_to"], "c4")
    click(app, button(scene, "do", "step_apply").rect.center)
    step = scene.doc.doc["lesson"]["steps"][2]
    assert dict(step["do"]) == {"type": "move", "unit": "rus-t34-1", "to": "C4"}
    assert step["point"] == "B4" and scene.errors == ()
    assert scene.doc.undo_title == "lesson step 3: do"  # only what changed
    click(app, button(scene, "wait_kind", "look").rect.center)
    retype(app, scene.panel.entries["look_from"], "B4")
    retype(app, scene.panel.entries["look_to"], "Z9")
    click(app, button(scene, "do", "step_apply").rect.center)
    assert any("lesson.steps[2]" in e for e in scene.errors)  # Z9 is off the map
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert scene.errors == () and "do" in scene.doc.doc["lesson"]["steps"][2]
    click(app, button(scene, "do", "step_add").rect.center)  # after step 3
    added = scene.doc.doc["lesson"]["steps"]
    assert len(added) == steps + 1 and added[3]["say"].startswith("What to do now")
    assert scene.panel.step == 3
    click(app, button(scene, "do", "step_up").rect.center)
    assert scene.doc.doc["lesson"]["steps"][2]["say"].startswith("What to do now")
    assert scene.panel.lesson["steps"].item_list[2]["text"].startswith("3. What to do now")
    click(app, button(scene, "do", "step_remove").rect.center)
    assert len(scene.doc.doc["lesson"]["steps"]) == steps
    click(app, scene.panel.entries["lesson_number"].rect.center)
    key(app, pygame.K_END)
    key(app, pygame.K_BACKSPACE)
    typed(app, "8")
    click(app, button(scene, "do", "lesson_set").rect.center)
    assert scene.doc.doc["lesson"]["number"] == 8
    click(app, button(scene, "do", "lesson_none").rect.center)
    assert "lesson" not in scene.doc.doc and scene.panel.lesson["steps"].item_list == []
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert len(scene.doc.doc["lesson"]["steps"]) == steps
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    assert "number = 8" in path.read_text()


def choose(app, menu, text: str, view: pygame.Rect) -> None:
    """Open a drop-down with a click and click its line ``text`` (real mouse events), which
    must be in ``view`` (the tab's box as shown)."""
    click(app, menu.rect.center)
    listed = menu.current_state.options_selection_list
    for _ in range(20):  # the wheel over the list until the line is in it
        line = next((e for e in listed.item_list_container.elements if e.text == text), None)
        if line is not None:
            break
        pygame.mouse.set_pos(listed.rect.center)
        post(pygame.event.Event(pygame.MOUSEMOTION, pos=listed.rect.center, rel=(0, 0)))
        post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
        for _ in range(5):
            app.frame(0.05)
    assert line is not None, text
    assert view.contains(line.rect), ("the line is in the tab's view", line.rect, view)
    click(app, line.rect.center)
    app.pump()  # the menu's change event, posted while the click was handled
    assert menu.selected_option[0] == text


def test_the_lesson_step_form_sets_what_a_step_waits_for_by_kind_and_point_by_a_click(
    app, tmp_path
):
    """Issue 42's step form: what a step waits for is picked from a row of buttons (Space,
    Select, Do, Look, Show, Phase) showing that kind's fields only (an action type and a phase
    from drop-downs of the engine's); Point is a hex a click on the map fills, or a part of
    the screen from a drop-down; each Apply one SetStep edit, validated, undone; all undone,
    the file saves byte-identical."""
    scene, path = open_editor(app, tmp_path, "lesson-1-move.toml")
    before = path.read_bytes()
    hexes = [list(r) for r in scene.doc.doc["map"]["hexes"]]
    click(app, button(scene, "tab", "lesson").rect.center)
    click(app, scene.panel.lesson["steps"].item_list_container.elements[2].rect.center)
    panel = scene.panel
    assert panel.wait_kind == "do" and panel.entries["do_to"].visible
    assert not panel.entries["look_from"].visible and not panel.lesson["phase"].visible
    click(app, at(scene, "C3"))  # the map: Point, and no paint
    assert panel.text("step_point") == "C3"
    assert [list(r) for r in scene.doc.doc["map"]["hexes"]] == hexes
    click(app, button(scene, "wait_kind", "phase").rect.center)
    assert panel.lesson["phase"].visible and not panel.entries["do_to"].visible
    choose(app, panel.lesson["phase"], "defensive_fire", panel.box.rect)
    choose(app, panel.lesson["side"], "german", panel.box.rect)
    click(app, button(scene, "do", "step_apply").rect.center)
    step = scene.doc.doc["lesson"]["steps"][2]
    assert (step["phase"], step["side"], step["point"]) == ("defensive_fire", "german", "C3")
    assert "do" not in step and scene.errors == ()
    assert scene.doc.undo_title == "lesson step 3: point, do, phase, side"
    panel = scene.panel  # built again from the document: the step as it is now
    assert panel.wait_kind == "phase" and panel.dropped("phase") == "defensive_fire"
    click(app, button(scene, "wait_kind", "show").rect.center)
    click(app, button(scene, "show_overlay", "threat").rect.center)
    retype(app, panel.entries["step_select"], "rus-t34-1")
    choose(app, panel.lesson["part"], "end_phase", panel.box.rect)
    assert panel.text("step_point") == "end_phase"
    click(app, button(scene, "do", "step_apply").rect.center)
    step = scene.doc.doc["lesson"]["steps"][2]
    assert (step["show"], step["select"], step["point"]) == ("threat", "rus-t34-1", "end_phase")
    assert "phase" not in step and "side" not in step and scene.errors == ()
    panel = scene.panel
    click(app, button(scene, "wait_kind", "do").rect.center)
    click(app, button(scene, "do", "step_apply").rect.center)  # no type picked: said
    assert scene.said == "waits for: do: pick the action's type"
    choose(app, panel.lesson["do_type"], "fire", panel.box.rect)
    retype(app, panel.entries["do_unit"], "rus-t34-1")
    retype(app, panel.entries["do_target"], "ger-nobody")
    click(app, button(scene, "do", "step_apply").rect.center)
    assert any("lesson.steps[2]" in e and "ger-nobody" in e for e in scene.errors)
    for _ in range(3):
        key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert scene.errors == () and "do" in scene.doc.doc["lesson"]["steps"][2]
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    assert path.read_bytes() == before


def test_the_step_forms_do_keeps_the_keys_it_has_no_field_for_while_its_type_stays():
    """A turn step's ``facing`` (no field of its own) stays when the form sets its unit, and
    goes when the type becomes another; a kind without what it needs says what is missing."""
    from game.ui.edit.lesson import form_wait

    old = {"type": "turn", "unit": "rus-t34-1", "facing": 2}
    typed = {"do_type": "turn", "do_unit": "rus-t34-2"}
    assert form_wait("do", typed, old)["do"] == (
        ("type", "turn"),
        ("unit", "rus-t34-2"),
        ("facing", 2),
    )
    typed = {"do_type": "move", "do_unit": "rus-t34-2", "do_to": "b4"}
    assert form_wait("do", typed, old)["do"] == (
        ("type", "move"),
        ("unit", "rus-t34-2"),
        ("to", "B4"),
    )
    assert form_wait("look", {"look_from": "A1"}) == (
        "waits for: look: the two hexes the LOS thread joins"
    )
    assert form_wait("select", {}) == "waits for: select: the unit's id"
    assert set(form_wait("space", {}).values()) == {None}  # every wait key removed


def test_at_960x640_the_step_form_scrolls_into_view_and_its_drop_downs_open_in_it(
    tmp_path, data_dir
):
    """A low window (960 x 640): the Lesson tab scrolls (the wheel over it) to the step form,
    whose phase drop-down opens upward in the tab's view and takes a click; Apply writes it."""
    from game.ui.screens import window

    app = window((960, 640), tmp_path / "saves", headless=True)
    try:
        scene, _ = open_editor(app, tmp_path, "lesson-1-move.toml")
        click(app, button(scene, "tab", "lesson").rect.center)
        click(app, scene.panel.lesson["steps"].item_list_container.elements[2].rect.center)
        panel = scene.panel
        assert panel.content_height > panel.box.rect.height  # it scrolls
        scroll_down(app, panel)
        apply = button(scene, "do", "step_apply")
        assert panel.box.rect.contains(apply.rect), (apply.rect, panel.box.rect)
        click(app, button(scene, "wait_kind", "phase").rect.center)
        choose(app, panel.lesson["phase"], "movement", panel.box.rect)
        click(app, apply.rect.center)
        step = scene.doc.doc["lesson"]["steps"][2]
        assert step["phase"] == "movement" and "do" not in step and scene.errors == ()
        app.screenshot(tmp_path / "low-lesson.png")
    finally:
        scene.close()
        pygame.display.quit()


def retype(app, entry, text: str) -> None:
    """Click a text line, clear it and type ``text`` (real text events)."""
    click(app, entry.rect.center)
    entry.set_text("")
    typed(app, text)
    assert entry.get_text() == text


def balanced(app, scene: EditScene, timeout: float = 90.0) -> None:
    """Pump frames until the Balance run ends (the window drawn meanwhile)."""
    import time

    deadline = time.monotonic() + timeout
    while scene.balance.run is not None and time.monotonic() < deadline:
        app.pump()
        time.sleep(0.02)
    assert scene.balance.run is None, "the balance run did not end"


def test_balance_runs_off_the_window_with_a_progress_bar_a_stop_and_its_figures(app, tmp_path):
    """Balance plays the scenario as it stands (game.ai.balance.balance, its games in worker
    processes) while the window draws: a progress bar and Stop under the map; the figures in
    a window at the end; Stop ends a long run at once, no worker left."""
    import multiprocessing
    import time

    from children import live_children

    scene, _ = open_editor(app, tmp_path)
    click(app, button(scene, "tab", "scenario").rect.center)
    assert scene.panel.content_height <= scene.panel.box.rect.height  # all in view at 800
    retype(app, scene.panel.entries["balance_games"], "4")
    retype(app, scene.panel.entries["balance_level"], "0")
    click(app, button(scene, "do", "balance").rect.center)
    run = scene.balance.run
    assert run is not None, scene.said
    assert scene.balance.stop_button is not None and scene.balance.stop_button.alive()
    assert scene.said.startswith("Balance: 0 of 4 games")
    balanced(app, scene)
    assert scene.balance.last is run and run.result is not None and run.progress.done == 4
    sides = run.result["sides"]
    assert set(sides) == {"german", "russian"} and run.result["games"] == 4
    wins = dict(run.progress.wins)
    assert sum(wins.values()) + run.progress.undecided == 4
    assert scene.said == f"Balance: 4 games at level 0: german {wins['german']}, russian " + str(
        wins["russian"]
    )
    assert scene.balance.result_box is not None and scene.balance.result_box.alive()
    assert "german</b> wins" in run.report() and "95% interval" in run.report()
    assert scene.balance.stop_button is None
    scene.balance.result_box.kill()
    retype(app, scene.panel.entries["balance_games"], "300")
    retype(app, scene.panel.entries["balance_level"], "2")
    before = set(multiprocessing.active_children())  # the editor's checker
    click(app, button(scene, "do", "balance").rect.center)
    long_run = scene.balance.run
    assert long_run is not None
    time.sleep(0.3)  # the workers started
    click(app, scene.balance.stop_button.rect.center)
    balanced(app, scene, timeout=30)
    assert long_run.stopped is not None and long_run.result is None
    assert scene.said.startswith("Balance stopped after ")
    assert not long_run.thread.is_alive() and set(live_children()) <= before
    retype(app, scene.panel.entries["balance_games"], "x")  # a bad count: said, not run
    click(app, button(scene, "do", "balance").rect.center)
    assert scene.balance.run is None and scene.said == "Balance: the games, a whole number 1-1000"


def test_at_960x640_every_tab_keeps_the_commands_and_errors_in_view_and_scrolls_the_rest(
    tmp_path, data_dir
):
    """A low window (960 x 640): under every tab the commands and at least 90 pixels of the
    errors stay on screen; a tab too tall for its room scrolls (the wheel over it), and a
    button scrolled into view takes its click."""
    from game.ui.edit.panel import TABS
    from game.ui.screens import window

    app = window((960, 640), tmp_path / "saves", headless=True)
    try:
        scene, _ = open_editor(app, tmp_path)
        foot = ("undo", "redo", "save", "save_as", "test", "test_ai", "close")
        screen = pygame.Rect(0, 0, 960, 640)
        for tab in TABS:
            click(app, button(scene, "tab", tab).rect.center)
            panel = scene.panel
            assert panel.tab == tab and panel.box is not None and panel.errors is not None
            for what in foot:
                rect = button(scene, "do", what).rect
                assert screen.contains(rect) and rect.top >= panel.box.rect.bottom, (tab, what)
            assert screen.contains(panel.errors.rect) and panel.errors.rect.height >= 90, tab
        click(app, button(scene, "tab", "scenario").rect.center)
        panel = scene.panel
        assert panel.content_height > panel.box.rect.height  # it scrolls
        add = button(scene, "do", "victory_add")
        assert add.rect.top >= panel.box.rect.bottom  # out of view below
        scroll_down(app, panel)
        assert panel.box.rect.contains(add.rect), (add.rect, panel.box.rect)
        zoom = scene.view.camera.zoom
        click(app, add.rect.center)  # no count typed: said, nothing added
        assert scene.said == "eliminate: how many enemy AFVs (a number)"
        assert scene.view.camera.zoom == zoom  # the wheel scrolled the panel, not the map
        app.screenshot(tmp_path / "low.png")
    finally:
        scene.close()
        pygame.display.quit()


def test_edits_are_validated_in_a_process_of_their_own_which_may_die(app, tmp_path):
    """The checker's process validates each edit as hexfire validate does (the same located
    errors, the units and set-up areas read there); killed, the next edit is validated all
    the same (here, then in a new process)."""
    import os
    import signal

    scene, _ = open_editor(app, tmp_path)
    checker = scene.worker.checker
    checker.wait_ready()
    (pid,) = [p.pid for p in checker._pool._processes.values()]
    assert pid != os.getpid()
    for name, value in (("columns", "10"), ("rows", "6")):
        scene.panel.entries[name].set_text(value)
    click(app, button(scene, "do", "resize").rect.center)
    assert (
        scene.errors and scene.errors == ScenarioDoc(scene.doc.text, scene.doc.name).check().errors
    )
    os.kill(pid, signal.SIGKILL)
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert scene.errors == () and (scene.sketch.board.columns, scene.sketch.board.rows) == (12, 8)
    assert {"A1", "E8"} <= {label(h) for h in scene.sketch.areas["german"]}
    assert len(scene.sketch.units()) == 4
    checker.wait_ready()
    (new_pid,) = [p.pid for p in checker._pool._processes.values()]
    assert new_pid != pid
    scene.close()


def test_resizing_the_map_is_an_edit_the_units_off_it_are_errors(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    for name, value in (("columns", "10"), ("rows", "6")):
        entry = scene.panel.entries[name]
        entry.set_text(value)
    click(app, button(scene, "do", "resize").rect.center)
    assert (scene.sketch.board.columns, scene.sketch.board.rows) == (10, 6)
    assert any("L7" in e or "units[" in e for e in scene.errors)  # the T-34 in L7 is off it
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)
    assert (scene.sketch.board.columns, scene.sketch.board.rows) == (12, 8)
    assert scene.errors == ()


def test_the_scenario_forms_write_the_texts_sides_rules_and_victory(app, tmp_path):
    scene, path = open_editor(app, tmp_path)
    click(app, button(scene, "tab", "scenario").rect.center)
    scene.panel.entries["title"].set_text("Duel at Dawn")
    scene.panel.entries["turns"].set_text("7")
    assert scene.panel.briefing is not None
    scene.panel.briefing.set_text("Line one.\n\nLine two.")
    click(app, button(scene, "do", "texts").rect.center)
    d = scene.doc.doc
    assert (d["title"], d["turns"]) == ("Duel at Dawn", 7)
    assert (
        d["briefing"] == "Line one.\n\nLine two.\n"
        and 'briefing = """\nLine one.' in scene.doc.text
    )
    click(app, button(scene, "moves_first", "german").rect.center)
    click(app, button(scene, "defender", "russian").rect.center)
    click(app, button(scene, "to_kill", "chart").rect.center)
    assert d["sides"]["german"]["moves_first"] and "moves_first" not in d["sides"]["russian"]
    assert d["sides"]["russian"]["defender"] and d["rules"]["to_kill"] == "chart"
    click(app, button(scene, "victory_side", "russian").rect.center)
    click(app, button(scene, "victory_kind", "hold").rect.center)
    scene.panel.entries["victory_detail"].set_text("g5, h5")
    click(app, button(scene, "do", "victory_add").rect.center)
    assert dict(d["victory"][-1]) == {"side": "russian", "kind": "hold", "hexes": ["G5", "H5"]}
    assert scene.panel.victories is not None and len(scene.panel.victories.item_list) == 4
    click(app, scene.panel.victories.item_list_container.elements[0].rect.center)
    click(app, button(scene, "do", "victory_remove").rect.center)
    assert len(scene.doc.doc["victory"]) == 3
    assert scene.errors == ()
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    text = path.read_text()
    assert "# hexfire scenario: a small duel" in text and 'title = "Duel at Dawn"' in text


def test_test_play_opens_a_new_game_and_leaving_it_comes_back_to_the_editor(app, tmp_path):
    from game.ui.play.screen import PlayScene

    scene, _ = open_editor(app, tmp_path)
    drag(app, [at(scene, "A1")])  # unsaved work: the game plays it as it stands
    click(app, button(scene, "do", "test_ai").rect.center)
    for _ in range(4):
        app.pump()
    play = next(s for s in app.scenes if isinstance(s, PlayScene))
    assert app.scenes[0] is scene
    assert play.table.board.terrain_at(play.table.board.parse("A1")).key == "woods"
    assert play.session.saved.computer == {"side": "german", "level": 2}  # Russian moves first
    play.orders.command("start_screen")
    for _ in range(3):
        app.pump()
    assert app.scene is scene and scene.unsaved and scene.panel.errors is not None


def test_the_start_screen_opens_the_editor_and_offers_a_draft_left_by_a_crash(app, tmp_path):
    from game.ui.scenes.routes import Start
    from game.ui.start.screen import StartScene

    app.go(Push(Start()))
    app.pump()
    start = app.scene
    assert isinstance(start, StartScene) and not start.draft_button.is_enabled
    click(app, start.new_button.rect.center)
    scene = app.scene
    assert isinstance(scene, EditScene) and scene.path is None
    drag(app, [at(scene, "C3")])
    painted = scene.doc.text
    scene.close()
    app.pop()  # the editor gone without saving, as a crash leaves it
    app.pump()
    start = app.scene
    assert isinstance(start, StartScene) and start.draft_button.is_enabled
    click(app, start.draft_button.rect.center)
    again = app.scene
    assert isinstance(again, EditScene) and again.doc.text == painted and again.unsaved
    assert not app.questions  # brought back already: nothing to ask
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)  # a new scenario: Save as's dialog
    assert again.file_dialog is not None and again.file_dialog.alive()
    saved = tmp_path / "mine" / "first.toml"
    saved.parent.mkdir()
    pick(app, again, saved)
    assert saved.read_text() == painted and not list((app.save_dir / "drafts").iterdir())
    assert again.path == saved and not again.unsaved


def test_edit_this_scenario_edits_a_copy_in_the_data_folder(app, tmp_path):
    from game.ui.scenes.routes import Start

    app.go(Push(Start()))
    app.pump()
    start = app.scene
    click(app, start.edit_button.rect.center)
    scene = app.scene
    assert isinstance(scene, EditScene) and scene.unsaved  # the copy is not written yet
    shipped = start.scenarios[start.chosen][0]
    assert scene.path == app.scenario_dir / shipped.name
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    assert scene.path.read_bytes() == shipped.read_bytes()  # byte-identical


def test_f1_shows_the_editors_keys(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    key(app, pygame.K_F1)
    assert type(app.scene).__name__ == "HelpScene"
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene


def test_every_shipped_scenario_opens_in_the_editor_and_saves_byte_identical(app, tmp_path):
    from game.files.shipped import shipped_scenarios

    for shipped in shipped_scenarios():
        path = tmp_path / shipped.name
        shutil.copyfile(shipped, path)
        app.go(Push(Edit(path)))
        app.pump()
        scene = app.scene
        assert isinstance(scene, EditScene) and scene.errors == (), shipped.name
        key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
        assert path.read_bytes() == shipped.read_bytes(), shipped.name
        scene.close()
        app.pop()


def test_a_new_scenario_made_from_nothing_validates_plays_and_saves(app, tmp_path):
    """The issue's trial, by events: a 20 x 12 map with a wood and a road, six units with
    set-up areas, a victory condition; it validates, test plays against the computer, saves."""
    from game.files.scenario import load_scenario

    app.go(Push(Edit(None)))
    app.pump()
    scene = app.scene
    assert isinstance(scene, EditScene)
    click(app, button(scene, "brush", 3).rect.center)
    drag(app, [at(scene, "H5"), at(scene, "J6")])  # woods
    click(app, button(scene, "tool", "line").rect.center)
    click(app, button(scene, "terrain", "r").rect.center)
    drag(app, [at(scene, "A6"), at(scene, "T6")])  # a road across
    click(app, button(scene, "tab", "units").rect.center)
    for side, query, hexes, area in (
        ("german", "pz", ("B3", "C5", "B8"), "A-D"),
        ("russian", "t-34", ("R3", "S6", "Q9"), "P-T"),
    ):
        click(app, scene.panel.entries["search"].rect.center)
        scene.panel.entries["search"].set_text("")
        typed(app, query)
        click(app, scene.panel.types.item_list_container.elements[0].rect.center)
        click(app, button(scene, "side", side).rect.center)
        for hx in hexes:
            click(app, at(scene, hx))
        scene.panel.entries["area_columns"].set_text(area)
        click(app, button(scene, "do", "side_area").rect.center)  # every unit of the side
    assert len(scene.doc.doc["units"]) == 6
    assert [u["setup_area"]["columns"] for u in scene.doc.doc["units"]] == ["A-D"] * 3 + ["P-T"] * 3
    click(app, button(scene, "tab", "scenario").rect.center)
    click(app, button(scene, "victory_side", "russian").rect.center)
    scene.panel.entries["victory_detail"].set_text("2")
    click(app, button(scene, "do", "victory_add").rect.center)
    assert scene.errors == (), scene.errors
    click(app, button(scene, "do", "test_ai").rect.center)
    for _ in range(4):
        app.pump()
    assert type(app.scene).__name__ != "EditScene"
    scene.app.go(Replace(Start()))
    app.pump()
    assert app.scene is scene
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)
    target = tmp_path / "mine.toml"
    pick(app, scene, target)
    sc = load_scenario(target)
    assert (sc.setup.board.columns, sc.setup.board.rows, len(sc.setup.units)) == (20, 12, 6)


def ask_to_close(app, tmp_path: Path) -> EditScene:
    """The editor opened from the start screen, a stroke painted, and Ctrl+Q pressed: it
    asks (the work is unsaved) and stays."""
    app.go(Push(Start()))
    app.pump()
    scene, _ = open_editor(app, tmp_path)
    drag(app, [at(scene, "A1")])
    key(app, pygame.K_q, "q", pygame.KMOD_CTRL)
    assert app.scene is scene and app.questions  # asked, still here
    return scene


def test_closing_the_editor_with_unsaved_work_asks_then_goes_back_not_out(app, tmp_path):
    from game.ui.start.screen import StartScene

    ask_to_close(app, tmp_path)
    app.questions.popitem()[1]()
    app.pump()
    assert isinstance(app.scene, StartScene) and app.running  # back, the window open


def test_every_key_of_the_editor_and_the_map_does_something_known(app, tmp_path):
    """Each binding of the editor's rows and the map's, pressed in the editor (painted first,
    a unit selected): nothing raises, the document stays valid TOML."""
    from game.ui.bindings import bindings

    scene, _ = open_editor(app, tmp_path)
    drag(app, [at(scene, "B2")])
    scene.view.state.selected = "ger-pz4-1"
    for b in bindings():
        if b.screen not in ("edit", "map") or b.action in ("close", "help", "save"):
            continue
        for spec in b.keys:
            name = spec.removeprefix("ctrl+")
            mod = pygame.KMOD_CTRL if spec.startswith("ctrl+") else 0
            key(app, pygame.key.key_code(name), name if len(name) == 1 else "", mod)
            assert app.scene is scene, spec
    assert ScenarioDoc(scene.doc.text).text == scene.doc.text


def test_issue44_closing_the_editor_with_a_screen_over_it_takes_the_editor_off(app, tmp_path):
    """The close question answered after Help was opened over the editor (a key still reaches
    the editor while a dialog is open): the Help screen was popped and the editor, its worker
    shut down, left on top; the next save key crashed the window (the storm's soak). The
    editor and what was opened over it now go together."""
    from game.ui.start.screen import StartScene

    scene = ask_to_close(app, tmp_path)
    key(app, pygame.K_F1)
    assert app.scene is not scene and scene in app.scenes  # Help over the editor
    app.questions.popitem()[1]()
    app.pump()
    assert scene not in app.scenes and isinstance(app.scene, StartScene) and app.running
    key(app, pygame.K_s, "s", pygame.KMOD_CTRL)  # reaches the start screen, nothing raises
