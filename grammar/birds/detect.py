"""Is this file a Science Birds trial config? By its root element, never by its name alone.

- ``birds_kind(data)``: ``"meta"`` (``<config_generation>``), ``"generated"`` (``<evaluation>``)
  or None, from the first start tag after the XML declaration, comments, processing
  instructions and doctype, however long they are (a 64 KB head used to hide a root behind a
  long comment, and the config was skipped with exit 0);
- ``claims(data, path)``: whether sylla lints the file as a config. A file whose root element
  can be read is one exactly when the root is a config's. A file that starts like XML but
  whose root cannot be read because of bytes XML cannot hold (a NUL inside a tag, bytes that
  are not text) is one, so that the lint reports those bytes at their position instead of
  skipping the file (the pre-commit hook's promise: never a false pass); so is a file named
  ``*.xml`` that does not start like XML and holds such bytes, or a config's root tag at the
  start of a line. A file that is cut off or garbled before its root is one when a config's
  root tag, or such a character, is in it. An empty file, one whose root is still being typed
  (an editor's new buffer, which the language server then keeps serving in its first
  language), and a syllabus that happens to be named ``*.xml`` are not.

The check is cheap on files that are not XML (a JSON file is answered by its first character)
and loads nothing but the regular expressions (issue 24). Patterns are compiled on first use
(``re`` caches them): compiling at import is 0.3-1M instructions a small lint need not spend.
"""

from __future__ import annotations

import re

from .kinds import ROOTS, Kind

#: XML's white space (not Python's ``\s``, which also takes the C0 separators XML refuses); the
#: VS Code extension's sniff (vscode-extension/src/birdsSniff.ts) spells every pattern the same
_WS = r"[ \t\r\n]"
#: what may come before the root element: the declaration and other processing instructions,
#: comments, the doctype (with an internal subset)
_SKIP = _WS + r"*(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(?:\[.*?\])?" + _WS + r"*>)"
_NAME = r"[A-Za-z_:][A-Za-z0-9_.:-]*"
#: a config's root start tag anywhere (only asked of a file whose prolog could not be read)
_ANY_ROOT = r"<(?:config_generation|evaluation)(?=[ \t\r\n/>]|\Z)"
#: the same at the start of a line: in a file that does not start like XML, a config's root
#: after some junk, never a JSON string that happens to hold the tag
_LINE_ROOT = r"(?:\A|\n)" + _WS + "*" + _ANY_ROOT
#: characters no XML text can hold: NUL, the other C0 controls but tab, LF and CR, and the
#: replacement character that bytes which are not text in the file's codec decode to
_UNREADABLE = r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]"
#: how much of a file's bytes to decode first; the rest only when the root is not found in it
HEAD = 65536
#: longest first: the UTF-32 LE mark starts with the UTF-16 LE one
BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def sniff_codec(data: bytes) -> tuple[str, bytes]:
    """The codec of ``data`` and the byte-order mark it starts with (empty without one): by the
    mark, else by the pattern of ASCII markup in UTF-16 (XML 1.0, appendix F: two ASCII
    characters each followed, or preceded, by a zero byte), else UTF-8, where a NUL byte is a
    character the decoder then reports at its position. The declaration is never asked.

    Detection and the decoder (``decode``) both ask this one function, so the two never
    disagree about a file: a UTF-16 file without a mark that detection took for a config used
    to be refused by the decoder as binary."""
    for bom, codec in BOMS:
        if data.startswith(bom):
            return codec, bom
    head = data[:4]
    if len(head) == 4:
        if head[1] == 0 and head[3] == 0 and 0 < head[0] < 0x80 and 0 < head[2] < 0x80:
            return "utf-16-le", b""
        if head[0] == 0 and head[2] == 0 and 0 < head[1] < 0x80 and 0 < head[3] < 0x80:
            return "utf-16-be", b""
    return "utf-8", b""


def birds_kind(data: bytes | str) -> Kind | None:
    """``"meta"`` for ``<config_generation>``, ``"generated"`` for ``<evaluation>``, else None."""
    status, name, _text = _root(data)
    return ROOTS.get(name) if status == "root" and name is not None else None


def claims(data: bytes | str, path: str | None = None) -> bool:
    """Whether the file is linted as a Science Birds config (see the module's docstring)."""
    status, name, text = _root(data)
    if status == "root":
        return name in ROOTS
    if status == "not-xml":  # another language's text, or bytes that are no text at all
        if path is None or not path.lower().endswith(".xml"):
            return False
        if isinstance(data, bytes):
            codec, bom = sniff_codec(data)
            text = data[len(bom) :].decode(codec, errors="replace")  # all of it, not the head
        return re.search(_UNREADABLE, text) is not None or re.search(_LINE_ROOT, text) is not None
    # "open": a prolog cut off or garbled before any root; a config's when its root tag is in
    # it, or when it holds characters XML cannot hold (it starts like XML, and is broken)
    return status == "unreadable" or re.search(_ANY_ROOT, text) is not None or re.search(_UNREADABLE, text) is not None


def _root(data: bytes | str) -> tuple[str, str | None, str]:
    """The scan of ``data``'s prolog and the text it read: ``("root", name, text)``, or a status
    saying why no root was read: ``"not-xml"`` (the text does not start with ``<``: JSON, a
    binary file), ``"unreadable"`` (a character XML cannot hold stopped the scan), ``"open"``
    (the text ends, or goes wrong in another way, before a root start tag is read)."""
    if isinstance(data, str):
        return (*_scan(data), data)
    codec, bom = sniff_codec(data)
    text = data[len(bom) : len(bom) + HEAD].decode(codec, errors="replace")
    status, name = _scan(text)
    if status in ("root", "not-xml") or len(data) <= len(bom) + HEAD:
        return status, name, text
    text = data[len(bom) :].decode(codec, errors="replace")
    return (*_scan(text), text)


def _scan(text: str) -> tuple[str, str | None]:
    """(status, root name): the first start tag after the prolog, or why there is none."""
    pos = re.compile(r"[ \t\r\n\ufeff]*").match(text).end()  # type: ignore[union-attr]  # a pattern that matches the empty string always matches
    if pos < len(text) and text[pos] != "<":
        return "not-xml", None
    skip = re.compile(_SKIP, re.S)
    while True:
        m = skip.match(text, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
    pos = re.compile(_WS + "*").match(text, pos).end()  # type: ignore[union-attr]  # as above
    unreadable = re.compile(_UNREADABLE)
    if unreadable.match(text, pos) or (text.startswith("<", pos) and unreadable.match(text, pos + 1)):
        return "unreadable", None
    m = re.compile(_NAME).match(text, pos + 1) if text.startswith("<", pos) else None
    if m is None:
        return "open", None
    after = text[m.end() : m.end() + 1]
    if unreadable.match(after):
        return "unreadable", None
    if after.isalnum():  # a name that goes on in letters beyond ASCII: not a config's root
        return "root", m.group(0) + after
    if not after and m.group(0) not in ROOTS:
        return "open", None  # the root's name may still be being typed
    return "root", m.group(0)
