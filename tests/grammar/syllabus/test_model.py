"""The typed model: normalised task references, merged parameters, immutability, spans."""

from __future__ import annotations

import dataclasses

import pytest

import sylla
from sylla.grammar.core import LineIndex
from sylla.grammar.syllabus.model import Block, Info, NonJsonKind, PhaseMark

from .helpers import parse_fixture


def test_full_file_fields_and_task_references() -> None:
    model = parse_fixture("full-enable-updates.json").model
    assert model is not None
    assert (model.name, model.author, model.contains) == ("minigrid-cl-enable-updates", "sylla tests", "episodes")
    assert dict(model.default_params) == {"agent_pos": [1, 1], "max_steps": 100}
    first = model.blocks[0]
    assert (first.task, first.module, first.task_ref) == ("Minigrid5x5", "minigridkit", "$minigridkit:Minigrid5x5")
    assert dict(first.params) == {"agent_pos": [1, 1], "max_steps": 100, "lava": 0.1}
    assert dict(first.own_params) == {"lava": 0.1}
    assert dict(model.blocks[2].params)["max_steps"] == 200  # the block's own value wins
    assert [p.enable_updates for p in model.phases] == [True, False, True, False]
    last = model.blocks[-1]
    assert (last.repeated, last.count, last.directive) == (False, 1, "$episode")


def test_module_reference_with_dots() -> None:
    model = sylla.parse('[{"$episode": "$l2arcadekit.l2agames:Pong"}]').model
    assert model is not None
    assert (model.blocks[0].task, model.blocks[0].module) == ("Pong", "l2arcadekit.l2agames")


def test_datasets_bare_and_repeated() -> None:
    model = parse_fixture("datasets.json").model
    assert model is not None
    blocks = model.blocks
    assert [(b.task, b.leaf, b.count, b.num_batches, b.repeated) for b in blocks] == [
        ("MNIST01", "dataset", 50, 10, True),
        ("MNIST23", "dataset", 1, 100, False),
        ("MNIST01", "dataset", 1, None, False),
    ]


def test_model_is_immutable() -> None:
    model = parse_fixture("full-enable-updates.json").model
    assert model is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        model.blocks[0].params["lava"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        model.default_params["x"] = 1  # type: ignore[index]


def test_spans_of_nodes_inside_whole_lexed_instructions() -> None:
    text = '{"instructions": [\n  {"$phase": "2.test", "enable_updates": false},\n  {"$repeat": {"$episode": "Pong", "w": 0.2}, "count": 9}\n]}'
    model = sylla.parse(text).model
    assert model is not None
    phase, block = model.instructions
    assert isinstance(phase, PhaseMark) and isinstance(block, Block)
    assert text[phase.label_span.start : phase.label_span.end] == '"2.test"'
    assert text[phase.enable_updates_span.start : phase.enable_updates_span.end] == "false"  # type: ignore[union-attr]
    assert text[block.task_span.start : block.task_span.end] == '"Pong"'
    assert text[block.count_span.start : block.count_span.end] == "9"  # type: ignore[union-attr]
    assert text[block.param_span("w").start : block.param_span("w").end] == "0.2"  # type: ignore[union-attr]
    assert text[block.span.start : block.span.end].startswith('{"$repeat"')


def test_non_json_constructs_with_spans() -> None:
    model = parse_fixture("comments.jsonc").model
    assert model is not None
    got = [(n.kind, model.line_col(n.span.start)) for n in model.non_json]
    assert got == [
        (NonJsonKind.LINE_COMMENT, (2, 3)),
        (NonJsonKind.BLOCK_COMMENT, (3, 28)),
        (NonJsonKind.LINE_COMMENT, (6, 30)),
        (NonJsonKind.TRAILING_COMMA, (7, 51)),  # after 0.5 (the emoji is one column)
        (NonJsonKind.TRAILING_COMMA, (7, 65)),  # after "count": 3
        (NonJsonKind.TRAILING_COMMA, (7, 67)),  # after the last instruction
        (NonJsonKind.MARGIN_NOTE, (7, 70)),
        (NonJsonKind.TRAILING_COMMA, (8, 4)),  # after the instruction list
    ]
    assert model.blocks[0].task == "Pöng🎮"
    assert dict(model.blocks[0].params) == {"größe": 0.5}


def test_info_and_unknown_instructions() -> None:
    model = sylla.parse('[{"$info": {"disable_updates": true}}, {"$info": {}}, {"$bogus": 1}, 5]').model
    assert model is not None
    a, b, c, d = model.instructions
    assert isinstance(a, Info) and a.disable_updates is True and not a.resets
    assert isinstance(b, Info) and b.resets
    assert c.directive == "$bogus"
    assert d.value == 5


def test_duplicate_keys_keep_the_last_value_and_are_reported() -> None:
    for text in ('{"instructions": [], "name": "a", "name": "b"}', '[{"$episode": "A", "$episode": "B"}]'):
        result = sylla.parse(text)
        assert [d.kind for d in result.diagnostics] == ["duplicate-key"]
        assert result.diagnostics[0].related


def test_line_index_round_trip() -> None:
    text = "ab\r\ncd\ref\ngh"
    index = LineIndex(text)
    assert [index.line_col(i) for i in (0, 4, 7, 10)] == [(1, 1), (2, 1), (3, 1), (4, 1)]
    for offset in range(len(text)):
        assert index.offset(*index.line_col(offset)) == offset or text[offset] in "\r\n"
    assert index.line_text(2) == "cd"


def test_num_batches_sizes_a_dataset_block_and_is_not_a_parameter() -> None:
    model = sylla.parse('[{"$dataset": "MNIST", "num_batches": 5, "lr": 0.1}]').model
    assert model is not None
    block = model.blocks[0]
    assert (block.num_batches, dict(block.params)) == (5, {"lr": 0.1})


def test_generated_syllabi_have_the_asked_size_and_parse_clean() -> None:
    from sylla.grammar.syllabus.synth import TASKS, phase_pairs

    text = phase_pairs(instructions=25, tasks=TASKS)
    result = sylla.parse(text)
    assert result.diagnostics == [] and result.model is not None
    assert len(result.model.instructions) == 25
    # a round is 11 instructions (phase, 6 blocks, phase, $info, block, $info): 25 reach 3.train
    assert [p.label for p in result.model.phases] == ["1.train", "1.test", "2.train", "2.test", "3.train"]
    big = phase_pairs(min_bytes=20_000)
    assert 20_000 <= len(big.encode()) < 21_000
    assert '    {"$repeat": {"$episode": "Pong"}, "count": 10},' in big.splitlines()
