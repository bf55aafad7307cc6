"""`t24 log streams|show|verify`: read and verify a store's event streams."""

from __future__ import annotations

import argparse


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register the `log` subcommands."""
