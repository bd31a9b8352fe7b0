"""The canonical layout (``sylla fmt`` and the language server's formatting).

Works from the token stream, so comments and margin notes survive: two-space indent, one
instruction per line, a blank line before each ``$phase``, key order and the spelling of
strings and numbers unchanged, trailing commas dropped (the value is the same). Comments stay
with the element they precede, or at the end of the line they ended. Text with syntax errors
is not formatted (None): guessing structure would damage the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

WIDTH = 100
_TOKEN = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<line>//[^\r\n]*)|(?P<block>/\*.*?\*/)|(?P<note><--[^\r\n]*)'
    r'|(?P<string>"(?:[^"\\]|\\.)*")|(?P<punct>[{}\[\]:,])|(?P<scalar>[^\s{}\[\]:,"/]+)',
    re.S,
)


@dataclass
class Tok:
    kind: str
    text: str
    newline_before: bool  # a line break between the previous token and this one


@dataclass
class Element:
    value: "Node"
    key: str | None = None
    leading: list[str] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)


@dataclass
class Node:
    kind: str  # "object", "array", "scalar"
    text: str = ""
    items: list[Element] = field(default_factory=list)
    end_comments: list[str] = field(default_factory=list)

    def has_comments(self) -> bool:
        if self.end_comments:
            return True
        return any(e.leading or e.trailing or e.value.has_comments() for e in self.items)


class _Tokens:
    def __init__(self, text: str) -> None:
        self.toks: list[Tok] = []
        pos, newline = 0, False
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise ValueError(f"unexpected character at {pos}")
            kind = m.lastgroup or ""
            if kind == "ws":
                newline = newline or "\n" in m.group() or "\r" in m.group()
            else:
                self.toks.append(Tok(kind, m.group(), newline))
                newline = kind in ("line", "note")
            pos = m.end()
        self.i = 0

    def peek(self) -> Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def comments(self) -> list[str]:
        out = []
        while (t := self.peek()) is not None and t.kind in ("line", "block", "note"):
            out.append(self.next().text.rstrip())
        return out

    def trailing(self) -> list[str]:
        """Comments on the same line as what came before."""
        out = []
        while (t := self.peek()) is not None and t.kind in ("line", "block", "note") and not t.newline_before:
            out.append(self.next().text.rstrip())
        return out

    def expect(self, text: str) -> None:
        tok = self.next()
        if tok.text != text:
            raise ValueError(f"expected {text}, found {tok.text}")


def _value(ts: _Tokens) -> Node:
    tok = ts.next()
    if tok.text == "{":
        return _container(ts, "object", "}")
    if tok.text == "[":
        return _container(ts, "array", "]")
    if tok.kind in ("string", "scalar"):
        return Node("scalar", tok.text)
    raise ValueError(f"unexpected {tok.text}")


def _container(ts: _Tokens, kind: str, close: str) -> Node:
    node = Node(kind)
    carried = ts.trailing()  # comments right after the opening bracket go to the first element
    while True:
        leading = carried + ts.comments()
        carried = []
        tok = ts.peek()
        if tok is None:
            raise ValueError("unclosed container")
        if tok.text == close:
            ts.next()
            node.end_comments = leading
            return node
        key = None
        if kind == "object":
            key = ts.next().text
            leading += ts.comments()
            ts.expect(":")
            leading += ts.comments()
        value = _value(ts)
        element = Element(value, key, leading)
        element.trailing = ts.trailing()
        tok = ts.peek()
        if tok is not None and tok.text == ",":
            ts.next()
            element.trailing += ts.trailing()
        node.items.append(element)


def _is_phase(e: Element) -> bool:
    v = e.value
    return v.kind == "object" and any(i.key == '"$phase"' for i in v.items)


def _inline(node: Node) -> str:
    if node.kind == "scalar":
        return node.text
    if node.kind == "object":
        return "{" + ", ".join(f"{e.key}: {_inline(e.value)}" for e in node.items) + "}"
    return "[" + ", ".join(_inline(e.value) for e in node.items) + "]"


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def render(self, node: Node, indent: int, instructions: bool = False, force: bool = False) -> str:
        """The text of ``node`` starting at the current column; multi-line text is indented."""
        if node.kind == "scalar":
            return node.text
        if not instructions and not force and not node.has_comments():
            flat = _inline(node)
            if len(flat) + indent <= WIDTH or not node.items:
                return flat
        if instructions and not node.items and not node.end_comments:
            return "[]"
        open_, close = ("{", "}") if node.kind == "object" else ("[", "]")
        pad = " " * (indent + 2)
        out = [open_]
        last = len(node.items) - 1
        for n, e in enumerate(node.items):
            if instructions and n > 0 and _is_phase(e):
                out.append("")
            for c in e.leading:
                out.append(pad + _reindent(c, pad))
            if instructions and e.value.kind != "scalar" and not e.value.has_comments():
                body = _inline(e.value)
            else:
                body = self.render(e.value, indent + 2)
            head = f"{e.key}: " if e.key is not None else ""
            comma = "," if n < last else ""
            tail = (" " + " ".join(e.trailing)) if e.trailing else ""
            out.append(pad + head + body + comma + tail)
        for c in node.end_comments:
            out.append(pad + _reindent(c, pad))
        out.append(" " * indent + close)
        return "\n".join(out)


def _reindent(comment: str, pad: str) -> str:
    return comment  # block comments keep their inner lines exactly


def _instructions_key(node: Node) -> None:
    """Mark the top-level instructions array so it gets one instruction per line."""


def format_text(text: str) -> str | None:
    from sylla.grammar.parse import parse

    result = parse(text)
    if not result.syntax_ok or result.model is None:
        return None
    bom = text.startswith("\ufeff")  # the parser drops it from result.text; the file keeps it
    body = result.text
    newline = "\r\n" if "\r\n" in body else "\n"
    try:
        out = _format(body, result.model.form)
    except (ValueError, IndexError):
        return None
    out = out.replace("\n", newline)
    return ("\ufeff" if bom else "") + out


def _format(text: str, form: str) -> str:
    ts = _Tokens(text)
    w = _Writer()
    head = ts.comments()
    lines: list[str] = list(head)
    if form == "fragment":
        members = _container_until_end(ts)
        lines.extend(_members(w, members, 0, top=True))
    else:
        value = _value(ts)
        if form == "array":
            lines.append(w.render(value, 0, instructions=True))
        else:
            lines.append(_object_top(w, value))
        trailing = ts.trailing()
        if trailing:
            lines[-1] += " " + " ".join(trailing)
    lines.extend(ts.comments())
    if ts.peek() is not None:
        raise ValueError("text after the value")
    return "\n".join(lines).rstrip("\n") + "\n"


def _object_top(w: _Writer, node: Node) -> str:
    if node.kind != "object":
        return w.render(node, 0)
    out = ["{"]
    out.extend(_members(w, node, 2))
    for c in node.end_comments:
        out.append("  " + c)
    out.append("}")
    return "\n".join(out)


def _members(w: _Writer, node: Node, indent: int, top: bool = False) -> list[str]:
    pad = " " * indent
    out: list[str] = []
    last = len(node.items) - 1
    for n, e in enumerate(node.items):
        for c in e.leading:
            out.append(pad + c)
        is_instr = e.key == '"instructions"' and e.value.kind == "array"
        body = w.render(e.value, indent, instructions=is_instr)
        comma = "," if n < last else ""
        tail = (" " + " ".join(e.trailing)) if e.trailing else ""
        out.append(f"{pad}{e.key}: {body}{comma}{tail}")
    if top:
        for c in node.end_comments:
            out.append(pad + c)
    return out


def _container_until_end(ts: _Tokens) -> Node:
    """A fragment: ``"key": value, ...`` without braces, up to the end of the text."""
    node = Node("object")
    while True:
        leading = ts.comments()
        if ts.peek() is None:
            node.end_comments = leading
            return node
        key = ts.next().text
        leading += ts.comments()
        ts.expect(":")
        value = _value(ts)
        element = Element(value, key, leading, ts.trailing())
        tok = ts.peek()
        if tok is not None and tok.text == ",":
            ts.next()
            element.trailing += ts.trailing()
        node.items.append(element)
