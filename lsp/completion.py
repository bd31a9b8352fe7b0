"""Completion: directives (with snippets), task names and a task's parameter names.

Completion is asked for while the text is half-typed and usually not valid JSON, so the
context (a key in an instruction, a key in a leaf, the task string, a gap in the instruction
list) is read from the raw text around the cursor rather than from the parsed model; the
model, when there is one, only supplies the document's tasks and phase numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence, Union

from lsprotocol import types

from sylla.grammar.core import Span

from .positions import PositionMap


#: a tab stop with its default text, in a snippet template
@dataclass(frozen=True)
class Stop:
    number: int
    default: str = ""


Template = Sequence[Union[str, Stop]]

_TASK_VALUE = re.compile(r'"\$(episode|dataset)"\s*:\s*"([^"\n]*)$')
_KEY = re.compile(r'[{,]\s*("?)([$\w/.\-]*)$')
_GAP = re.compile(r'(?:\[|\}\s*,?)\s*(\$?\w*)$')
_TASK_REFS = re.compile(r'"\$(?:episode|dataset)"\s*:\s*"([^"\n]+)"')
_PHASE_LABEL = re.compile(r'"\$phase"\s*:\s*"(\d+)\.(\w*)')
_OWNER_KEY = re.compile(r'"((?:[^"\\\n]|\\.)*)"\s*:\s*$')
#: the keys of the one task leaf a ``$repeat`` holds
_LEAF_DIRECTIVES = ("$episode", "$dataset")
_LEAF_TASK = re.compile(r'"\$(?:episode|dataset)"\s*:\s*"([^"\n]*)"')
_OBJECT_KEYS = re.compile(r'"((?:[^"\\\n]|\\.)*)"\s*:')
_DEFAULTS = re.compile(r'"default_params"\s*:\s*\{')
_LOOKBACK = 4000


def render(template: Template, snippet: bool) -> str:
    """A snippet string (``$`` escaped) or the plain text with the defaults filled in."""
    out: list[str] = []
    for part in template:
        if isinstance(part, Stop):
            if snippet:
                default = part.default.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")
                out.append(f"${{{part.number}:{default}}}" if default else f"${part.number}")
            else:
                out.append(part.default)
        else:
            out.append(part.replace("\\", "\\\\").replace("$", "\\$") if snippet else part)
    return "".join(out)


def task_name(ref: str) -> str:
    """``$module:Task`` -> ``Task``; a plain name is itself."""
    return ref.rsplit(":", 1)[-1] if ref.startswith("$") else ref


@dataclass
class Context:
    text: str
    offset: int
    positions: PositionMap
    snippets: bool
    #: registry: task name -> its parameter names
    registry: Mapping[str, Sequence[str]]
    #: the client renders markdown documentation
    markdown: bool = True


def complete(ctx: Context) -> types.CompletionList:
    before = ctx.text[max(0, ctx.offset - _LOOKBACK) : ctx.offset]
    items: list[types.CompletionItem]
    m = _TASK_VALUE.search(before)
    if m:
        items = _tasks(ctx, ctx.offset - len(m.group(2)), m.group(1))
        return types.CompletionList(is_incomplete=False, items=items)
    m = _KEY.search(before)
    if m:
        start = ctx.offset - len(m.group(2)) - len(m.group(1))
        end = ctx.offset
        if m.group(1) and ctx.text[ctx.offset : ctx.offset + 1] == '"':
            end += 1  # the editor auto-closed the quote: replace it too
        obj_start = m.start() + max(0, ctx.offset - _LOOKBACK)
        if before[m.start()] == "{":
            return types.CompletionList(is_incomplete=False, items=_keys(ctx, obj_start, start, end))
        open_brace = _enclosing_brace(ctx.text, obj_start)
        if open_brace is not None:
            return types.CompletionList(is_incomplete=False, items=_keys(ctx, open_brace, start, end))
    m = _GAP.search(before)
    if m and _in_instruction_list(ctx.text, ctx.offset - len(m.group(1))):
        start = ctx.offset - len(m.group(1))
        return types.CompletionList(is_incomplete=False, items=_instructions(ctx, start, ctx.offset))
    return types.CompletionList(is_incomplete=False, items=[])


def _enclosing_brace(text: str, offset: int) -> int | None:
    """Offset of the ``{`` that opens the object holding ``offset`` (strings are skipped
    roughly: syllabi do not put braces inside strings)."""
    depth = 0
    lo = max(0, offset - 200_000)
    for i in range(offset - 1, lo - 1, -1):
        c = text[i]
        if c in "}]":
            depth += 1
        elif c in "{[":
            if depth == 0:
                return i if c == "{" else None
            depth -= 1
    return None


def _in_instruction_list(text: str, offset: int) -> bool:
    """Whether ``offset`` is directly inside the ``instructions`` array (or a bare top-level
    list), not inside some other array such as a task's parameter list."""
    depth = 0
    for i in range(offset - 1, max(0, offset - 200_000) - 1, -1):
        c = text[i]
        if c in "}]":
            depth += 1
        elif c in "{[":
            if depth == 0:
                return c == "[" and owner_key(text, i) in (None, "instructions")
            depth -= 1
    return False


def _object_text(text: str, open_brace: int) -> str:
    """The text of the object opened at ``open_brace``, up to its close (or a limit)."""
    depth = 0
    for i in range(open_brace, min(len(text), open_brace + 20_000)):
        c = text[i]
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return text[open_brace : i + 1]
    return text[open_brace : open_brace + 20_000]


def _top_keys(obj: str) -> set[str]:
    """Keys at the first level of an object's text."""
    keys: set[str] = set()
    depth = 0
    i = 0
    while i < len(obj):
        c = obj[i]
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        elif c == '"' and depth == 1:
            m = _OBJECT_KEYS.match(obj, i)
            if m:
                keys.add(m.group(1))
                i = m.end()
                continue
            j = obj.find('"', i + 1)
            i = j + 1 if j > 0 else len(obj)
            continue
        i += 1
    return keys


def _edit(start: int, end: int, new_text: str, ctx: Context) -> types.TextEdit:
    return types.TextEdit(range=ctx.positions.range(_span(start, end)), new_text=new_text)


def _span(start: int, end: int) -> Span:

    return Span(start, end)


def _item(label: str, kind: types.CompletionItemKind, template: Template, ctx: Context, start: int, end: int,
          detail: str | None = None, doc: str | None = None, sort: str | None = None) -> types.CompletionItem:
    snippet = ctx.snippets and any(isinstance(p, Stop) for p in template)
    return types.CompletionItem(
        label=label,
        kind=kind,
        detail=detail,
        documentation=(types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if ctx.markdown else doc) if doc else None,
        insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
        text_edit=_edit(start, end, render(template, snippet), ctx),
        filter_text=ctx.text[start:end] + label if start < end and ctx.text[start] == '"' else None,
        sort_text=sort,
    )


def _tasks(ctx: Context, start: int, leaf: str) -> list[types.CompletionItem]:
    seen: dict[str, str] = {}
    for m in _TASK_REFS.finditer(ctx.text):
        if not m.start(1) <= ctx.offset <= m.end(1):  # not the one being typed
            seen.setdefault(m.group(1), "used in this syllabus")
    for name in ctx.registry:
        seen.setdefault(name, "from the task registry")
    end = ctx.offset
    return [
        _item(ref, types.CompletionItemKind.Class, [ref], ctx, start, end, detail=where, sort=f"{0 if 'registry' in where else 1}{ref}")
        for ref, where in seen.items()
    ]


def _keys(ctx: Context, open_brace: int, start: int, end: int) -> list[types.CompletionItem]:
    obj = _object_text(ctx.text, open_brace)
    present = _top_keys(obj)
    m = _LEAF_TASK.search(obj)
    if m and ("$episode" in present or "$dataset" in present):
        return _params(ctx, task_name(m.group(1)), present, start, end)
    if present & {"$phase", "$repeat", "$info", "$episode", "$dataset"}:
        return []  # an instruction has exactly one directive
    owner = owner_key(ctx.text, open_brace)
    if owner == "$repeat":
        return _directive_keys(ctx, start, end, only=_LEAF_DIRECTIVES)  # what a $repeat repeats
    if owner is not None:
        return []  # the value of some key ($info, default_params, ...): not an instruction
    return _directive_keys(ctx, start, end)


def _params(ctx: Context, task: str, present: set[str], start: int, end: int) -> list[types.CompletionItem]:
    names: dict[str, str] = {}
    for name in ctx.registry.get(task, ()):
        names.setdefault(name, f"parameter of {task} (registry)")
    for name in _document_params(ctx.text, task):
        names.setdefault(name, f"parameter of {task} (used in this syllabus)")
    for name in _default_params(ctx.text):
        names.setdefault(name, "from default_params")
    return [
        _item(name, types.CompletionItemKind.Property, [f'"{name}": ', Stop(1, "")], ctx, start, end, detail=detail, sort=f"{i:04d}")
        for i, (name, detail) in enumerate(names.items())
        if name not in present
    ]


def _document_params(text: str, task: str) -> Iterable[str]:
    """Parameter names written next to ``task`` anywhere in the document."""
    out: dict[str, None] = {}
    for m in _LEAF_TASK.finditer(text):
        if task_name(m.group(1)) != task:
            continue
        brace = _enclosing_brace(text, m.start())
        if brace is None:
            continue
        for key in _top_keys(_object_text(text, brace)):
            if not key.startswith("$"):
                out[key] = None
    return out


def _default_params(text: str) -> list[str]:
    """The keys of the top-level ``default_params`` object, read from the raw text."""
    m = _DEFAULTS.search(text)
    return sorted(_top_keys(_object_text(text, m.end() - 1))) if m else []


def phase_before(text: str, offset: int) -> tuple[int, str] | None:
    """Number and kind (``"train"``, ``"test"``, ...) of the last ``$phase`` before ``offset``."""
    at = offset
    while True:
        at = text.rfind('"$phase"', 0, at)
        if at < 0:
            return None
        m = _PHASE_LABEL.match(text, at)
        if m:
            return int(m.group(1)), m.group(2)


def next_phase_number(text: str, offset: int) -> int:
    """The number of a new phase pair at ``offset``: one more than the phase before it."""
    before = phase_before(text, offset)
    return 1 if before is None else before[0] + 1


def next_phase_label(text: str, offset: int) -> str:
    """The label of one new ``$phase`` at ``offset``: the test of a train phase just before
    it, else the next number's train."""
    before = phase_before(text, offset)
    if before is not None and before[1] == "train":
        return f"{before[0]}.test"
    return f"{next_phase_number(text, offset)}.train"


def owner_key(text: str, open_at: int) -> str | None:
    """The key whose value opens at ``open_at`` (a ``{`` or ``[``), or None for a container
    that is an array element or the document itself."""
    m = _OWNER_KEY.search(text, max(0, open_at - 300), open_at)
    return m.group(1) if m else None


def _directive_keys(
    ctx: Context, start: int, end: int, only: Sequence[str] | None = None
) -> list[types.CompletionItem]:
    from .hover import directive_docs  # noqa: PLC0415 - lazy: start-up, sylla.lsp.hover loads only when used

    docs = directive_docs()
    label = next_phase_label(ctx.text, start)
    kind = types.CompletionItemKind.Keyword
    items = [
        _item("$phase", kind, ['"$phase": "', Stop(1, label), '"'], ctx, start, end, doc=docs["$phase"], sort="0"),
        _item("$repeat", kind, ['"$repeat": {"$episode": "', Stop(1, "Task"), '"}, "count": ', Stop(2, "100")], ctx, start, end, doc=docs["$repeat"], sort="1"),
        _item("$episode", kind, ['"$episode": "', Stop(1, "Task"), '"'], ctx, start, end, doc=docs["$episode"], sort="2"),
        _item("$dataset", kind, ['"$dataset": "', Stop(1, "Task"), '"'], ctx, start, end, doc=docs["$dataset"], sort="3"),
        _item("$info", kind, ['"$info": {"disable_updates": ', Stop(1, "true"), "}"], ctx, start, end, doc=docs["$info"], sort="4"),
    ]
    return [i for i in items if only is None or i.label in only]


def _indent_of_line(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip())]


def _instructions(ctx: Context, start: int, end: int) -> list[types.CompletionItem]:
    from .hover import directive_docs  # noqa: PLC0415 - lazy: start-up, sylla.lsp.hover loads only when used

    docs = directive_docs()
    n = next_phase_number(ctx.text, start)
    label = next_phase_label(ctx.text, start)
    nl = "\n" + _indent_of_line(ctx.text, start)
    after = ctx.text[end : end + 200].lstrip()
    tail = "," if after.startswith("{") else ""
    kind = types.CompletionItemKind.Snippet
    pair: list[str | Stop] = [
        f'{{"$phase": "{n}.train"}},', nl,
        '{"$repeat": {"$episode": "', Stop(1, "Task"), '"}, "count": ', Stop(2, "1000"), "},", nl,
        f'{{"$phase": "{n}.test"}},', nl,
        '{"$info": {"disable_updates": true}},', nl,
        '{"$repeat": {"$episode": "', Stop(1, "Task"), '"}, "count": ', Stop(3, "100"), "},", nl,
        '{"$info": {}}' + tail,
    ]
    return [
        _item(f"$phase {n}.train + {n}.test", kind, pair, ctx, start, end,
              detail=f"a new train/test phase pair (phase {n})", doc=docs["$phase"], sort="0"),
        _item("$phase", kind, ['{"$phase": "', Stop(1, label), '"}' + tail], ctx, start, end, doc=docs["$phase"], sort="1"),
        _item("$repeat", kind, ['{"$repeat": {"$episode": "', Stop(1, "Task"), '"}, "count": ', Stop(2, "100"), "}" + tail], ctx, start, end, doc=docs["$repeat"], sort="2"),
        _item("$episode", kind, ['{"$episode": "', Stop(1, "Task"), '"}' + tail], ctx, start, end, doc=docs["$episode"], sort="3"),
        _item("$dataset", kind, ['{"$dataset": "', Stop(1, "Task"), '"}' + tail], ctx, start, end, doc=docs["$dataset"], sort="4"),
        _item("$info", kind, ['{"$info": {"disable_updates": ', Stop(1, "true"), "}}" + tail], ctx, start, end, doc=docs["$info"], sort="5"),
    ]
