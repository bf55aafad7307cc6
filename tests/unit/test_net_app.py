"""`t24-server` settings and start-up failures: layering of defaults, TOML, environment and
flags; structured logs; exit codes of a server that cannot start."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys

import pytest
from shell_testcase import ShellTestCase
from twisted.logger import LogLevel

from protocol.token_files import person_files
from server.__main__ import JsonLogObserver, build_parser
from server.config import ConfigError, ServerConfig, load_config
from server.demo import demo_banner


class SettingsTests(ShellTestCase):
    def test_defaults(self):
        config = load_config({}, {})
        assert config == ServerConfig()
        assert (config.store, config.host, config.port) == (
            "sqlite:///var/t24.sqlite",
            "127.0.0.1",
            8024,
        )

    def test_layers_toml_then_env_then_flags(self):
        tmp_path = self.tmp_path
        path = tmp_path / "t24.toml"
        path.write_text(
            '[server]\nport = 9000\nhost = "0.0.0.0"\nrate-per-second = 5\n'
            'allowed_origins = ["https://a.example"]\nallow_null_origin = false\n'
        )
        env = {"T24_PORT": "9001", "T24_MAX_JOINS": "3", "T24_CONFIG": str(path)}
        config = load_config({"port": "9002", "demo": True}, env)
        assert config.port == 9002  # flag > env > file
        assert config.max_joins == 3  # env
        assert config.host == "0.0.0.0" and config.rate_per_second == 5.0  # file
        assert (
            config.allowed_origins == ("https://a.example",) and config.allow_null_origin is False
        )
        assert config.demo is True
        assert load_config({}, {"T24_ALLOWED_ORIGINS": "a, b"}).allowed_origins == ("a", "b")
        transport = config.transport()
        assert transport.net.rate_per_second == 5.0 and transport.net.max_joins == 3

    def test_bad_settings_are_config_errors(self):
        for flags, env, match in [
            ({"port": "eighty"}, {}, "port"),
            ({"port": "70000"}, {}, "port"),
            ({}, {"T24_DEMO": "maybe"}, "demo"),
            ({"log_format": "xml"}, {}, "log_format"),
            ({"log_level": "loud"}, {}, "log_level"),
            ({"colour": "red"}, {}, "colour"),
            ({"auto_ping_timeout": "0.3"}, {}, "auto_ping_timeout is at least 1 second"),
            ({}, {"T24_AUTO_PING_INTERVAL": "0"}, "auto_ping_interval"),
            ({"open_handshake_timeout": "0.5"}, {}, "open_handshake_timeout"),
            ({}, {"T24_EVICT_AFTER": "-1"}, "evict_after"),
            ({"catch_up_cache_bytes": "-1"}, {}, "catch_up_cache_bytes"),
        ]:
            with pytest.raises(ConfigError, match=match):
                load_config(flags, env)

    def test_bad_toml_files(self):
        tmp_path = self.tmp_path
        bad = tmp_path / "bad.toml"
        bad.write_text("port = [")
        with pytest.raises(ConfigError, match="bad.toml"):
            load_config({}, {}, str(bad))
        unknown = tmp_path / "unknown.toml"
        unknown.write_text("colour = 'red'\n")
        with pytest.raises(ConfigError, match="colour"):
            load_config({}, {}, str(unknown))
        with pytest.raises(ConfigError):
            load_config({}, {}, str(tmp_path / "missing.toml"))
        typed = tmp_path / "typed.toml"
        typed.write_text("port = true\n")
        with pytest.raises(ConfigError, match="port"):
            load_config({}, {}, str(typed))

    def test_every_setting_is_a_flag(self):
        parser = build_parser()
        args = vars(parser.parse_args(["--max-message-bytes", "100", "--no-allow-null-origin"]))
        assert args["max_message_bytes"] == "100" and args["allow_null_origin"] is False
        assert set(args) - {"config"} == set(ServerConfig.__dataclass_fields__)
        assert all(
            value is None
            for key, value in args.items()
            if key not in {"max_message_bytes", "allow_null_origin"}
        )

    def test_json_logs_are_one_object_per_line(self):
        stream = io.StringIO()
        observer = JsonLogObserver(stream)
        observer(
            {
                "log_format": "table {table} loaded",
                "log_level": LogLevel.info,
                "log_namespace": "t24.hub",
                "log_time": 0.0,
                "table": "t1",
                "obj": object(),
            }
        )
        record = json.loads(stream.getvalue())
        assert record["msg"] == "table t1 loaded" and record["table"] == "t1"
        assert record["level"] == "info" and record["ns"] == "t24.hub" and "obj" not in record
        text = io.StringIO()
        JsonLogObserver(text, text=True)(
            {"log_format": "hi", "log_level": LogLevel.warn, "log_time": 0}
        )
        assert text.getvalue() == "00:00:00 warn  : hi\n"

    def test_demo_banner_reads_every_token_from_its_holders_file(self):
        files = person_files(
            "ws://h:1/ws",
            "demo",
            proctor="P",
            spectator="S",
            seats=[{"seat": f"s{i}", "name": f"Seat {i}", "token": f"T{i}"} for i in range(1, 5)],
            director="D",
        )
        banner = demo_banner(files, "var/demo-tokens")
        assert "t24 proctor --tokens var/demo-tokens/proctor.json" in banner
        assert all(f"t24 play --tokens var/demo-tokens/s{i}.json" in banner for i in range(1, 5))
        assert "t24 watch --tokens var/demo-tokens/spectator.json" in banner
        # No token on any command line (ps, shell history), the director's nowhere.
        assert not any(token in banner.split() for token in ("D", "P", "S", "T1", "T2"))
        assert "--token " not in banner


def run_server(*args, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("T24_")}
    return subprocess.run(
        [sys.executable, "-m", "server", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


class StartUpTests(ShellTestCase):
    def test_bad_settings_exit_2(self):
        tmp_path = self.tmp_path
        done = run_server("--port", "nope", cwd=tmp_path)
        assert done.returncode == 2 and "port" in done.stderr

    def test_a_server_that_cannot_start_exits_1(self):
        tmp_path = self.tmp_path
        secret = tmp_path / "secret"
        secret.write_text("ab" * 32)
        os.chmod(secret, 0o644)
        done = run_server(
            "--port", "0", "--secret-file", str(secret), "--store", "memory:", cwd=tmp_path
        )
        assert done.returncode == 1 and "chmod 600" in done.stderr
        done = run_server(
            "--port",
            "0",
            "--secret-file",
            str(tmp_path / "s2"),
            "--store",
            "oracle://x",
            cwd=tmp_path,
        )
        assert done.returncode == 1 and "unknown store URL" in done.stderr

    def test_token_subcommand_prints_a_verifiable_token(self):
        tmp_path = self.tmp_path
        from server.__main__ import main
        from server.net.tokens import TokenSigner, load_or_create_secret

        secret = tmp_path / "secret"
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["token", "proctor", "--table", "t1", "--secret-file", str(secret)]) == 0
        token = out.getvalue().strip()
        claims = TokenSigner(load_or_create_secret(secret)).verify(token, __import__("time").time())
        assert (claims.role, claims.table) == ("proctor", "t1")
        with contextlib.redirect_stderr(err):
            assert main(["token", "player", "--secret-file", str(secret)]) == 2
        assert "must name its table" in err.getvalue()

    def test_auto_log_format_is_text_on_a_terminal_and_json_otherwise(self):
        from server.__main__ import log_observer

        class Terminal(io.StringIO):
            def isatty(self):
                return True

        event = {"log_format": "x", "log_level": LogLevel.info, "log_time": 0, "log_namespace": "t"}
        for stream, fmt, is_json in (
            (Terminal(), "auto", False),
            (io.StringIO(), "auto", True),
            (Terminal(), "json", True),
            (io.StringIO(), "text", False),
        ):
            log_observer(load_config({"log_format": fmt}, {}), stream)(event)
            assert stream.getvalue().startswith("{") is is_json
        quiet = io.StringIO()
        log_observer(load_config({"log_level": "warn"}, {}), quiet)(event)
        assert quiet.getvalue() == ""  # below the level


class TriggerReactor:
    """Just the system-event-trigger part of a reactor (all a ThreadedStore asks at open)."""

    def __init__(self) -> None:
        self.triggers: dict[int, tuple] = {}

    def addSystemEventTrigger(self, phase, event, callable_, *args):
        self.triggers[len(self.triggers) + 1] = (phase, event, callable_)
        return len(self.triggers)

    def removeSystemEventTrigger(self, trigger_id):
        del self.triggers[trigger_id]


class StoreOwnershipTests(ShellTestCase):
    def test_the_server_owns_the_store_shutdown(self):
        """A ThreadedStore closes itself before reactor shutdown unless its owner takes that
        over: the server does, and closes it after its tables drained (T24Server.stop)."""
        tmp_path = self.tmp_path
        from server.eventlog.backends import open_store

        reactor = TriggerReactor()
        store = open_store(f"sqlite:///{tmp_path / 't.sqlite'}", reactor=reactor)
        assert list(reactor.triggers.values()) == [("before", "shutdown", store._close_on_shutdown)]
        store.hand_over_shutdown()
        assert reactor.triggers == {}
        store.hand_over_shutdown()  # twice is harmless
        closed = []
        store.close().addCallback(closed.append)
        assert closed == [None]

    def test_the_network_defaults_are_written_once(self):
        """The server's settings take each network default from the layer that applies it, so
        `ServerConfig()` builds exactly the transport a bare `TransportConfig()` is."""
        from server.net.ws import TransportConfig

        assert ServerConfig().transport() == TransportConfig()
