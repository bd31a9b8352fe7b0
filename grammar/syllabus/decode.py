"""Turn the bytes of a file into text, reporting what strict JSON readers would choke on.

A syllabus is UTF-8. A byte-order mark is dropped (and recorded, since ``json.load`` refuses
it), invalid UTF-8 sequences are reported with their position and replaced so that parsing
can go on, and a file whose bytes are mostly not text (random or compressed data, a file of
zeros) is called binary, or UTF-16 when its BOM or its pattern of zeros says so, instead of
being fed to the parser. A stray NUL byte in a text is text: the lexer reports it where it is
(S103 in a string, S108 elsewhere), exactly as for an editor's buffer holding the same
characters, so that the command line and the editor agree on the same file (issue 38).
"""

from __future__ import annotations

import re

from sylla.grammar.core import Diagnostic, Span
from sylla.grammar.syllabus.model import NonJson, NonJsonKind
from sylla.kit.record import field, record

#: invalid UTF-8, as ``surrogateescape`` decodes it: never in an ASCII text, so the pattern is
#: compiled (and cached by re) only for a text that is not (start-up: compiling it and the
#: control characters' pattern at import was 0.6M instructions of every lint, issue 24)
_BAD_BYTES = "[\udc80-\udcff]+"
_MAX_REPORTS = 20
#: control characters that never occur in JSON text outside strings (tab, LF, CR, FF are fine)
_CONTROL = "".join(map(chr, [*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F]))
_SAMPLE = 8192
#: the share of undecodable or control characters above which a file is not text at all
_BINARY_SHARE = 0.2


@record()
class Decoded:
    text: str | None
    problems: list[Diagnostic] = field(default_factory=list)
    non_json: list[NonJson] = field(default_factory=list)


def decode(data: bytes | str) -> Decoded:
    if isinstance(data, str):
        if data.startswith("\ufeff"):
            return Decoded(data[1:], non_json=[NonJson(NonJsonKind.BOM, Span(0, 0))])
        return Decoded(data)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or utf16_without_bom(data):
        return Decoded(None, [Diagnostic("encoding", "file is UTF-16 encoded; save it as UTF-8", Span(0, 0))])
    out = Decoded(None)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        out.non_json.append(NonJson(NonJsonKind.BOM, Span(0, 0)))
    text = data.decode("utf-8", errors="surrogateescape")
    share = _binary_share(text)
    if share > _BINARY_SHARE:
        message = f"this is not a text file ({share:.0%} of its first characters are NUL, invalid UTF-8 or control characters); a syllabus is UTF-8 text"
        return Decoded(None, [Diagnostic("binary", message, Span(0, 0))])
    if not text.isascii() and re.search(_BAD_BYTES, text):
        for n, m in enumerate(re.finditer(_BAD_BYTES, text)):
            if n == _MAX_REPORTS:
                break
            shown = " ".join(f"0x{ord(c) - 0xDC00:02X}" for c in m.group()[:4])
            out.problems.append(
                Diagnostic("invalid-utf8", f"invalid UTF-8 ({shown}); a syllabus must be UTF-8", Span(m.start(), m.end()))
            )
        text = re.sub(_BAD_BYTES, lambda m: "\ufffd" * len(m.group()), text)
    out.text = text
    return out


def utf16_without_bom(data: bytes) -> str | None:
    """``"utf-16-le"``/``"utf-16-be"`` when ``data`` is ASCII-range text saved as UTF-16 with no BOM.

    Some Windows tools write UTF-16 without a byte-order mark; every other byte is then NUL.
    Calling such a file binary would hide that it is a syllabus saved in the wrong encoding.
    """
    sample = data[:_SAMPLE]
    if len(sample) < 4 or b"\x00" not in sample:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) >= 0.9 * len(odd) and even.count(0) == 0:
        return "utf-16-le"
    if even.count(0) >= 0.9 * len(even) and odd.count(0) == 0:
        return "utf-16-be"
    return None


def _binary_share(text: str) -> float:
    """Random or compressed bytes without NUL: one "not a text file", rather than twenty
    invalid-UTF-8 findings and a hundred syntax errors about characters no one wrote.
    A Latin-1 file with some accented letters stays well below the share and is reported
    byte by byte, because there the positions help."""
    sample = text[:_SAMPLE]
    if not sample:
        return 0.0
    bad = sum(map(sample.count, _CONTROL))
    if not sample.isascii():
        bad += sum(len(m.group()) for m in re.finditer(_BAD_BYTES, sample))
    return bad / len(sample)
