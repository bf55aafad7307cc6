"""The web client's links (issue 13): `make run` prints one per person, the token in the
fragment, which a browser never sends to the server (so no access log holds it)."""

from __future__ import annotations

from protocol.token_files import person_files
from server.demo import casual_demo_lines, demo_banner
from server.net.static import page_url, web_root

FILES = person_files(
    "ws://127.0.0.1:8024/ws",
    "demo",
    proctor="P",
    spectator="S",
    seats=[
        {"seat": "s1", "name": "Ada", "token": "T1"},
        {"seat": "s2", "name": "Bo", "token": "T2"},
    ],
    director="D",
)


def test_a_page_url_is_the_servers_root_with_the_token_in_the_fragment():
    assert page_url("ws://127.0.0.1:8024/ws", "tok") == "http://127.0.0.1:8024/#token=tok"
    assert page_url("wss://play.example.org/ws", "tok") == "https://play.example.org/#token=tok"
    assert page_url("ws://[::1]:9/ws", "t") == "http://[::1]:9/#token=t"


def test_the_demo_banner_prints_one_browser_link_per_person():
    lines = demo_banner(FILES, "var/demo-tokens").splitlines()
    links = [line for line in lines if line.startswith("- ")]
    assert links == [
        "- proctor console: http://127.0.0.1:8024/#token=P",
        "- player s1 (Ada): http://127.0.0.1:8024/#token=T1",
        "- player s2 (Bo): http://127.0.0.1:8024/#token=T2",
        "- spectator scoreboard: http://127.0.0.1:8024/#token=S",
        "- director's console (yours only: tournaments, every table): http://127.0.0.1:8024/#token=D",
    ]
    # no token on a command line: the terminal commands still read the files
    assert not any("#token=" in line for line in lines if line.startswith("  "))


def test_the_links_are_left_out_when_the_banner_may_go_to_a_log():
    banner = demo_banner(FILES, "var/demo-tokens", links=False)
    assert (
        "#token=P" not in banner
        and "#token=T1" not in banner
        and "printed to a terminal only" in banner
    )
    assert not {"D", "P", "S", "T1", "T2"} & set(banner.replace("=", " ").split())


def test_without_the_web_folder_the_root_serves_nothing(tmp_path):
    root = web_root(tmp_path / "missing")
    assert not hasattr(root, "path")  # a plain Resource: every file path is 404
    assert getattr(web_root(tmp_path), "indexNames", None) == ["index.html"]


def test_the_demo_prints_a_browser_link_per_player_of_its_pocket_table():
    lines = casual_demo_lines("ws://127.0.0.1:8024/ws", "demo-pocket", [("s1", "A"), ("s2", "B")])
    assert lines == [
        "a casual game in a browser, pocket table 'demo-pocket' (any player starts it):",
        "- pocket player s1: http://127.0.0.1:8024/#token=A",
        "- pocket player s2: http://127.0.0.1:8024/#token=B",
        "",
    ]
