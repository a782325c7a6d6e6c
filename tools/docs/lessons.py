"""docs/lessons.md and its screenshots (docs/lessons/*.jpg): every step of every shipped lesson,
its words and the screen at that step, played through by posted events exactly as the tests
play them (tests/ui/test_lessons.py's driver). Run: python3 tools/docs/lessons.py"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "disk")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "helpers"), str(ROOT / "tests" / "ui")]

import tempfile  # noqa: E402

import pygame  # noqa: E402
from test_lessons import do_step  # noqa: E402
from ui_driver import clear_overlays  # noqa: E402

from game.files.scenario import load_scenario  # noqa: E402
from game.files.session import new_game  # noqa: E402
from game.files.shipped import shipped_scenarios  # noqa: E402
from game.ui.play.screen import PlayScene  # noqa: E402
from game.ui.screens import window  # noqa: E402

SHOTS = ROOT / "docs" / "lessons"
SIZE = (1280, 800)
SHOWN = (800, 500)


def main() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.jpg"):
        old.unlink()
    out = [
        "# The lessons",
        "",
        "Every step of every shipped lesson (`scenarios/lesson-*.toml`), as the screen shows it",
        "when the step begins. Made by `python3 tools/docs/lessons.py`, which plays each lesson",
        "through by posted events as `tests/ui/test_lessons.py` does (seed 3). Start them from the",
        "start screen (the lessons are listed first) or `hexfire play lesson-1-move`.",
        "",
    ]
    lessons = [p for p in shipped_scenarios() if load_scenario(p).lesson is not None]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        app = window(SIZE, Path(tmp) / "saves", headless=True)
        for path in lessons:
            sc = load_scenario(path)
            lesson = sc.lesson
            assert lesson is not None
            play = PlayScene(new_game(sc, 3, Path(tmp) / f"{path.stem}.json"), sc.title)
            app.push(play)
            app.pump([])
            card = play.lesson
            assert card is not None
            out += [f"## {sc.title}", ""]
            for _ in range(4 * len(lesson.steps)):
                if card.finished:
                    break
                n = card.at + 1
                clear_overlays(app, play)
                app.pump([])
                name = f"{path.stem}-{n:02d}.jpg"
                pygame.image.save(pygame.transform.smoothscale(app.screen, SHOWN), SHOTS / name)
                out += [f"{n}. {card.step.say}", "", f"   ![step {n}](lessons/{name})", ""]
                do_step(app, play, card.step)
            app.scenes.clear()
        pygame.display.quit()
    (ROOT / "docs" / "lessons.md").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
