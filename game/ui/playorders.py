"""The play screen's orders, composed into it: what a key, a button or a click on the map
asks of the game (select, move, turn, fire, the ammunition, the next unit), each through the
screen's one door to the engine (``PlayScene.apply``)."""

from __future__ import annotations

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

from .host import PlayHost
from .mapinput import MAP_ACTIONS
from .maprender import MapRenderer
from .routes import ChooseStack, Help, Push


class Orders:
    """The play screen's commands (``play``: the PlayScene they act on)."""

    def __init__(self, play: PlayHost) -> None:
        self.play = play

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
            self.play.map_input.do(action)
        elif action in simple:
            simple[action]()
        else:
            self.command(action)

    def conceal_selected(self) -> None:
        if self.play.selected:
            self.play.apply(Conceal(self.play.selected))

    def fire_at_hover(self) -> None:
        if self.play.hover_hex:
            self.fire_at_hex(self.play.hover_hex)

    def deselect(self) -> None:
        self.play.selected = None
        self.play.bore_sight_mode = False
        self.play.message = ""

    def toggle_labels(self) -> None:
        self.play.renderer.show_labels = not self.play.renderer.show_labels
        self.play.app.prefs.show_labels = self.play.renderer.show_labels

    def arm_bore_sight(self) -> None:
        if self.play.selected and self.play.game.phase == "setup":
            self.play.bore_sight_mode = True
            self.play.message = "click the hex to Bore Sight (C6.42)"

    def command(self, key: str) -> None:

        unit = self.play.selected
        game = self.play.game
        if key == "end_phase":
            self.play.dialogs.end_phase()
        elif key == "help":
            self.play.app.go(Push(Help(self.play)))
        elif key == "undo":
            why = self.play.session.undo()
            self.play.message = f"cannot undo: {why}" if why else "undone"
            if not why:
                self.play.renderer = MapRenderer(self.play.game.board)
                self.play.rebuild_log()
                self.play.last_shot = None
        elif unit is None:
            self.play.message = "select a unit first (click it, or Tab)"
        elif key in ("turn_left", "turn_right"):
            u = game.units[unit]
            facing = (u.facing + (1 if key == "turn_left" else -1)) % 6
            if self.play.setting_up():
                self.play.apply(Place(unit, u.label, facing))
            else:
                self.play.apply(Turn(unit, facing))
        elif key == "stop":
            self.play.apply(EndMove(unit, False))
        elif key == "exit":
            self.play.apply(Move(unit, "off"))
        elif key == "motion":
            self.play.apply(EndMove(unit, True))
        elif key == "hatch":
            ce = game.units[unit].ce
            self.play.apply(ButtonUp(unit) if ce else CrewExposed(unit))

    def units_that_can_act(self) -> list[str]:
        """Own units with a move (movement) or a shot (fire phases) still open."""
        kinds = {
            "movement": (Move,),
            "prep_fire": (Fire,),
            "defensive_fire": (Fire,),
            "advancing_fire": (Fire,),
        }.get(self.play.game.phase, ())
        out: list[str] = []
        for a in self.play.legal():
            unit = getattr(a, "unit", None)
            if kinds and isinstance(a, kinds) and unit and unit not in out:
                if isinstance(a, Move) and self.play.game.units[unit].moved:
                    continue
                out.append(unit)
        return out

    def next_unit(self) -> None:
        """Tab: the next own unit that can still act (a move or a shot open: not one that has
        only a turn or a hatch left); in the set-up, the next with anything to do."""
        play = self.play
        units = play.game.units
        if play.setting_up():
            acting = [getattr(a, "unit", None) for a in play.legal()]
            ids = [u for u in dict.fromkeys(acting) if u and units[u].side == play.viewer]
        else:
            ids = [u for u in self.units_that_can_act() if units[u].side == play.viewer]
        if not ids:
            play.message = "no unit of yours can act now: End Phase (e)"
            return
        i = ids.index(play.selected) + 1 if play.selected in ids else 0
        play.selected = ids[i % len(ids)]
        play.center_on(units[play.selected].label)

    def cycle_ammo(self) -> None:
        if not self.play.selected:
            return
        unit = self.play.game.units[self.play.selected]
        ut = unit.type
        left = [a for a in ut.ammo if a not in unit.ammo_out]  # RD-17: not what it is out of
        if len(left) < 2:
            self.play.message = f"{ut.name} has one kind of ammunition left"
            return
        now = self.play.ammo.get(self.play.selected, left[0])
        at = left.index(now) if now in left else -1
        self.play.ammo[self.play.selected] = left[(at + 1) % len(left)]
        self.play._odds_key = None

    def click(self, pos: tuple[int, int]) -> None:

        hx = self.play.hex_at(pos)
        if hx is None:
            return
        self.play.hover_hex = hx
        if self.play.bore_sight_mode and self.play.selected:
            self.play.apply(BoreSight(self.play.selected, hx))
            return
        here = self.play.units_at(hx)
        own = [u for u in here if u["side"] == self.play.viewer]
        enemy = [u for u in here if u["side"] != self.play.viewer]
        if enemy and self.play.selected:
            self.fire_at_hex(hx)
            return
        if self.play.selected and hx in self.play.game.move_costs(
            self.play.selected
        ):  # a blue hex: move
            self.play.apply(Move(self.play.selected, hx))
            return
        if len(own) > 1:
            self.play.app.go(Push(ChooseStack(self.play, own, pos)))
        elif own:
            self.play.selected = own[0]["id"]
            self.play.message = ""
        elif self.play.selected:
            self.play.message = self.why_not_move(hx)

    def why_not_move(self, hx: str) -> str:
        unit = self.play.selected
        if unit is None:
            return ""
        why = self.play.game.check(Move(unit, hx))
        return why or ""

    def target_in(self, hx: str) -> dict | None:
        """The enemy a click on ``hx`` aims at: a vehicle, Gun or unknown "?" before infantry
        (AT fire has no effect on Infantry, 002)."""
        enemy = [u for u in self.play.units_at(hx) if u["side"] != self.play.viewer]
        enemy.sort(key=lambda u: u.get("category") == "infantry")
        return enemy[0] if enemy else None

    def fire_at_hex(self, hx: str) -> None:
        target = self.target_in(hx)
        if target is None or not self.play.selected:
            return
        self.play.apply(
            Fire(self.play.selected, target["id"], self.play.chosen_ammo(self.play.selected))
        )
