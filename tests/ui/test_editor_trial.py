"""What a trial of the editor found (issue 42: real X input, a 20 x 12 scenario made from
nothing), each driven with real pygame events: a click on the Save dialog painted the map under
it; choosing the next unit's facing turned the unit placed last; the set-up areas were drawn
only once the whole scenario validated; "panzer" found no Panzer."""

from __future__ import annotations

from pathlib import Path

import pygame
from test_editor import at, button, typed
from ui_driver import click, key

from game.board.hexes import label
from game.ui.edit.panel import find_types
from game.ui.edit.screen import EditScene
from game.ui.scenes.routes import Edit, Push


def new_editor(app) -> EditScene:
    app.go(Push(Edit(None)))
    app.pump()
    scene = app.scene
    assert isinstance(scene, EditScene)
    return scene


def place(app, scene: EditScene, search: str, side: str, facing: int, hexes: list[str]) -> None:
    click(app, button(scene, "tab", "units").rect.center)
    click(app, scene.panel.entries["search"].rect.center)
    pygame.key.set_mods(0)
    entry = scene.panel.entries["search"]
    entry.set_text("")
    typed(app, search)
    click(app, scene.panel.types.item_list_container.elements[0].rect.center)
    click(app, button(scene, "side", side).rect.center)
    click(app, button(scene, "facing", facing).rect.center)
    for hx in hexes:
        click(app, at(scene, hx))
        app.pump()


def test_a_click_on_the_save_dialog_paints_nothing_on_the_map_under_it(app):
    scene = new_editor(app)
    click(app, button(scene, "tool", "line").rect.center)
    click(app, button(scene, "terrain", "r").rect.center)
    text = scene.doc.text
    click(app, button(scene, "do", "save_as").rect.center)
    dialog = scene.file_dialog
    assert dialog is not None and app.window_open()
    spot = dialog.file_path_text_line.rect.center
    assert scene.view.hex_at(spot) is not None  # a hex of the map lies under the dialog
    click(app, spot)
    app.pump()
    assert scene.doc.text == text  # before: that hex became a road


def test_choosing_the_next_units_type_and_facing_leaves_the_unit_placed_last_as_it_was(app):
    scene = new_editor(app)
    place(app, scene, "iv", "german", 1, ["C6"])
    place(app, scene, "t-34", "russian", 4, ["P6"])
    units = {u["id"]: dict(u) for u in scene.doc.doc["units"]}
    assert units["ger-pz4h-1"]["facing"] == 1  # before: turned to 4 with the T-34's choice
    assert units["rus-t34m43-1"]["facing"] == 4


def test_hx12_a_set_up_area_is_outlined_while_the_scenario_still_has_errors(app):
    scene = new_editor(app)
    place(app, scene, "iv", "german", 1, ["C6"])
    click(app, scene.panel.entries["area_columns"].rect.center)
    typed(app, "a-f")
    click(app, button(scene, "do", "side_area").rect.center)
    app.pump()
    assert scene.errors  # no victory condition yet
    german = {label(h) for h in scene.sketch.areas["german"]}
    assert {"A1", "F12", "C6"} <= german and "G1" not in german
    app.frame(0.016)
    drawn = pygame.surfarray.array3d(app.screen)
    scene.sketch.areas = {}
    app.frame(0.016)
    bare = pygame.surfarray.array3d(app.screen)
    x, y = at(scene, "F6")  # the area's east edge runs by F6: the outline is drawn there
    assert (drawn[x - 40 : x + 40, y - 20 : y + 20] != bare[x - 40 : x + 40, y - 20 : y + 20]).any()


def test_the_unit_search_knows_other_spellings_and_the_kinds_of_unit():
    """The catalogue's [search] table: "panzer" (and "Mk IV") finds the PzKpfw, "tank" the
    AFVs, "half-track" the SdKfz 251."""

    def names(text: str) -> list[str]:
        return [t.split(" (")[0] for t, _ in find_types(text, None, "")]

    assert names("panzer iv") == ["PzKpfw IVH"] == names("mk iv")
    assert "PzKpfw VG" in names("panzer") and "German squad with Panzerfaust" in names("panzer")
    assert names("half-track") == ["SdKfz 251/1"]
    assert set(names("tank 1941")) == {"KV-1E", "T-50"}
    assert names("gun russian") == ["45mm M1937", "76.2mm ZiS-3"]


def test_a_scenario_saved_is_readable_as_the_umask_allows_and_links_stay_private(tmp_path):
    from game.files.savegame import UMASK, write_atomic

    path = tmp_path / "mine.toml"
    write_atomic(path, "x")
    assert path.stat().st_mode & 0o777 == 0o666 & ~UMASK  # before: 0600, as mkstemp makes
    path.chmod(0o640)
    write_atomic(path, "y")
    assert path.stat().st_mode & 0o777 == 0o640  # a file replaced keeps its permissions
    secret = tmp_path / "links.json"
    write_atomic(secret, "{}", private=True)
    assert secret.stat().st_mode & 0o777 == 0o600
    assert Path(path).read_text() == "y"


def test_the_scenario_tab_opens_while_an_edits_check_still_runs(app, monkeypatch):
    """Issue 44's storm: the editor's Scenario and Lesson tabs waited on the window's thread for
    every queued edit's check (up to 3.8 s). They read the document under its lock instead."""
    import threading

    scene = new_editor(app)
    release = threading.Event()
    real = scene.worker.checker.check

    def slow(text, name):
        release.wait(3.0)
        return real(text, name)

    monkeypatch.setattr(scene.worker.checker, "check", slow)
    click(app, button(scene, "terrain", "w").rect.center)

    def press(pos) -> None:  # as the window's loop does, not waiting for jobs (App.pump does)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            app.handle(pygame.event.Event(kind, pos=pos, button=1))
        for event in pygame.event.get():  # the button's own event, posted meanwhile
            app.handle(event)
        app.frame(0.016)

    press(at(scene, "C3"))
    assert scene.worker.busy  # the stroke's check waits on the event
    press(button(scene, "tab", "scenario").rect.center)
    assert scene.panel.tab == "scenario" and scene.worker.busy  # the check still runs
    release.set()
    scene.wait_done()
    app.pump()
    assert scene.worker.busy is False


def test_issue44_the_scenario_tab_opens_while_a_job_writes_the_document(app):
    """The 20-minute soak's 19-49 s passes: the Scenario tab read its fields under the
    document's lock, which a job holds while it edits (a 200 x 200 map's edit: seconds), so the
    window's thread waited for it. The tab now opens at once with the fields it had, and reads
    them once the job lets go of the document."""
    import threading

    scene = new_editor(app)
    taken = threading.Event()
    done = threading.Event()

    def hold() -> None:  # a job editing the document: the worker's lock held
        with scene.worker.doc_lock:
            taken.set()
            done.wait(10.0)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(5.0)
    try:
        opened = threading.Thread(
            target=lambda: click(app, button(scene, "tab", "scenario").rect.center)
        )
        opened.start()
        opened.join(5.0)
        assert not opened.is_alive(), "the window waited for the job"
        assert scene.panel.tab == "scenario" and scene.panel_due
    finally:
        done.set()
        holder.join()
    scene.update(0.0)
    assert not scene.panel_due and scene.panel.values.get("title")


def test_an_editor_replaced_by_another_screen_ends_its_worker_and_checking_process(app):
    """Seen in the 20-minute soak: two editors' worker threads alive at once. An editor left
    by a Replace (a game loaded from its test play, the start screen) ended nothing: its
    thread and its checking process stayed until the window closed."""
    import threading

    from game.ui.scenes.routes import Replace

    scene = new_editor(app)
    scene.worker.checker.wait_ready()
    assert scene.worker.checker._pool is not None
    app.go(Replace(Edit(None)))  # another screen in its place (here: another editor)
    app.pump()
    assert app.scene is not scene
    assert scene.worker.checker._pool is None  # the process ended
    editing = [t for t in threading.enumerate() if t.name.startswith("hexfire-edit")]
    assert len(editing) <= 1  # the new editor's own worker at most


def test_save_as_offers_a_folder_under_the_save_dir_chosen_and_writes_nothing_outside(tmp_path):
    """Found in the trial: with ``--save-dir /tmp/trial-saves``, Save as offered
    ``/tmp/scenarios/`` and made it: a folder outside the one the player chose."""
    from game.ui.screens import window

    chosen = tmp_path / "trial-saves"
    app = window((1280, 800), chosen, headless=True)
    try:
        scene = new_editor(app)
        click(app, button(scene, "do", "save_as").rect.center)
        offered = Path(scene.file_dialog.file_path_text_line.get_text())
        assert offered.parent == chosen / "scenarios"
        assert not (tmp_path / "scenarios").exists()
    finally:
        pygame.display.quit()


def test_closing_an_editor_opened_alone_goes_to_the_start_screen(app):
    """``hexfire edit`` then Close: the editor, a "home" screen, sent itself back to itself
    (its worker already ended): the next key crashed the window (found by the 20-minute
    soak). It goes to the start screen."""
    from game.ui.start.screen import StartScene

    scene = new_editor(app)
    assert app.scenes == [scene]
    click(app, button(scene, "do", "close").rect.center)
    assert isinstance(app.scene, StartScene) and scene not in app.scenes
    key(app, pygame.K_z, "z", pygame.KMOD_CTRL)  # the window goes on


def test_closing_the_window_during_a_balance_run_ends_its_workers(app, tmp_path):
    """Found by the soak: a Balance run left going when the window closed kept the process
    alive for many minutes after (its worker processes playing on, the interpreter waiting for
    them at exit). Once the window closes every screen is closed (App.close_all): it stops."""
    import multiprocessing
    import threading

    from children import live_children
    from test_editor import open_editor, retype

    from game.ui.scenes.opening import close_sessions

    scene, _ = open_editor(app, tmp_path)
    click(app, button(scene, "tab", "scenario").rect.center)
    retype(app, scene.panel.entries["balance_games"], "200")
    retype(app, scene.panel.entries["balance_level"], "2")
    before = set(multiprocessing.active_children())  # the checkers of this worker's editors
    click(app, button(scene, "do", "balance").rect.center)
    assert scene.balance.run is not None, scene.said
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()
    close_sessions(app)  # as the window's command does once it closed (game/ui/main.py)
    app.close_all()
    assert scene.balance.run is None
    assert not [t for t in threading.enumerate() if t.name == "hexfire-balance" and t.is_alive()]
    assert set(live_children()) <= before  # no Balance worker left
