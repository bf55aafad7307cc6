"""View pushes: how the server tells a viewer what changed in its view, and how a client
applies it. Pure functions over plain data, shared by the server and every client.

Why: a client must draw any game's table from the snapshot and the pushes with no rules in
it (the boardgame.io `playerView` model). The last event push of each append also carries
the viewer's whole view after the append, or, when smaller, a patch of the view the viewer
holds (the snapshot's, or the one the previous append's last push carried).

A patch is a shallow merge over the view's top-level keys (docs/protocol.md, `event`):

    {"set": {key: new value, ...}, "unset": [key, ...]}

Shallow on purpose: a game's view is a map of a few dozen keys, and an event changes a few of
them; deeper patches would cost the server more to compute than they save on the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

View = dict[str, Any]
_MISSING = object()
_SCALARS = frozenset({int, str, bool, float, type(None)})


def view_change(
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    compared: dict[tuple[int, int], bool] | None = None,
) -> dict[str, Any]:
    """The body of a `view` message taking a client from `old` to `new`: `{"patch": ...}`
    when it changes at most half of the keys, else `{"view": new}` (also when `old` is None).

    `compared` (optional) remembers, for one batch of calls whose views stay alive, which
    pairs of values (by identity) were found different: viewers whose views share their
    values (a game that builds one view for every player) are then compared once, not once
    per viewer.
    """
    if old is None:
        return {"view": dict(new)}
    if compared is None:
        compared = {}
    changed = {}
    get = old.get
    for key, value in new.items():
        before = get(key, _MISSING)
        if before is value:
            continue
        if type(value) in _SCALARS:  # cheaper to compare than to look up
            if before != value or type(before) is not type(value):
                changed[key] = value
            continue
        pair = (id(before), id(value))
        differs = compared.get(pair)
        if differs is None:
            differs = compared[pair] = before is _MISSING or before != value
        if differs:
            changed[key] = value
    gone = [key for key in old if key not in new]
    if 2 * (len(changed) + len(gone)) > len(new):
        return {"view": dict(new)}
    return {"patch": {"set": changed, "unset": gone}}


def apply_view_message(current: Mapping[str, Any] | None, message: Mapping[str, Any]) -> View:
    """The view after one `view` message (a whole view, or a patch of `current`).

    Raises ValueError for a patch without a view to apply it to (a client that missed the
    snapshot): join again.
    """
    whole = message.get("view")
    if isinstance(whole, Mapping):
        return dict(whole)
    patch = message.get("patch")
    if not isinstance(patch, Mapping) or current is None:
        raise ValueError("a view patch needs the view it patches: join the table again")
    updated = dict(current)
    for key in patch.get("unset", ()):
        updated.pop(key, None)
    updated.update(patch.get("set", {}))
    return updated


def deadline_data(key: str, command: str, at: int) -> dict[str, Any]:
    """One live deadline as pushed: its key, the command it fires and when (absolute server
    time, Unix microseconds), so a client counts down with no rule knowledge."""
    return {"key": key, "command": command, "at": at}
