"""`GET /words/<lang>.json` over a real server (server/net/words_http.py, docs/protocol.md,
"Words"): the catalogue the web pages load, cacheable; an unknown language a 404 in words."""

from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from server_process import ServerProcess

from protocol import words

pytestmark = pytest.mark.e2e


def test_words_json_in_each_language(server):
    for lang in ("en", "nb", "sv"):
        status, body, headers = server.get(f"/words/{lang}.json")
        assert status == 200, body
        assert headers["Content-Type"].startswith("application/json")
        assert "max-age" in headers["Cache-Control"]
        data = json.loads(body)
        assert data["lang"] == lang
        assert data["languages"] == {"en": "English", "nb": "Norsk bokmål", "sv": "Svenska"}
        assert set(data["words"]) >= set(json.loads(server.get("/words/en.json")[1])["words"])
        created = data["words"]["deck40/event.TableCreated"]
        assert set(created) == {"one", "other"} and all("{n}" in t for t in created.values())


def test_words_json_revalidates_with_its_etag(server):
    _, _, headers = server.get("/words/nb.json")
    request = urllib.request.Request(
        server.http + "/words/nb.json", headers={"If-None-Match": headers["ETag"]}
    )
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request, timeout=5)
    assert answer.value.code == 304


def test_unknown_language_is_a_404_in_words(server):
    for path in ("/words/xx.json", "/words/nb", "/words/", "/words/en.json/more"):
        status, body, _ = server.get(path)
        assert status == 404, path
        text = body.decode()
        assert "no words in that language" in text and "nb (Norsk bokmål)" in text


def test_a_toy_language_is_served_once_its_file_is_there(tmp_path):
    folder = tmp_path / "words"
    shutil.copytree(words.words_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    toy = (folder / "en.po").read_text(encoding="utf-8")
    toy = toy.replace('"Language: en\\n"', '"Language: xx\\n"').replace(
        'msgstr "English"', 'msgstr "Toy"', 1
    )
    (folder / "xx.po").write_text(toy, encoding="utf-8")
    process = ServerProcess(tmp_path / "server", env={"T24_WORDS_DIR": str(folder)}).start()
    try:
        status, body, _ = process.get("/words/xx.json")
        assert status == 200, body
        data = json.loads(body)
        assert data["languages"]["xx"] == "Toy"
        assert data["words"]["deck40/refusal.stale_set"]
    finally:
        process.terminate()
