"""The links printed for a tournament's table: one per person, signed, expiring with the day.

What it keeps: what the `table_links` request answers (docs/protocol.md): for one table of a
tournament (a round's `r1.s1.t01` or a tie-break's `tb1.t1`), its proctor's link and each
student's, each a web-client address with its own token in the fragment
(`server.net.static.page_url`) and that address as a QR code (an SVG data URI drawn by
`segno`, a maintained QR library): the director's console prints a page per table for its
proctor and a slip per student, and a tablet that scans a slip's code opens that student's
page (docs/tournament.md, "Printing the day").

Why here, in the shell: a token is signed with the server's secret, and the address is the
server's public one (`--public-url`), which a tablet on the room's network reaches, not the
address the director's own browser happens to use.

Expiry: a printed link is valid until the end of the tournament's day (midnight after its
`date`, in the server's time zone), as the printed pairings of other tournament software are
good for their event only: a slip found in a bag next week opens nothing. A day that is over
is refused (`day_over`): links printed then would be expired on the paper.
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from typing import Any

from server.net.static import page_url
from server.net.tokens import MAX_TTL_SECONDS, TokenSigner
from server.tournament.state import TournamentState
from server.tournament.tables import table_id

QR_ERROR = "m"  # 15% of the code may be smudged or folded and it still reads
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules


class DayOver(Exception):
    """The tournament's day has ended: links printed now would be expired."""


class UnknownTournamentTable(Exception):
    """The tournament seats no table of that name."""


def day_end(date: str) -> int:
    """The end of the day `date` (`YYYY-MM-DD`): midnight after it, server local time, as
    Unix seconds."""
    day = datetime.date.fromisoformat(date) + datetime.timedelta(days=1)
    return int(time.mktime(day.timetuple()))


def qr_data_uri(url: str) -> str:
    """`url` as a QR code: an SVG `data:` URI, black on white, with its quiet zone."""
    import segno  # by the first printed link, not at every server's start (issue 29)

    code = segno.make(url, error=QR_ERROR, micro=False)
    return str(code.svg_data_uri(border=QR_BORDER, omitsize=True, light="#fff"))


@dataclass(frozen=True)
class LinkMaker:
    """Signs the printed links of a tournament's tables (see the module doc)."""

    signer: TokenSigner
    public_url: str  # the server's ws:// URL that clients are told

    def table_links(
        self, state: TournamentState, tournament: str, name: str, now: float
    ) -> dict[str, Any]:
        """The `links` reply's fields for table `name` of `tournament` (its stream's state).
        Raises `UnknownTournamentTable` or `DayOver`."""
        found = state.table(name)
        if found is None:
            raise UnknownTournamentTable(f"tournament {tournament} seats no table {name!r}")
        _round, table = found
        expires = day_end(state.options.date)
        ttl = expires - int(now)
        if ttl <= 0:
            raise DayOver(
                f"the tournament's day ({state.options.date}) is over: a link printed now "
                "would be expired"
            )
        ttl = min(ttl, MAX_TTL_SECONDS)
        hub_table = table_id(tournament, name)
        proctor = state.proctors.get(name, {}).get("name") or "proctor"

        def link(role: str, **claims: Any) -> dict[str, Any]:
            token, _claims = self.signer.issue(
                role, now=now, table=hub_table, ttl_seconds=ttl, **claims
            )
            url = page_url(self.public_url, token)
            return {"url": url, "qr": qr_data_uri(url)}

        seats = [
            {"seat": s, "name": state.students[s].name, **link("player", seat=s)}
            for s in table.students
        ]
        return {
            "table": name,
            "hub_table": hub_table,
            "section": table.section,
            "expires": int(now) + ttl,
            "proctor": {"name": proctor, **link("proctor", name=proctor[:64])},
            "seats": seats,
        }
