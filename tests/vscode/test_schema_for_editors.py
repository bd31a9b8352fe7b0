"""grammar/syllabus/syllabus.schema.json as editors apply it to a whole file (VS Code's JSON validation
uses the root schema, the linter validates per form): the bare instruction list that the linter
accepts is valid, and a misspelt directive fails only on its key, where the schema carries the
"did you mean" that VS Code shows (tests/vscode/test_code_server.py sees it in the Problems panel)."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from sylla.grammar.syllabus.schema import SCHEMA_PATH

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)


def _errors(document: object) -> list[tuple[list, str]]:
    return sorted((list(e.absolute_path), e.validator) for e in VALIDATOR.iter_errors(document))


def test_a_bare_instruction_list_and_the_object_form_are_both_valid() -> None:
    instructions = [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5}, {"$info": {}}]
    assert _errors(instructions) == []
    assert _errors({"instructions": instructions}) == []


def test_the_object_form_still_needs_instructions_and_the_list_still_checks_items() -> None:
    assert _errors({"name": "x"}) == [([], "required")]
    assert _errors([{"$phase": "1-train"}]) == [([0, "$phase"], "pattern")]
    assert _errors("a string") == [([], "type")]


def test_a_misspelt_directive_fails_on_its_key_with_the_did_you_mean_message() -> None:
    # jsonschema reports the failing `const` inside propertyNames, with the key as its instance.
    errors = list(VALIDATOR.iter_errors([{"$repaet": {"$episode": "Pong"}, "count": 5}]))
    assert [(e.instance, e.validator, e.schema.get("errorMessage")) for e in errors] == [
        ("$repaet", "const", 'Unknown directive: did you mean "$repeat"?')
    ]
    leaf = list(VALIDATOR.iter_errors([{"$repeat": {"$epsiode": "Pong"}, "count": 5}]))
    assert [(e.instance, e.schema.get("errorMessage")) for e in leaf] == [("$epsiode", 'Unknown directive: did you mean "$episode"?')]


def test_an_instruction_without_any_directive_still_fails_as_before() -> None:
    assert _errors([{"count": 5}]) == [([0], "anyOf")]
    assert _errors([{"$foo": 1}]) == [([0], "anyOf")]
