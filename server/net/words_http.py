"""`GET /words/<lang>.json`: one language's words for the web pages (issue 30).

What it keeps: `WordsResource`, which answers the catalogue of `protocol.words` as JSON
(`{"lang", "languages", "words"}`, docs/protocol.md, "Words"): every key of every vocabulary
as `"<vocabulary>/<key>"`, a plural entry as a map from CLDR plural category to its text
(the page picks with `Intl.PluralRules(lang)`). A language with no catalogue is a 404 whose
body says so in words, with the languages there are.

Why the server serves them: the pages hard-code no words; the same catalogue words the
terminal and the officials' report. The answer is the same until the server is upgraded, so
it is cacheable (an `ETag` of its bytes; a browser revalidates after `MAX_AGE` seconds).
"""

from __future__ import annotations

import hashlib
import json

from twisted.web import http, server
from twisted.web.resource import Resource

from protocol.words import catalogue, language_names, languages

MAX_AGE = 600


class WordsResource(Resource):
    """`/words/<lang>.json`: the catalogue of `lang` (English behind what it lacks)."""

    isLeaf = True

    def render_GET(self, request: server.Request) -> bytes:
        path = request.postpath or []
        name = (path[0] if path else b"").decode("utf-8", "replace")
        lang = name[: -len(".json")] if name.endswith(".json") else ""
        if len(path) != 1 or lang not in languages():
            request.setResponseCode(http.NOT_FOUND)
            request.setHeader(b"content-type", b"text/plain; charset=utf-8")
            present = ", ".join(f"{code} ({n})" for code, n in language_names().items())
            return f"no words in that language here; there are: {present}\n".encode()
        body = json.dumps(catalogue(lang).as_json(), ensure_ascii=False, sort_keys=True).encode()
        etag = hashlib.sha256(body).hexdigest()[:32].encode("ascii")
        request.setHeader(b"content-type", b"application/json; charset=utf-8")
        request.setHeader(b"cache-control", f"public, max-age={MAX_AGE}".encode("ascii"))
        if request.setETag(etag) == http.CACHED:
            return b""
        return body
