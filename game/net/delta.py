"""A view sent as its new events only (wire 2, :class:`~game.net.wire.ViewMessage`): the server
sends a connection each view with only the events after those of the view it last sent it, and
the client rebuilds the whole view from the one it holds (its digest is the server's)."""

from __future__ import annotations

from pydantic_core import to_json

from game.engine.view import View

from .wire import ViewMessage


def kept_events(sent: View | None, view: View) -> int | None:
    """How many of the events of ``sent`` (the view a connection last received) begin
    ``view``'s: all of them as the game goes on, fewer after an undo (None: nothing sent, the
    view goes whole). A :class:`~game.engine.view.Seer` hands a side the same event values from
    view to view, so the ends are compared by identity; a history made anew (an undo, a game
    rebuilt) is compared by value."""
    if sent is None:
        return None
    old, new = sent.events, view.events
    n = min(len(old), len(new))
    if old is new or n == 0 or (old[0] is new[0] and old[n - 1] is new[n - 1]):
        return n
    kept = 0
    while kept < n and (old[kept] is new[kept] or old[kept] == new[kept]):
        kept += 1
    return kept


def view_message(
    view: View, markers: dict, sent: View | None, seq: int | None = None, ready: bool = True
) -> str:
    """The JSON text of the ``view`` message for a connection that last received ``sent``: its
    new events only (:class:`ViewMessage`; the whole view when ``sent`` is None)."""
    kept = kept_events(sent, view)
    head = to_json(  # the message's fields but its view, as its model writes them (issue 43:
        {  # made without the model, whose making was most of this)
            "t": "view",
            "seq": seq,
            "ready": ready,
            "after": None if sent is None else sent.version,
            "kept": kept or 0,
            "markers": markers,
        }
    ).decode()
    text = view.to_json() if kept is None else view.to_json_after(kept)
    return f'{head[:-1]},"view":{text}}}'


def extend(held: View | None, message: ViewMessage) -> View | None:
    """The whole view a ``view`` message gives a client that holds ``held``: ``held``'s first
    ``kept`` events and the message's (None: it does not follow ``held``, a message was
    missed: connect again for the whole view)."""
    if message.after is None:
        return message.view
    if held is None or held.version != message.after or message.kept > len(held.events):
        return None
    events = held.events[: message.kept] + message.view.events
    return message.view.model_copy(update={"events": events})
