"""The editor's Fix All and ``sylla lint --fix`` give the same bytes (issue 28, item 2).

The same texts (every syllabus and Science Birds fixture under tests/fixtures and examples/,
plus structure-aware mutants of them from ``fuzzing.syllabus.mutate``) go through both paths:
the CLI, in process, on a file in a temporary folder (``sylla lint --fix FILE``: the real
read, fix loop and atomic write), and a real ``sylla lsp`` subprocess asked for the
``source.fixAll`` code action on the same file opened as an editor opens it (the text without
its byte-order mark), whose edit is applied as an editor applies it and saved with the BOM the
file had. Every pair must be byte-identical.

Mutant ``k`` is built from ``random.Random(f"fix-all:{k}")``, so a failure names a replayable
input. ``SYLLA_FIX_ALL_MUTANTS`` sets how many (default 2,290: with today's 134 seed files, the
2,424 texts of issue 28's measurement; about 90 s). ``SYLLA_FIX_ALL_REPORT=FILE`` writes the
count and the labels of the texts that differ.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
from pathlib import Path

import pytest
from fuzzing.syllabus import mutate
from lsp_support import RecordingClient
from lsprotocol import types

from sylla.cli import main as sylla_main
from sylla.linter.languages import language_of

pytestmark = [pytest.mark.editor, pytest.mark.parity, pytest.mark.slow, pytest.mark.asyncio]

REPO = Path(__file__).resolve().parents[2]
BOM = b"\xef\xbb\xbf"
MUTANTS = int(os.environ.get("SYLLA_FIX_ALL_MUTANTS", "2290"))
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def seed_files() -> list[tuple[str, bytes]]:
    """The fixtures and examples sylla lints (syllabi and Science Birds configs) that an editor
    opens as UTF-8, as (name relative to the repository, bytes)."""
    rule_cases = REPO / "tests" / "fixtures" / "rules"  # the RuleTester's one-change pairs: near-copies
    files = sorted(p for p in REPO.glob("tests/fixtures/**/*") if not p.is_relative_to(rule_cases)) + sorted(REPO.glob("examples/**/*"))
    out = []
    for f in files:
        if not f.is_file() or f.suffix.lower() not in (".json", ".jsonc", ".xml"):
            continue
        data = f.read_bytes()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if language_of(str(f), data) is not None:
            out.append((str(f.relative_to(REPO)), data))
    return out


def texts() -> list[tuple[str, str, bytes]]:
    """(label, file name to save as, bytes): the seed files, then the mutants of the syllabi."""
    seeds = seed_files()
    out = [(name, Path(name).name, data) for name, data in seeds]
    syllabi = [(n, d) for n, d in seeds if not n.endswith(".xml")]
    for k in range(MUTANTS):
        rng = random.Random(f"fix-all:{k}")
        name, data = rng.choice(syllabi)
        mutant = mutate(data.decode("utf-8"), rng, rng.randint(1, 4))
        suffix = rng.choice([".json", ".jsonc"])
        out.append((f"mutant {k} of {name}", f"mutant{suffix}", mutant.encode("utf-8")))
    return out


def as_editor_opens(data: bytes) -> str:
    """The buffer an editor shows for a UTF-8 file: the text without its byte-order mark."""
    return data.decode("utf-8").removeprefix("\ufeff")


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits with UTF-16 positions (the default encoding) as an editor does: every
    range refers to the text before the edits, so they go from the last to the first."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]

    def offset(p: types.Position) -> int:
        if p.line >= len(starts):
            return len(text)
        start = starts[p.line]
        end = starts[p.line + 1] if p.line + 1 < len(starts) else len(text)
        units = 0
        i = start
        while i < end and units < p.character:
            units += 2 if ord(text[i]) > 0xFFFF else 1
            i += 1
        return i

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


async def editor_fix_all(client: RecordingClient, path: Path, data: bytes) -> bytes:
    """What the editor saves after Fix All on the file ``path`` holding ``data``."""
    uri = path.as_uri()
    text = as_editor_opens(data)
    language = "xml" if path.suffix == ".xml" else "jsonc" if path.suffix == ".jsonc" else "json"
    client.open(uri, text, language_id=language)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    fixed = text
    for action in actions or []:
        assert action.edit is not None and action.edit.changes is not None
        fixed = apply_edits(text, action.edit.changes[uri])
    saved = fixed.encode("utf-8")
    return BOM + saved if data.startswith(BOM) else saved


def cli_fix(path: Path) -> bytes:
    """``sylla lint --fix FILE`` in process; the file's bytes afterwards."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = sylla_main(["lint", "--fix", str(path)])
    assert code in (0, 1), f"sylla lint --fix {path} exited {code}"
    return path.read_bytes()


async def test_fix_all_equals_lint_fix_on_every_text(client: RecordingClient, tmp_path: Path) -> None:
    corpus = texts()
    assert len(corpus) >= MUTANTS + 40
    differ: list[str] = []
    for i, (label, name, data) in enumerate(corpus):
        folder = tmp_path / str(i)
        folder.mkdir()
        path = folder / name
        path.write_bytes(data)
        editor = await editor_fix_all(client, path, data)
        cli = cli_fix(path)
        if editor != cli:
            differ.append(label)
    report = os.environ.get("SYLLA_FIX_ALL_REPORT")
    if report:
        Path(report).write_text("\n".join([f"{len(differ)} of {len(corpus)} differ", *differ]) + "\n")
    assert differ == [], f"{len(differ)} of {len(corpus)} texts: Fix All != lint --fix: {differ[:20]}"
