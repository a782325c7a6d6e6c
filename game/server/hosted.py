"""A game the server holds (:class:`Hosted`): its fixed facts, its session rebuilt from the
store, its seats' connections and standing orders; and what the end of a game reveals (the
whole save with its seed, salt and hash chain; the result and the luck report)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.ai import ComputerPlayer
from game.board.hexes import label
from game.engine import Game
from game.engine.actions import action_from_json
from game.files.honest import SCHEME, chain_head
from game.files.luck import LuckCounter
from game.files.replay import apply_checked
from game.files.savegame import SavedGame
from game.files.scenario import Scenario, parse_scenario
from game.files.session import Autosave
from game.net.wire import Commitment, DffOrder, End
from game.session import Session

from .connection import Conn
from .store import GameMeta, StoredAction

Player = Callable[[GameMeta, str, int], Any]
"""Makes the computer's player for a side of a game at a level (the tests give their own)."""


def computer_player(meta: GameMeta, side: str, level: int) -> ComputerPlayer:
    """The computer, seeded from the game's own computer seed (never the dice seed: its choices
    would tell something of the dice to come)."""
    return ComputerPlayer(side, level, seed=meta.ai_seed)


@dataclass
class Hosted:
    """A game the server holds: its fixed facts, its session, the stored actions' sides and
    forms, each seat's connection and standing order."""

    meta: GameMeta
    session: Session
    actions: list[StoredAction]
    orders: dict[str, DffOrder]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[str, Conn] = field(default_factory=dict)
    elsewhere: set[str] = field(default_factory=set)
    """The seats connected on another server process (not away: their standing orders wait)."""
    ended: End | None = None
    due: tuple[tuple, bool] | None = None
    idle: tuple[Session, int, bool] | None = None
    """Whether the side to act had nothing to do (HX-15) at that session's version."""

    def nothing_to_do(self) -> bool:
        """Whether the side to act can do nothing but end the phase (HX-15), worked out once
        for each change of the game (the server asks it first whether something is due, then
        to take it). A connected seat's is read from its view's legal actions, made first
        (:meth:`Table.shown_legal`): its view is made from them when it is sent, never for
        a phase that passes by itself (issue 43: a quarter of the views were made for those
        and shown to no one)."""
        session = self.session
        idle = self.idle
        if idle is None or idle[0] is not session or idle[1] != session.version:
            acting = session.acting
            if acting in self.conns:
                session.table(acting).shown_legal()
            value = acting is not None and session.table(acting).nothing_to_do()
            idle = self.idle = (session, session.version, value)
        return idle[2]

    @property
    def game(self) -> Game:
        return self.session.game

    def state(self) -> dict:
        """The small state stored with each action: each seat's last view's version and
        digest (no view made for it: a seat away or served elsewhere is shown none, and a view
        made later gets the version it would have had), the computer's plan, the standing
        orders."""
        shown = {
            s: self._shown(s)
            for s in self.session.sides
            if self.meta.seats[s].kind != "computer"  # no one sees the computer's view
        }
        return {
            "versions": {s: v[0] for s, v in shown.items() if v is not None},
            "digests": {s: v[1] for s, v in shown.items() if v is not None},
            "computer": self.session.saved.computer,
            "orders": {s: o.model_dump() for s, o in self.orders.items()},
        }

    def _shown(self, side: str) -> tuple[int, str] | None:
        shown = self.session.shown(side)
        if shown is None and side in self.session.resumed():  # stored with no digest (before
            self.session.view(side)  # issue 43's): made once, then known
            shown = self.session.shown(side)
        return shown

    def commitment(self) -> Commitment:
        return Commitment(sha256=self.meta.commitment, scenario_sha256=self.meta.scenario_sha256)


def markers(game: Game) -> dict[str, Any]:
    """The map's wrecks and smoke by hex (both sides see them)."""
    board = game.board
    wrecks, smoke = board.markers()
    return {
        "wrecks": {label(board.hex_at(i)): n for i, n in wrecks},
        "smoke": [label(board.hex_at(i)) for i in smoke],
    }


@functools.lru_cache(maxsize=64)
def _parsed(text: str, name: str) -> Scenario:
    return parse_scenario(text, name)


def scenario_of(meta: GameMeta) -> Scenario:
    """A game's scenario, parsed once for all the games of it the server opens (a frozen
    set-up: each game starts from its own copy of the board)."""
    return _parsed(meta.scenario_text, meta.scenario_name)


def build_session(
    meta: GameMeta, stored: list[StoredAction], state: dict, player: Player
) -> Session:
    """A game's session rebuilt from its store: the scenario, the seed and every action
    replayed with its checks; each side's view version where it stood (a client that reconnects
    compares its own)."""
    game = Game(scenario_of(meta).setup, meta.seed)
    saved = SavedGame(meta.scenario_name, meta.scenario_text, meta.seed)
    autosave = Autosave(game, saved, None, undo_copies=0)  # (issue 43: the CPU they cost)
    return _session(meta, autosave, stored, state, player)


def catch_up(hosted: Hosted, more: list[StoredAction], state: dict, player: Player) -> Session:
    """The session of ``hosted`` gone on by ``more``, the actions another server process
    stored after those it holds, each applied with its checks to the game in hand (never the
    whole game replayed: issue 43's catch-up took a game's whole length each time), with the
    stored ``state``. The old session is not to be used after: its game is this one. A check
    that fails raises ReplayError with the game part way: reload it from the store."""
    return _session(hosted.meta, hosted.session.autosave, more, state, player)


def _session(
    meta: GameMeta, autosave: Autosave, more: list[StoredAction], state: dict, player: Player
) -> Session:
    """A session on ``autosave``'s game with ``more`` actions applied (checked), the computer's
    player resuming the stored plan, each side's view version where the store has it."""
    game, saved = autosave.game, autosave.saved
    computer = None
    for side, seat in meta.seats.items():
        if seat.kind == "computer":
            saved.computer = dict(state.get("computer") or {"side": side, "level": seat.level})
            computer = player(meta, side, seat.level)
            plan = saved.computer.get("plan")
            if isinstance(plan, dict) and hasattr(computer, "resume_plan"):
                computer.resume_plan(plan)
    for i, a in enumerate(more, len(saved.actions)):
        apply_checked(game, i, a.entry, f"game {meta.id}")
        saved.actions.append(dict(a.entry))
    session = Session(autosave, computer, remote=True)
    digests = state.get("digests") or {}
    for side, version in (state.get("versions") or {}).items():
        session.resume_version(side, int(version), digests.get(side))
    return session


def full_save(hosted: Hosted) -> dict:
    """The whole save of a finished game: seed, salt and hash chain included."""
    saved = hosted.session.saved
    meta = hosted.meta
    done = SavedGame(
        saved.scenario_name,
        saved.scenario_text,
        saved.seed,
        [dict(a) for a in saved.actions],
        computer=dict(saved.computer) if saved.computer else None,
        commitment={"scheme": SCHEME, "sha256": meta.commitment, "salt": meta.salt},
        chain=chain_head(meta.scenario_sha256, saved.actions),
    )
    return done.to_json()


def end_of(hosted: Hosted) -> End:
    """The end message: the result, the seed revealed, the chain's head, the luck report."""
    meta = hosted.meta
    saved = hosted.session.saved
    game = Game(scenario_of(meta).setup, meta.seed)
    counter = LuckCounter()
    for i, entry in enumerate(saved.actions):
        action = action_from_json(entry["action"])
        counter.before(game, action)
        counter.after(action, apply_checked(game, i, entry, f"game {meta.id}"))
    luck = {s.side: s.to_json() for s in counter.report(tuple(game.setup.sides))}
    return End(
        winner=game.winner,
        reason=game.end_reason,
        seed=meta.seed,
        salt=meta.salt,
        commitment=hosted.commitment(),
        chain=chain_head(meta.scenario_sha256, saved.actions),
        luck=luck,
    )
