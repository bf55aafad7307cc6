"""The officials' bundle (server/audit/bundle.py): written from a real store, verified with no
store; the same logs give the same bytes; tampering with any byte of any file fails naming the
file; a consistent forgery (re-hashed, re-signed) still fails on the re-derived figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tournament_support import Tourney, tournament_options

from protocol.words import catalogue
from server.audit.bundle import (
    MANIFEST,
    BundleError,
    build_bundle,
    verify_bundle,
    write_bundle,
)
from server.audit.signing import load_or_create_signing_key, public_key_hex
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.tournament.tables import table_id, table_options_for

TID = "spring"


def number(student: str) -> int:
    return int(student[1:])


def played() -> Tourney:
    """A tournament of one grade of 8 with a tie-break in round 2, to the champion."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(8)
    t.play_round(1, number)
    t.play_round(2, lambda s: 7 if s == "p5" else number(s))  # p5 and p6 tie for 3rd place
    t.play_tie_breaks(lambda s: 2 if s == "p6" else 1)
    t.do("advance", round=2)
    t.play_round(3, number)
    t.do("advance", round=3)
    assert t.state.finished
    return t


def stored(t: Tourney):
    """The tournament's and its tables' streams in a real (memory) store; a fixed clock, so
    the same events are the same recorded bytes."""
    store = open_blocking_store("memory:", clock=lambda: 1_773_480_000.0)
    created = NewEvent("TableCreated", {"game": "tournament", "options": t.raw_options})
    events = [created, *(NewEvent(e.type, dict(e.data)) for e in t.events)]
    store.append(f"tournament/{TID}", 0, events)
    for name, recorded in t.streams.items():
        options = table_options_for(t.state, name)
        table = [NewEvent("TableCreated", {"game": "challenge", "options": options})]
        table += [NewEvent(r.type, dict(r.data)) for r in recorded]
        store.append(f"table/{table_id(TID, name)}", 0, table)
    return store


@pytest.fixture(scope="module")
def source():
    return played()


@pytest.fixture
def bundle(tmp_path, source):
    key = load_or_create_signing_key(tmp_path / "key")
    files = build_bundle(stored(source), TID, key)
    write_bundle(files, tmp_path / "bundle")
    return tmp_path / "bundle", files, key


def test_a_bundle_verifies_and_holds_every_stream_and_the_figures(bundle, source):
    directory, files, key = bundle
    manifest = verify_bundle(directory, public_key_hex(key))
    assert manifest["tournament"] == TID
    assert len(manifest["streams"]) == 1 + len(source.streams)
    assert {"scorecards.csv", "standings.csv", "report.html"} <= set(files)
    standings = files["standings.csv"].decode()
    champion = source.state.champions["4th"]
    assert f"4th,champion,,{champion}" in standings
    assert "Tie-break 1" in files["report.html"].decode()


def test_the_same_logs_give_a_byte_identical_bundle(tmp_path, source):
    key = load_or_create_signing_key(tmp_path / "key")
    store = stored(source)
    assert build_bundle(store, TID, key) == build_bundle(store, TID, key)
    assert build_bundle(stored(source), TID, key) == build_bundle(store, TID, key)


def test_tampering_any_byte_of_any_file_fails_naming_the_file(bundle):
    directory, files, _key = bundle
    for path in sorted(files):
        target = directory / path
        original = target.read_bytes()
        for index in (0, len(original) // 2, len(original) - 2):
            changed = bytearray(original)
            changed[index] ^= 0x01
            target.write_bytes(bytes(changed))
            with pytest.raises(BundleError) as failed:
                verify_bundle(directory)
            assert failed.value.file == path, (path, index, str(failed.value))
        target.write_bytes(original)
    verify_bundle(directory)


def test_a_consistent_forgery_fails_on_the_re_derived_figures(bundle):
    """Someone with the key rewrites standings.csv, re-hashes and re-signs: still caught."""
    import hashlib

    from server.audit.bundle import _canonical
    from server.audit.signing import sign

    directory, _files, key = bundle
    path = directory / "standings.csv"
    forged = path.read_text().replace(",champion,,", ",champion,,p1", 1).encode()
    path.write_bytes(forged)
    manifest = json.loads((directory / MANIFEST).read_text())
    manifest["files"]["standings.csv"] = hashlib.sha256(forged).hexdigest()
    manifest["signature"] = sign(key, _canonical(manifest))
    (directory / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, indent=1) + "\n")
    with pytest.raises(BundleError) as failed:
        verify_bundle(directory)
    assert failed.value.file == "standings.csv"


def test_a_bundle_signed_by_another_key_fails_against_the_pinned_key(bundle, tmp_path):
    directory, _files, _key = bundle
    other = public_key_hex(load_or_create_signing_key(tmp_path / "other"))
    with pytest.raises(BundleError) as failed:
        verify_bundle(directory, other)
    assert failed.value.file == MANIFEST


def test_an_extra_or_missing_file_fails_naming_it(bundle):
    directory, _files, _key = bundle
    (directory / "notes.txt").write_text("hello")
    with pytest.raises(BundleError) as failed:
        verify_bundle(directory)
    assert failed.value.file == "notes.txt"
    (directory / "notes.txt").unlink()
    (directory / "report.html").unlink()
    with pytest.raises(BundleError) as failed:
        verify_bundle(directory)
    assert failed.value.file == "report.html"


def test_the_audit_cli_writes_and_verifies_a_bundle(tmp_path, source):
    from clients.reference_cli import cli

    store_url = f"sqlite:///{tmp_path / 'bundle.sqlite'}"
    sqlite = open_blocking_store(store_url)
    memory = stored(source)
    for stream in memory.streams():
        events = memory.load(stream)
        sqlite.append(stream, 0, [NewEvent(e.type, e.data, e.actor, e.causation) for e in events])
    sqlite.close()
    out = tmp_path / "out"
    key = str(tmp_path / "signing.key")
    args = ["audit", "bundle", "--store", store_url, "--tournament", TID, "--out", str(out)]
    assert cli.main([*args, "--key-file", key]) == 0
    pinned = public_key_hex(load_or_create_signing_key(key))
    assert cli.main(["audit", "verify", str(out), "--key", pinned]) == 0
    (out / "scorecards.csv").write_text("student\n")
    assert cli.main(["audit", "verify", str(out)]) == 1
    assert cli.main(["audit", "verify", str(tmp_path / "nothing")]) == 2
    assert Path(out / MANIFEST).exists()


def test_t24_server_key_prints_the_public_key_it_signs_with(tmp_path, capsys):
    from server.__main__ import main

    path = tmp_path / "server.key"
    assert main(["key", "--key-file", str(path)]) == 0
    first = capsys.readouterr()
    printed = first.out.strip()
    assert printed == public_key_hex(load_or_create_signing_key(path))
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert f"created a new signing key in {path}" in first.err  # issue 27: never silently
    assert main(["key", "--key-file", str(path)]) == 0
    again = capsys.readouterr()
    assert again.out.strip() == printed and again.err == ""  # the same key, nothing created
    path.write_text("not a key")
    assert main(["key", "--key-file", str(path)]) == 2


def test_t24_audit_report_renders_a_verified_bundle_in_another_language(bundle, capsys):
    """`t24 audit report DIR --lang nb`: the report of the same events in Norwegian, beside
    the bundle (which stays as it was); every way it refuses has its exit code and words."""
    from clients.reference_cli import cli
    from clients.reference_cli.words import set_language

    directory, _files, key = bundle
    pinned = public_key_hex(key)
    try:
        assert cli.main(["audit", "report", str(directory), "--lang", "nb", "--key", pinned]) == 0
        written = directory.parent / "bundle-report.nb.html"
        assert '<html lang="nb">' in written.read_text(encoding="utf-8")
        assert "Dommerrapport" in written.read_text(encoding="utf-8")
        verify_bundle(directory, pinned)  # the bundle itself untouched
        out = directory.parent / "sv.html"
        assert cli.main(["audit", "report", str(directory), "--lang", "sv", "--out", str(out)]) == 0
        assert "Domarrapport" in out.read_text(encoding="utf-8")
        capsys.readouterr()
        assert cli.main(["audit", "report", str(directory), "--lang", "xx"]) == 2
        assert "no words in 'xx'" in capsys.readouterr().err
        assert cli.main(["audit", "report", str(directory / "nothing"), "--lang", "nb"]) == 2
        inside = ["--out", str(directory / "report.nb.html")]
        assert cli.main(["audit", "report", str(directory), "--lang", "nb", *inside]) == 2
        # `--lang nb` is the person's language too: the refusal is said in Norwegian
        assert catalogue("nb").say("common", "audit.out_inside") in capsys.readouterr().err
        (directory / "standings.csv").write_text("student\n")
        assert cli.main(["audit", "report", str(directory), "--lang", "nb"]) == 1
        failed = catalogue("nb").say("common", "audit.failed", command="t24 audit report", error="")
        assert capsys.readouterr().out.startswith(failed)  # "FEIL: " (the report's language)
    finally:
        set_language("en")
