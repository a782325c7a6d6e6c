"""The one module that knows the concrete scenes: it builds the screen a transition names
(:mod:`.scenes.routes`) and makes the window that applies them. Every other module asks for a
screen by value; so no scene imports another's module, and the screen's modules hold no circle."""

from __future__ import annotations

from pathlib import Path

from game.ui.edit.preparing import editor_opening
from game.ui.edit.screen import EditScene
from game.ui.overlays.scenes import DffPrompt, EndScene, Handover, HelpScene, StackChooser
from game.ui.play.screen import PlayScene
from game.ui.replay.viewer import WatchScene
from game.ui.scenes.loading import LoadingScene
from game.ui.scenes.routes import (
    ChooseStack,
    DffChance,
    Edit,
    GameOver,
    HandOver,
    Help,
    OpenEditor,
    Opening,
    Play,
    Screen,
    Start,
    Watch,
)
from game.ui.scenes.stack import App, Scene
from game.ui.start.screen import StartScene


def _play(scene: Scene) -> PlayScene:
    assert isinstance(scene, PlayScene), f"a play screen, not {type(scene).__name__}"
    return scene


def build(screen: Screen) -> Scene:
    """The scene for ``screen``."""
    match screen:
        case Start():
            return StartScene()
        case Edit(path, text, prepared):
            return EditScene(path, text, prepared)
        case OpenEditor(edit, failed):
            return LoadingScene(editor_opening(edit, failed))
        case Play(session, title, viewer):
            return PlayScene(session, title, viewer)
        case Watch(timeline, title, at):
            return WatchScene(timeline, title, at=at)
        case Help(owner):
            return HelpScene(owner)
        case DffChance(play):
            return DffPrompt(_play(play))
        case HandOver(play, side, then_dff):
            return Handover(_play(play), side, then_dff=then_dff)
        case GameOver(play):
            return EndScene(_play(play))
        case ChooseStack(play, units, pos):
            return StackChooser(_play(play), units, pos)
        case Opening():
            return LoadingScene(screen)
    raise TypeError(f"no scene for {screen!r}")


def window(
    size: tuple[int, int] | None = None,
    save_dir: str | Path | None = None,
    headless: bool = False,
) -> App:
    """The game window, building its screens here."""
    if size is None:
        return App(save_dir=save_dir, headless=headless, build=build)
    return App(size, save_dir, headless=headless, build=build)
