"""The upcasting hook: old events are lifted on read, step by step; failures name the event."""

from __future__ import annotations

import pytest

from server.eventlog.envelope import RecordedEvent
from server.eventlog.store import EventLogError, UpcastError, Upcasters


def recorded(type_: str, schema: int, data: dict) -> RecordedEvent:
    actor = {"id": "", "role": "server"}
    return RecordedEvent("s", 4, type_, data, 0, actor, "", schema, b"", b"h")


def test_steps_chain_until_none_applies_and_keep_the_recorded_hash():
    upcasters = Upcasters()
    assert not upcasters
    upcasters.register("Touched", 1, lambda d: {**d, "seat": d["player"]})
    upcasters.register("Touched", 2, lambda d: {k: v for k, v in d.items() if k != "player"})
    assert upcasters
    lifted = upcasters.upcast(recorded("Touched", 1, {"player": 3}))
    assert (lifted.schema, lifted.data, lifted.hash) == (3, {"seat": 3}, b"h")
    assert upcasters.upcast(recorded("Touched", 2, {"player": 1, "seat": 1})).data == {"seat": 1}
    current = recorded("Touched", 3, {"seat": 1})
    assert upcasters.upcast(current) is current
    other = recorded("Revealed", 1, {"card": 2})
    assert upcasters.upcast(other) is other


def test_one_step_per_type_and_schema():
    upcasters = Upcasters()
    upcasters.register("T", 1, dict)
    with pytest.raises(ValueError, match="exists"):
        upcasters.register("T", 1, dict)


def test_a_failing_step_names_the_event():
    upcasters = Upcasters()
    upcasters.register("T", 1, lambda d: d["missing"])
    with pytest.raises(UpcastError, match=r"upcasting T schema 1 \(stream 's' seq 4\)") as caught:
        upcasters.upcast(recorded("T", 1, {}))
    assert isinstance(caught.value, EventLogError)
    assert isinstance(caught.value.__cause__, KeyError)
