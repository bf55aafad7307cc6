"""What one connection may ask: its limits, and the token bucket that keeps it to its rates.

`NetConfig` holds every per-connection limit (docs/protocol.md, "Limits"), announced to the
client in `welcome`; `TokenBucket` is the rate limit itself, used per connection by the
session (server/net/session.py) and once for the whole server (server/net/ws.py, the
server-wide request budget).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.codec import Limits


@dataclass(frozen=True)
class NetConfig:
    """The per-connection limits (all documented in docs/protocol.md, "Limits")."""

    limits: Limits = field(default_factory=Limits)
    rate_per_second: float = 50.0
    rate_burst: int = 100
    abuse_strikes: int = 100  # rate-limited requests tolerated per `abuse_window` seconds
    abuse_window: float = 10.0
    hello_timeout: float = 10.0
    max_joins: int = 16

    def announced(self) -> dict[str, Any]:
        """The limits a client is told in `welcome`."""
        return {
            **self.limits.as_dict(),
            "rate_per_second": self.rate_per_second,
            "rate_burst": self.rate_burst,
            "max_joins": self.max_joins,
        }


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second; `take(now)` spends one if it can."""

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend one token; False when the bucket is empty (the caller is over the limit)."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def charge(self, cost: float, now: float) -> None:
        """Spend `cost` more tokens for work already done (the bucket may go into debt, down
        to `-capacity`): the requests that follow wait until it has refilled."""
        self._refill(now)
        self.tokens = max(-self.capacity, self.tokens - cost)

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.stamp)
        self.stamp = now
        self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)
