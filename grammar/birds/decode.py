"""Bytes to text for Science Birds configs: by byte-order mark or by sniffing, never by the declaration.

The game writes ``<?xml version="1.0" encoding="utf-16"?>`` but saves the file as ASCII: it
reads the file into a string first, so the declaration is never consulted. Strict XML tools
believe the declaration and refuse the file. sylla decodes from the bytes (BOM, else the
``<?`` pattern of UTF-16 without BOM, else UTF-8), parses the decoded text, and reports a
declaration that disagrees with the bytes as information (B803: the game never reads it). ``encode_like`` writes fixed text
back in exactly the encoding it was read in, so a fix never changes the file's encoding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sylla.grammar.core import Diagnostic, Severity, Span

from .detect import sniff_codec

#: files above this size get a clear error instead of a parse (a real config.xml is a few MB)
MAX_BYTES = 32 * 1024 * 1024

_DECLARATION = re.compile(r"""\A\s*<\?xml\b[^>]*?\bencoding\s*=\s*(["'])([A-Za-z0-9._-]+)\1""")


@dataclass
class Decoded:
    """The text (None when the bytes cannot be read as text) and what decoding found.

    ``encoding`` is the codec the bytes were read with and ``bom`` the mark that preceded
    them; ``ascii`` says whether every byte was 7-bit (then UTF-8, ASCII and Latin-1 agree).
    """

    text: str | None
    encoding: str = "utf-8"
    bom: bytes = b""
    ascii: bool = True
    problems: list[Diagnostic] = field(default_factory=list)
    declared: str | None = None
    declared_span: Span | None = None


def decode(data: bytes | str) -> Decoded:
    if isinstance(data, str):
        text = data[1:] if data.startswith("\ufeff") else data
        out = Decoded(text, encoding="text", ascii=text.isascii())
        if not _nul(out, "text"):
            _declaration(out)
        return out
    if len(data) > MAX_BYTES:
        size = len(data) / (1024 * 1024)
        message = f"file is {size:.1f} MB; sylla reads Science Birds configs up to {MAX_BYTES // (1024 * 1024)} MB"
        return Decoded(None, problems=[Diagnostic("xml-too-large", message, Span(0, 0))])
    codec, bom = sniff_codec(data)
    return _decode_as(data[len(bom):], codec, bom)


def _decode_as(body: bytes, codec: str, bom: bytes) -> Decoded:
    """The text of ``body``, or the first place it cannot be XML text: a byte sequence that is
    not valid in ``codec``, or a NUL (which a text file never holds, and which the XML reader
    would stop at with a vaguer message), each reported at its own line and column."""
    out = Decoded(None, encoding=codec, bom=bom, ascii=codec == "utf-8" and body.isascii())
    invalid: Diagnostic | None = None
    try:
        out.text = body.decode(codec)
    except UnicodeDecodeError as exc:
        out.text = body.decode(codec, errors="replace")
        good = body[: exc.start].decode(codec, errors="replace")
        shown = " ".join(f"0x{b:02X}" for b in body[exc.start : min(exc.end, exc.start + 4)])
        invalid = Diagnostic("xml-encoding", f"invalid {_name(codec)} ({shown}); the file cannot be read as text", Span(len(good), len(good) + 1))
    if _nul(out, codec, invalid.span.start if invalid is not None else None):
        return out
    if invalid is not None:
        out.problems.append(invalid)
        return out
    _declaration(out)
    return out


def _nul(out: Decoded, codec: str, before: int | None = None) -> bool:
    """Report the text's first NUL (if it comes before ``before``); whether there was one."""
    assert out.text is not None
    nul = out.text.find("\x00", 0, len(out.text) if before is None else before)
    if nul < 0:
        return False
    hint = " (a binary file, or text saved as UTF-16 or UTF-32 without a byte-order mark?)" if codec == "utf-8" else ""
    message = f"a NUL byte: XML text cannot hold one{hint}; the file cannot be read as a config"
    out.problems.append(Diagnostic("xml-binary", message, Span(nul, nul + 1)))
    return True


def _declaration(out: Decoded) -> None:
    """Record the declared encoding and warn when the bytes say otherwise."""
    assert out.text is not None
    m = _DECLARATION.match(out.text)
    if m is None:
        return
    out.declared = m.group(2)
    out.declared_span = Span(m.start(2), m.end(2))
    if out.encoding == "text":
        return  # an editor buffer: the bytes on disk are not known here
    declared = _family(out.declared)
    actual = _family(out.encoding)
    if declared == actual or (out.ascii and declared in ("utf-8", "ascii", "latin-1")):
        return
    saved = "ASCII" if out.ascii else _name(out.encoding)
    out.problems.append(
        Diagnostic(
            "xml-encoding-mismatch",
            f'the declaration says encoding="{out.declared}" but the file is saved as {saved}; '
            f"the game ignores the declaration, strict XML tools refuse the file",
            out.declared_span,
            Severity.INFO,
        )
    )


def _family(name: str) -> str:
    n = name.lower().replace("_", "-")
    if n in ("utf8", "utf-8", "utf-8-sig"):
        return "utf-8"
    if n.startswith("utf-16") or n in ("utf16", "ucs-2", "unicode"):
        return "utf-16"
    if n.startswith("utf-32") or n == "utf32":
        return "utf-32"
    if n in ("ascii", "us-ascii"):
        return "ascii"
    if n in ("latin-1", "latin1", "iso-8859-1", "iso8859-1"):
        return "latin-1"
    return n


def _name(codec: str) -> str:
    return {"utf-8": "UTF-8", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-32-le": "UTF-32", "utf-32-be": "UTF-32"}.get(codec, codec)


def encode_like(decoded: Decoded, text: str) -> bytes:
    """``text`` in the encoding and with the byte-order mark the file was read with."""
    codec = "utf-8" if decoded.encoding == "text" else decoded.encoding
    return decoded.bom + text.encode(codec)
