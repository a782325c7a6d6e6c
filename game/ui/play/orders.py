"""The play screen's orders, composed into it: what a key, a button or a click on the map
asks of the game (select, move, turn, fire, the ammunition, the next unit), each through the
screen's one door to the engine (``PlayScene.apply``)."""

from __future__ import annotations

from game.board.hexes import label
from game.engine.actions import (
    BoreSight,
    ButtonUp,
    Conceal,
    CrewExposed,
    EndMove,
    Fire,
    Move,
    Place,
    Turn,
)
from game.engine.view import UnitRecord
from game.ui.map.host import MapHost, PlayHost
from game.ui.map.input import MAP_ACTIONS
from game.ui.map.view import route_marks
from game.ui.map.viewstate import ViewState
from game.ui.scenes.opening import close_sessions
from game.ui.scenes.routes import ChooseStack, Help, Push, Replace, Start


class Orders:
    """The play screen's commands (``play``: the PlayScene they act on, through its map view
    and its one door ``apply``)."""

    def __init__(self, play: PlayHost) -> None:
        self.play = play

    @property
    def map(self) -> MapHost:
        return self.play.map

    @property
    def state(self) -> ViewState:
        return self.play.map.state

    def do(self, action: str) -> None:
        """One action of the bindings table (data/bindings.toml) on the play screen."""
        simple = {
            "save_as": lambda: self.play.dialogs.open_file("save"),
            "load": lambda: self.play.dialogs.open_file("load"),
            "next_unit": self.next_unit,
            "ammo": self.cycle_ammo,
            "labels": self.toggle_labels,
            "deselect": self.deselect,
            "bore_sight": self.arm_bore_sight,
            "conceal": self.conceal_selected,
            "fire_at_hover": self.fire_at_hover,
        }
        if action in MAP_ACTIONS:
            self.map.input.do(action)
        elif action in simple:
            simple[action]()
        else:
            self.command(action)

    def conceal_selected(self) -> None:
        if self.state.selected:
            self.play.apply(Conceal(self.state.selected))

    def fire_at_hover(self) -> None:
        if self.state.hover_hex:
            self.fire_at_hex(self.state.hover_hex)

    def deselect(self) -> None:
        self.state.selected = None
        self.state.bore_sight_mode = False
        self.state.message = ""

    def toggle_labels(self) -> None:
        renderer = self.map.renderer
        renderer.show_labels = not renderer.show_labels
        self.play.app.prefs.show_labels = renderer.show_labels

    def arm_bore_sight(self) -> None:
        if self.state.selected and self.play.table.phase == "setup":
            self.state.bore_sight_mode = True
            self.state.message = "click the hex to Bore Sight (C6.42)"

    def command(self, key: str) -> None:
        """A button's or a key's command on the selected unit (or the phase, undo, help)."""
        state = self.state
        unit = self.map.unit(state.selected)
        if key == "end_phase":
            self.play.dialogs.end_phase()
        elif key == "start_screen":  # every action is saved: Resume goes on from here
            self.play.dialogs.leave(self.to_start)  # (a failed save: asked first)
        elif key == "help":
            self.play.app.go(Push(Help(self.play)))
        elif key == "away":
            self.play.open_away()
        elif key == "undo":
            why = self.play.session.undo(self.play.session.acting)
            unsaved = self.play.session.save_error  # a full disk: say it
            state.message = f"cannot undo: {why}" if why else (unsaved or "undone")
            if not why:
                self.map.refresh()
                self.play.rebuild_log()
                state.banner = None
        elif unit is None:
            state.message = "select a unit first (click it, or Tab)"
        elif key in ("turn_left", "turn_right"):
            facing = (unit["facing"] + (1 if key == "turn_left" else -1)) % 6
            if self.map.setting_up():
                self.play.apply(Place(unit["id"], unit["hex"], facing))
            else:
                self.play.apply(Turn(unit["id"], facing))
        elif key == "stop":
            self.play.apply(EndMove(unit["id"], False))
        elif key == "exit":
            self.play.apply(Move(unit["id"], "off"))
        elif key == "motion":
            self.play.apply(EndMove(unit["id"], True))
        elif key == "hatch":
            self.play.apply(ButtonUp(unit["id"]) if unit["ce"] else CrewExposed(unit["id"]))

    def to_start(self) -> None:
        close_sessions(self.play.app)  # its lock released: Resume may open it again
        self.play.app.go(Replace(Start()))

    def units_that_can_act(self) -> list[str]:
        """Own units with a move (movement) or a shot (fire phases) still open: the engine's
        :meth:`Game.can_act` (the green dots read it too)."""
        return self.play.can_act()

    def next_unit(self) -> None:
        """Tab: the next own unit that can still act (a move or a shot open: not one that has
        only a turn or a hatch left); in the set-up, the next with anything to do."""
        state = self.state
        own = {u["id"]: u for u in self.map.units() if u["side"] == state.viewer}
        if self.map.setting_up():  # not every placement listed (Game.setup_choices)
            ids = [u for u in self.play.table.setup_choices() if u in own]
        else:
            ids = [u for u in self.units_that_can_act() if u in own]
        if not ids:
            state.message = "no unit of yours can act now: End Phase (e)"
            return
        i = ids.index(state.selected) + 1 if state.selected in ids else 0
        state.selected = ids[i % len(ids)]
        self.map.center_on(own[state.selected]["hex"])

    def cycle_ammo(self) -> None:
        """``r``: the selected unit's next ammunition (not one it is out of, RD-17)."""
        unit = self.map.unit(self.state.selected)
        if unit is None:
            return
        left = [a for a in unit.get("ammo", ()) if a not in unit.get("ammo_out", ())]
        if len(left) < 2:
            self.state.message = f"{unit.get('name', '?')} has one kind of ammunition left"
            return
        now = self.state.ammo.get(unit["id"], left[0])
        at = left.index(now) if now in left else -1
        self.state.ammo[unit["id"]] = left[(at + 1) % len(left)]

    def click(self, pos: tuple[int, int]) -> None:
        """A click on the map: Bore Sight, fire at an enemy, move to a blue hex, or select."""
        state = self.state
        hx = self.map.hex_at(pos)
        if hx is None:
            return
        state.hover_hex = hx
        if state.bore_sight_mode and state.selected:
            self.play.apply(BoreSight(state.selected, hx))
            return
        here = self.map.units_at(hx)
        own = [u for u in here if u["side"] == state.viewer]
        enemy = [u for u in here if u["side"] != state.viewer]
        if enemy and state.selected:
            self.fire_at_hex(hx)
            return
        moving = self.play.table.phase == "movement"
        if moving and state.selected and hx in self.play.table.move_costs(state.selected):
            self.play.apply(Move(state.selected, hx))
            return
        if moving and state.selected and not own and self.path_click(hx):
            return
        if len(own) > 1:
            self.play.app.go(Push(ChooseStack(self.play, own, pos)))
        elif own:
            state.selected = own[0]["id"]
            state.message = self.why_it_cannot_move(own[0]) or ""
        elif state.selected:
            state.message = self.why_not_move(hx)

    def path_click(self, hx: str) -> bool:
        """A click on a distant hex in the Movement Phase: the first shows the cheapest path
        there (its MP, and the hexes an enemy the side knows of could fire at, RD-18); a second
        click on the same hex moves along it. True when the click was taken for a path."""
        state, table = self.state, self.play.table
        if state.route_on == (state.selected, hx):  # stopped on the way: one click goes on
            state.route_on = None
            route = table.route(state.selected or "", hx)
            if route is not None and route.hexes:
                self.follow(route)
                return True
        route = state.route
        if (
            route is not None
            and route.unit == state.selected
            and state.route_at == table.version
            and route.hexes[-1:] == (hx,)
        ):
            self.follow(route)
            return True
        route = table.route(state.selected or "", hx)
        if route is None or not route.hexes:
            state.route = None
            return False
        state.route, state.route_at = route, table.version
        mover = self.map.unit(route.unit)
        threats = self.map.analysis.threats()
        marks = route_marks(route, mover, threats) if mover is not None else []
        threatened = [h for h, fired_at in marks if fired_at]
        if mover is not None and threatened[:1] == [mover["hex"]]:  # start MP, pivots (HX-5)
            threatened[0] += " (before it leaves)"
        risk = (
            f"; an enemy you know of could fire at it in {', '.join(threatened)} (red)"
            if threatened
            else ""
        )
        mp = "MP" if mover is None or mover.get("is_vehicle") else "MF"
        state.message = (
            f"Path to {hx}: {route.mp:g} {mp}, {len(route.hexes)} hexes{risk}. Click {hx} again "
            "to move (it stops at each Defensive First Fire chance, C6.17)"
        )
        return True

    def follow(self, route) -> None:
        """Move along ``route`` hex by hex, each step through the one door; it stops when the
        rules give the other side a Defensive First Fire chance (C6.17), or a step is refused
        (its reason shown)."""
        state, viewer = self.state, self.state.viewer
        state.route = None
        for n, step in enumerate(route.steps, 1):
            if not self.play.apply(step):
                return
            table = self.play.table
            if table.over or table.dff_pending or table.to_act != viewer:
                if n < len(route.steps):
                    where = self.map.unit(route.unit)
                    at = where["hex"] if where else "?"
                    state.route_on = (route.unit, route.hexes[-1])
                    state.message = (
                        f"Stopped in {at}: the enemy may fire at it now (Defensive First Fire, "
                        f"C6.17); click {route.hexes[-1]} again to go on"
                    )
                return

    def why_it_cannot_move(self, unit: UnitRecord) -> str | None:
        """In the Movement Phase, a unit just selected that has no hex to enter: the engine's
        reason (it fired in Prep Fire, RD-12; it is immobilized; it has moved); in set-up, one
        the side may not place (HX-12: the scenario fixes its hex; it could not be dragged and
        nothing said why), else None."""
        table = self.play.table
        if unit["side"] != table.to_act:
            return None
        if table.phase in ("setup", "setup_attacker") and unit.get("type") != "?":
            why = table.check(Place(unit["id"], unit["hex"], unit.get("facing", 0)))
            return f"{unit.get('name', unit['id'])} stays in set-up: {why} (HX-12)" if why else None
        if table.phase != "movement":
            return None
        if table.move_costs(unit["id"]):
            return None
        board = table.board
        here = board.parse(unit["hex"])
        for d in (unit.get("facing", 0), *range(6)):  # the hex ahead first
            n = here.neighbor(d)
            if board.contains(n):
                why = table.check(Move(unit["id"], label(n)))
                if why:
                    return f"{unit.get('name', unit['id'])} cannot move: {why}"
        return None

    def why_not_move(self, hx: str) -> str:
        """Why the selected unit cannot move to ``hx`` (a hex next to it: the engine's reason;
        one further off: no path there with what it has left, RD-10)."""
        unit = self.state.selected
        if unit is None:
            return ""
        why = self.play.table.check(Move(unit, hx)) or ""
        mover = self.map.unit(unit)
        if why.endswith(f"is not adjacent to {mover['hex'] if mover else ''}") and mover:
            mp = "MP" if mover.get("is_vehicle") else "MF"
            return f"no path to {hx} with the {float(mover.get('mp_left', 0)):g} {mp} left (RD-10)"
        return why

    def fire_at_hex(self, hx: str) -> None:
        target = self.map.target_in(hx)
        firer = self.state.selected
        if target is None or not firer:
            return
        self.play.apply(Fire(firer, target["id"], self.map.chosen_ammo(firer)))
