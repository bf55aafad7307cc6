"""`t24 audit bundle | verify`: the officials' bundle of a tournament (server/audit/bundle.py).

`bundle` reads a store directly (like `t24 log`, not over the network), writes every stream
of the tournament as an export, the score cards, the standings and a report, and a manifest
signed with the server's Ed25519 key (`--key-file`, the file `t24-server key` prints the
public key of). `verify` needs no store and no server: it checks the signature (against
`--key` when given: pin the key the server printed), every file's sha256, every export's
chain and head, and re-derives every figure from the events; exit 0 when all agree, else 1
naming the first file that differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from clients.reference_cli.words import COMMON, Vocabulary
from server.audit.export import ExportError
from server.audit.signing import DEFAULT_KEY_FILE, SigningKeyError, load_or_create_signing_key
from server.eventlog.backends import open_blocking_store
from server.eventlog.store import EventLogError

EXIT_OK, EXIT_DIFFERS, EXIT_BAD_INPUT = 0, 1, 2
WORDS = Vocabulary("tournament")  # the bundle's words, as `t24 tournament bundle` says them

EXAMPLES = """\
examples:
  t24 audit bundle --store sqlite:///var/t24.sqlite --tournament spring --out var/spring-bundle
  t24-server key                                  the public key to pin
  t24 audit verify var/spring-bundle --key "$(t24-server key)"
  t24 audit report var/spring-bundle --lang nb   the report in Norwegian, beside the bundle
"""


# server.audit.bundle is imported by the two commands that use it, not by every `t24` start
# (it brings the tournament core and the report: ~40 ms of each `t24 play`, `t24 bot`...).


def _bundle(args: argparse.Namespace) -> int:
    from server.audit.bundle import BundleError, build_bundle, write_bundle

    out = Path(args.out)
    if out.exists():
        print("t24 audit bundle: " + WORDS.say("cli.bundle_exists", path=out), file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        key = load_or_create_signing_key(args.key_file)
        store = open_blocking_store(args.store, create=False)
    except (SigningKeyError, EventLogError) as error:
        print(f"t24 audit bundle: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        tournament = args.tournament.removeprefix("tournament/")
        files = build_bundle(store, tournament, key)
    except (ExportError, BundleError, EventLogError, ValueError) as error:
        print(f"t24 audit bundle: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        store.close()
    write_bundle(files, out)
    print(WORDS.say("cli.bundle_written", len(files), path=out))
    return EXIT_OK


def _bundle_folder(args: argparse.Namespace, command: str) -> Path | None:
    """The bundle's folder named on the command line, or None once it is said that there is
    no such folder (verify and report read the same bundle)."""
    directory = Path(args.directory)
    if directory.is_dir():
        return directory
    print(COMMON.say("audit.no_bundle", command=command, path=directory), file=sys.stderr)
    return None


def _verify(args: argparse.Namespace) -> int:
    from server.audit.bundle import BundleError, verify_bundle

    directory = _bundle_folder(args, "t24 audit verify")
    if directory is None:
        return EXIT_BAD_INPUT
    try:
        manifest = verify_bundle(directory, args.key)
    except BundleError as error:
        print(COMMON.say("audit.failed", command="t24 audit verify", error=error))
        return EXIT_DIFFERS
    files = len(manifest["files"]) + 1
    key = manifest["public_key"]
    print(COMMON.say("audit.verified", files, command="t24 audit verify", signing_key=key))
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from protocol.words import languages
    from server.audit.bundle import BundleError, report_in

    directory = _bundle_folder(args, "t24 audit report")
    if directory is None:
        return EXIT_BAD_INPUT
    if args.lang not in languages():
        there = ", ".join(languages())
        print(COMMON.say("audit.no_language", lang=repr(args.lang), there=there), file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        html = report_in(directory, args.lang, args.key)
    except BundleError as error:
        print(COMMON.say("audit.failed", command="t24 audit report", error=error))
        return EXIT_DIFFERS
    out = Path(args.out or directory.parent / f"{directory.name}-report.{args.lang}.html")
    if directory.resolve() in out.resolve().parents:
        print(COMMON.say("audit.out_inside"), file=sys.stderr)
        return EXIT_BAD_INPUT
    out.write_text(html, encoding="utf-8")
    print(f"t24 audit report: {out}")
    return EXIT_OK


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `audit bundle`, `audit verify` and `audit report`."""
    formatter = argparse.RawDescriptionHelpFormatter
    audit = subparsers.add_parser(
        "audit",
        help="the officials' bundle of a tournament: bundle, verify",
        description="t24 audit: write or verify a tournament's officials' bundle.",
        epilog=EXAMPLES,
        formatter_class=formatter,
    )
    commands = audit.add_subparsers(dest="audit_command", metavar="SUBCOMMAND", required=True)
    bundle = commands.add_parser(
        "bundle",
        help="write the bundle of a tournament",
        epilog=EXAMPLES,
        formatter_class=formatter,
    )
    bundle.add_argument("--store", required=True, help="the event log URL")
    bundle.add_argument("--tournament", required=True, help="the tournament id")
    bundle.add_argument("--out", required=True, help="a new directory")
    bundle.add_argument(
        "--key-file", default=DEFAULT_KEY_FILE, help=f"the signing key (default {DEFAULT_KEY_FILE})"
    )
    bundle.set_defaults(func=_bundle)
    verify = commands.add_parser(
        "verify",
        help="verify a bundle (no store needed)",
        epilog=EXAMPLES,
        formatter_class=formatter,
    )
    verify.add_argument("directory")
    verify.add_argument("--key", help="the public key (hex) the bundle must be signed with")
    verify.set_defaults(func=_verify)
    report = commands.add_parser(
        "report",
        help="the officials' report of a verified bundle in another language",
        epilog=EXAMPLES,
        formatter_class=formatter,
    )
    report.add_argument("directory")
    report.add_argument("--lang", required=True, help="the report's language (en, nb, sv, ...)")
    report.add_argument(
        "--out", help="the HTML file to write (default: DIRECTORY-report.LANG.html beside it)"
    )
    report.add_argument("--key", help="the public key (hex) the bundle must be signed with")
    report.set_defaults(func=_report)
