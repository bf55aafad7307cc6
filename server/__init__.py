"""t24 server: a pure core (puzzles, games) and a thin Twisted shell (eventlog, runtime, net)."""

__version__ = "0.1.0"
