"""An editor closed while a change is still being made leaves none of its widgets behind
(issue 44, item 7: the soak found two editors' panels alive in the window's UI manager, 141
widgets, with only the soak's game open: the change's result, taken as the editor closed,
built its panel again after it had been killed)."""

from __future__ import annotations

from test_editor import at, open_editor
from test_editor_queue import stroke


def panel_widgets(app) -> list[str]:
    """The widgets alive in the window's UI manager that only the editor's panel makes."""
    return [
        str(e.most_specific_combined_id)
        for e in app.ui.get_sprite_group().sprites()
        if "scrolling_container" in str(getattr(e, "most_specific_combined_id", ""))
    ]


def test_an_editor_closed_with_a_change_not_yet_taken_leaves_no_widget_behind(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    scene.panel.tab = "scenario"  # a checked change builds this tab again (its fields, lists)
    scene.build_panel()
    assert panel_widgets(app)  # the panel is there to be left
    stroke(app, at(scene, "A1"))
    scene.worker.wait()  # the stroke's new map made, its result not yet taken by a frame
    app.close_all()  # the window closes, or another screen replaces the editor
    assert panel_widgets(app) == []
    assert scene.panel.box is None and scene.panel.errors is None


def test_an_editor_under_a_test_play_builds_its_panel_when_it_is_back_on_top(app, tmp_path):
    scene, _ = open_editor(app, tmp_path)
    scene.panel.tab = "scenario"
    scene.build_panel()
    stroke(app, at(scene, "B2"))
    scene.worker.wait()
    scene.leave()  # (as when a Test play is pushed over it)
    scene.take_all(scene.worker.results())
    assert panel_widgets(app) == []
    scene.enter()  # back on top
    assert panel_widgets(app) and scene.panel.box is not None
