"""Why the hub has no table for a request: the errors the hub raises and the process
runner (process_actor.py) handles, in a module of their own so that neither imports the
other (the hub creates process runners; a runner creates tables through the hub)."""

from __future__ import annotations


class TableExists(Exception):
    """`create_table` named an id that is taken."""


class TableMoved(Exception):
    """Another live node owns the table: ask it (`url`), not this one."""

    def __init__(self, table: str, url: str) -> None:
        super().__init__(f"table {table} is served by {url}")
        self.table = table
        self.url = url
