"""A hardened XML reader that keeps a span for every element, attribute and text value.

defusedxml's expat parser refuses entity declarations (the billion-laughs bomb) and external
entities; sylla turns that refusal, and every well-formedness error, into a ``Diagnostic``
with a position instead of an exception. Expat reports where each start and end tag begins;
attribute positions come from scanning the start tag's own text, so a finding can point at
the exact attribute value an author has to change.

The decoded text is fed to expat as UTF-8 with the encoding forced, so the file's own (often
wrong) ``encoding="utf-16"`` declaration is never consulted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator
from xml.parsers import expat

from sylla.grammar.core import Diagnostic, LineIndex, Span

#: no trial config nests deeper than 7 levels; deeper input is refused before anything recurses
MAX_DEPTH = 64
_ATTR = re.compile(r"""([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass(frozen=True, slots=True)
class XmlAttr:
    """``name="value"``: ``span`` covers all of it, ``value_span`` the text inside the quotes."""

    name: str
    value: str
    span: Span
    name_span: Span
    value_span: Span


@dataclass(frozen=True, slots=True)
class XmlElement:
    """An element: ``span`` from ``<`` to the end of its end tag, ``name_span`` the tag name in
    the start tag, ``text`` its own character data (stripped) and ``text_span`` where that is."""

    tag: str
    attrs: tuple[XmlAttr, ...]
    children: tuple["XmlElement", ...]
    text: str
    span: Span
    name_span: Span
    start_tag: Span
    text_span: Span | None

    def attr(self, name: str) -> XmlAttr | None:
        for a in self.attrs:
            if a.name == name:
                return a
        return None

    def child(self, tag: str) -> "XmlElement | None":
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def all(self, tag: str) -> tuple["XmlElement", ...]:
        return tuple(c for c in self.children if c.tag == tag)

    def iter(self) -> Iterator["XmlElement"]:
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    @property
    def value_span(self) -> Span:
        """Where to point for a problem with the element's text (the tag name when empty)."""
        return self.text_span or self.name_span


@dataclass
class _Open:
    tag: str
    attrs: tuple[XmlAttr, ...]
    start: int
    start_tag_end: int
    name_span: Span
    children: list[XmlElement]
    text: list[str]


class _Offsets:
    """Byte offsets in the UTF-8 feed to code-point offsets in the text, in one forward pass."""

    def __init__(self, text: str, data: bytes) -> None:
        self.identity = len(text) == len(data)
        self.data = data
        self.byte = 0
        self.char = 0

    def __call__(self, byte: int) -> int:
        if self.identity:
            return byte
        if byte < self.byte:
            self.byte = self.char = 0
        self.char += len(self.data[self.byte : byte].decode("utf-8", errors="replace"))
        self.byte = byte
        return self.char


def read_xml(text: str) -> tuple[XmlElement | None, list[Diagnostic]]:
    """The root element, or None with an error saying why (with the position expat stopped at)."""
    from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden  # noqa: PLC0415 - lazy: start-up, defusedxml loads only when used
    from defusedxml.ElementTree import DefusedXMLParser  # noqa: PLC0415 - lazy: start-up, defusedxml loads only when used

    data = text.encode("utf-8", errors="surrogatepass")
    offsets = _Offsets(text, data)
    hardened = DefusedXMLParser(encoding="utf-8")
    parser = hardened.parser
    parser.ordered_attributes = False
    parser.buffer_text = True
    stack: list[_Open] = []
    roots: list[XmlElement] = []

    def start(tag: str, _attrib: dict) -> None:
        begin = offsets(parser.CurrentByteIndex)
        if len(stack) >= MAX_DEPTH:
            raise _TooDeep(begin)
        end = _tag_end(text, begin)
        name_span = Span(begin + 1, begin + 1 + len(tag))
        attrs = tuple(_attrs(text, name_span.end, end, _attrib))
        stack.append(_Open(tag, attrs, begin, end, name_span, [], []))

    def end(_tag: str) -> None:
        node = stack.pop()
        here = offsets(parser.CurrentByteIndex)
        if text.startswith("/>", node.start_tag_end - 2) and here <= node.start_tag_end:
            close = node.start_tag_end
            inner = Span(node.start_tag_end, node.start_tag_end)
        else:
            gt = text.find(">", here)
            close = gt + 1 if gt >= 0 else len(text)
            inner = Span(node.start_tag_end, here)
        raw = text[inner.start : inner.end]
        stripped = raw.strip()
        text_span = None
        if stripped and not node.children:
            lead = len(raw) - len(raw.lstrip())
            text_span = Span(inner.start + lead, inner.start + lead + len(stripped))
        element = XmlElement(
            node.tag, node.attrs, tuple(node.children), "".join(node.text).strip(),
            Span(node.start, close), node.name_span, Span(node.start, node.start_tag_end), text_span,
        )
        (stack[-1].children if stack else roots).append(element)

    def chars(data: str) -> None:
        if stack:
            stack[-1].text.append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        at = _position(text, exc.lineno, exc.offset)
        reason = expat.ErrorString(exc.code) if exc.code else str(exc)
        return None, [Diagnostic("xml-syntax", _plain(reason, text, at), Span(at, min(at + 1, len(text))))]
    except (EntitiesForbidden, ExternalReferenceForbidden) as exc:
        at = _position(text, parser.CurrentLineNumber, parser.CurrentColumnNumber)
        at = max(text.rfind("<!ENTITY", 0, at + 1), 0) if isinstance(exc, EntitiesForbidden) else at
        name = getattr(exc, "name", "") or ""
        external = isinstance(exc, ExternalReferenceForbidden) or getattr(exc, "sysid", None)
        what = f'the external entity "{name}"' if external else f'the entity "{name}"'
        message = (
            f"the file declares {what}; sylla does not expand entities (they can read local files "
            "or expand to gigabytes), and the game's configs never need them"
        )
        return None, [Diagnostic("xml-entity", message, Span(at, min(at + 8, len(text))))]
    except _TooDeep as exc:
        message = f"elements are nested more than {MAX_DEPTH} levels deep; a trial config needs 7"
        return None, [Diagnostic("xml-syntax", message, Span(exc.offset, exc.offset + 1))]
    except DTDForbidden:  # pragma: no cover - DTDs are allowed, only entities are refused
        return None, [Diagnostic("xml-entity", "the file has a DTD; remove it", Span(0, 1))]
    if not roots:
        return None, [Diagnostic("xml-syntax", "the file has no root element", Span(0, 0))]
    return roots[0], []


class _TooDeep(Exception):
    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


def _tag_end(text: str, begin: int) -> int:
    """The offset after the ``>`` that closes the start tag at ``begin`` (quotes respected)."""
    i, n, quote = begin + 1, len(text), ""
    while i < n:
        c = text[i]
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == ">":
            return i + 1
        i += 1
    return n


def _attrs(text: str, start: int, end: int, parsed: dict) -> Iterator[XmlAttr]:
    """Attributes with their positions from the start tag's text; the values are the parser's
    (entities replaced, whitespace normalised as XML requires)."""
    for m in _ATTR.finditer(text, start, end):
        group = 2 if m.group(2) is not None else 3
        value = parsed.get(m.group(1), _unescape(m.group(group)))
        yield XmlAttr(
            m.group(1), value, Span(m.start(), m.end()), Span(m.start(1), m.end(1)),
            Span(m.start(group), m.end(group)),
        )


def _unescape(value: str) -> str:
    if "&" not in value:
        return value
    from xml.sax.saxutils import unescape  # noqa: PLC0415 - lazy: start-up, xml.sax.saxutils loads only when used

    return unescape(value, {"&quot;": '"', "&apos;": "'"})


def _position(text: str, line: int, column: int) -> int:
    """Offset of expat's 1-based line and 0-based column (columns counted in UTF-8 bytes)."""
    index = LineIndex(text)
    start = index.offset(line, 1)
    line_text = index.line_text(line) if 1 <= line <= index.line_count else ""
    prefix = line_text.encode("utf-8")[:column].decode("utf-8", errors="ignore")
    return min(start + len(prefix), len(text))


def _plain(reason: str, text: str, at: int) -> str:
    """expat's terse reasons, in words an author can act on."""
    words = {
        "no element found": "the file ends before the root element is closed (truncated?)",
        "unclosed token": "the file ends inside a tag or value (truncated?)",
        "mismatched tag": "this end tag does not match the element it closes",
        "not well-formed (invalid token)": "this character cannot appear here in XML",
        "syntax error": "this is not XML",
        "junk after document element": "there is content after the root element's end tag",
        "duplicate attribute": "the same attribute is written twice on this element",
        "unclosed CDATA section": "a CDATA section is never closed",
        "undefined entity": "this entity is not defined (only &lt; &gt; &amp; &quot; &apos; are)",
    }
    plain = words.get(reason, reason)
    return f"XML error: {plain}" if plain == reason else f"XML error: {plain} ({reason})"
