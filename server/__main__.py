"""The `t24-server` entry point: flags, structured logs, the reactor, signals, exit codes.

Every setting of `server.config.ServerConfig` is a flag (`--max-message-bytes`), an environment
variable (`T24_MAX_MESSAGE_BYTES`) and a TOML key (`max_message_bytes`); `--config FILE`
names the TOML file. Logs go to stderr: one JSON object per line (`time`, `level`, `ns`, `msg`
and the event's own fields), or one line of text when stderr is a terminal (`--log-format`
json, text or auto).

`t24-server token ROLE [--table T] [--seat S]` prints a token signed with the secret file (the
operator's way to a first director token) and exits.

SIGTERM and SIGINT stop the reactor; `T24Server.stop`, the one "before shutdown" trigger of
the server, runs first: the tables answer the commands they hold (in-flight and queued
appends finish), sockets close with 1001, then the store closes. Exit codes: 0 after a clean
stop, 1 when the server could not start (port taken, store unusable, secret file readable by
others), 2 for bad settings.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TextIO

from twisted.logger import (
    FilteringLogObserver,
    ILogFilterPredicate,
    ILogObserver,
    LogLevel,
    LogLevelFilterPredicate,
    PredicateResult,
    formatEvent,
    globalLogBeginner,
)
from zope.interface import implementer

from server import __version__
from server.app import T24Server
from server.config import FIELDS, ConfigError, ServerConfig, load_config

LEVELS = {"debug": LogLevel.debug, "info": LogLevel.info, "warn": LogLevel.warn}
LEVELS["error"] = LogLevel.error
_PLAIN = (str, int, float, bool, type(None))


def build_parser() -> argparse.ArgumentParser:
    """One flag per setting; every flag defaults to None (absent) so layering works."""
    parser = argparse.ArgumentParser(
        prog="t24-server",
        description="The t24 game server: msgpack over WebSockets at ws://HOST:PORT/ws, "
        "/healthz and /metrics on the same port.",
        epilog="Every flag is also an environment variable T24_<NAME> and a key of the TOML "
        "file given with --config (or T24_CONFIG). Precedence: flags > env > file > defaults. "
        "`t24-server token ROLE --help` prints a signed token instead of serving; "
        "`t24-server key` prints the public key the officials' bundles are signed with (the "
        "key officials pin: `t24 audit verify DIR --key ...`), creating the key file on first "
        "use and saying so on stderr.",
    )
    parser.add_argument("--config", help="a TOML file of settings")
    parser.add_argument("--version", action="version", version=f"t24-server {__version__}")
    defaults = ServerConfig()
    for name, spec in FIELDS.items():
        flag = "--" + name.replace("_", "-")
        default = getattr(defaults, name)
        if spec.type == "bool":
            parser.add_argument(
                flag,
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"(default {default})",
            )
        else:
            parser.add_argument(flag, dest=name, default=None, help=f"(default {default!r})")
    return parser


@implementer(ILogObserver)
class JsonLogObserver:
    """One JSON object per log event: time, level, ns, msg, and the event's plain fields."""

    def __init__(self, stream: TextIO, text: bool = False) -> None:
        self.stream = stream
        self.text = text

    def __call__(self, event: dict[str, Any]) -> None:
        level = event.get("log_level")
        level_name = level.name if level is not None else "info"
        when = datetime.fromtimestamp(event.get("log_time", 0), UTC)
        message = formatEvent(event)
        if event.get("suppressed"):
            message += f" ({event['suppressed']} more like it suppressed before this one)"
        failure = event.get("log_failure")
        if failure is not None:
            message += "\n" + failure.getTraceback()
        if self.text:
            line = f"{when:%H:%M:%S} {level_name:5} {event.get('log_namespace', '')}: {message}"
        else:
            record = {
                "time": when.isoformat(timespec="milliseconds"),
                "level": level_name,
                "ns": event.get("log_namespace", ""),
                "msg": message,
            }
            for key, value in event.items():
                if not key.startswith("log_") and key not in record and isinstance(value, _PLAIN):
                    record[key] = value
            line = json.dumps(record, default=str)
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except ValueError:  # the stream was closed at exit
            pass


@implementer(ILogFilterPredicate)
class RepeatLimit:
    """At most `burst` warnings (and worse) of one kind per `window` seconds; the rest are
    dropped and counted, and the next one let through says how many (`suppressed`).

    Why: a fault that repeats (a store down while every client retries, a client that goes
    on sending after its close) must not turn the log into the outage: issue 18 saw 53 MB of
    log in 5 s. A kind is the namespace and the message's format, not its values.
    """

    def __init__(
        self, burst: int = 10, window: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.window = window
        self.clock = clock
        self.kinds: dict[tuple[str, str], list[float]] = {}  # kind -> [window start, count]
        self.dropped: dict[tuple[str, str], int] = {}

    def __call__(self, event: dict[str, Any]) -> object:  # one of `PredicateResult`'s
        level = event.get("log_level")
        if level is None or level < LogLevel.warn:
            return PredicateResult.maybe
        kind = (str(event.get("log_namespace", "")), str(event.get("log_format", "")))
        now = self.clock()
        seen = self.kinds.get(kind)
        if seen is None or now - seen[0] >= self.window:
            if len(self.kinds) > 1000:  # kinds are few; never let the table itself grow
                self.kinds.clear()
            seen = self.kinds[kind] = [now, 0]
        seen[1] += 1
        if seen[1] > self.burst:
            self.dropped[kind] = self.dropped.get(kind, 0) + 1
            return PredicateResult.no
        suppressed = self.dropped.pop(kind, 0)
        if suppressed:
            event["suppressed"] = suppressed
        return PredicateResult.maybe


def log_observer(config: ServerConfig, stream: TextIO) -> FilteringLogObserver:
    """The observer that writes log events to `stream`: JSON, or text on a terminal (auto)."""
    predicate = LogLevelFilterPredicate(defaultLogLevel=LEVELS[config.log_level])
    text = config.log_format == "text" or (config.log_format == "auto" and stream.isatty())
    return FilteringLogObserver(JsonLogObserver(stream, text=text), [predicate, RepeatLimit()])


def start_logging(config: ServerConfig, stream: TextIO = sys.stderr) -> None:
    """Send every Twisted (and Autobahn, via txaio) log event to `stream`, filtered."""
    globalLogBeginner.beginLoggingTo([log_observer(config, stream)], redirectStandardIO=False)


def token_main(argv: list[str]) -> int:
    """`t24-server token ROLE [...]`: print a token signed with the server's secret.

    Why: an operator needs a first director token without running the demo; whoever can
    read the secret file can sign tokens anyway, so this adds no power.
    """
    from server.net.tokens import SecretFileError, TokenError, TokenSigner, load_or_create_secret

    parser = argparse.ArgumentParser(prog="t24-server token", description=token_main.__doc__)
    parser.add_argument("role", help="director, proctor, player, spectator or auditor")
    parser.add_argument("--table", help="bound table (proctor, player; optional for spectator)")
    parser.add_argument("--seat", help="seat (player)")
    parser.add_argument("--name", help="identity id (default: the role)")
    parser.add_argument("--ttl", type=int, default=12 * 3600, help="lifetime in seconds")
    parser.add_argument("--config", help="a TOML file of settings (for secret_file)")
    parser.add_argument("--secret-file", dest="secret_file", default=None)
    args = parser.parse_args(argv)
    try:
        config = load_config({"secret_file": args.secret_file}, os.environ, args.config)
        signer = TokenSigner(load_or_create_secret(config.secret_file))
        token, _claims = signer.issue(
            args.role,
            now=time.time(),
            name=args.name,
            table=args.table,
            seat=args.seat,
            ttl_seconds=args.ttl,
        )
    except (ConfigError, TokenError, SecretFileError, OSError, ValueError) as exc:
        print(f"t24-server token: {exc}", file=sys.stderr)
        return 2
    print(token)
    return 0


def key_main(argv: list[str]) -> int:
    """`t24-server key`: print the public half of the server's Ed25519 signing key, the key
    officials pin to verify a tournament's bundle (`t24 audit verify --key`).

    A missing key file is created (mode 0600) and that is said on stderr, stdout keeping only
    the key: the first `key` of a new installation is how an operator makes the key (as the
    server makes its token secret), and a key made by mistake (a wrong --key-file) must not
    pass unnoticed, since bundles signed with it verify only against it."""
    from server.audit.signing import (
        DEFAULT_KEY_FILE,
        SigningKeyError,
        load_or_create_signing_key,
        public_key_hex,
    )

    parser = argparse.ArgumentParser(prog="t24-server key", description=key_main.__doc__)
    parser.add_argument("--key-file", default=DEFAULT_KEY_FILE, help="the private key file")
    args = parser.parse_args(argv)
    existed = os.path.exists(args.key_file)
    try:
        print(public_key_hex(load_or_create_signing_key(args.key_file)))
        if not existed:
            print(
                f"t24-server key: created a new signing key in {args.key_file} (keep it "
                "private and back it up: the officials' bundles are signed with it)",
                file=sys.stderr,
            )
    except SigningKeyError as exc:
        print(f"t24-server key: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse settings, start logging, run the server until SIGTERM/SIGINT."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["token"]:
        return token_main(argv[1:])
    if argv[:1] == ["key"]:
        return key_main(argv[1:])
    args = vars(build_parser().parse_args(argv))
    config_file = args.pop("config")
    try:
        config = load_config(args, os.environ, config_file)
    except ConfigError as exc:
        print(f"t24-server: {exc}", file=sys.stderr)
        return 2
    start_logging(config)
    from twisted.internet import reactor

    server = T24Server(config, reactor)
    outcome = {"code": 0}

    def started_failed(failure: Any) -> None:
        print(f"t24-server: could not start: {failure.getErrorMessage()}", file=sys.stderr)
        outcome["code"] = 1
        if reactor.running:
            reactor.stop()

    def go() -> None:
        d = server.start()
        d.addErrback(started_failed)

    reactor.addSystemEventTrigger("before", "shutdown", server.stop)
    reactor.callWhenRunning(go)
    # What is loaded now (modules, classes, the settings) lives as long as the process: out of
    # the collector's sight, a full collection walks only what serving created. Why: a full
    # collection walked ~50,000 such objects for 30 ms, a reactor turn every other table
    # waited for (docs/performance.md, "Floods").
    gc.freeze()
    reactor.run()
    return outcome["code"]


if __name__ == "__main__":
    sys.exit(main())
