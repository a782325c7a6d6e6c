"""``hexfire edit``: a frame of the editor, and hostile files refused in one line."""

from __future__ import annotations

import pytest

from game.cli import main


def test_edit_screenshot_of_a_shipped_scenario_and_of_a_new_one(tmp_path, data_dir, capsys):
    import pygame

    for args, name in ((["tutorial-duel"], "duel.png"), ([], "new.png")):
        out = tmp_path / name
        assert main(["edit", *args, "--screenshot", str(out), "--size", "960x640"]) == 0
        assert pygame.image.load(str(out)).get_size() == (960, 640)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('id = "x"\n', "map: missing"),
        ("id = \n", "not valid TOML"),
        ('[map]\ncolumns = 3\nrows = 2\nhexes = ["o o o", "o q o"]\n', "hex B2: bad token"),
        ("\x00\x01binary", ""),
    ],
)
def test_a_file_the_editor_cannot_draw_is_refused_in_one_line(
    tmp_path, data_dir, capsys, text, says
):
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    assert main(["edit", str(bad), "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hexfire edit: ") and "\n" not in err and says in err
    assert "Traceback" not in err


def test_a_missing_file_or_a_save_is_refused(tmp_path, data_dir, capsys):
    assert main(["edit", str(tmp_path / "none.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err
    save = tmp_path / "game.json"
    save.write_text("{}")
    assert main(["edit", str(save)]) == 2
    assert "expected a scenario (.toml)" in capsys.readouterr().err
