"""The canonical layout (``sylla fmt`` and the language server's formatting).

Works from the token stream, so comments and margin notes survive: two-space indent, one
instruction per line, a blank line before each ``$phase``, key order and the spelling of
strings and numbers unchanged, trailing commas dropped (the value is the same). Text with
syntax errors is not formatted (None): guessing structure would damage the file.

Where a comment goes matters beyond looks: ``// sylla: ignore[...]`` names the line it is
on, and a ``//`` comment or ``<--`` note runs to the end of its line, so nothing may follow
one on an output line. Comments therefore keep their relation to the line they were on:

- after an element on its line (``{...}, // why``): stays at the end of that element's line;
- before an element on its line (``/* x */ {...}``): stays right before it;
- after an opening bracket on its line: stays after the bracket;
- on lines of their own: stay on lines of their own, before the next element (or the close).

A directive inside an instruction, or after one written over several lines, moves to the
instruction's first line. One after the closing ``]`` of the list stays with the bracket,
which gets a line of its own.

Multi-line ``/* */`` comments keep their inner lines exactly; line ends are the file's own
(decided by its first line end), also inside comments, so a CRLF file stays CRLF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sylla.grammar.core import DIRECTIVE
from sylla.grammar.syllabus.parse import parse

WIDTH = 100
_TOKEN = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<line>//[^\r\n]*)|(?P<block>/\*.*?\*/)|(?P<note><--[^\r\n]*)'
    r'|(?P<string>"(?:[^"\\]|\\.)*")|(?P<punct>[{}\[\]:,])|(?P<scalar>[^\s{}\[\]:,"/<]+)',
    re.S,
)
_COMMENT_KINDS = ("line", "block", "note")


@dataclass
class Tok:
    kind: str
    text: str
    newline_before: bool  # a line break between the previous token and this one

    @property
    def is_comment(self) -> bool:
        return self.kind in _COMMENT_KINDS

    @property
    def ends_line(self) -> bool:
        """Nothing may follow it on its line: a ``//`` comment or ``<--`` note."""
        return self.kind in ("line", "note")


@dataclass
class Element:
    value: "Node"
    key: str | None = None
    #: comments on lines of their own before the element
    leading: list[str] = field(default_factory=list)
    #: block comments right before the element on its first line
    before: list[str] = field(default_factory=list)
    #: single-line block comments between the key and the value (``"k": /* c */ 1``)
    mid: list[str] = field(default_factory=list)
    #: comments after the element on its last line (at most the last one ends the line)
    trailing: list[str] = field(default_factory=list)


@dataclass
class Node:
    kind: str  # "object", "array", "scalar"
    text: str = ""
    items: list[Element] = field(default_factory=list)
    #: comments after the opening bracket, on its line
    open_comments: list[str] = field(default_factory=list)
    end_comments: list[str] = field(default_factory=list)

    def has_comments(self) -> bool:
        if self.end_comments or self.open_comments:
            return True
        return any(e.leading or e.before or e.mid or e.trailing or e.value.has_comments() for e in self.items)


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
                value = m.group().replace("\r\n", "\n") if kind == "block" else m.group()
                self.toks.append(Tok(kind, value if kind == "block" else value.rstrip(), newline))
                newline = kind in ("line", "note")
            pos = m.end()
        self.i = 0

    def peek(self) -> Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> Tok:
        if self.i >= len(self.toks):
            raise ValueError("unexpected end of text")
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def comments(self) -> list[Tok]:
        out = []
        while (t := self.peek()) is not None and t.is_comment:
            out.append(self.next())
        return out

    def same_line(self) -> list[str]:
        """Comments on the line of what came before, up to one that ends the line. Block
        comments that the next element follows on the same line are left for that element."""
        start = self.i
        out: list[Tok] = []
        while (t := self.peek()) is not None and t.is_comment and not t.newline_before:
            out.append(self.next())
            if t.ends_line:
                break
        nxt = self.peek()
        if out and nxt is not None and not nxt.newline_before and not nxt.is_comment and nxt.text not in ",]}:":
            self.i = start  # `, /* x */ {...}`: the comment belongs before the next element
            return []
        return [t.text for t in out]

    def expect(self, text: str) -> None:
        tok = self.next()
        if tok.text != text:
            raise ValueError(f"expected {text}, found {tok.text}")


def _split_leading(comments: list[Tok], first: Tok | None) -> tuple[list[str], list[str]]:
    """Own-line comments, and the block comments on the same line right before ``first``."""
    before: list[Tok] = []
    following = first
    for tok in reversed(comments):
        if tok.kind != "block" or following is None or following.newline_before:
            break
        before.insert(0, tok)
        following = tok
    own = comments[: len(comments) - len(before)]
    return [t.text for t in own], [t.text for t in before]


def _value(ts: _Tokens) -> "Node":
    tok = ts.next()
    if tok.text == "{":
        return _container(ts, "object", "}")
    if tok.text == "[":
        return _container(ts, "array", "]")
    if tok.kind in ("string", "scalar"):
        return Node("scalar", tok.text)
    raise ValueError(f"unexpected {tok.text}")


def _container(ts: _Tokens, kind: str, close: str | None) -> "Node":
    """Members or elements up to ``close`` (None: a fragment, up to the end of the text)."""
    node = Node(kind)
    if close is not None:
        node.open_comments = ts.same_line()
    pending: list[Tok] = []
    while True:
        comments = pending + ts.comments()
        pending = []
        tok = ts.peek()
        if tok is None and close is None:
            node.end_comments = [t.text for t in comments]
            return node
        if tok is None:
            raise ValueError("unclosed container")
        if tok.text == close:
            ts.next()
            node.end_comments = [t.text for t in comments]
            return node
        leading, before = _split_leading(comments, tok)
        element = Element(Node("scalar"), None, leading, before)
        if kind == "object":
            element.key = ts.next().text
            if element.key[:1] != '"':
                raise ValueError(f"expected a key, found {element.key}")
            mid = ts.comments()
            ts.expect(":")
            mid += ts.comments()
            for c in mid:
                if c.kind == "block" and "\n" not in c.text:
                    element.mid.append(c.text)
                else:
                    element.leading.append(c.text)
        element.value = _value(ts)
        element.trailing = ts.same_line()
        ended = bool(element.trailing) and element.trailing[-1][:2] in ("//", "<-")
        between = ts.comments()  # comments on lines of their own before a leading comma
        if (t := ts.peek()) is not None and t.text == ",":
            comma = ts.next()
            after = ts.same_line()
            if between or comma.newline_before or ended:
                pending = between + [Tok("block" if c.startswith("/*") else "line", c, True) for c in after]
            else:
                element.trailing += after
        else:
            pending = between
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


def _is_directive(comment: str) -> bool:
    return re.search(DIRECTIVE, comment) is not None


def _has_directive(e: Element) -> bool:
    return any(_is_directive(c) for c in e.trailing + e.before)


def _ends_line(comment: str) -> bool:
    return comment.startswith(("//", "<--"))


def _hoist_directives(e: Element) -> None:
    """Move ``sylla: ignore`` comments of an instruction to its first line.

    An instruction's findings start on its first line. A directive between its keys would
    force it over several lines and name a line inside it, and one after it would name its
    last line. Written on one line (nothing else inside), the instruction takes its
    directives at the end of that line; written over several lines, right after its ``{``.
    Block directives go first, so a multi-line ``/* */`` there cannot push them down a line;
    a ``//`` directive goes last, and stays where it is when that line already ends in one.
    """
    value = e.value
    if value.kind == "scalar":
        return
    inner: list[tuple[list[str], str]] = []
    others = bool(value.open_comments)

    def visit(lst: list[str]) -> None:
        nonlocal others
        for c in lst:
            if _is_directive(c):
                inner.append((lst, c))
            else:
                others = True

    def walk(node: Node, top: bool) -> None:  # in document order
        if not top:
            visit(node.open_comments)
        for item in node.items:
            visit(item.leading)
            visit(item.before)
            visit(item.mid)
            walk(item.value, False)
            visit(item.trailing)
        visit(node.end_comments)

    walk(value, True)
    lines = [c for _, c in inner if _ends_line(c)]
    tail_blocked = any(_ends_line(c) or "\n" in c for c in e.trailing)
    inline = not others and (not lines or (len(lines) == 1 and not tail_blocked))
    if inline:
        target, moving = e.trailing, inner
    else:
        target = value.open_comments
        moving = inner + [(e.trailing, c) for c in e.trailing if _is_directive(c)]
    if not moving:
        return
    blocked = any(_ends_line(c) or "\n" in c for c in target)
    first = 0
    for lst, c in moving:
        if _ends_line(c):
            if blocked:
                continue  # a second // would become text of the first: it stays where it is
            lst.remove(c)
            target.append(c)
            blocked = True
        else:
            lst.remove(c)
            target.insert(first, c)
            first += 1


def _render(node: Node, indent: int, mode: str = "normal") -> str:
    """The text of ``node`` starting at the current column; multi-line text is indented.

    ``mode``: "top" (the syllabus object, always one member per line), "fragment" (members
    without braces), "instructions" (one instruction per line), or "normal"."""
    if node.kind == "scalar":
        return node.text
    if mode == "normal" and not node.has_comments():
        flat = _inline(node)
        if len(flat) + indent <= WIDTH or not node.items:
            return flat
    if mode == "instructions" and not node.items and not node.has_comments():
        return "[]"
    open_, close = ("{", "}") if node.kind == "object" else ("[", "]")
    inner = indent if mode == "fragment" else indent + 2
    pad = " " * inner
    out: list[str] = []
    if mode != "fragment":
        out.append(" ".join([open_, *node.open_comments]))
    last = len(node.items) - 1
    for n, e in enumerate(node.items):
        if mode == "instructions":
            _hoist_directives(e)
        if mode == "instructions" and n > 0 and _is_phase(e):
            out.append("")
        for c in e.leading:
            out.append(pad + c)
        if e.value.kind != "scalar" and not e.value.has_comments() and (mode == "instructions" or _has_directive(e)):
            body = _inline(e.value)  # an instruction, or a value a directive names: one line
        else:
            child = "instructions" if mode in ("top", "fragment") and e.key == '"instructions"' and e.value.kind == "array" else "normal"
            body = _render(e.value, inner, child)
        head = "".join(c + " " for c in e.before)
        if e.key is not None:
            head += f"{e.key}: " + "".join(c + " " for c in e.mid)
        comma = "," if n < last else ""
        tail = (" " + " ".join(e.trailing)) if e.trailing else ""
        out.append(pad + head + body + comma + tail)
    for c in node.end_comments:
        out.append(pad + c)
    if mode != "fragment":
        out.append(" " * indent + close)
    return "\n".join(out)


def format_text(text: str) -> str | None:
    result = parse(text)
    if not result.syntax_ok or result.model is None:
        return None
    bom = text.startswith("\ufeff")  # the parser drops it from result.text; the file keeps it
    body = result.text
    first = body.find("\n")
    newline = "\r\n" if first > 0 and body[first - 1] == "\r" else "\n"
    try:
        out = _format(body, result.model.form)
    except (ValueError, IndexError):
        return None
    out = out.replace("\n", newline)
    return ("\ufeff" if bom else "") + out


def _format(text: str, form: str) -> str:
    ts = _Tokens(text)
    head = [t.text for t in ts.comments()]
    lines: list[str] = list(head)
    if form == "fragment":
        members = _container(ts, "object", None)
        lines.append(_render(members, 0, "fragment"))
    else:
        value = _value(ts)
        top = "instructions" if form == "array" else ("top" if value.kind == "object" else "normal")
        lines.append(_render(value, 0, top))
        trailing = ts.same_line()
        if trailing:
            lines[-1] += " " + " ".join(trailing)
    lines.extend(t.text for t in ts.comments())
    if ts.peek() is not None:
        raise ValueError("text after the value")
    return "\n".join(lines).rstrip("\n") + "\n"
