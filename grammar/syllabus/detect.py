"""``is_syllabus``: the one decision of whether a JSON file is a syllabus at all.

Editors open every JSON file, pre-commit passes every staged ``.json``/``.jsonc`` and a folder
holds ``package.json`` beside the syllabi. Linting a file that is not a syllabus only produces
noise ("missing instructions" on ``package.json``), so the CLI on explicit paths, directory
walks, the pre-commit hook and the language server all ask this function, and a file it turns
away gets no finding at all.

A file is a syllabus when

- it is a JSON object whose ``instructions`` is a list (the file format of the reference text), or
- it holds one of the directives ``$phase``, ``$repeat``, ``$episode``, ``$dataset``, ``$info``
  as a key, so that a bare instruction list, a fragment, or a file whose ``instructions`` key is
  misspelt still counts and gets its "did you mean", or
- the configuration says so (``force``).

The test is textual and cheap (it runs on every keystroke in the editor): a regular
expression over the decoded text, confirmed by ``json.loads`` only when the sole evidence
is an ``instructions`` key, to tell ``"instructions": [...]`` at the top level from one
nested in some other tool's config or a string-valued ``"instructions": "You are..."``.
"""

from __future__ import annotations

import json
import os
import re

from sylla.grammar.syllabus import SUFFIXES
from sylla.grammar.syllabus.decode import utf16_without_bom

_DIRECTIVE = re.compile(r'(?<!\\)"\$(?:phase|repeat|episode|dataset|info)"\s*:')
#: asked only of a text without directives, so compiled on first use (re caches it): compiling a regular expression at import is 0.3-1M instructions a small lint need not spend (issue 24)
_INSTRUCTIONS_LIST = r'(?<!\\)"instructions"\s*:\s*(?:(?://[^\n]*\n|/\*.*?\*/)\s*)*\['


def sniff_text(data: bytes | str) -> str:
    """The text of ``data`` for detection.

    UTF-8 (with or without BOM) and UTF-16 (with a BOM, or ASCII-range text without one) are decoded, so that a UTF-16 syllabus
    is recognised and then told to be saved as UTF-8 by the linter instead of being skipped
    without a word. Undecodable bytes are replaced rather than fatal, and NUL bytes stay: a
    syllabus with a stray NUL still holds its directives, and is linted (the NUL is an error
    there, as in the editor) rather than skipped as binary, which would pass it (issue 38).
    """
    if isinstance(data, str):
        return data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if b"\x00" in data[:8192]:
        encoding = utf16_without_bom(data)
        if encoding:
            return data.decode(encoding, errors="replace")
    return data.decode("utf-8", errors="replace")


def is_binary(data: bytes | str) -> bool:
    """Whether ``data`` holds a NUL byte that is not UTF-16's: what tools (pre-commit's
    ``identify``, git, grep) take for a binary file and skip. A file the languages' detection
    turns away is still linted when it is binary and looks like one of them by name or first
    character (``languages.language_of``): a binary file is never passed for lack of a look."""
    if isinstance(data, str):
        return "\x00" in data
    return b"\x00" in data and not (data.startswith((b"\xff\xfe", b"\xfe\xff")) or utf16_without_bom(data))


def is_syllabus(data: bytes | str, *, force: bool = False) -> bool:
    """Whether ``data`` (the bytes or text of a ``.json``/``.jsonc`` file) is a syllabus."""
    if force:
        return True
    text = sniff_text(data)
    if _DIRECTIVE.search(text):
        return True
    if not re.search(_INSTRUCTIONS_LIST, text, re.S):
        return False
    try:
        value = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        # JSONC (comments, trailing commas), or a text json.loads cannot read (nested deeper
        # than its recursion, a number of more digits than Python converts): the textual
        # evidence is all there is, and a nested ``"instructions": [`` in a commented config
        # file is rare enough to accept. The linter then says what is wrong with the text.
        return True
    return isinstance(value, dict) and isinstance(value.get("instructions"), list)


def is_syllabus_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is a syllabus: a ``.json``/``.jsonc`` file whose first MiB
    `is_syllabus` accepts. An unreadable file is not one (its caller reports the path)."""
    if not os.fspath(path).lower().endswith(SUFFIXES):
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(1 << 20)
    except OSError:
        return False
    return is_syllabus(head)
