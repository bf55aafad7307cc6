"""Issue 27: the rule texts the docs cite are in the repository (docs/rules/), so a clone reads
every rule id it finds in the docs and the code; no doc points outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE_TEXTS = sorted((ROOT / "docs" / "rules").glob("*.md"))
RULE_ID = re.compile(r"\bR-(?:[A-Z]+|21)(?:40)?-\d+\b")
DEFINED = re.compile(r"^\| (R-[A-Z0-9]+-\d+) \|", re.M)


def defined_ids() -> list[str]:
    return [rule for page in RULE_TEXTS for rule in DEFINED.findall(page.read_text())]


def cited_in(paths: list[Path]) -> dict[str, set[str]]:
    return {str(path.relative_to(ROOT)): set(RULE_ID.findall(path.read_text())) for path in paths}


def test_the_rule_texts_define_each_id_once():
    ids = defined_ids()
    assert [page.name for page in RULE_TEXTS] == ["24-challenge.md", "casual-24.md", "tjugoett.md"]
    assert len(ids) == len(set(ids))
    for prefix, last in (("R-PLAY", 7), ("R-ROUND", 8), ("R-POCKET", 5), ("R-DECK40", 7)):
        assert {f"{prefix}-{n}" for n in range(1, last + 1)} <= set(ids), prefix
    assert {f"R-21-{n}" for n in range(1, 23)} <= set(ids)


def test_every_rule_id_the_docs_and_the_code_cite_is_in_the_rule_texts():
    docs = [*ROOT.glob("docs/*.md"), *ROOT.glob("docs/games/*.md"), ROOT / "README.md"]
    code = [*ROOT.glob("server/**/*.py"), *ROOT.glob("clients/reference_cli/**/*.py")]
    known = set(defined_ids())
    unknown = {
        where: sorted(ids - known) for where, ids in cited_in(docs + code).items() if ids - known
    }
    assert not unknown, unknown


def test_no_doc_points_at_rule_texts_outside_the_repository():
    for path in [*ROOT.glob("docs/**/*.md"), ROOT / "README.md"]:
        text = path.read_text()
        assert "shared/rules" not in text and "shared/seeds" not in text, path
