"""Hover, completion and folding for Science Birds trial configs (configMeta.xml, config.xml).

The meaning of each element and attribute, and the counts (trials generated, training time,
total_n_testsets, n_testsets), come from ``sylla.grammar.birds.describe``, the same numbers
``sylla explain`` prints; the names and enumerated values offered by completion come from the
shipped XSD through ``describe.vocabulary``, so completion never offers what validation refuses.

Completion is asked for while the text is half-typed and usually not well-formed XML, so its
context (a tag name after ``<``, an attribute name inside a start tag, an attribute value
inside quotes) and the enclosing element are read from the raw text before the cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsprotocol import types

from sylla.grammar.birds.describe import ATTRIBUTES, ELEMENTS, describe, node_at, vocabulary
from sylla.grammar.birds.detect import birds_kind
from sylla.grammar.birds.kinds import ROOTS, Kind
from sylla.grammar.core import Span

from .documents import Analysis
from .positions import PositionMap

#: tags, comments, processing instructions and CDATA, in text order
_MARKUP = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>|<!(?:[^>\[]|\[[^\]]*\])*>|<(/?)([A-Za-z_][\w.:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
_NAME = re.compile(r"[A-Za-z_][\w.:-]*")
_ATTRS = re.compile(r"""([A-Za-z_][\w.:-]*)\s*=\s*(?:"[^"]*"|'[^']*')""")
_VALUE = re.compile(r"""([A-Za-z_][\w.:-]*)\s*=\s*(["'])([^"']*)$""")
_WORD_BEFORE = re.compile(r"[\w.:-]*$")
_WORD_AFTER = re.compile(r"[\w.:-]*")
_VALUE_AFTER = re.compile(r"[^\"'<>\n]*")


def hover(analysis: Analysis, offset: int) -> types.Hover | None:
    """What the element or attribute under the cursor means, with its computed counts.

    Only the start tag (name and attributes) and the element's own text answer: whitespace
    between children belongs to no element a reader is pointing at."""
    result = analysis.birds
    if result is None or result.root is None:
        return None
    found = node_at(result.root, offset)
    if found is None:
        return None
    element, attr = found
    if attr is not None:
        span = attr.span
    elif element.start_tag.start <= offset < element.start_tag.end:
        span = element.name_span
    elif element.text_span is not None and element.text_span.start <= offset < element.text_span.end:
        span = element.text_span
    else:
        return None
    markdown = describe(result, offset)
    if markdown is None:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
        range=analysis.positions.range(span),
    )


def folding_ranges(analysis: Analysis) -> list[types.FoldingRange]:
    """One fold per element that spans more than one line."""
    result = analysis.birds
    if result is None or result.root is None:
        return []
    positions = analysis.positions
    out: list[types.FoldingRange] = []
    for element in result.root.iter():
        first = positions.line_of(element.span.start)
        last = positions.line_of(max(element.span.start, element.span.end - 1))
        if last > first:
            out.append(types.FoldingRange(start_line=first, end_line=last, kind=types.FoldingRangeKind.Region))
    return out


@dataclass(frozen=True)
class _Where:
    """The completion context: what is being typed, on which element, inside which parent."""

    what: str  # "element" | "close" | "attribute" | "value" | "none"
    start: int  # offset where the replaced text starts
    tag: str | None = None  # the element whose start tag holds the cursor
    parent: str | None = None  # the innermost open element around the cursor
    attr: str | None = None
    present: tuple[str, ...] = ()
    root: str | None = None  # the document's root element, when it is open already


def _open_elements(text: str, end: int) -> list[str]:
    """The elements still open at ``end`` (outermost first), from the raw text before it."""
    stack: list[str] = []
    for m in _MARKUP.finditer(text, 0, end):
        name = m.group(2)
        if name is None:
            continue
        if m.group(1):
            if name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name):]
        elif not m.group(3).rstrip().endswith("/"):
            stack.append(name)
    return stack


def context_at(text: str, offset: int) -> _Where:
    """What is being typed at ``offset``. Only element names need the open elements (a scan of
    the text before the cursor: 0.3 s at the end of a 10 MB config.xml); attribute names and
    values are read from the start tag alone."""
    lt = text.rfind("<", 0, offset)
    gt = text.rfind(">", 0, offset)
    if lt <= gt:  # in character data between tags
        return _Where("none", offset)
    inside = text[lt + 1 : offset]
    if inside.startswith(("!", "?")):
        return _Where("none", offset)
    name = _NAME.match(inside)
    if inside.startswith("/") or name is None or name.end() == len(inside):
        stack = _open_elements(text, lt)
        parent = stack[-1] if stack else None
        root = stack[0] if stack else None
        if inside.startswith("/"):
            return _Where("close", lt + 2, parent=parent, root=root)
        return _Where("element", lt + 1, parent=parent, root=root)
    tag = name.group(0)
    rest = inside[name.end():]
    tail_end = text.find(">", offset)
    whole = text[lt + 1 + name.end() : tail_end if tail_end >= 0 else len(text)]
    present = tuple(m.group(1) for m in _ATTRS.finditer(whole))
    value = _VALUE.search(rest)
    if value is not None:
        return _Where("value", offset - len(value.group(3)), tag=tag, attr=value.group(1))
    if rest.count('"') % 2 or rest.count("'") % 2:
        return _Where("none", offset)
    if not rest[:1].isspace():
        return _Where("none", offset)
    word = _WORD_BEFORE.search(rest)
    typed = word.group(0) if word else ""
    return _Where("attribute", offset - len(typed), tag=tag, present=present)


def _kind(text: str, where: _Where) -> Kind | None:
    """configMeta.xml or config.xml: by the root element, or (while the root's start tag is
    being edited) by the outermost open element."""
    kind = birds_kind(text)
    if kind is None:
        root = where.root
        if root is None:
            stack = _open_elements(text, where.start)
            root = stack[0] if stack else where.tag
        kind = ROOTS.get(root or "")
    return kind


def complete(text: str, position: types.Position, encoding: str, snippets: bool, markdown: bool = True) -> types.CompletionList:
    """Element names, attribute names and enumerated values allowed where the cursor is."""
    positions = PositionMap(text, encoding)
    offset = positions.offset(position)
    where = context_at(text, offset)
    kind = _kind(text, where)
    empty = types.CompletionList(is_incomplete=False, items=[])
    if kind is None:
        return empty
    vocab = vocabulary(kind)
    items: list[types.CompletionItem] = []

    def item(label: str, kind_: types.CompletionItemKind, new_text: str, doc: str | None, snippet: bool = False,
             detail: str | None = None) -> types.CompletionItem:
        return types.CompletionItem(
            label=label,
            kind=kind_,
            detail=detail,
            documentation=(types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if markdown else doc) if doc else None,
            text_edit=types.TextEdit(range=replace, new_text=new_text),
            insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
            sort_text=f"{len(items):03d}",
        )

    # the rest of the name or value after the cursor is replaced too
    after = (_VALUE_AFTER if where.what == "value" else _WORD_AFTER).match(text, offset)
    end = after.end() if after else offset
    replace = positions.range(Span(where.start, end))
    if where.what == "element":
        names = vocab[where.parent].children if where.parent in vocab else ()
        if where.parent is None:
            names = tuple(name for name, k in ROOTS.items() if k == kind)
        for name in names:
            items.append(item(name, types.CompletionItemKind.Property, name, ELEMENTS.get(name), detail=f"in <{where.parent}>" if where.parent else "root element"))
    elif where.what == "close" and where.parent is not None:
        close = "" if text.startswith(">", end) else ">"
        items.append(item(where.parent, types.CompletionItemKind.Property, where.parent + close, ELEMENTS.get(where.parent), detail="close the open element"))
    elif where.what == "attribute" and where.tag in vocab:
        for name, values in vocab[where.tag].attributes.items():
            if name in where.present:
                continue
            template = f'{name}="${{1|{",".join(values)}|}}"' if snippets and values else (f'{name}="$1"' if snippets else f'{name}=""')
            detail = " | ".join(values) if values else None
            items.append(item(name, types.CompletionItemKind.Field, template, ATTRIBUTES.get(name), snippet=snippets, detail=detail))
    elif where.what == "value" and where.tag in vocab:
        for value in vocab[where.tag].attributes.get(where.attr or "", ()):
            items.append(item(value, types.CompletionItemKind.EnumMember, value, ATTRIBUTES.get(where.attr or ""), detail=f"{where.attr} on <{where.tag}>"))
    return types.CompletionList(is_incomplete=False, items=items)
