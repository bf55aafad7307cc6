"""What the hub asks of table ownership: the seam between the runtime and the cluster.

Why a protocol here: the hub takes a lease before it serves or creates a table when the
server runs as one node of several (PostgreSQL), and takes nothing on a single node
(`ownership=None`). The one implementation is the cluster's `LeaseManager`
(server/cluster/ownership.py), which sits above the runtime and may not be imported by it
(docs/architecture.md, "Layers, checked"); so the runtime names what it calls, and mypy checks
that the lease manager (and the tests' stand-ins) fit it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

__all__ = ["Lease", "Ownership"]


class Lease(Protocol):
    """A lease's answer as the hub reads it (the cluster's `Acquired`)."""

    @property
    def stream(self) -> str:
        """The table's stream the lease is for."""
        ...

    @property
    def held(self) -> bool:
        """Whether this node holds the lease now."""
        ...

    @property
    def previous_owner(self) -> str:
        """The node that held it before ("" for a new lease)."""
        ...

    @property
    def owner_url(self) -> str:
        """When not held: where the live owner serves the table (for a redirect)."""
        ...

    @property
    def handed_from(self) -> str:
        """Held because that node handed it here (a placed table), or ""."""
        ...


class Ownership(Protocol):
    """One node's table leases, as the hub uses them (server/cluster/ownership.py)."""

    @property
    def owner(self) -> str:
        """This node's id (the leases' owner)."""
        ...

    @property
    def counts(self) -> dict[str, int]:
        """`failovers`, `lost` and `redirects` so far (the hub counts its own; `/metrics`)."""
        ...

    def acquire(self, stream: str) -> Deferred[Lease]:
        """Take `stream`'s lease if nobody live holds it."""
        ...

    def is_failover(self, acquired: Lease) -> bool:
        """Whether the lease came from another node (its table is then paused `failover`)."""
        ...

    def lost(self, stream: str, why: str) -> None:
        """This node does not own `stream` (any more): stop serving it."""
        ...

    def forget(self, stream: str) -> Deferred[None]:
        """Give up a lease nobody needs to take over."""
        ...

    def hand_off(self, stream: str, node: str, url: str) -> Deferred[bool]:
        """Give `stream`'s lease to `node`; fires True once handed."""
        ...

    def place(self, count: int) -> Deferred[list[tuple[str, str]]]:
        """The `(node id, url)` each of `count` new tables goes to."""
        ...

    def keep(self, stream: str, row: dict[str, Any]) -> None:
        """List `stream` from `row` (a `Hub.tables()` row) until the next refresh."""
        ...

    def remote_rows(self) -> list[dict[str, Any]]:
        """The `Hub.tables()` rows of the tables this node does not serve."""
        ...
