"""The event envelope: canonical bytes (fixed vectors), genesis, chain, and refused input.

The vectors below are the specification in docs/eventlog.md written out byte by byte: if
one of them changes, every recorded chain in the world stops verifying.
"""

from __future__ import annotations

import enum
import gc
import hashlib
import math
from types import MappingProxyType

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.eventlog.envelope import (
    MAX_DATA_BYTES,
    MAX_DEPTH,
    InvalidEvent,
    NewEvent,
    bulk_decoding,
    canonical_data,
    chain_hash,
    decode_record,
    encode_body,
    genesis_hash,
    is_canonical_body,
)
from server.games.base import Actor

PLAYER = {"role": "player", "id": "p1"}

VECTOR_EVENT = NewEvent("A", {"b": 1, "a": [True, None]}, actor=PLAYER, causation="c:1")
VECTOR_BODY = bytes.fromhex(
    "99"  # array of 9
    "01"  # envelope version 1
    "a3742f31"  # stream "t/1"
    "01"  # seq 1
    "a141"  # type "A"
    "01"  # schema 1
    "cf00060a24181e4000"  # at 1_700_000_000_000_000 as uint64
    "82a26964a27031a4726f6c65a6706c61796572"  # actor {"id": "p1", "role": "player"}
    "a3633a31"  # causation "c:1"
    "82a16192c3c0a16201"  # data {"a": [true, nil], "b": 1}: keys sorted
)
VECTOR_GENESIS = "21d3293183b8835920e976396bf478bb1a53cb05d62e1a5f269518d9551f19b6"
VECTOR_HASH = "58eda173a5bd52583bc58f712d65ee4b34a372d55a6918ebc671b1a72df2f8f9"


def test_canonical_body_matches_the_fixed_vector():
    assert encode_body("t/1", 1, 1_700_000_000_000_000, VECTOR_EVENT) == VECTOR_BODY


def test_genesis_and_chain_hash_match_the_fixed_vectors():
    expected_genesis = hashlib.sha256(b"t24.eventlog.genesis.v1\x00t/1").hexdigest()
    assert genesis_hash("t/1").hex() == VECTOR_GENESIS == expected_genesis
    assert chain_hash(genesis_hash("t/1"), VECTOR_BODY).hex() == VECTOR_HASH
    assert genesis_hash("t/2") != genesis_hash("t/1")


def test_decode_record_returns_every_field():
    record = decode_record(VECTOR_BODY, b"p" * 32, b"h" * 32)
    assert record._asdict() == {
        "stream": "t/1",
        "seq": 1,
        "type": "A",
        "data": {"a": [True, None], "b": 1},
        "at": 1_700_000_000_000_000,
        "actor": {"id": "p1", "role": "player"},
        "causation": "c:1",
        "schema": 1,
        "prev_hash": b"p" * 32,
        "hash": b"h" * 32,
    }


def test_decode_record_refuses_other_envelopes():
    for body in (msgpack.packb([2, "t", 1, "A", 1, 0, {}, "", {}]), msgpack.packb({"a": 1})):
        with pytest.raises(ValueError, match="version-1 event envelope"):
            decode_record(body, b"", b"")


class Colour(enum.IntEnum):
    RED = 1


class Suit(enum.StrEnum):
    HEARTS = "hearts"


@pytest.mark.parametrize(
    ("value", "hex_bytes"),
    [
        ({"z": 1, "é": 2, "a": 3}, "83a16103a17a01a2c3a902"),  # "é" (U+00E9) sorts after "z"
        ({"k": (1, 2)}, "81a16b920102"),  # tuples are arrays
        ({"k": 1.5}, "81a16bcb3ff8000000000000"),  # floats always float64
        ({"k": b"\x00"}, "81a16bc40100"),  # bytes are bin, not str
        ({"k": bytearray(b"\x00")}, "81a16bc40100"),
        ({"k": "\x00"}, "81a16ba100"),  # NUL is fine inside data strings
        ({"k": Colour.RED, "s": Suit.HEARTS}, "82a16b01a173a6686561727473"),
        (MappingProxyType({"k": -1}), "81a16bff"),  # any Mapping
        ({"k": 2**64 - 1}, "81a16bcfffffffffffffffff"),
        ({"k": -(2**63)}, "81a16bd38000000000000000"),
        ({"n": {"b": None, "a": {}}}, "81a16e82a16180a162c0"),  # nested maps sorted too
    ],
)
def test_canonical_data_forms(value, hex_bytes):
    assert canonical_data(value).hex() == hex_bytes


def test_key_order_never_changes_the_bytes():
    assert canonical_data({"b": 1, "a": {"d": 1, "c": 2}}) == canonical_data(
        {"a": {"c": 2, "d": 1}, "b": 1}
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "data must be a map"),
        ({"x": math.nan}, "data.x: float nan is not finite"),
        ({"x": [math.inf]}, r"data.x\[0\]: float inf is not finite"),
        ({1: "one"}, "map key 1 is not a str"),
        ({"x": {1, 2}}, "set is not msgpack-able"),
        ({"x": object()}, "object is not msgpack-able"),
        ({"x": 2**64}, "outside msgpack's 64-bit range"),
        ({"x": -(2**63) - 1}, "outside msgpack's 64-bit range"),
        ({"x": "\ud800"}, "not msgpack-able"),  # a lone surrogate is not UTF-8
        ({"x": b"y" * MAX_DATA_BYTES}, "the limit is 1048576"),
    ],
)
def test_refused_data_says_why(data, message):
    with pytest.raises(InvalidEvent, match=message):
        NewEvent("T", data)


def test_nesting_deeper_than_the_limit_is_refused():
    deep: dict = {}
    node = deep
    for _ in range(MAX_DEPTH - 1):
        node["n"] = {}
        node = node["n"]
    canonical_data(deep)  # MAX_DEPTH levels, counting the data map itself
    node["n"] = []
    with pytest.raises(InvalidEvent, match="nested deeper than 32"):
        canonical_data(deep)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"type": ""}, "event type must not be empty"),
        ({"type": 5}, "event type must be a str"),
        ({"type": "T" * 129}, "limit is 128"),
        ({"type": "Card\tTouched"}, "control characters"),
        ({"actor": {"role": "player"}}, "exactly 'role' and 'id'"),
        ({"actor": {"role": "player", "id": "p", "x": "y"}}, "exactly 'role' and 'id'"),
        ({"actor": {"role": "", "id": "p"}}, "actor role must not be empty"),
        ({"actor": {"role": 1, "id": "p"}}, "actor role must be a str"),
        ({"actor": "player"}, "actor must be a map"),
        ({"causation": 7}, "causation must be a str"),
        ({"causation": "c\n1"}, "control characters"),
        ({"causation": "c" * 257}, "limit is 256"),
        ({"schema": 0}, "schema must be an int"),
        ({"schema": True}, "schema must be an int"),
        ({"schema": 2**31}, "schema must be an int"),
    ],
)
def test_refused_envelope_fields_say_why(kwargs, message):
    fields = {"type": "T", "data": {}} | kwargs
    with pytest.raises(InvalidEvent, match=message):
        NewEvent(**fields)


def test_defaults_and_actor_objects():
    event = NewEvent("T")
    assert event.actor == {"id": "server", "role": "server"} and event.causation == ""
    assert event.schema == 1 and event.data_bytes == b"\x80"
    assert NewEvent("T", actor=Actor("player", "seat-2")).actor == {
        "id": "seat-2",
        "role": "player",
    }
    assert list(NewEvent("T", actor={"role": "r", "id": ""}).actor) == ["id", "role"]


def test_is_canonical_body_accepts_only_the_canonical_form():
    assert is_canonical_body(VECTOR_BODY)
    at = 1_700_000_000_000_000
    actor = {"id": "p1", "role": "player"}
    reordered = msgpack.packb([1, "t/1", 1, "A", 1, at, actor, "c:1", {"b": 1, "a": [True, None]}])
    assert not is_canonical_body(reordered)
    as_float32 = msgpack.packb([1, "t", 1, "A", 1, 0, actor, "", {"f": 1.5}], use_single_float=True)
    assert not is_canonical_body(as_float32)
    long_int = VECTOR_BODY.replace(bytes.fromhex("a3742f3101"), bytes.fromhex("a3742f31cc01"))
    assert decode_record(long_int, b"", b"").seq == 1 and not is_canonical_body(long_int)
    assert not is_canonical_body(b"\xc1")  # never used in msgpack
    assert not is_canonical_body(VECTOR_BODY + b"\x00")  # trailing bytes


def test_bulk_decoding_pauses_and_restores_the_collector():
    assert gc.isenabled()
    with bulk_decoding():
        assert not gc.isenabled()
        with bulk_decoding():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with bulk_decoding():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.binary(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=5), json_like, max_size=5), st.randoms())
def test_round_trip_and_order_independence(data, rnd):
    event = NewEvent("T", data)
    body = encode_body("s", 1, 0, event)
    assert decode_record(body, b"", b"").data == data
    assert is_canonical_body(body)
    shuffled = list(data.items())
    rnd.shuffle(shuffled)
    assert NewEvent("T", dict(shuffled)).data_bytes == event.data_bytes
