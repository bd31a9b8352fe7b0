"""Shared pieces of the language-server tests: a real ``sylla lsp`` subprocess driven over
stdio by pytest-lsp's client, which also records every published diagnostic with its version
so a test can wait for the diagnostics of exactly the version it sent."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterator

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lsp"
SERVER_COMMAND = [sys.executable, "-m", "sylla", "lsp"]


class RecordingClient(LanguageClient):
    """pytest-lsp's client, also keeping every publishDiagnostics and showMessage."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.shown: list[types.ShowMessageParams] = []
        #: (method, monotonic time) of each workspace/inlayHint|foldingRange/refresh received
        self.refreshes: list[tuple[str, float]] = []
        #: workspace/configuration requests answered (the settings the server pulled)
        self.configurations_sent = 0

    async def settings_sent(self, count: int = 1, timeout: float = 60.0) -> None:
        """Wait until the server has pulled the settings ``count`` times: the answer is then
        on its way, ahead of anything the test sends next (``timeout`` bounds a hang)."""
        deadline = time.monotonic() + timeout
        while self.configurations_sent < count:
            assert time.monotonic() < deadline, "the server never asked for its settings"
            await asyncio.sleep(0.01)

    async def diagnostics_until(self, uri: str, version: int | None, wanted: Callable[[list[types.Diagnostic]], bool],
                                timeout: float = 60.0) -> list[types.Diagnostic]:
        """The diagnostics published for ``uri`` at ``version`` once they satisfy ``wanted``.
        For a change the server learns of asynchronously (settings it pulled): a lint that ran
        before it took effect may be published first, however the machine's timing falls."""
        deadline = time.monotonic() + timeout
        while True:
            got = await self.diagnostics_for(uri, version, timeout=max(deadline - time.monotonic(), 0.01))
            if wanted(got) or time.monotonic() >= deadline:
                return got
            await asyncio.sleep(0.01)

    async def diagnostics_for(self, uri: str, version: int | None, timeout: float = 60.0) -> list[types.Diagnostic]:
        """Wait for the diagnostics published for ``uri`` at ``version`` (``timeout`` bounds a
        hang: a lint on a loaded machine may take many times its usual time)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for p in reversed(self.published):
                if p.uri == uri and p.version == version:
                    return list(p.diagnostics)
            await asyncio.sleep(0.01)
        raise AssertionError(f"no diagnostics for {uri} v{version}; got {[(p.uri, p.version) for p in self.published]}")

    def open(self, uri: str, text: str, version: int = 1, language_id: str = "json") -> None:
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)
            )
        )

    def change(self, uri: str, version: int, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=text
                    )
                ],
            )
        )


class _Held:
    """A writer that keeps what is written (see ``one_write``)."""

    def __init__(self) -> None:
        self.data: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.data.append(data)


@contextmanager
def one_write(client: LanguageClient) -> Iterator[None]:
    """Send the messages the client writes inside the block in one write when it ends: the
    server reads them together. Requests go in only when written inside the block, i.e. with
    ``protocol.send_request`` (pytest-lsp's ``send_request_async`` is a coroutine and writes
    when awaited). That the server dispatches them before a change's parse ends is still up
    to the machine's speed: a test that needs it holds the parse (``SYLLA_TEST_HOLD_PARSE``,
    tests/lsp/test_stale.py)."""
    protocol = client.protocol
    writer, held = protocol.writer, _Held()
    protocol.writer = held
    try:
        yield
    finally:
        protocol.writer = writer
        res = writer.write(b"".join(held.data))
        if inspect.isawaitable(res):
            asyncio.ensure_future(res)


def _publish(client: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)


def _show(client: RecordingClient, params: types.ShowMessageParams) -> None:
    client.shown.append(params)


def _configuration(client: RecordingClient, params: types.ConfigurationParams) -> list[Any]:
    answer = [client.get_configuration(section=item.section, scope_uri=item.scope_uri) for item in params.items]
    client.configurations_sent += 1
    return answer


def _refresher(method: str) -> Any:
    def refresh(client: RecordingClient, params: None) -> None:
        client.refreshes.append((method, time.monotonic()))

    return refresh


def make_client() -> RecordingClient:
    from pygls.protocol import default_converter

    client = RecordingClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _publish
    features[types.WINDOW_SHOW_MESSAGE] = _show
    features[types.WORKSPACE_CONFIGURATION] = _configuration
    for method in (types.WORKSPACE_INLAY_HINT_REFRESH, types.WORKSPACE_FOLDING_RANGE_REFRESH):
        features[method] = _refresher(method)
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client)


def capabilities(
    *,
    encodings: list[str] | None = None,
    pull: bool = False,
    snippets: bool = True,
    configuration: bool = True,
    refresh: bool = False,
) -> types.ClientCapabilities:
    """A push-diagnostics client by default (like Neovim); ``pull`` adds textDocument/diagnostic;
    ``refresh`` declares workspace/inlayHint/refresh and workspace/foldingRange/refresh."""
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None,
        workspace=types.WorkspaceClientCapabilities(
            configuration=configuration,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(dynamic_registration=False),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True) if refresh else None,
            folding_range=types.FoldingRangeWorkspaceClientCapabilities(refresh_support=True) if refresh else None,
        ),
        text_document=types.TextDocumentClientCapabilities(
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            completion=types.CompletionClientCapabilities(
                completion_item=types.ClientCompletionItemOptions(
                    snippet_support=snippets, documentation_format=[types.MarkupKind.Markdown]
                )
            ),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(
                        value_set=[types.CodeActionKind.QuickFix, types.CodeActionKind.Source, "source.fixAll.sylla"]
                    )
                ),
                is_preferred_support=True,
            ),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, version_support=True, code_description_support=True
            ),
            diagnostic=types.DiagnosticClientCapabilities() if pull else None,
            document_symbol=types.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
            inlay_hint=types.InlayHintClientCapabilities(),
            folding_range=types.FoldingRangeClientCapabilities(),
        ),
    )


async def start(client: RecordingClient, **kwargs: Any) -> types.InitializeResult:
    return await client.initialize_session(
        types.InitializeParams(capabilities=capabilities(**kwargs), root_uri=FIXTURES.as_uri())
    )


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: RecordingClient):
    """A started push-mode session (UTF-16 positions, snippets, workspace/configuration)."""
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def fresh(lsp_client: RecordingClient):
    """A second started session beside a test's own server, which only ever sees each text
    whole: what it answers is what the other server must answer after its edits."""
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


def symbols(client: RecordingClient, uri: str) -> Any:
    """The outline request for ``uri`` (a future: a test may send it and await it later)."""
    return client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def shared(lsp_client: RecordingClient):
    """One started push-mode session for all the tests of a module (the same capabilities as
    ``client``), which saves a server start (about a second) per test. Only for tests that
    read (hover, completion, outline, code actions...) and open their documents under
    ``own_uri``; a test that changes settings, needs a fresh server or checks the process takes
    ``client`` or ``bare``. The module's tests run in the module's event loop:
    ``pytest.mark.asyncio(loop_scope="module")``."""
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def own_uri(request: pytest.FixtureRequest) -> Callable[..., str]:
    """``own_uri(name)``: a URI for the fixture document ``name`` that no other test opens, so
    tests sharing a server never see each other's documents or diagnostics (waiting for version
    1 of a URI another test opened would return at once). The file name is kept, since the
    server tells documents apart by name and content; the folder is named after the test.
    ``base`` is the fixture folder ``name`` is relative to (the LSP fixtures by default)."""
    test = re.sub(r"[^\w.-]", "_", request.node.name)
    return lambda name, base=FIXTURES: (base / "by-test" / test / name).as_uri()


@pytest_lsp.fixture(config=CONFIG)
async def bare(lsp_client: RecordingClient):
    """A server not yet initialized: the test picks the capabilities."""
    yield
    await lsp_client.shutdown_session()


#: The folder of the held server's parse gates (`held`): version V of a document is parsed once
#: a file named V or a later version is in it (``SYLLA_TEST_HOLD_PARSE``, lsp/documents.py). One
#: folder per test process; `gate` empties it around each test.
GATE = Path(tempfile.mkdtemp(prefix="sylla-hold-parse-"))
HELD = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client,
                          server_env={**os.environ, "SYLLA_TEST_HOLD_PARSE": str(GATE)})


@pytest.fixture
def gate() -> Iterator[Path]:
    """The gate folder with version 1 released: an opened document parses at once, an edit
    waits for `release`."""
    for old in GATE.iterdir():
        old.unlink()
    release(GATE, 1)
    yield GATE
    for old in GATE.iterdir():
        old.unlink()


def release(gate: Path, version: int) -> None:
    """Let every parse up to ``version`` run."""
    (gate / str(version)).touch()


@pytest_lsp.fixture(config=HELD)
async def held(lsp_client: RecordingClient, gate: Path) -> AsyncIterator[None]:
    """A server not yet initialized whose parses wait for the test to `release` them. A test
    decides by that event, not by how fast the parse is, whether its requests find a parse
    running."""
    yield
    release(gate, 1 << 62)  # a test that failed before its release: let the server stop
    await lsp_client.shutdown_session()


def uri_of(name: str) -> str:
    return (FIXTURES / name).as_uri()


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def pos(text: str, needle: str, delta: int = 0, encoding: str = "utf-16") -> types.Position:
    """LSP position of the first ``needle`` in ``text`` (plus ``delta`` code points)."""
    offset = text.index(needle) + delta
    line = text.count("\n", 0, offset)
    before = text[text.rfind("\n", 0, offset) + 1 : offset]
    if encoding == "utf-16":
        units = len(before.encode("utf-16-le")) // 2
    elif encoding == "utf-8":
        units = len(before.encode("utf-8"))
    else:
        units = len(before)
    return types.Position(line=line, character=units)
