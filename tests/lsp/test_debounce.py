"""The lint scheduler when a lint raises: the editor is told, never shown a clean file.

The linter is made to raise on purpose here (no known input makes it raise since issue 38);
what is tested is the scheduler and the server's failure outcome around it, on a real event
loop and the scheduler's real worker thread.
"""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from sylla.lsp.debounce import LintScheduler, Snapshot, Superseded
from sylla.lsp.diagnostics import LintOutcome, empty_outcome, failed_outcome

URI = "file:///tmp/broken.json"
TEXT = '{"instructions": [{"$phase": "1.train"}]}'


def _raise(snap: Snapshot) -> LintOutcome:
    raise RecursionError("maximum recursion depth exceeded")


async def _published(failed: bool) -> list[LintOutcome]:
    published: list[LintOutcome] = []
    done = asyncio.Event()

    def publish(outcome: LintOutcome) -> None:
        published.append(outcome)
        done.set()

    snap = Snapshot(URI, 3, TEXT)
    scheduler = LintScheduler(
        lambda uri: snap, _raise, publish,
        failed=(lambda s, exc: failed_outcome(s.uri, s.version, s.text, "utf-16", exc)) if failed else None,
    )
    scheduler.schedule(URI, immediate=True)
    task = next(iter(scheduler._tasks.values()))
    await asyncio.wait({task, asyncio.ensure_future(done.wait())}, return_when=asyncio.FIRST_COMPLETED)
    await asyncio.gather(task, return_exceptions=True)
    return published


@pytest.mark.asyncio
async def test_a_lint_that_raises_is_published_as_an_error_on_the_first_line() -> None:
    published = await _published(failed=True)
    assert len(published) == 1
    outcome = published[0]
    assert (outcome.uri, outcome.version, outcome.findings) == (URI, 3, [])
    [diagnostic] = outcome.diagnostics
    assert diagnostic.severity == types.DiagnosticSeverity.Error and diagnostic.code == "internal-error"
    assert diagnostic.range.start == types.Position(line=0, character=0)
    assert "RecursionError" in diagnostic.message and "findings are unknown" in diagnostic.message


@pytest.mark.asyncio
async def test_without_a_failure_outcome_the_scheduler_publishes_nothing() -> None:
    # the behaviour the server had before: the reason it now always passes ``failed``
    assert await _published(failed=False) == []


def test_the_server_schedules_its_lints_with_the_failure_outcome() -> None:
    from sylla.lsp.server import create_server

    # the outcome itself needs an initialised server (its position encoding): tested above
    assert create_server().scheduler._failed is not None


def _superseded(snap: Snapshot) -> LintOutcome:
    raise Superseded(f"{snap.uri} has a newer version")


@pytest.mark.asyncio
async def test_a_lint_stopped_because_its_document_changed_publishes_nothing() -> None:
    """A lint that stops at a step because its document has changed (``Superseded``) is not a
    failure: neither its outcome nor an internal-error diagnostic is published; the newer
    version's lint publishes."""
    published: list[LintOutcome] = []
    snap = Snapshot(URI, 3, TEXT)
    scheduler = LintScheduler(
        lambda uri: snap, _superseded, published.append,
        failed=lambda s, exc: failed_outcome(s.uri, s.version, s.text, "utf-16", exc),
    )
    scheduler.schedule(URI, immediate=True)
    task = next(iter(scheduler._tasks.values()))
    await asyncio.gather(task)
    assert scheduler.runs == 1 and published == []


@pytest.mark.asyncio
async def test_an_outcome_asked_for_is_made_again_for_the_newer_text_when_its_lint_was_superseded() -> None:
    """Pull diagnostics and code actions ask for the current text's outcome: when the lint
    they started is superseded, they get the newer text's, not nothing."""
    texts = [Snapshot(URI, 3, TEXT), Snapshot(URI, 4, TEXT.replace("1.train", "1.test"))]
    current = {"snap": texts[0]}

    def compute(snap: Snapshot) -> LintOutcome:
        if snap.version == 3:
            current["snap"] = texts[1]  # the editor's change arrives while this lint runs
            raise Superseded("version 4 arrived")
        return empty_outcome(snap.uri, snap.version, snap.text, "utf-16")

    scheduler = LintScheduler(lambda uri: current["snap"], compute, lambda outcome: None)
    outcome = await scheduler.current(URI)
    assert outcome is not None and (outcome.version, outcome.text) == (4, texts[1].text)
