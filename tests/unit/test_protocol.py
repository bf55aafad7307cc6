"""The wire format: codec limits, message checking, constructors and the client helper."""

from collections.abc import Mapping
from types import MappingProxyType

import msgpack
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from protocol.client import ClientSession, SequenceGap
from protocol.codec import CodecError, Limits, check_plain, decode, encode
from protocol.messages import (
    CLIENT_TYPES,
    ERROR_CODES,
    MESSAGES,
    SERVER_TYPES,
    TABLE_ID_PATTERN,
    ProtocolError,
    accepted_message,
    error_message,
    make,
    parse_request,
    table_stream,
    validate_message,
)

# -- codec -------------------------------------------------------------------------------------


def test_round_trip_of_a_request():
    message = {"type": "command", "id": 7, "table": "t1", "name": "touch_card", "args": {"x": 1}}
    assert decode(encode(message)) == message


@pytest.mark.parametrize(
    "frame",
    [
        b"\xc1",  # never-used msgpack byte
        b"\x92\x01",  # truncated array
        encode({"type": "ping", "id": 1}) + b"\x00",  # trailing bytes
        b"\x81\xa4type\xa2\xff\xfe",  # invalid UTF-8 in a str
        b"",
        b"not msgpack at all {",
    ],
)
def test_garbage_is_bad_encoding(frame):
    with pytest.raises(CodecError) as info:
        decode(frame)
    assert info.value.code in ("bad_encoding", "bad_message")


def test_top_level_must_be_a_map():
    with pytest.raises(CodecError) as info:
        decode(encode([1, 2, 3]))
    assert info.value.code == "bad_message"


def test_non_string_map_keys_are_refused():
    with pytest.raises(CodecError) as info:
        decode(msgpack.packb({"type": "ping", "args": {1: 2}}))
    assert info.value.code == "bad_encoding"


def test_extension_types_and_timestamps_are_refused():
    for value in (msgpack.ExtType(5, b"ab"), msgpack.Timestamp(1, 0)):
        with pytest.raises(CodecError) as info:
            decode(msgpack.packb({"type": "ping", "x": value}))
        assert info.value.code == "bad_encoding"


def test_deep_nesting_is_too_complex():
    value: object = 1
    for _ in range(20):
        value = [value]
    with pytest.raises(CodecError) as info:
        decode(encode({"type": "ping", "x": value}))
    assert info.value.code == "too_complex"


def test_nesting_beyond_msgpack_stack_is_too_complex():
    frame = b"\x81\xa1x" + b"\x91" * 5000 + b"\x01"
    with pytest.raises(CodecError) as info:
        decode(frame, Limits(max_message_bytes=10_000))
    assert info.value.code == "too_complex"


def test_nesting_at_the_limit_is_fine():
    value: object = 1
    for _ in range(15):
        value = [value]
    assert decode(encode({"x": value}))["x"] == value


def test_announced_huge_array_allocates_nothing_and_is_refused():
    frame = b"\x81\xa1x\xdd\xff\xff\xff\xff"  # array32 of 4 billion items, no items
    with pytest.raises(CodecError) as info:
        decode(frame)
    assert info.value.code == "too_complex"


def test_long_string_is_too_complex():
    with pytest.raises(CodecError) as info:
        decode(encode({"type": "ping", "x": "a" * 20_000}), Limits(max_message_bytes=1 << 20))
    assert info.value.code == "too_complex"


def test_oversized_frame_is_too_large():
    with pytest.raises(CodecError) as info:
        decode(encode({"x": "a" * 100}), Limits(max_message_bytes=50))
    assert info.value.code == "too_large"


def test_check_plain_refuses_objects():
    with pytest.raises(CodecError):
        check_plain({"x": object()}, 4)


def test_bytes_map_keys_are_refused_at_any_depth():
    for value in ({b"k": 1}, {"x": [{"y": {b"k": 1}}]}):
        with pytest.raises(CodecError) as info:
            decode(msgpack.packb({"type": "ping", "x": value}, use_bin_type=True))
        assert info.value.code == "bad_encoding"


def reference_check(value, max_depth, depth=1):
    """What check_plain must decide, written the obvious (recursive) way."""
    if isinstance(value, type(None) | bool | int | float | str | bytes):
        return "ok"
    if depth > max_depth:
        return "too_complex"
    if isinstance(value, list | tuple):
        children = list(value)
    elif isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            return "bad_encoding"
        children = list(value.values())
    else:
        return "bad_encoding"
    outcomes = {reference_check(child, max_depth, depth + 1) for child in children} - {"ok"}
    return outcomes.pop() if len(outcomes) == 1 else ("ok" if not outcomes else "mixed")


class IntFlavour(int):
    """A subclass of a scalar: plain data for the codec, but not an exact msgpack type."""


anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.builds(IntFlavour, st.integers())
    | st.text(max_size=4)
    | st.binary(max_size=4)
    | st.just(object()),
    lambda children: (
        st.lists(children, max_size=3)
        | st.lists(children, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=3) | st.binary(max_size=2), children, max_size=3)
        | st.dictionaries(st.text(max_size=3), children, max_size=3).map(MappingProxyType)
    ),
    max_leaves=12,
)


@given(anything, st.integers(1, 4))
@example([IntFlavour(0)], 1)  # a scalar subclass below the last allowed level is plain
@example({"a": {"b": 1}}, 1)
@example((b"x", [object()]), 2)
def test_check_plain_decides_as_the_reference(value, max_depth):
    expected = reference_check(value, max_depth)
    try:
        check_plain(value, max_depth)
        got = "ok"
    except CodecError as error:
        got = error.code
    if expected == "mixed":  # two faults in one value: either code is a right answer
        assert got in ("too_complex", "bad_encoding")
    else:
        assert got == expected


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(st.dictionaries(st.text(max_size=8), plain, max_size=5))
def test_codec_round_trips_plain_maps(value):
    assert decode(encode(value), Limits(max_depth=64)) == value


@given(st.binary(max_size=64))
def test_decode_never_raises_anything_but_codec_error(frame):
    try:
        decode(frame)
    except CodecError as exc:
        assert exc.code in ERROR_CODES


# -- messages ----------------------------------------------------------------------------------


def test_every_message_type_is_listed_once_and_sides_are_disjoint():
    assert len({m.type for m in MESSAGES}) == len(MESSAGES)
    assert not CLIENT_TYPES & SERVER_TYPES
    assert {"hello", "join", "command", "leave", "create_table", "issue_token"} <= CLIENT_TYPES
    assert {"welcome", "snapshot", "event", "accepted", "error"} <= SERVER_TYPES


def test_parse_request_returns_fields():
    request = parse_request({"type": "join", "id": 3, "table": "t1", "after_seq": 12})
    assert (request.type, request.id, request.get("table"), request.get("after_seq")) == (
        "join",
        3,
        "t1",
        12,
    )
    assert parse_request({"type": "join", "id": 3, "table": "t1"}).get("after_seq", 0) == 0


@pytest.mark.parametrize(
    ("message", "code", "rid"),
    [
        ({"id": 1}, "bad_message", 1),
        ({"type": 5, "id": 1}, "bad_message", 1),
        ({"type": "launch", "id": 2}, "unknown_type", 2),
        ({"type": "welcome", "id": 2}, "unknown_type", 2),  # a server message from a client
        ({"type": "ping"}, "bad_message", None),
        ({"type": "ping", "id": -1}, "bad_message", None),
        ({"type": "ping", "id": True}, "bad_message", None),
        ({"type": "ping", "id": "1"}, "bad_message", None),
        ({"type": "ping", "id": 1, "extra": 1}, "bad_message", 1),
        ({"type": "join", "id": 1}, "bad_message", 1),
        ({"type": "join", "id": 1, "table": 7}, "bad_message", 1),
        ({"type": "join", "id": 1, "table": "../etc"}, "bad_message", 1),
        ({"type": "join", "id": 1, "table": "t", "after_seq": -3}, "bad_message", 1),
        ({"type": "command", "id": 1, "table": "t", "name": "x", "args": [1]}, "bad_message", 1),
        ({"type": "hello", "id": 1, "token": "x" * 5000}, "bad_message", 1),
        ({"type": "hello", "id": 1, "token": None}, "bad_message", 1),
    ],
)
def test_parse_request_refusals_carry_code_and_id(message, code, rid):
    with pytest.raises(ProtocolError) as info:
        parse_request(message)
    assert (info.value.code, info.value.request_id) == (code, rid)


def test_make_checks_against_the_spec():
    made = make("join", id=1, table="t1", after_seq=None)
    assert made == {"type": "join", "id": 1, "table": "t1"}
    with pytest.raises(ProtocolError):
        make("join", id=1)
    with pytest.raises(ProtocolError):
        make("nonsense", id=1)
    with pytest.raises(ProtocolError):
        make("join", id=1, table="t1", colour="red")


@given(
    st.integers(min_value=0, max_value=2**63 - 1),
    st.from_regex(TABLE_ID_PATTERN, fullmatch=True),
    st.integers(min_value=0, max_value=2**31),
    st.integers(min_value=0, max_value=64),
)
def test_accepted_message_is_what_make_builds(request_id, table, seq, events):
    made = make("accepted", id=request_id, table=table, seq=seq, events=events)
    assert accepted_message(request_id, table, seq, events) == made
    assert list(accepted_message(request_id, table, seq, events)) == list(made)  # same bytes


def test_error_message_shape():
    assert error_message(None, "bad_encoding", "no") == {
        "type": "error",
        "id": None,
        "code": "bad_encoding",
        "message": "no",
    }
    assert error_message(4, "not_first", "late", "R-PLAY-2")["rule"] == "R-PLAY-2"
    validate_message(error_message(4, "not_first", "late", "R-PLAY-2"))


def test_table_stream_name():
    assert table_stream("demo") == "table/demo"


# -- client helper -----------------------------------------------------------------------------


def _event(table, seq):
    return encode({"type": "event", "table": table, "seq": seq, "data": {}, "at": 1})


def test_client_session_tracks_ids_and_resume_points():
    session = ClientSession()
    rid, frame = session.request("ping")
    assert decode(frame) == {"type": "ping", "id": rid}
    assert session.receive(encode({"type": "pong", "id": rid}))["type"] == "pong"
    jid, frame = session.join("t1")
    assert "after_seq" not in decode(frame)
    session.receive(encode({"type": "snapshot", "id": jid, "table": "t1", "seq": 4, "view": {}}))
    assert session.last_seq == {"t1": 4}
    session.receive(_event("t1", 5))
    assert session.last_seq == {"t1": 5}
    with pytest.raises(SequenceGap):
        session.receive(_event("t1", 7))
    with pytest.raises(SequenceGap):
        session.receive(_event("t1", 5))
    [(rid2, frame)] = session.rejoin_all()
    assert decode(frame) == {"type": "join", "id": rid2, "table": "t1", "after_seq": 5}
    # resumed join: the snapshot is current (seq 9) but pushes restart after 5
    session.receive(encode({"type": "snapshot", "id": rid2, "table": "t1", "seq": 9, "view": {}}))
    assert session.last_seq == {"t1": 5}
    session.receive(_event("t1", 6))
    assert rid2 not in session.pending and rid not in session.pending


def test_client_session_forgets_a_failed_join():
    session = ClientSession()
    jid, _ = session.join("t9")
    session.receive(encode(error_message(jid, "unknown_table", "no")))
    assert session.last_seq == {} and not session.pending


def test_client_session_accepts_large_server_messages():
    session = ClientSession()
    tables = [{"table": f"t{i}", "game": "challenge", "seq": i, "over": False} for i in range(5000)]
    message = session.receive(encode({"type": "tables", "id": 1, "tables": tables}))
    assert len(message["tables"]) == 5000
