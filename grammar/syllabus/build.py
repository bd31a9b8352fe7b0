"""Build the typed model from parsed values and positions.

Builds leniently: an instruction the schema rejects still becomes the closest model node it
can (a ``$phase`` with an odd label keeps its label, a ``$repeat`` with a bad count counts 0),
so the linter and the language server can say more than "invalid".
"""

from __future__ import annotations

import operator
import re
from types import MappingProxyType

from sylla.grammar.core import LineIndex, Span
from sylla.grammar.syllabus.lalr import Item, Tok, to_int
from sylla.grammar.syllabus.model import EMPTY, Block, Info, Instruction, NonJson, PhaseMark, Syllabus, TopLevelKey, Unknown
from sylla.grammar.syllabus.source_map import SourceMap
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import field_names

if TYPE_CHECKING:
    from typing import Any, Mapping, Sequence

PHASE_LABEL = re.compile(r"(0|[1-9][0-9]*)\.(train|test)")
SYLLABUS_TYPES = ("CL", "ANT-A", "ANT-B", "ANT-C", "STE")


def split_task_ref(ref: str) -> tuple[str, str | None]:
    """``"$l2arcadekit.l2agames:Pong"`` -> ``("Pong", "l2arcadekit.l2agames")``; a name stays."""
    if ref.startswith("$") and ":" in ref:
        module, _, task = ref[1:].partition(":")
        return task, module
    return ref, None


def build(
    text: str,
    path: str | None,
    form: str,
    value: Any,
    source: SourceMap,
    non_json: list[NonJson],
    lines: LineIndex,
    instructions: "Sequence[Instruction] | None" = None,
) -> Syllabus:
    """The model of one parsed document; ``instructions`` when the caller has them already
    (an incremental parse whose edit left the instruction list and the defaults alone)."""
    top = value if isinstance(value, dict) else {}
    if form == "array":
        base: tuple[str | int, ...] = ()
        raw_instructions = value if isinstance(value, list) else []
    else:
        base = ("instructions",)
        raw = top.get("instructions")
        raw_instructions = raw if isinstance(raw, list) else []
    defaults = top.get("default_params")
    defaults = defaults if isinstance(defaults, dict) else {}
    if instructions is None:
        instructions = _instructions(text, raw_instructions, source.children(base) if raw_instructions else None, base, defaults, source)
    top_keys: list[TopLevelKey] = []
    if form in ("object", "fragment") and isinstance(value, dict):
        for name in value:
            top_keys.append(
                TopLevelKey(name, source.key_span((name,)) or Span(0, 0), source.span((name,)) or Span(0, 0))
            )
    declared = top.get("syllabus_type")
    return Syllabus(
        text=text,
        path=path,
        form=form,  # type: ignore[arg-type]  # "object" or "array", decided above; the model declares the Literal
        value=value,
        instructions=instructions,
        name=_str(top.get("name")),
        author=_str(top.get("author")),
        contains=_str(top.get("contains")),
        default_params=MappingProxyType(dict(defaults)) if defaults else EMPTY,
        comments=top.get("comments"),
        declared_type=declared if isinstance(declared, str) else None,
        top_level_keys=tuple(top_keys),
        non_json=tuple(sorted(non_json, key=lambda n: n.span.start)),
        source_map=source,
        lines=lines,
        instructions_span=source.span(base) if form != "array" else source.span(()),
    )


def _instructions(
    text: str, values: list[Any], items: Any, base: tuple[str | int, ...], defaults: Mapping[str, Any], source: SourceMap
) -> tuple[Instruction, ...]:
    """The model of each instruction. Real syllabi repeat the same few instructions thousands
    of times, so an instruction whose text was seen before in this document (lexed whole: the
    same text is the same value) is a copy of the first one's model with its own place: the
    parts built from its value (merged parameters, task reference) are shared, and immutable."""
    items = items if isinstance(items, list) else []
    seen: dict[str, tuple[type[Block] | type[PhaseMark], list[Any]]] = {}
    out: list[Instruction] = []
    append = out.append
    for i, value in enumerate(values):
        item = items[i] if i < len(items) else None
        if item is None or item.__class__ is not Tok:
            append(build_instruction(i, value, item, base + (i,), defaults, source))
            continue
        key = text[item.start : item.end]
        found = seen.get(key)
        if found is None:
            instruction = build_instruction(i, value, item, base + (i,), defaults, source)
            append(instruction)
            if isinstance(instruction, (Block, PhaseMark)) and instruction.__class__ in _FIELDS:
                made = instruction.__class__
                seen[key] = (made, list(_FIELDS[made](instruction)))
            continue
        kind, fields = found
        fields[0] = i
        fields[_SPAN_AT[kind]] = Span(item.start, item.end)
        fields[_PATH_AT[kind]] = base + (i,)
        append(kind(*fields))
    return tuple(out)


def _field_names(cls: type) -> list[str]:
    return list(field_names(cls))


_FIELDS = {cls: operator.attrgetter(*_field_names(cls)) for cls in (Block, PhaseMark)}
_SPAN_AT = {cls: _field_names(cls).index("span") for cls in (Block, PhaseMark)}
_PATH_AT = {cls: _field_names(cls).index("path") for cls in (Block, PhaseMark)}
assert all(_field_names(cls)[0] == "index" for cls in (Block, PhaseMark))


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def build_instruction(
    index: int,
    value: Any,
    item: Item | None,
    path: tuple[str | int, ...],
    defaults: Mapping[str, Any],
    source: SourceMap,
) -> Instruction:
    span = Span(item.start, item.end) if item is not None else Span(0, 0)
    if not isinstance(value, dict):
        return Unknown(index, value, span, (), path)
    if "$phase" in value:
        label = value["$phase"]
        label = label if isinstance(label, str) else str(label)
        m = PHASE_LABEL.fullmatch(label)
        number = to_int(m.group(1)) if m else None
        enable = value.get("enable_updates")
        return PhaseMark(
            index=index,
            label=label,
            number=number,
            # a number too long to read is a label that does not follow the convention (P301)
            kind=m.group(2) if m and number is not None else None,  # type: ignore[arg-type]  # the label pattern admits only "train" or "test" here
            enable_updates=enable if isinstance(enable, bool) else None,
            span=span,
            path=path,
            source=source,
        )
    if "$repeat" in value and isinstance(value["$repeat"], dict):
        leaf = value["$repeat"]
        count = value.get("count")
        count = count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
        block = _block(index, leaf, count, True, span, path, defaults, source)
        if block is not None:
            return block
    elif "$episode" in value or "$dataset" in value:
        block = _block(index, value, 1, False, span, path, defaults, source)
        if block is not None:
            return block
    if "$info" in value:
        data = value["$info"]
        return Info(index, MappingProxyType(dict(data)) if isinstance(data, dict) else EMPTY, span, path)
    return Unknown(index, value, span, tuple(k for k in value if k.startswith("$")), path)


def _block(
    index: int,
    leaf: dict[str, Any],
    count: int,
    repeated: bool,
    span: Span,
    path: tuple[str | int, ...],
    defaults: Mapping[str, Any],
    source: SourceMap,
) -> Block | None:
    kind = "episode" if "$episode" in leaf else "dataset" if "$dataset" in leaf else None
    if kind is None:
        return None
    ref = leaf[f"${kind}"]
    ref = ref if isinstance(ref, str) else str(ref)
    task, module = split_task_ref(ref)
    # num_batches sizes a $dataset block, like count; it is not a task parameter
    own = {k: v for k, v in leaf.items() if not k.startswith("$") and not (kind == "dataset" and k == "num_batches")}
    merged = {**defaults, **own} if defaults else own
    batches = leaf.get("num_batches") if kind == "dataset" else None
    return Block(
        index=index,
        task=task,
        module=module,
        task_ref=ref,
        params=MappingProxyType(merged),
        own_params=MappingProxyType(own),
        count=count,
        leaf=kind,  # type: ignore[arg-type]  # one of the leaf directives, found in the value above
        repeated=repeated,
        span=span,
        num_batches=batches if isinstance(batches, int) and not isinstance(batches, bool) else None,
        path=path,
        source=source,
    )
