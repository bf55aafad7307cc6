"""Unmasking client frames with Python integers (server/net/masking.py, issue 32): the same
bytes as Autobahn's own masker, for every length up to a frame's limit and for a frame
unmasked in pieces, and Autobahn's parser uses it once the server's endpoint is loaded."""

from __future__ import annotations

import os

import pytest
from autobahn.websocket.xormasker import create_xor_masker as autobahns

from server.net.masking import IntMasker


@pytest.mark.parametrize("size", [0, 1, 3, 4, 5, 63, 64, 127, 128, 1000, 64 * 1024])
def test_it_masks_as_autobahns_masker_does(size):
    mask, data = os.urandom(4), os.urandom(size)
    ours, theirs = IntMasker(mask), autobahns(mask, size)
    assert ours.process(data) == theirs.process(data)
    assert ours.pointer() == size
    assert IntMasker(mask).process(ours_twice := IntMasker(mask).process(data)) == data
    assert len(ours_twice) == size


def test_a_frame_unmasked_in_pieces_keeps_the_keys_rotation():
    mask, data = os.urandom(4), os.urandom(1001)
    whole = autobahns(mask, len(data)).process(data)
    masker = IntMasker(mask)
    pieces = [data[:1], data[1:6], data[6:7], data[7:500], data[500:]]
    assert b"".join(masker.process(piece) for piece in pieces) == whole
    masker.reset()
    assert masker.pointer() == 0 and masker.process(data) == whole


def test_autobahns_parser_creates_it_once_the_endpoint_is_loaded():
    from autobahn.websocket import protocol

    import server.net.ws  # noqa: F401 - installs it

    assert isinstance(protocol.create_xor_masker(os.urandom(4), 60), IntMasker)
