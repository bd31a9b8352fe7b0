"""``reparse(previous, text)``: the parse of a new version of a text, from the previous one.

An editor changes a large syllabus a few characters at a time, and a full parse of 500 KB
takes a tenth to a quarter of a second. Most edits stay inside one instruction (a count, a
parameter, a task name). Then only that instruction is parsed again: everything before it is
the same, and everything after it is the same text moved by the edit's length, so its tokens,
values and positions are the old ones moved. The result is exactly ``parse(text, path)``:
the same model (value, instructions, spans, non-JSON constructs, source positions) and the
same diagnostics. When that cannot be shown from the texts alone, ``reparse`` parses in full:

* the previous parse had any problem but schema ones (a syntax error's repair can depend on
  what follows it), a byte-order mark, or is not an object or bare list of instructions;
* the changed region (common prefix and suffix of the two texts) is not strictly inside one
  instruction's braces, so commas, brackets, comments between instructions, top-level keys
  and the instruction count are never touched by the fast path;
* the new text of that instruction does not parse, on its own, as one object without any
  problem (or nests deeply enough to come near ``MAX_DEPTH``).

Why the rest cannot change: the lexer reads left to right, and the tokens before the
instruction end before its ``{``, which is unchanged, so they lex the same; the instruction's
text parses alone as one object ending at its ``}``; after it the text is the same as before,
so it lexes into the same tokens; and without syntax errors the parser's actions depend only
on the tokens. Schema errors of an instruction depend only on its text (``schema.validate``
relies on that too), and the top level is unchanged.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

from .build import _instruction
from .lalr import MAX_DEPTH, Item, Node, Tok, parse_range
from .model import Block, Diagnostic, Instruction, LineIndex, NonJson, NonJsonKind, PhaseMark, Span, Syllabus, TopLevelKey
from .gc_pause import paused_gc
from .parse import ParseResult, parse
from .schema import validate_instruction
from .source_map import SourceMap

_CHUNK = 4096
_WITH_SOURCE = (Block, PhaseMark)
#: how many source maps (each holding its version's text) the instructions of one model may
#: read from before they are all moved to the newest: edits in many different instructions
#: must not keep every version's text alive
_MAX_SOURCE_MAPS = 4
#: brackets an edited instruction may hold for the fast path: far below ``MAX_DEPTH``, so the
#: depth check cannot tell an instruction parsed alone from one parsed in its document
_MAX_BRACKETS = MAX_DEPTH // 4


def common_prefix(a: str, b: str, limit: int) -> int:
    """Length of the common prefix of ``a`` and ``b`` (at most ``limit``): equal chunks are
    compared in C, only the first differing chunk character by character."""
    i = 0
    while i < limit:
        j = min(i + _CHUNK, limit)
        if a[i:j] != b[i:j]:
            while a[i] == b[i]:
                i += 1
            return i
        i = j
    return limit


def common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix of ``a`` and ``b`` (at most ``limit``)."""
    la, lb = len(a), len(b)
    n = 0
    while n < limit:
        m = min(n + _CHUNK, limit)
        if a[la - m : la - n] != b[lb - m : lb - n]:
            while a[la - n - 1] == b[lb - n - 1]:
                n += 1
            return n
        n = m
    return limit


def changed_region(old: str, new: str) -> tuple[int, int, int]:
    """``(start, old_end, new_end)``: ``old[start:old_end]`` became ``new[start:new_end]`` and
    the text around it is the same in both (several edits make one region spanning them)."""
    prefix = common_prefix(old, new, min(len(old), len(new)))
    suffix = common_suffix(old, new, min(len(old), len(new)) - prefix)
    return prefix, len(old) - suffix, len(new) - suffix


def reparse(previous: ParseResult, text: str) -> ParseResult:
    """``parse(text, previous.path)``, reusing ``previous`` (the parse of an earlier version)
    where that provably gives the same result."""
    if isinstance(text, str):
        with paused_gc():
            fast = _reparse(previous, text)
        if fast is not None:
            return fast
    return parse(text, previous.path)


def _reparse(previous: ParseResult, text: str) -> ParseResult | None:
    model = previous.model
    if model is None or model.source_map is None or text.startswith("\ufeff") or model.form not in ("object", "array"):
        return None
    if any(d.kind != "schema" for d in previous.diagnostics) or any(n.kind is NonJsonKind.BOM for n in model.non_json):
        return None
    old = previous.text
    root = model.source_map.root
    if model.form == "object":
        if root.__class__ is not Node or not isinstance(root.children, dict):
            return None
        array = root.children.get("instructions")
    else:
        array = root
    if array.__class__ is not Node or array.type != "array":
        return None
    items: list[Item] = array.children
    start, old_end, new_end = changed_region(old, text)
    if start == old_end == new_end:
        return None  # the same text: nothing to reuse that the caller does not have
    i = _enclosing(items, start, old_end)
    if i is None:
        return None
    item = items[i]
    delta = new_end - old_end
    s, e = item.start, item.end + delta
    if text.count("{", s, e) + text.count("[", s, e) > _MAX_BRACKETS:
        return None
    sub = parse_range(text, s, e)
    fresh = sub.root
    if (
        fresh is None or sub.problems or sub.stopped or sub.form != "object"
        or fresh.start != s or fresh.end != e
    ):
        return None
    return _splice(previous, text, model, root, array, i, fresh, sub.non_json, delta)


def _enclosing(items: list[Item], start: int, old_end: int) -> int | None:
    """Index of the item whose braces strictly enclose ``[start, old_end)``, if any."""
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].end <= start:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(items) and items[lo].start < start and old_end < items[lo].end:
        return lo
    return None


def _splice(
    previous: ParseResult,
    text: str,
    model: Syllabus,
    root: Node,
    array: Node,
    i: int,
    fresh: Item,
    fresh_non_json: list[NonJson],
    delta: int,
) -> ParseResult:
    old_item = array.children[i]
    after = old_item.end  # old offsets at or past this one move by ``delta``

    def move(span: Span) -> Span:
        if span.end < after:
            return span
        return Span(span.start + delta if span.start >= after else span.start, span.end + delta)

    old_items = array.children
    items = old_items[:i] + [fresh] + (
        old_items[i + 1 :] if delta == 0 else [_moved(it, delta) for it in old_items[i + 1 :]]
    )
    values = list(array.value)
    values[i] = fresh.value
    new_array = Node("array", values, array.start, array.end + delta, items)
    if model.form == "object":
        children: dict[str, Item] = {}
        keys: dict[str, Tok] = {}
        value: dict[str, Any] = {}
        for name, child in root.children.items():
            key = root.keys[name]
            if child is array:
                child = new_array
            elif child.start >= after:
                child, key = _moved(child, delta), _moved(key, delta)  # type: ignore[assignment]
            children[name] = child
            keys[name] = key
            value[name] = child.value
        new_root: Node = Node("object", value, root.start, root.end + delta, children, keys)
    else:
        new_root = new_array
    source = SourceMap(text, new_root)
    base: tuple[str | int, ...] = ("instructions",) if model.form == "object" else ()
    # Unchanged instructions keep reading positions from the source map of the version they
    # were built in; when these pile up, all move to the new one (see ``_MAX_SOURCE_MAPS``).
    rebase = len({x.source for x in model.instructions if x.__class__ in _WITH_SOURCE}) >= _MAX_SOURCE_MAPS
    instructions: list[Instruction] = []
    for j, instruction in enumerate(model.instructions):
        if j == i:
            instructions.append(_instruction(i, fresh.value, fresh, base + (i,), model.default_params, source))
        else:
            instructions.append(_rebased(instruction, move, source, rebase, j < i or delta == 0))
    non_json = [n if n.span.end <= old_item.start else NonJson(n.kind, move(n.span)) for n in model.non_json
                if not (old_item.start <= n.span.start < after)]
    non_json.extend(fresh_non_json)
    non_json.sort(key=lambda n: n.span.start)
    top_keys = tuple(
        k if k.span.start < after and k.value_span.end < after
        else TopLevelKey(k.name, move(k.span), move(k.value_span))
        for k in model.top_level_keys
    )
    lines = LineIndex(text)
    new_model = Syllabus(
        text=text,
        path=model.path,
        form=model.form,
        value=new_root.value,
        instructions=tuple(instructions),
        name=model.name,
        author=model.author,
        contains=model.contains,
        default_params=model.default_params,
        comments=model.comments,
        declared_type=model.declared_type,
        top_level_keys=top_keys,
        non_json=tuple(non_json),
        source_map=source,
        lines=lines,
        instructions_span=None if model.instructions_span is None else move(model.instructions_span),
    )
    mine = base + (i,)
    depth = len(mine)
    problems = [d if d.span.end < after else _moved_diagnostic(d, move) for d in previous.diagnostics if d.path[:depth] != mine]
    problems.extend(validate_instruction(fresh.value, mine, source, text[fresh.start : fresh.end]))
    problems.sort(key=lambda d: (d.span.start, d.span.end))
    return ParseResult(new_model, problems, text, previous.path)


def _moved(item: Item, delta: int) -> Item:
    """``item`` (and everything inside it) ``delta`` characters further on."""
    if item.__class__ is Tok:
        return Tok(item.type, item.value, item.start + delta, item.end + delta)
    children = item.children
    if isinstance(children, dict):
        moved_children: Any = {k: _moved(v, delta) for k, v in children.items()}
        keys = {k: _moved(v, delta) for k, v in item.keys.items()}
    else:
        moved_children, keys = [_moved(v, delta) for v in children], item.keys
    return Node(item.type, item.value, item.start + delta, item.end + delta, moved_children, keys)


def _moved_diagnostic(d: Diagnostic, move: Any) -> Diagnostic:
    return Diagnostic(
        d.kind, d.message, move(d.span), d.severity, d.path, d.keyword,
        tuple(type(r)(r.message, move(r.span)) for r in d.related),
    )


_FIELDS: dict[type, tuple[Any, int, int]] = {}


def _fields(cls: type) -> tuple[Any, int, int]:
    """A getter of all of a model class' fields in constructor order, and where ``span`` and
    ``source`` are in it (-1: no such field)."""
    found = _FIELDS.get(cls)
    if found is None:
        names = [f.name for f in dataclasses.fields(cls)]
        found = _FIELDS[cls] = (
            operator.attrgetter(*names), names.index("span"), names.index("source") if "source" in names else -1
        )
    return found


def _rebased(instruction: Instruction, move: Any, source: SourceMap, rebase: bool, same_span: bool) -> Instruction:
    """An unchanged instruction in the new model, with its span moved.

    One whose span did not move is kept as it is, with the source map it reads its inner
    positions from (a phase label's span, a parameter's): that map's text is an older
    version, but the same inside this instruction, and its instruction list has the same
    items before and at this one. Otherwise (or with ``rebase``) it is copied onto ``source``."""
    if same_span and not rebase:
        return instruction
    return _copy(instruction, move(instruction.span), source if instruction.__class__ in _WITH_SOURCE else None)


def _copy(instruction: Instruction, span: Span, source: SourceMap | None) -> Instruction:
    cls = instruction.__class__
    get, span_at, source_at = _fields(cls)
    values = list(get(instruction))
    values[span_at] = span
    if source_at >= 0:
        values[source_at] = source
    return cls(*values)
