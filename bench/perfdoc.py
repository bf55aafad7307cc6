"""Writing a benchmark's figures into its own section of docs/performance.md.

Each benchmark owns one `## ...` section of the page and replaces only that section's body,
so the benchmarks can run in any order (or alone) without touching each other's figures.
This module is imported by the benchmarks; `make bench` does not run it.
"""

from __future__ import annotations

from pathlib import Path

PERFORMANCE_DOC = Path(__file__).resolve().parents[1] / "docs" / "performance.md"


def write_section(heading: str, body: str, path: Path = PERFORMANCE_DOC) -> None:
    """Replace the body under `heading` (up to the next `## ` heading) with `body`."""
    text = path.read_text()
    start = text.index(heading) + len(heading)
    following = text.find("\n## ", start)
    end = len(text) if following == -1 else following + 1
    path.write_text(text[:start] + "\n\n" + body.strip("\n") + "\n\n" + text[end:].lstrip("\n"))
