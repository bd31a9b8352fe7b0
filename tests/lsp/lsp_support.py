"""Shared pieces of the language-server tests: a real ``sylla lsp`` subprocess driven over
stdio by pytest-lsp's client, which also records every published diagnostic with its version
so a test can wait for the diagnostics of exactly the version it sent."""

from __future__ import annotations

import asyncio
import inspect
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

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

    async def diagnostics_for(self, uri: str, version: int | None, timeout: float = 20.0) -> list[types.Diagnostic]:
        """Wait for the diagnostics published for ``uri`` at ``version``."""
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
    server reads them together, so the requests that follow a change are all dispatched
    before the change's parse can finish, however fast it is and however busy the machine."""
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
