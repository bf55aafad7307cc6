"""What the server gives the director's console besides commands: the printed links of a
tournament's table (`table_links`, server/net/links.py) and the officials' bundle over HTTP
(`GET /bundle`, server/net/bundle_http.py).

In process: a hub on the memory store, a `Session` fed frames (tests/unit/test_net.py's
helpers), the `/bundle` resource rendered with twisted.web's `DummyRequest`. Every error path
answers in words with its documented code.
"""

from __future__ import annotations

import io
import shutil
import tempfile
import zipfile
from pathlib import Path

from test_net import SECRET, T0, NetCase, make_session, say, token
from tournament_support import csv_of
from twisted.web.test.requesthelper import DummyRequest

from server.audit.bundle import verify_bundle
from server.games.base import Actor
from server.net.bundle_http import KEY_HEADER, BundleResource
from server.net.links import LinkMaker, day_end, qr_data_uri
from server.net.tokens import TokenSigner
from server.runtime.table_actor import now_us

PUBLIC = "ws://school.example:8024/ws"
DIRECTOR = Actor("director", "d")
STUDENTS = [("Ada", "Hill", "4th"), ("Bo", "Hill", "4th"), ("Cy", "Dale", "4th")]


def options(date: str = "2023-11-20") -> dict:
    return {"name": "Spring", "date": date, "grades": ["4th"], "deck_seed": 24}


class DirectorServerCase(NetCase):
    def tournament(self, tid: str = "spring", date: str = "2023-11-20", seat: bool = True):
        """A tournament of three students in one grade; round 1 seated (one table)."""
        hub, clock = self.hub, self.clock
        stream = f"tournament/{tid}"
        actor = self.successResultOf(
            hub.create_table(stream, "tournament", options(date), DIRECTOR)
        )

        def do(name, **args):
            from server.games.base import Command

            self.successResultOf(actor.submit(Command(name, args, DIRECTOR), now_us(clock)))

        do("import_students", csv=csv_of(STUDENTS))
        if seat:
            do("close_registration")
            do("seat_round", round=1)
        return actor

    def links_session(self):
        session, wire = make_session(self.hub, self.clock)
        session.links = LinkMaker(TokenSigner(SECRET), PUBLIC)
        say(session, "hello", id=1, token=token("director"))
        wire.messages()
        return session, wire


class TableLinksTests(DirectorServerCase):
    def test_a_table_s_links_are_signed_for_each_person_until_the_day_ends_with_their_qr(self):
        self.tournament()
        session, wire = self.links_session()
        say(session, "table_links", id=2, tournament="spring", table="r1.s1.t01")
        [reply] = wire.messages()
        assert reply["type"] == "links" and reply["hub_table"] == "spring.r1.s1.t01"
        assert reply["section"] == "4th" and reply["expires"] == day_end("2023-11-20")
        signer = TokenSigner(SECRET)
        assert sorted(s["name"] for s in reply["seats"]) == ["Ada", "Bo", "Cy"]
        for person in [reply["proctor"], *reply["seats"]]:
            url = person["url"]
            assert url.startswith("http://school.example:8024/#token=t24v1.")  # the public URL
            claims = signer.verify(url.split("#token=", 1)[1], T0)
            assert claims.table == "spring.r1.s1.t01"
            assert claims.expires == day_end("2023-11-20")
            assert person["qr"] == qr_data_uri(url)  # the code holds exactly this address
            assert person["qr"].startswith("data:image/svg+xml")
        seats = {s["seat"]: signer.verify(s["url"].split("#token=")[1], T0) for s in reply["seats"]}
        assert {seat: (c.role, c.seat) for seat, c in seats.items()} == {
            seat: ("player", seat) for seat in ("p1", "p2", "p3")
        }
        proctor = signer.verify(reply["proctor"]["url"].split("#token=")[1], T0)
        assert (proctor.role, proctor.name) == ("proctor", "proctor")

    def test_the_day_s_end_is_midnight_after_the_date_in_the_server_s_time_zone(self):
        import time

        end = time.localtime(day_end("2023-11-20"))
        assert (end.tm_year, end.tm_mon, end.tm_mday, end.tm_hour, end.tm_min) == (
            2023,
            11,
            21,
            0,
            0,
        )

    def test_links_are_refused_in_words_when_they_cannot_be_printed(self):
        self.tournament()
        self.tournament("past", date="2020-01-01")
        session, wire = self.links_session()
        asks = [
            ({"tournament": "spring", "table": "r1.s1.t09"}, "unknown_table"),
            ({"tournament": "nope", "table": "r1.s1.t01"}, "unknown_table"),
            ({"tournament": "past", "table": "r1.s1.t01"}, "day_over"),
            ({"tournament": "spring", "table": "../etc"}, "bad_message"),
        ]
        for number, (fields, code) in enumerate(asks, start=2):
            say(session, "table_links", id=number, **fields)
            [reply] = wire.messages()
            assert (reply["type"], reply["code"]) == ("error", code), reply
            assert reply["message"]
        spectator, spectator_wire = make_session(self.hub, self.clock)
        say(spectator, "hello", id=1, token=token("spectator"))
        say(spectator, "table_links", id=2, tournament="spring", table="r1.s1.t01")
        assert spectator_wire.messages()[-1]["code"] == "forbidden"
        bare, bare_wire = make_session(self.hub, self.clock)  # a server without public URL
        say(bare, "hello", id=1, token=token("director"))
        say(bare, "table_links", id=2, tournament="spring", table="r1.s1.t01")
        assert bare_wire.messages()[-1]["code"] == "unavailable"


def get_bundle(resource: BundleResource, auth: str | None, query: str | None = "spring"):
    request = DummyRequest([b""])
    request.method = b"GET"
    if auth is not None:
        request.requestHeaders.addRawHeader(b"authorization", auth.encode())
    if query is not None:
        request.args = {b"tournament": [query.encode()]}
    result = resource.render(request)
    if isinstance(result, bytes):
        request.write(result)
        request.finish()
    return request


class BundleHTTPTests(DirectorServerCase):
    def scratch(self) -> Path:
        """A folder removed after the test (trial's mktemp would leave it under the checkout)."""
        folder = tempfile.mkdtemp(prefix="t24-bundle-")
        self.addCleanup(shutil.rmtree, folder, True)
        return Path(folder)

    def resource(self) -> BundleResource:
        key = self.scratch() / "signing.key"
        return BundleResource(self.hub.store, TokenSigner(SECRET), str(key), self.clock)

    def test_a_director_downloads_the_bundle_as_a_zip_that_verifies_with_the_key_shown(self):
        self.tournament(seat=False)
        request = get_bundle(self.resource(), f"Bearer {token('director')}")
        assert request.finished and (request.responseCode or 200) == 200
        headers = request.responseHeaders
        assert headers.getRawHeaders(b"content-type") == [b"application/zip"]
        assert b"spring-bundle.zip" in headers.getRawHeaders(b"content-disposition")[0]
        key = headers.getRawHeaders(KEY_HEADER)[0].decode()
        out = self.scratch()
        with zipfile.ZipFile(io.BytesIO(b"".join(request.written))) as archive:
            assert {name.split("/")[0] for name in archive.namelist()} == {"spring-bundle"}
            archive.extractall(out)
        manifest = verify_bundle(out / "spring-bundle", key)  # `t24 audit verify --key KEY`
        assert manifest["tournament"] == "spring" and manifest["public_key"] == key

    def test_the_bundle_is_refused_in_words_without_a_director_s_token_or_a_tournament(self):
        self.tournament(seat=False)
        resource = self.resource()
        cases = [
            (None, "spring", 401),
            ("Basic abc", "spring", 401),
            ("Bearer t24v1.forged.sig", "spring", 401),
            (f"Bearer {token('player', table='t', seat='s1')}", "spring", 403),
            (f"Bearer {token('director')}", None, 400),
            (f"Bearer {token('director')}", "no/such id", 400),
            (f"Bearer {token('director')}", "nope", 404),
        ]
        for auth, query, code in cases:
            request = get_bundle(resource, auth, query)
            assert (request.responseCode, request.finished) == (code, 1), (auth, query)
            text = b"".join(request.written).decode()
            assert text.strip() and "Traceback" not in text
        post = DummyRequest([b""])
        post.method = b"POST"
        assert resource.render(post) and post.responseCode == 405
        auditor = get_bundle(resource, f"Bearer {token('auditor')}")
        assert (auditor.responseCode or 200) == 200  # officials may fetch it too
