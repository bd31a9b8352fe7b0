"""One definition per language (issue 28): every language the rules name has a row in
``linter/languages.py`` (detection, descriptor) and an ``Editor`` in ``lsp/languages.py``; the
one engine lints each of them and says which it was; the server dispatches through the
``Editor`` and never names a language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sylla.grammar.birds.parse import BirdsParse
from sylla.grammar.syllabus.parse import ParseResult
from sylla.grammar.trials.parse import TrialParse
from sylla.linter.languages import LANGUAGES, content_language, encode_fixed, language_of, lint_text, spec_for
from sylla.linter.registry import language_rules
from sylla.linter.rules import LANGUAGES as RULE_LANGUAGES
from sylla.lsp.languages import EDITORS

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
FILES = {
    "syllabus": (ROOT / "examples" / "ant-b-mistakes.jsonc", ParseResult),
    "birds": (FIX / "birds" / "worked-example.xml", BirdsParse),
    "trials": (FIX / "trials" / "json-bad" / "c048_1.json", TrialParse),
}


def test_every_language_has_a_row_a_descriptor_rules_and_an_editor() -> None:
    """Every language has a row, a descriptor and rules; every language found by content (an
    editor's documents are) has an ``Editor``; a delivery is a folder the command line names."""
    by_content = {row.name for row in LANGUAGES if row.detect is not None}
    assert {row.name for row in LANGUAGES} == set(RULE_LANGUAGES) == by_content | {"delivery"}
    assert by_content == set(EDITORS) == set(FILES)
    for language in RULE_LANGUAGES:
        assert spec_for(language).name == language
        assert language_rules(language), f"{language} has no rules"
    for language in by_content:
        assert EDITORS[language].name == language


def test_a_delivery_file_is_linted_by_the_one_engine_with_its_folder() -> None:
    """A file of a delivery folder is a document of the delivery language: its descriptor's
    parse reads the folder whole, and the engine runs the W910-W923 rules on it."""
    path = str(FIX / "trials" / "deviant" / "bests.csv")
    spec = spec_for("delivery")
    parsed = spec.parse(b"", path)
    result = lint_text(b"", path, parsed=parsed, language="delivery")
    assert result.language == "delivery" and result.text == Path(path).read_text(encoding="utf-8")
    assert result.findings and {f.code for f in result.findings} <= {r.code for r in language_rules("delivery")}
    assert language_of(path, Path(path).read_bytes()) is None  # never by content


@pytest.mark.parametrize("language", sorted(FILES))
def test_the_one_engine_lints_each_language_and_says_which(language: str) -> None:
    path, parse_type = FILES[language]
    data = path.read_bytes()
    assert language_of(str(path), data) == language == content_language(data)
    result = lint_text(data, str(path))
    assert result.language == language
    assert isinstance(result.parse, parse_type)
    assert result.findings, f"{path.name} is chosen for its findings"
    assert {f.code for f in result.findings} <= {r.code for r in language_rules(language)}
    # the parse a caller already has is linted as its language, with the same findings
    given = lint_text(data, str(path), parsed=spec_for(language).parse(data, str(path)), language=language)
    assert given.findings == result.findings


def test_a_text_of_no_language_is_linted_as_a_syllabus_core() -> None:
    result = lint_text(b"[1, 2", "x.json")
    assert result.language == "syllabus"
    assert [f.code for f in result.findings][:1] == ["S101"]


def test_each_language_writes_a_fix_back_in_its_own_bytes() -> None:
    xml = '<?xml version="1.0" encoding="utf-16"?>\n<evaluation/>\n'.encode("utf-16")
    assert encode_fixed(xml, '<?xml version="1.0" encoding="utf-16"?>\n<evaluation />\n').decode("utf-16").endswith("<evaluation />\n")
    assert encode_fixed(b"\xef\xbb\xbf{}", "{ }") == b"\xef\xbb\xbf{ }"
    assert encode_fixed(b"{}", "{ }", "trials") == b"{ }"


def _string_constants(path: Path) -> set[str]:
    return {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_the_server_dispatches_through_the_editor_table_not_by_language_name() -> None:
    named = _string_constants(ROOT / "lsp" / "server.py") & set(RULE_LANGUAGES)
    assert not named, f"lsp/server.py branches on {named}: add the feature to lsp/languages.py's Editor instead"


def test_the_engine_names_no_language_but_the_syllabus_entry_point() -> None:
    named = _string_constants(ROOT / "linter" / "engine.py") & set(RULE_LANGUAGES)
    assert named <= {"syllabus"}, named  # LintResult's default language, for ``lint`` (the syllabus API)
