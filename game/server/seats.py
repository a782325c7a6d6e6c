"""A seat's requests on the server (a part of :class:`game.server.server.Server`): an action
checked, applied, stored and answered; an undo; a question of its table; its record; then what
the server does by itself (:meth:`SeatRequests._settle`: the computer's actions, the phases that
pass by themselves, HX-15, a standing order of a seat away) and the views pushed to the seats
whose view changed, with "ready" when the server waits for a seat again."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.engine import IllegalAction
from game.engine.actions import ActionError, EndPhase, Pass, action_from_json
from game.net.delta import view_message
from game.net.wire import (
    Act,
    Answer,
    Ask,
    DffOrder,
    Ready,
    RecordMessage,
    RecordRequest,
    Refused,
    UndoRequest,
    dumps,
)

from .answers import BadQuestion, answer
from .connection import Conn
from .follow import Follow
from .hosted import Hosted, end_of, full_save, markers
from .orders import standing_fire
from .store import GameStore, GroupWriter, StoredAction, StoreError

log = logging.getLogger("hexfire.server")

QUICK_LEVEL = 1
"""The computer's levels that decide within a millisecond or so: decided in the event loop's
own thread (a higher level thinks in a worker thread, and the other games go on meanwhile)."""
BATCH = 32
"""The most actions the server takes by itself in a row (the quick computer's, the phases
passed, a standing order's) stored in one transaction and then sent together: one sync of
the disk and one view for them all, instead of one each. None is sent before it is stored;
a computer that thinks (a higher level) has what came before stored first, and its own
actions go out one by one."""


class SeatRequests:
    """The server's handling of a seated connection's requests (its state is the server's)."""

    store: GameStore
    games: dict[str, Hosted]
    follow: Follow
    freeze: bool
    _writer: GroupWriter | None

    if TYPE_CHECKING:  # the server's

        async def _db(self, fn: Callable, *args: Any) -> Any: ...

        async def _work(self, fn: Callable, *args: Any) -> Any: ...

        async def _reload(self, hosted: Hosted) -> None: ...

    async def _together(self, fn: Callable) -> Any:
        """``fn`` (writes of the store) in one transaction of the group committer."""
        assert self._writer is not None
        return await self._writer.submit(fn)

    def _settled(self) -> None:
        """A game was built and will be played for hours: what lives now goes to the
        collector's permanent generation (``gc.freeze``, no collection: it costs nothing),
        so that its full passes walk only what play makes since. With 100 games held, a
        full pass over them all paused every game for 100-300 ms (``hexfire bench net``'s
        round trip p95 and p99); a game's objects live as long as the server anyway."""
        if self.freeze:  # (a test's server in the test's process leaves the collector alone)
            gc.freeze()

    def _batches(self) -> bool:
        """Whether several writes can be made one transaction (:meth:`_together`)."""
        return self._writer is not None

    async def _act(self, hosted: Hosted, conn: Conn, side: str, msg: Act) -> None:
        session = hosted.session
        view = session.view(side)

        def refuse(code: str, reason: str) -> None:
            conn.post(dumps(Refused(seq=msg.seq, code=code, reason=reason, version=view.version)))

        if msg.version != view.version:
            return refuse(
                "stale", f"chosen from view {msg.version}; your view is at version {view.version}"
            )
        acting = session.acting
        if acting is None:
            return refuse("game_over", "the game is over")
        if acting != side:
            return refuse("not_your_turn", f"{acting.title()} acts now, not {side.title()}")
        try:
            action = action_from_json(msg.action)
        except ActionError as e:
            return refuse("malformed", str(e))
        table = session.table(side)
        try:  # checked as it is applied (the same reason Table.check would give)
            table.submit(action)
        except IllegalAction as e:
            return refuse("illegal", e.reason)
        if not await self._stored_all(hosted, [(side, action.to_json(), "seat")]):
            return refuse("store", "the server could not store your action: it was not taken")
        self._push(hosted, answer_to=(conn, msg.seq), ready=not self._due(hosted))

    async def _stored_all(self, hosted: Hosted, steps: list[tuple[str, dict, str]]) -> bool:
        """Store the last ``len(steps)`` actions applied, each (side, its shown form, by), in
        one transaction (one sync of the disk: all of them or none); on failure the game goes
        back to what the store holds."""
        saved = hosted.session.saved_actions
        first = len(saved) - len(steps)
        stored = [
            StoredAction(dict(saved[first + i]), side, shown, by)
            for i, (side, shown, by) in enumerate(steps)
        ]
        state = hosted.state()
        game_id = hosted.meta.id
        store = self.store
        try:
            if len(stored) == 1:
                await self._db(store.append, game_id, first, stored[0], state)
            else:

                def append(*_: Any) -> None:  # inside the group commit's one transaction
                    for i, action in enumerate(stored):
                        store.append(game_id, first + i, action, state)

                await self._together(append)
        except StoreError as e:
            log.error("game %s: %s", game_id, e)
            await self._reload(hosted)
            return False
        hosted.actions.extend(stored)
        return True

    async def _undo(self, hosted: Hosted, conn: Conn, side: str, msg: UndoRequest) -> None:
        session = hosted.session
        view = session.view(side)
        if msg.version != view.version:
            conn.post(
                dumps(
                    Refused(
                        seq=msg.seq,
                        code="stale",
                        reason=f"chosen from view {msg.version}; yours is at {view.version}",
                        version=view.version,
                    )
                )
            )
            return
        why = (
            "the game is over"
            if session.acting is None
            else "only your own last action can be taken back"
            if not hosted.actions or hosted.actions[-1].side != side
            else session.undo(side)
        )
        if why:
            conn.post(dumps(Refused(seq=msg.seq, code="undo", reason=why, version=view.version)))
            return
        length = len(session.saved_actions)
        try:
            taken = hosted.actions[-1].entry  # refused if another process wrote after it
            await self._db(self.store.truncate, hosted.meta.id, length, hosted.state(), taken)
        except StoreError as e:
            log.error("game %s: %s", hosted.meta.id, e)
            await self._reload(hosted)
            reason = "the server could not store the undo: nothing was taken back"
            conn.post(dumps(Refused(seq=msg.seq, code="store", reason=reason)))
            return
        del hosted.actions[length:]
        self._push(hosted, answer_to=(conn, msg.seq), ready=not self._due(hosted))

    def _ask(self, hosted: Hosted, conn: Conn, side: str, msg: Ask) -> None:
        table = hosted.session.table(side)
        try:
            value = answer(table, msg.question, list(msg.args))
        except BadQuestion as e:
            conn.post(dumps(Refused(seq=msg.seq, code="malformed", reason=str(e))))
            return
        except IllegalAction as e:
            conn.post(dumps(Refused(seq=msg.seq, code="illegal", reason=e.reason)))
            return
        except (KeyError, ValueError, IndexError):
            conn.post(dumps(Refused(seq=msg.seq, code="unknown", reason="no such unit or hex")))
            return
        conn.post(dumps(Answer(seq=msg.seq, value=value)))

    def _record(self, hosted: Hosted, conn: Conn, side: str, msg: RecordRequest) -> None:
        if hosted.ended is not None:
            conn.post(dumps(RecordMessage(seq=msg.seq, kind="full", record=full_save(hosted))))
            return
        view = hosted.session.view(side)
        record = {
            "format": "hexfire-side-record",
            "game": hosted.meta.id,
            "side": side,
            "title": hosted.game.setup.title,
            "commitment": hosted.commitment().model_dump(),
            "version": view.version,
            "actions": [{"action": a.shown, "by": a.by} for a in hosted.actions if a.side == side],
            "events": [e.model_dump(mode="json") for e in view.events],
        }
        conn.post(dumps(RecordMessage(seq=msg.seq, kind="side", record=record)))

    # --- after a change ----------------------------------------------------------------------

    def _push(
        self, hosted: Hosted, answer_to: tuple[Conn, int] | None = None, ready: bool = False
    ) -> None:
        """Each connected seat's view when it changed (the one answered always gets it);
        ``ready``: the server now waits for a seat (a seat whose view did not change but was
        last sent one that was not ready is told so)."""
        marks: dict | None = None
        for side, conn in list(hosted.conns.items()):
            view = hosted.session.view(side)
            seq = answer_to[1] if answer_to is not None and answer_to[0] is conn else None
            if seq is None and view.version == conn.sent_version:
                if ready and not conn.ready_sent:
                    conn.post(dumps(Ready(version=view.version)))
                    conn.ready_sent = True
                continue
            if marks is None:
                marks = markers(hosted.game)
            conn.post(view_message(view, marks, conn.sent, seq, ready))  # its new events only
            hosted.session.shown(side)  # its digest for the store, while its JSON is at hand
            conn.sent = view
            conn.sent_version = view.version
            conn.ready_sent = ready

    def _due(self, hosted: Hosted) -> bool:
        """Whether the server has something to do by itself now (:meth:`_settle`); worked out
        once for each change of the game and of who is connected."""
        key = (
            hosted.session.version,
            tuple(sorted(hosted.conns)),
            tuple(sorted(hosted.elsewhere)),
            hosted.ended is None,
        )
        if hosted.due is not None and hosted.due[0] == key:
            return hosted.due[1]
        due = self._due_now(hosted)
        hosted.due = (key, due)
        return due

    def _due_now(self, hosted: Hosted) -> bool:
        session = hosted.session
        acting = session.acting
        if acting is None:
            return hosted.ended is None
        if session.computer_acts():
            return True
        return hosted.nothing_to_do() or self._standing(hosted, acting) is not None

    def _standing(self, hosted: Hosted, acting: str) -> DffOrder | None:
        """The standing order that answers now for ``acting``: a Defensive First Fire chance
        of a seat away whose order does not ask (C6.17); else None."""
        order = hosted.orders.get(acting, DffOrder())
        pending = hosted.session.table(acting).dff_pending
        if pending and self.follow.away(hosted, acting) and order.policy != "ask":
            return order
        return None

    async def _flush(self, hosted: Hosted, steps: list[tuple[str, dict, str]]) -> bool:
        """Store the server's own actions taken since the last flush (one transaction), then
        send the seats their views; ``steps`` emptied. False: the store failed (the game is
        back to what it holds)."""
        ok = await self._stored_all(hosted, list(steps))
        steps.clear()
        if ok and self._due(hosted):
            self._push(hosted)
        return ok

    def _quick_computer(self, session: Any) -> bool:
        return getattr(session.computer, "level", 2) <= QUICK_LEVEL

    def _next_step(self, hosted: Hosted) -> tuple[str, dict, str] | None:
        """Take the server's own next action in the event loop's thread, if one is due: the
        quick computer's, a phase the side to act cannot use (HX-15), a Defensive First Fire
        chance of a seat away under its standing order (C6.17). Returns (side, its shown form,
        by), None when nothing is."""
        session = hosted.session
        acting = session.acting
        if acting is None:
            return None
        if session.computer_acts():  # (a quick one: a thinking one's is :meth:`_settle`'s)
            return (acting, session.computer_move(None).action.to_json(), "computer")
        table = session.table(acting)
        if hosted.nothing_to_do():
            action: Any = EndPhase()
        elif (order := self._standing(hosted, acting)) is not None:
            action = standing_fire(table, order) or Pass()
        else:
            return None
        try:
            table.submit(action)
        except IllegalAction as e:
            log.error("game %s: %s refused: %s", hosted.meta.id, action, e.reason)
            return None
        return (acting, action.to_json(), "server")

    async def _settle_locked(self, hosted: Hosted) -> None:
        try:
            async with hosted.lock:
                await self._settle(hosted)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.exception("game %s: %s: %s", hosted.meta.id, type(e).__name__, e)

    async def _settle(self, hosted: Hosted) -> None:
        """Play what is due without a seat's word: the computer's actions, the phases the side
        to act cannot use (HX-15), a Defensive First Fire chance of a seat away under its
        standing order; then the end, once."""
        session = hosted.session
        if self.games.get(hosted.meta.id) is not hosted or not self._due(hosted):
            return  # (a game dropped here is another process's to play, or no one's yet)
        owner = self.follow.owns(hosted.meta.id)  # else another server process plays it
        batch = BATCH if self._batches() else 1
        steps: list[tuple[str, dict, str]] = []  # applied, not yet stored
        ok = True
        for _ in range(100_000 if owner else 0):
            acting = session.acting
            if acting is None:
                break
            if session.computer_acts() and not self._quick_computer(session):
                if steps:  # what came before is stored before it thinks
                    ok = await self._flush(hosted, steps)
                    if not ok:
                        break
                move = await self._work(session.computer_move, None)
                steps.append((acting, move.action.to_json(), "computer"))
                ok = await self._flush(hosted, steps)  # a thinking computer's: one by one
                if not ok:
                    break
            else:
                step = self._next_step(hosted)
                if step is None:
                    break
                steps.append(step)
            if len(steps) >= batch:
                ok = await self._flush(hosted, steps)
                if not ok:
                    break
            await asyncio.sleep(0)  # other games go on between its actions
        if steps and ok:
            await self._flush(hosted, steps)
        if owner:
            self._push(hosted, ready=True)
        if session.acting is None and hosted.ended is None:
            hosted.ended = await self._work(end_of, hosted)
            text = dumps(hosted.ended)
            for conn in hosted.conns.values():
                conn.post(text)
            log.info("game %s over: %s", hosted.meta.id, hosted.game.end_reason[:80])
