"""What the map's parts (its input, its analysis layer) read of the map view, and what the play
screen's composed parts (orders, dialogs) read of the play screen: Protocols, so that those
modules import neither :mod:`.view` nor :mod:`game.ui.play.screen` and the screen's modules
hold no circle."""

from __future__ import annotations

from typing import Any, Protocol

import pygame

from game.board.hexes import Hex
from game.engine.actions import Action
from game.engine.knowledge import ShotOdds
from game.engine.view import UnitView
from game.session import Table
from game.ui.map.geometry import Camera
from game.ui.map.minimap import Minimap
from game.ui.map.render import MapRenderer
from game.ui.map.viewstate import ViewState


class MapHost(Protocol):
    """The map view (:class:`game.ui.map.view.MapView`): its parts, its plain view state, and what
    the side at the screen may know."""

    state: ViewState
    camera: Camera
    renderer: MapRenderer
    minimap: Minimap
    rect: pygame.Rect
    analysis: Any
    """The analysis layer (:class:`game.ui.map.analysis.AnalysisLayer`) drawn over the map."""
    input: Any
    """The map's input (:class:`game.ui.map.input.MapInput`)."""

    @property
    def table(self) -> Table: ...

    def knows(self) -> Table: ...

    def units(self) -> list[UnitView]: ...

    def unit(self, unit_id: str | None) -> UnitView | None: ...

    def positions(self) -> dict[str, Hex]: ...

    def units_at(self, hex_label: str) -> list[UnitView]: ...

    def own(self) -> list[UnitView]: ...

    def target_in(self, hx: str) -> UnitView | None: ...

    def hover_odds(self) -> tuple[str, ShotOdds | str] | None: ...

    def setting_up(self) -> bool: ...

    def chosen_ammo(self, unit_id: str) -> str | None: ...

    def hex_at(self, pos: tuple[int, int]) -> str | None: ...

    def center_on(self, hex_label: str) -> None: ...

    def focus_own_units(self, always: bool = False) -> None: ...

    def refresh(self) -> None: ...

    def draw(self, surface: pygame.Surface) -> None: ...


class PlayHost(Protocol):
    """What the play screen's orders and dialogs read and change of it: its window, its
    session and one door (``apply``), its map view, and each other."""

    app: Any
    """The window (:class:`game.ui.scenes.stack.App`)."""
    session: Any
    """The game's session (:class:`game.session.Session`): its seats, who acts next."""
    dialogs: Any
    orders: Any
    """The screen's orders (:class:`game.ui.play.orders.Orders`)."""
    buttons: dict[str, Any]
    """The screen's buttons by name (a lesson step points at them)."""

    @property
    def map(self) -> MapHost: ...

    @property
    def table(self) -> Table: ...

    def apply(self, action: Action) -> bool: ...

    def legal(self) -> list[Action]: ...

    def can_act(self) -> list[str]: ...

    def open_away(self) -> None: ...

    def rebuild_log(self) -> None: ...
