"""Local puzzle commands: `t24 solve`, `t24 check`, `t24 deck`."""

from __future__ import annotations

import argparse


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register the puzzle subcommands."""
