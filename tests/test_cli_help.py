"""Every `t24` command's --help carries examples (issue 6: `--help` on every command)."""

import argparse

import pytest

from clients.reference_cli.cli import build_parser


def _leaf_parsers(parser: argparse.ArgumentParser, path=()):
    """Yield (command path, parser) for every command that runs something."""
    children = [
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    ]
    if not children:
        yield path, parser
        return
    for action in children:
        for name, child in action.choices.items():
            yield from _leaf_parsers(child, (*path, name))


LEAVES = list(_leaf_parsers(build_parser()))


def test_the_tree_has_every_command():
    tops = {path[0] for path, _ in LEAVES}
    assert {
        "solve",
        "check",
        "deck",
        "log",
        "play",
        "proctor",
        "watch",
        "bot",
        "admin",
        "replay",
    } <= tops


@pytest.mark.parametrize("path,parser", LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_help_has_examples(path, parser):
    text = parser.format_help()
    assert "examples:" in text, f"t24 {' '.join(path)} --help has no examples"
    assert f"t24 {path[0]}" in text.split("examples:", 1)[1]


def test_t24_version_prints_the_installed_version(capsys):
    """Issue 17: `t24 --version`, from the installed package (pyproject.toml)."""
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"t24 {version('t24')}"
