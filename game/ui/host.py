"""What the map's drawing and its analysis layer read of the screen that hosts them: the
plain view state (who is looking, the selection, the hover, the message) and the screen's
parts (camera, renderer). The play screen and the replay viewer both provide it; the drawing
modules import this Protocol, never the play screen, so the screen's modules hold no circle."""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from game.engine import Game
from game.engine.actions import Action
from game.engine.knowledge import ShotOdds

from .geometry import Camera
from .maprender import MapRenderer
from .minimap import Minimap


class MapHost(Protocol):
    """The view state and parts of a screen that shows the map."""

    title: str
    viewer: str | None
    selected: str | None
    hover_hex: str | None
    message: str
    mouse: tuple[int, int]
    dragging: str | None
    last_shot: tuple[str, str, str] | None
    last_shot_at: int
    overview: bool
    camera: Camera
    renderer: MapRenderer
    minimap: Minimap
    analysis: Any
    """The analysis layer (:class:`.analysis.AnalysisLayer`) drawn over the map."""

    @property
    def game(self) -> Game: ...

    def view(self) -> list[dict]: ...

    def rects(self) -> dict[str, pygame.Rect]: ...

    def setting_up(self) -> bool: ...

    def chosen_ammo(self, unit_id: str) -> str | None: ...

    def hex_at(self, pos: tuple[int, int]) -> str | None: ...

    def hover_odds(self) -> tuple[str, ShotOdds | str] | None: ...

    def draw_tracking(self, surface: pygame.Surface) -> None: ...

    def hint(self) -> str: ...


class PlayHost(MapHost, Protocol):
    """What the play screen's composed parts (its orders and dialogs) read and change of it:
    its window, its session and one door (``apply``), and its own state."""

    app: Any
    """The window (:class:`.app.App`)."""
    session: Any
    """The game's session (:class:`game.files.session.Autosave` or the screen's Session)."""
    dialogs: Any
    orders: Any
    """The screen's orders (:class:`.playorders.Orders`)."""
    map_input: Any
    ammo: dict[str, str]
    bore_sight_mode: bool
    _odds_key: tuple | None

    def apply(self, action: Action) -> bool: ...

    def legal(self) -> list[Action]: ...

    def units_at(self, hex_label: str) -> list[dict]: ...

    def center_on(self, hex_label: str) -> None: ...

    def rebuild_log(self) -> None: ...
