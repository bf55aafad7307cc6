"""The settings of `t24-server`: `ServerConfig` and how they are layered.

`load_config` layers them: defaults < TOML file (`--config` or `T24_CONFIG`) < environment
(`T24_<NAME>`) < flags. Each network limit's default is written once, by the layer that
applies it (protocol.codec.Limits, server.net.rate_limits.NetConfig, server.net.ws.
TransportConfig); a setting here only names it. The settings are read and checked
before anything is opened (docs/operations.md lists every one).
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol.codec import Limits
from server.audit.signing import DEFAULT_KEY_FILE
from server.cluster.leases import DEFAULT_LEASE_SECONDS
from server.eventlog.store import DEFAULT_STORE_URL
from server.net.rate_limits import NetConfig
from server.net.ws import TransportConfig
from server.runtime.pushes import CATCH_UP_CACHE_BYTES

ENV_PREFIX = "T24_"


class ConfigError(Exception):
    """A setting that cannot be used (unknown key, wrong type, unreadable TOML file)."""


@dataclass(frozen=True)
class ServerConfig:
    """Every setting of `t24-server` (docs/operations.md lists them with their env vars)."""

    store: str = DEFAULT_STORE_URL
    host: str = "127.0.0.1"
    port: int = 8024
    public_url: str = ""  # the ws:// URL clients are told; default ws://HOST:PORT/ws
    secret_file: str = "var/t24.secret"
    signing_key_file: str = DEFAULT_KEY_FILE  # the officials' bundle's Ed25519 key (/bundle)
    ready_file: str = ""  # written (JSON: url, port, pid) once listening; for scripts/tests
    demo: bool = False
    demo_tokens_dir: str = "var/demo-tokens"
    demo_seed: int = 24
    demo_auto_proctor: float = 5.0
    log_format: str = "auto"  # json | text | auto (text on a terminal, json otherwise)
    log_level: str = "info"  # debug | info | warn | error
    # The network limits: each default is written once, where the layer that applies it
    # declares it (protocol.codec.Limits, server.net.rate_limits.NetConfig, server.net.ws.
    # TransportConfig); the server's settings only name them.
    max_message_bytes: int = Limits.max_message_bytes
    max_connections: int = TransportConfig.max_connections
    max_connections_per_address: int = TransportConfig.max_connections_per_address
    server_rate_per_second: float = TransportConfig.server_rate_per_second
    abuse_cooldown: float = TransportConfig.abuse_cooldown
    max_unread_bytes: int = TransportConfig.max_unread_bytes
    rate_per_second: float = NetConfig.rate_per_second
    rate_burst: int = NetConfig.rate_burst
    abuse_strikes: int = NetConfig.abuse_strikes
    hello_timeout: float = NetConfig.hello_timeout
    open_handshake_timeout: float = TransportConfig.open_handshake_timeout
    auto_ping_interval: float = TransportConfig.auto_ping_interval
    auto_ping_timeout: float = TransportConfig.auto_ping_timeout
    allowed_origins: tuple[str, ...] = TransportConfig.allowed_origins
    allow_null_origin: bool = TransportConfig.allow_null_origin
    max_joins: int = NetConfig.max_joins
    shutdown_grace: float = 5.0
    evict_after: float = 600.0  # seconds a finished, unwatched table stays in memory; 0: never
    catch_up_cache_bytes: int = CATCH_UP_CACHE_BYTES  # older events' pushes, all tables
    # Several nodes on one PostgreSQL (server/cluster, docs/operations.md).
    node_id: str = ""  # this node's name in the leases; default HOSTNAME:PORT
    advertise_url: str = ""  # the ws:// URL other nodes redirect clients to; default the URL
    lease_seconds: float = DEFAULT_LEASE_SECONDS  # a dead node's tables move after this

    def transport(self) -> TransportConfig:
        """The network limits as the WebSocket layer takes them."""
        return TransportConfig(
            max_connections=self.max_connections,
            open_handshake_timeout=self.open_handshake_timeout,
            auto_ping_interval=self.auto_ping_interval,
            auto_ping_timeout=self.auto_ping_timeout,
            allowed_origins=self.allowed_origins,
            allow_null_origin=self.allow_null_origin,
            max_unread_bytes=self.max_unread_bytes,
            server_rate_per_second=self.server_rate_per_second,
            max_connections_per_address=self.max_connections_per_address,
            abuse_cooldown=self.abuse_cooldown,
            net=NetConfig(
                limits=Limits(max_message_bytes=self.max_message_bytes),
                rate_per_second=self.rate_per_second,
                rate_burst=self.rate_burst,
                abuse_strikes=self.abuse_strikes,
                hello_timeout=self.hello_timeout,
                max_joins=self.max_joins,
            ),
        )


FIELDS = {f.name: f for f in dataclasses.fields(ServerConfig)}
# Settings Autobahn times with txaio's batched timer, which rounds every deadline down to a
# whole second (`int(now + delay)`): such a timer fires up to 1 s early.
AUTOBAHN_TIMERS = ("open_handshake_timeout", "auto_ping_interval", "auto_ping_timeout")


def convert(name: str, value: Any) -> Any:
    """Convert a raw setting (a TOML value or an env/flag string) to the field's type."""
    kind = FIELDS[name].type
    try:
        if kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"not a boolean: {value!r}")
        if kind == "int":
            if isinstance(value, bool):
                raise ValueError("not an integer")
            return int(value)
        if kind == "float":
            if isinstance(value, bool):
                raise ValueError("not a number")
            return float(value)
        if kind == "tuple[str, ...]":
            items = value if isinstance(value, list | tuple) else str(value).split(",")
            return tuple(str(item).strip() for item in items if str(item).strip())
        if not isinstance(value, str):
            raise ValueError(f"not a string: {value!r}")
        return value
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting {name}: {exc}") from exc


def read_toml(path: str) -> dict[str, Any]:
    """The settings of a TOML file (top level, or a `[server]` table), names checked."""
    try:
        with open(path, "rb") as handle:
            raw = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from exc
    raw = raw.get("server", raw)
    settings = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in FIELDS:
            raise ConfigError(f"config file {path}: unknown setting {key!r}")
        settings[name] = convert(name, value)
    return settings


def load_config(
    flags: Mapping[str, Any], environ: Mapping[str, str], config_file: str | None = None
) -> ServerConfig:
    """Layer defaults < TOML < environment < flags (flags given as None are absent).

    Why this order: a file holds the deployment, the environment adapts it per host or
    container, and a flag typed by hand wins.
    """
    settings: dict[str, Any] = {}
    path = config_file or environ.get(ENV_PREFIX + "CONFIG")
    if path:
        settings.update(read_toml(path))
    for name in FIELDS:
        env = environ.get(ENV_PREFIX + name.upper())
        if env is not None:
            settings[name] = convert(name, env)
    for name, value in flags.items():
        if value is not None:
            if name not in FIELDS:
                raise ConfigError(f"unknown setting {name!r}")
            settings[name] = convert(name, value)
    config = ServerConfig(**settings)
    if config.log_format not in ("json", "text", "auto"):
        raise ConfigError("log_format is json, text or auto")
    if config.log_level not in ("debug", "info", "warn", "error"):
        raise ConfigError("log_level is debug, info, warn or error")
    if not 0 <= config.port <= 65535:
        raise ConfigError("port is 0..65535 (0: any free port)")
    if config.lease_seconds < 0.3:
        raise ConfigError("lease_seconds is at least 0.3 (renewed every third of it)")
    if config.evict_after < 0:
        raise ConfigError("evict_after is 0 (never evict) or a number of seconds")
    if config.catch_up_cache_bytes < 0:
        raise ConfigError("catch_up_cache_bytes is 0 (no cache) or a number of bytes")
    for name in AUTOBAHN_TIMERS:
        if getattr(config, name) < 1.0:
            raise ConfigError(
                f"{name} is at least 1 second: Autobahn's timers count whole seconds and fire "
                "up to 1 s early, so a shorter one could fire at once"
            )
    return config
