"""t24 server: a pure core (puzzles, games) and a thin Twisted shell (eventlog, runtime, net).

The version has one source, pyproject.toml, read back from the installed package's metadata
(`t24-server --version`, `t24 --version`, `welcome.server` and the HTTP `Server` header all
say it). A source tree that is not installed says `0+unknown` rather than a stale number.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("t24")
except PackageNotFoundError:  # running from a source tree without `pip install -e .`
    __version__ = "0+unknown"

# The `Server` header of every HTTP answer (the WebSocket handshake, /healthz, /metrics): the
# product and its version, never the Twisted or Autobahn version underneath.
SERVER_HEADER = f"t24/{__version__}"
