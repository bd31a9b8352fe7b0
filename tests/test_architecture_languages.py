"""ARCHITECTURE.md's map of the languages is true (issue 39): each row of its table of
languages names a reader, a descriptor, a rule list and whether the editor serves it, and
each is checked against the code, so a language added without its row (or a row left
behind by a move) fails here rather than misleading the next contributor."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from sylla.linter.languages import LANGUAGES, Language, spec_for
from sylla.linter.registry import language_rules
from sylla.linter.rules import LANGUAGES as RULE_LANGUAGES
from sylla.linter.rules import rule_classes
from sylla.lsp.languages import EDITORS

ROOT = Path(__file__).resolve().parents[1]
HEADER = "| language | reader | descriptor | rules | editor |"


def language_table(text: str) -> dict[str, dict[str, str]]:
    """The rows of the table of languages: language -> column -> cell (code spans unwrapped)."""
    lines = text.splitlines()
    start = lines.index(HEADER)
    columns = [c.strip() for c in HEADER.strip("|").split("|")]
    rows: dict[str, dict[str, str]] = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [re.sub(r"`([^`]*)`", r"\1", c.strip()) for c in line.strip().strip("|").split("|")]
        row = dict(zip(columns, cells))
        rows[row["language"]] = row
    return rows


TABLE = language_table((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))


def test_the_table_lists_every_language_once() -> None:
    assert sorted(TABLE) == sorted(row.name for row in LANGUAGES) == sorted(RULE_LANGUAGES)


@pytest.mark.parametrize("language", [row.name for row in LANGUAGES])
def test_each_row_is_where_the_code_is(language: Language) -> None:
    row = TABLE[language]
    assert (ROOT / row["reader"]).exists(), row["reader"]
    descriptor = row["descriptor"]
    spec = spec_for(language)
    assert (ROOT / descriptor).is_file() and spec.name == language
    assert type(spec).__module__ == "sylla." + descriptor.removesuffix(".py").replace("/", "."), descriptor
    rules = row["rules"]
    module = importlib.import_module("sylla." + rules.removesuffix(".py").replace("/", "."))
    assert (ROOT / rules).is_file() and tuple(module.RULES) == rule_classes(language)
    assert {r.code for r in language_rules(language)} == {cls.code for cls in module.RULES}
    assert row["editor"].startswith("yes") == (language in EDITORS), row["editor"]


def test_a_row_that_moved_is_caught() -> None:
    """The checks read what they claim to: a reader that is not there is not found."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").replace("`grammar/birds/`", "`grammar/bird/`")
    assert not (ROOT / language_table(text)["birds"]["reader"]).exists()
