"""``reparse(previous, text)``: the parse of a new version of a text, from the previous one.

An editor changes a large syllabus a few characters at a time, and a full parse of 500 KB
takes a tenth to a quarter of a second. The result is always exactly ``parse(text, path)``:
the same model (value, instructions, spans, non-JSON constructs, source positions) and the
same diagnostics. The changed region (common prefix and suffix of the two texts) decides how
much is read again:

* strictly inside one instruction that still parses alone without a problem: only that
  instruction (``_one_instruction``); everything after it is the same text moved by the
  edit's length, so its tokens, values and positions are the old ones moved;
* anywhere else inside the instruction list's brackets (whitespace or comments between
  instructions, a comma, a line break, an instruction's boundary, instructions added or
  deleted, syntax errors): the instructions the region touches and one unchanged neighbour on
  each side, parsed as the elements of a list (``_reparse_list``, reasons there);
* outside the instruction list (a top-level key or value, the space around the list): the
  top level, with the unchanged list standing in as one value (``_reparse_around``).

A syntax error is parsed again together with everything around it: the previous parse's
errors (``ParseResult.events``, silent repairs included) join the changed region, and a repair
that would reach outside the list (closing it, or trying to) means a full parse, since the
document's context could decide it. Also parsed in full: a byte-order mark, a document that is
not an object or bare list of instructions, an edit across the list's own brackets, a region
nesting deep enough to come near ``MAX_DEPTH``.

Why the rest cannot change: the lexer reads left to right, and the tokens before a reparsed
range end before its first character, which is unchanged, so they lex the same; the range
ends with an unchanged token that nothing can run on from (``lalr._OPEN_ENDED``); after it the
text is the same as before, so it lexes into the same tokens; the parser's state after a
``[`` does not depend on what is around it, and without an error reaching outside the range
its actions depend only on the tokens. Schema errors of an instruction depend only on its text
(``schema.validate`` relies on that too), those of the top level only on the top level; when a
version has syntax errors there are none, as in a full parse.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right
from typing import Any, Sequence

from sylla.grammar.core import Diagnostic, LineIndex, Severity, Span
from sylla.grammar.syllabus.build import build, build_instruction
from sylla.grammar.syllabus.lalr import MAX_DEPTH, Item, Node, Tok, parse_around, parse_list, parse_range
from sylla.grammar.syllabus.model import Instruction, NonJson, NonJsonKind, Syllabus, TopLevelKey
from sylla.grammar.syllabus.parse import ParseResult, parse, unchecked
from sylla.grammar.syllabus.schema import validate, validate_instruction, validate_top
from sylla.grammar.syllabus.shifted import Shifted
from sylla.grammar.syllabus.source_map import SourceMap
from sylla.kit.gc_pause import paused_gc
from sylla.kit.record import replace

_CHUNK = 4096
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
    where that provably gives the same result. When ``previous`` left its schema check for
    later (``ParseResult.schema_pending``), so does the result: the schema diagnostics it
    would carry over are not known (``parse.checked`` makes the check)."""
    pending = previous.schema_pending
    if isinstance(text, str):
        with paused_gc():
            fast = _reparse(previous, text, not pending)
        if fast is not None:
            return unchecked(fast) if pending else fast
    return parse(text, previous.path, schema=not pending)


def _reparse(previous: ParseResult, text: str, schema: bool = True) -> ParseResult | None:
    """``reparse``'s fast paths; ``schema`` False: no schema check (the caller drops what it would find)."""
    model = previous.model
    if model is None or model.source_map is None or text.startswith("\ufeff") or model.form not in ("object", "array"):
        return None
    if any(n.kind is NonJsonKind.BOM for n in model.non_json):
        return None
    if previous.events is None and any(d.kind != "schema" and d.severity is Severity.ERROR for d in previous.diagnostics):
        return None  # errors whose extent is not known: nothing to say what they repaired
    old = previous.text
    root = model.source_map.root
    if model.form == "object":
        if root.__class__ is not Node or not isinstance(root.children, dict):
            return None
        array = root.children.get("instructions")
    else:
        array = root
    if not isinstance(array, Node) or array.type != "array" or not isinstance(root, Node):
        return None
    items: list[Item] = array.children
    start, old_end, new_end = changed_region(old, text)
    if start == old_end == new_end:
        return None  # the same text: nothing to reuse that the caller does not have
    if previous.events is None and all(d.kind == "schema" for d in previous.diagnostics):
        fast = _one_instruction(previous, text, model, root, array, items, start, old_end, new_end, schema)
        if fast is not None:
            return fast
    if array.start < start and old_end < array.end and old[array.end - 1] == "]":
        return _reparse_list(previous, text, model, root, array, start, old_end, new_end, schema)
    if old_end <= array.start or start >= array.end:
        return _reparse_around(previous, text, model, root, array, start, old_end, new_end, schema)
    return None


def _one_instruction(
    previous: ParseResult, text: str, model: Syllabus, root: Node, array: Node,
    items: list[Item], start: int, old_end: int, new_end: int, schema: bool = True,
) -> ParseResult | None:
    """The edit strictly inside one instruction, which still parses alone without a problem:
    that instruction parsed again, every other one reused (see the module docstring)."""
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
    return _splice(previous, text, model, root, array, i, fresh, sub.non_json, delta, schema)


_start = operator.attrgetter("start")
_end = operator.attrgetter("end")


def _enclosing(items: list[Item], start: int, old_end: int) -> int | None:
    """Index of the item whose braces strictly enclose ``[start, old_end)``, if any."""
    lo = bisect_right(items, start, key=_end)  # the first item ending after start
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
    schema: bool = True,
) -> ParseResult:
    old_item = array.children[i]
    after = old_item.end  # old offsets at or past this one move by ``delta``

    def move(span: Span) -> Span:
        if span.end < after:
            return span
        return Span(span.start + delta if span.start >= after else span.start, span.end + delta)

    old_items = array.children
    items = old_items[:i] + [fresh] + (
        old_items[i + 1 :] if delta == 0 else _moved_items(old_items, i + 1, delta)
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
                child, key = _moved(child, delta), _moved(key, delta)
            children[name] = child
            keys[name] = key
            value[name] = child.value
        new_root: Node = Node("object", value, root.start, root.end + delta, children, keys)
    else:
        new_root = new_array
    source = SourceMap(text, new_root)
    base: tuple[str | int, ...] = ("instructions",) if model.form == "object" else ()
    built = build_instruction(i, fresh.value, fresh, base + (i,), model.default_params, source)
    instructions = Shifted.spliced(model.instructions, i, i + 1, (built,), delta, 0, source, base, model.source_map, _MAX_SOURCE_MAPS)
    non_json = [n if n.span.end <= old_item.start else NonJson(n.kind, move(n.span)) for n in model.non_json
                if not (old_item.start <= n.span.start < after)]
    non_json.extend(fresh_non_json)
    non_json.sort(key=lambda n: n.span.start)
    top_keys = tuple(
        k if k.span.start < after and k.value_span.end < after
        else TopLevelKey(k.name, move(k.span), move(k.value_span))
        for k in model.top_level_keys
    )
    lines = LineIndex.edited(model.lines, text, old_item.start, old_item.end, old_item.end + delta)
    new_model = Syllabus(
        text=text,
        path=model.path,
        form=model.form,
        value=new_root.value,
        instructions=instructions,
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
    if schema:
        problems.extend(validate_instruction(fresh.value, mine, source, text[fresh.start : fresh.end]))
    problems.sort(key=lambda d: (d.span.start, d.span.end))
    return ParseResult(new_model, problems, text, previous.path)


def _moved(item: Item, delta: int) -> Item:
    """``item`` (and everything inside it) ``delta`` characters further on."""
    if not isinstance(item, Node):
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


# ---- edits between instructions, across them, and outside the instruction list ----


def _is_object(item: Item) -> bool:
    return item.type == "object" if item.__class__ is Node else item.type == "SHALLOW_OBJECT"


def _syntax_clean(diagnostics: list[Diagnostic]) -> bool:
    return not any(d.kind != "schema" and d.severity is Severity.ERROR for d in diagnostics)


def _reparse_list(
    previous: ParseResult, text: str, model: Syllabus, root: Node, array: Node,
    start: int, old_end: int, new_end: int, schema: bool = True,
) -> ParseResult | None:
    """An edit inside the instruction list's brackets: the instructions it touches and one
    unchanged neighbour on each side are parsed again, as the elements of a list.

    The neighbours ``L`` and ``R`` are what makes this the full parse's result: ``L`` starts
    in the unchanged text before the edit and ``R`` ends in the unchanged text after it, both
    direct elements of the list, so the lexer starts and ends there in step with a full lex;
    the parser's state after ``[`` does not depend on what is around the list, and once
    ``R`` is read it is in the same state as the previous parse was after it, which then
    went on without an error. Syntax errors are parsed again with everything around them (the
    previous parse's too: ``ParseResult.events``), and refused when a repair would reach
    outside the list (``RawParse.escaped``), where the document's context could decide it."""
    items: list[Item] = array.children
    delta = new_end - old_end
    lo, hi = start, old_end
    if previous.events is not None:
        lo, hi = min(lo, previous.events[0]), max(hi, previous.events[1])
        if not (array.start < lo and hi < array.end - 1):
            return None
    # L: the last item ending before the region; R: the first starting after it
    a = _first_end_at_or_after(items, lo)  # items[a:] end at or after lo
    b = _first_start_after(items, hi)  # items[b:] start after hi
    if a > 0:
        a -= 1  # L itself is parsed again
        s = items[a].start
    else:
        s = array.start + 1
    if b < len(items):
        e_old = items[b].end
        b += 1
    else:
        e_old = array.end - 1
    e = e_old + delta
    if s >= e:
        return None
    sub = parse_list(text, s, e)
    fresh_root = sub.root
    if sub.stopped or sub.escaped or fresh_root is None or fresh_root.__class__ is not Node or fresh_root.type != "array":
        return None
    fresh: list[Item] = fresh_root.children
    if a < b and b - a >= 1:
        first_old, last_old = items[a], items[b - 1]
        if a > 0 or s != array.start + 1:
            if not fresh or fresh[0].start != first_old.start or fresh[0].end != first_old.end:
                return None
        if e_old != array.end - 1:
            if not fresh or fresh[-1].start != last_old.start + delta or fresh[-1].end != last_old.end + delta:
                return None
    # The list must hold an object, or a full lex would take the list (and with it the
    # whole document) as one shallow token.
    if not any(_is_object(it) for it in fresh) and not any(_is_object(it) for it in items[:a]) and not any(
        _is_object(it) for it in items[b:]
    ):
        return None
    if sub.events is not None:
        if text.count("{", s, e) + text.count("[", s, e) > _MAX_BRACKETS:
            return None
    else:
        for it in fresh:
            if it.__class__ is Node and text.count("{", it.start, it.end) + text.count("[", it.start, it.end) > _MAX_BRACKETS:
                return None
    return _splice_list(previous, text, model, root, array, a, b, fresh, sub.non_json, sub.problems, sub.events, s, e_old, delta, schema)


def _first_end_at_or_after(items: list[Item], offset: int) -> int:
    return bisect_left(items, offset, key=_end)


def _first_start_after(items: list[Item], offset: int) -> int:
    return bisect_right(items, offset, key=_start)


def _mover(after: int, delta: int) -> Any:
    def move(span: Span) -> Span:
        if span.end < after or not delta:
            return span
        return Span(span.start + delta if span.start >= after else span.start, span.end + delta)

    return move


def _splice_list(
    previous: ParseResult, text: str, model: Syllabus, root: Node, array: Node,
    a: int, b: int, fresh: list[Item], fresh_non_json: list[NonJson], fresh_problems: list[Diagnostic],
    events: list[int] | None, s: int, e_old: int, delta: int, check: bool = True,
) -> ParseResult:
    """The previous parse with ``items[a:b]`` (old text ``[s, e_old)``) replaced by ``fresh``."""
    old_items = array.children
    shift = len(fresh) - (b - a)
    move = _mover(e_old, delta)
    tail = old_items[b:] if delta == 0 else _moved_items(old_items, b, delta)
    items = old_items[:a] + fresh + tail
    values = array.value[:a] + [it.value for it in fresh] + array.value[b:]
    new_array = Node("array", values, array.start, array.end + delta, items)
    new_root = _with_array(model, root, array, new_array, e_old, delta)
    source = SourceMap(text, new_root)
    base: tuple[str | int, ...] = ("instructions",) if model.form == "object" else ()
    depth = len(base)
    built = [build_instruction(a + k, item.value, item, base + (a + k,), model.default_params, source) for k, item in enumerate(fresh)]
    instructions = Shifted.spliced(model.instructions, a, b, built, delta, shift, source, base, model.source_map, _MAX_SOURCE_MAPS)
    non_json = [n if n.span.end <= s else NonJson(n.kind, move(n.span)) for n in model.non_json
                if not (s <= n.span.start < e_old)]
    non_json.extend(fresh_non_json)
    non_json.sort(key=lambda n: n.span.start)
    lines = LineIndex.edited(model.lines, text, s, e_old, e_old + delta)
    new_model = _model(model, text, new_root, instructions, tuple(non_json), source, move, lines)
    clean = _syntax_clean(fresh_problems)
    was_clean = _syntax_clean(previous.diagnostics)
    # the previous version's schema diagnostics, and the instructions ``[lo, hi)`` they leave
    # out (a version with syntax errors has none of its own: see ``ParseResult.schema_memo``)
    kept: tuple[Diagnostic, ...] | list[Diagnostic] | None
    if was_clean:
        kept, lo, hi = previous.diagnostics, 0, 0
    elif previous.schema_memo is not None:
        kept, lo, hi = previous.schema_memo
    else:
        kept, lo, hi = None, 0, 0
    problems: list[Diagnostic] = []
    for d in previous.diagnostics:
        if d.kind != "schema" and not (s <= d.span.start and d.span.end <= e_old):
            problems.append(d if d.span.end < e_old else _moved_diagnostic(d, move))
    schema: list[Diagnostic] = []  # of instructions
    moved: list[Diagnostic] = []  # all of them, in their order
    for d in kept or ():
        if d.kind != "schema":
            continue
        path = d.path
        index = path[depth] if len(path) > depth and path[:depth] == base else None
        if isinstance(index, int):
            if a <= index < b:
                continue
            if index >= b:
                d = _moved_diagnostic(d, move)
                if shift:
                    d = replace(d, path=base + (index + shift,) + path[depth + 1 :])
            elif d.span.end >= e_old:
                d = _moved_diagnostic(d, move)
            schema.append(d)
        elif d.span.end >= e_old:
            d = _moved_diagnostic(d, move)
        moved.append(d)
    problems.extend(fresh_problems)
    dirty = _dirty(lo, hi, a, b, len(fresh), shift) if kept is not None else (0, 0)
    memo = None
    if not check:
        pass  # the caller drops the schema diagnostics: the check is made later (``reparse``)
    elif not clean:
        memo = None if kept is None else (tuple(schema), dirty[0], dirty[1])
    elif was_clean:
        problems.extend(moved)
        for k, item in enumerate(fresh):
            problems.extend(validate_instruction(item.value, base + (a + k,), source, text[item.start : item.end]))
    elif kept is not None:
        # back from syntax errors: the last clean version's diagnostics of the instructions no
        # edit touched since, and those the edits touched validated again (not all 10,000)
        problems.extend(schema)
        for k in range(dirty[0], dirty[1]):
            item = items[k]
            problems.extend(validate_instruction(item.value, base + (k,), source, text[item.start : item.end]))
        if model.form == "object":
            problems.extend(validate_top(new_root.value, source))
    else:  # no schema diagnostics to reuse
        problems.extend(validate(new_root.value, model.form, source, text))
    problems.sort(key=lambda d: (d.span.start, d.span.end))
    return ParseResult(new_model, problems, text, previous.path, None if events is None else (events[0], events[1]), memo)


def _dirty(lo: int, hi: int, a: int, b: int, fresh: int, shift: int) -> tuple[int, int]:
    """The instructions ``[lo, hi)`` of the previous version, and those at ``[a, b)`` there
    that ``fresh`` new ones replaced (the later ones ``shift`` places on): the range of the new
    version's instructions that holds all of them."""
    start, stop = a, a + fresh
    if lo < hi:
        start = min(start, lo if lo < a else a if lo < b else lo + shift)
        stop = max(stop, hi if hi <= a else a + fresh if hi <= b else hi + shift)
    return start, stop


def _with_array(model: Syllabus, root: Node, array: Node, new_array: Node, after: int, delta: int) -> Node:
    """The document's root with its instruction list replaced (and what follows it moved)."""
    if model.form != "object":
        return new_array
    children: dict[str, Item] = {}
    keys: dict[str, Tok] = {}
    value: dict[str, Any] = {}
    for name, child in root.children.items():
        key = root.keys[name]
        if child is array:
            child = new_array
        elif child.start >= after and delta:
            child, key = _moved(child, delta), _moved(key, delta)
        children[name] = child
        keys[name] = key
        value[name] = child.value
    return Node("object", value, root.start, root.end + delta, children, keys)


def _model(
    model: Syllabus, text: str, root: Item, instructions: Sequence[Instruction], non_json: tuple[NonJson, ...],
    source: SourceMap, move: Any, lines: LineIndex,
) -> Syllabus:
    """The previous model for the new text: its top level unchanged, spans moved."""
    top_keys = tuple(
        k if move(k.span) is k.span and move(k.value_span) is k.value_span
        else TopLevelKey(k.name, move(k.span), move(k.value_span))
        for k in model.top_level_keys
    )
    return Syllabus(
        text=text,
        path=model.path,
        form=model.form,
        value=root.value,
        instructions=instructions,
        name=model.name,
        author=model.author,
        contains=model.contains,
        default_params=model.default_params,
        comments=model.comments,
        declared_type=model.declared_type,
        top_level_keys=top_keys,
        non_json=non_json,
        source_map=source,
        lines=lines,
        instructions_span=None if model.instructions_span is None else move(model.instructions_span),
    )


def _moved_array(array: Node, delta: int) -> Node:
    """The instruction list ``delta`` characters further on: ``_moved``, with its items
    moved by ``_moved_items`` (a call per instruction was 25 ms at 500 KB)."""
    return Node(array.type, array.value, array.start + delta, array.end + delta, _moved_items(array.children, 0, delta), array.keys)


def _moved_items(items: list[Item], first: int, delta: int) -> list[Item]:
    """``items[first:]`` moved by ``delta`` (``_moved``; an instruction lexed whole is one
    token, the common case, copied here without a call per item)."""
    return [
        Tok(it.type, it.value, it.start + delta, it.end + delta) if it.__class__ is Tok else _moved(it, delta)
        for it in items[first:]
    ]


def _reparse_around(
    previous: ParseResult, text: str, model: Syllabus, root: Node, array: Node,
    start: int, old_end: int, new_end: int, schema: bool = True,
) -> ParseResult | None:
    """An edit outside the instruction list (a top-level key, the space around the list):
    the document parsed again with the list, unchanged, standing in as one value.

    The list's parse depends on nothing around it (the parser's state after its ``[`` is the
    same wherever it stands), so only the top level is read again; the instructions are kept
    (moved) unless the defaults they merge changed."""
    old = previous.text
    if old[array.end - 1] != "]":
        return None  # closed by a repair: the text after it may still belong to it
    if previous.events is not None and previous.events[1] >= array.start and previous.events[0] <= array.end:
        return None
    if not any(_is_object(it) for it in array.children):
        return None
    delta = new_end - old_end
    d = delta if old_end <= array.start else 0
    hole = Tok("array", array.value, array.start + d, array.end + d)
    outside = text.count("{", 0, hole.start) + text.count("[", 0, hole.start) + text.count("{", hole.end) + text.count("[", hole.end)
    if outside > _MAX_BRACKETS:
        return None
    sub = parse_around(text, 0, len(text), hole)
    new_root = sub.root
    if sub.stopped or sub.escaped or new_root is None:
        return None
    if model.form == "object":
        if new_root.__class__ is not Node or new_root.type != "object" or sub.form != "object":
            return None
        held = new_root.children.get("instructions")
        if held is None or held.__class__ is not Tok or held.start != hole.start or held.value is not array.value:
            return None
        moved_array = array if d == 0 else _moved_array(array, d)
        children = dict(new_root.children)
        children["instructions"] = moved_array
        new_root = Node("object", new_root.value, new_root.start, new_root.end, children, new_root.keys)
    else:
        if new_root.__class__ is not Tok or new_root.start != hole.start or new_root.value is not array.value:
            return None
        moved_array = new_root = array if d == 0 else _moved_array(array, d)
    source = SourceMap(text, new_root)
    value = new_root.value
    top = value if isinstance(value, dict) else {}
    defaults = top.get("default_params")
    defaults = defaults if isinstance(defaults, dict) else {}
    base: tuple[str | int, ...] = ("instructions",) if model.form == "object" else ()
    non_json = [n if d == 0 else NonJson(n.kind, Span(n.span.start + d, n.span.end + d)) for n in model.non_json
                if array.start <= n.span.start < array.end]
    non_json.extend(sub.non_json)
    lines = LineIndex.edited(model.lines, text, start, old_end, new_end)
    if defaults != dict(model.default_params):
        new_model = build(text, model.path, model.form, value, source, non_json, lines)
    else:
        instructions = Shifted.spliced(model.instructions, 0, 0, (), d, 0, source, base, model.source_map, _MAX_SOURCE_MAPS)
        new_model = build(text, model.path, model.form, value, source, non_json, lines, instructions)
    clean = _syntax_clean(sub.problems)
    problems: list[Diagnostic] = list(sub.problems)
    inside = [
        x for x in previous.diagnostics
        if array.start <= x.span.start and x.span.end <= array.end and (x.kind != "schema" or x.path[: len(base)] == base and len(x.path) > len(base))
    ]
    moved = _mover(array.start, d)
    for x in inside:
        if x.kind != "schema":
            problems.append(_moved_diagnostic(x, moved) if d else x)
    if clean and schema:
        if _syntax_clean(previous.diagnostics):
            problems.extend(_moved_diagnostic(x, moved) if d else x for x in inside if x.kind == "schema")
            if model.form == "object":
                problems.extend(validate_top(value, source))
        else:
            problems.extend(validate(value, model.form, source, text))
    problems.sort(key=lambda x: (x.span.start, x.span.end))
    events = sub.events
    return ParseResult(new_model, problems, text, previous.path, None if events is None else (events[0], events[1]))
