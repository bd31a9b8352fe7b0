"""Schema errors: worded for a person and placed on the offending node."""

from __future__ import annotations

import json

import jsonschema

import sylla
from sylla.grammar.syllabus.schema import SCHEMA_PATH

from .helpers import parse_fixture, where


def test_schema_errors_fixture() -> None:
    assert where(parse_fixture("schema-errors.json")) == [
        (3, 15, 'contains must be "episodes" or "datasets", got "episode"'),
        (6, 48, "count must be a positive integer, got -5"),
        (7, 5, '$repeat needs a "count" beside it'),
        (8, 16, 'phase label must be "<n>.train" or "<n>.test", got "1-train"'),
        (9, 5, "an instruction needs one of the directives $phase, $repeat, $episode, $dataset, $info (found $foo)"),
        (10, 35, "width must be a number, string, boolean or a list of them, got null"),
    ]


def test_unexpected_key_points_at_the_key() -> None:
    result = sylla.parse('{"instructions": [{"$phase": "1.train", "enabled": true}]}')
    assert where(result) == [(1, 41, 'unexpected key "enabled" in a $phase instruction')]
    assert result.diagnostics[0].path == ("instructions", 0, "enabled")
    assert result.diagnostics[0].keyword == "additionalProperties"


def test_schema_is_valid_and_self_contained() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    refs = [m for m in SCHEMA_PATH.read_text().split('"$ref": ')[1:]]
    assert refs and all(r.startswith('"#/') for r in refs)


def test_same_instruction_text_gives_same_errors_everywhere() -> None:
    bad = '{"$repeat": {"$episode": "Pong"}, "count": 0}'
    result = sylla.parse('{"instructions": [' + ", ".join([bad] * 3) + "]}")
    assert [d.path for d in result.diagnostics] == [("instructions", i, "count") for i in range(3)]
    assert len({d.span for d in result.diagnostics}) == 3


def test_reference_shapes_are_valid() -> None:
    for text in [
        '{"instructions": [{"$phase": "1.train", "enable_updates": true}]}',
        '{"instructions": [{"$repeat": {"$episode": "$l2arcadekit.l2agames:Pong", "bot/paddle/width": 0.15}, "count": 5}]}',
        '{"instructions": [{"$episode": "$minigridkit:Minigrid5x5", "agent_pos": [1, 1], "color": [[1, 2, 3]]}]}',
        '{"contains": "datasets", "instructions": [{"$dataset": "MNIST", "num_batches": 3}, {"$repeat": {"$dataset": "MNIST"}, "count": 2}]}',
        '{"instructions": [{"$info": {"disable_updates": true}}, {"$info": {}}]}',
    ]:
        assert sylla.parse(text).diagnostics == [], text


def test_bad_parameter_names_point_at_the_name() -> None:
    text = '[{"$episode": "Pong", "$foo": 1, "bad key": 2}]'
    result = sylla.parse(text)
    got = [(text[d.span.start : d.span.end], d.keyword, d.message) for d in result.diagnostics]
    assert got == [
        ('"$foo"', "propertyNames", 'unexpected directive "$foo": a leaf has one $episode or $dataset, and parameters without "$"'),
        ('"bad key"', "propertyNames", '"bad key" is not a valid parameter name (use names or slash paths such as bot/paddle/width)'),
    ]
