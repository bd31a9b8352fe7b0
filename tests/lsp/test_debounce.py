"""The lint scheduler when a lint raises: the editor is told, never shown a clean file.

The linter is made to raise on purpose here (no known input makes it raise since issue 38);
what is tested is the scheduler and the server's failure outcome around it, on a real event
loop and the scheduler's real worker thread.
"""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from sylla.lsp.debounce import LintScheduler, Snapshot
from sylla.lsp.diagnostics import LintOutcome, failed_outcome

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
