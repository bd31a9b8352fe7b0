"""Server wiring: which LSP messages exist and which module answers each.

This module owns the pygls ``LanguageServer`` and the per-session state (open syllabi and
Science Birds configs, client settings, the lint scheduler); every feature's logic lives in its
own module and is handed plain values (text, offsets, analysis) so it can be read without
knowing pygls. No handler names a language: each asks the ``Editor`` of the document's
language (``languages.editor_for``) for the feature, and a language without it gets no answer.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, BinaryIO, Callable, Iterator, Mapping, Sequence, TypeVar

from lsprotocol import types
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from sylla.kit.version import __version__
from sylla.linter.engine import between_rules

from . import guard, stale, transport
from .code_actions import FIX_ALL, code_actions, fix_all_text, wants_fix_all
from .debounce import LintScheduler, Snapshot, Superseded
from .diagnostics import LintOutcome, empty_outcome, failed_outcome, outcome_for
from .documents import Analysis, Documents, Language, looks_like_xml, served
from .hover import WAIT, stale_hover
from .idle_gc import IdleCollector
from .languages import CompletionRequest, editor_for
from .outline import Pieces, document_symbols
from .positions import PositionMap
from .priority import RequestsFirst
from .pygls_compat import LspTextDocument, RawJson, SyllaProtocol, Wire, use_lsp_line_rules
from .settings import ClientSettings, ConfigProblem, load
from .stale import Stale
from .sync import encoding_name
from .warm import warm_up

log = logging.getLogger("sylla.lsp")

T = TypeVar("T")

#: how long a thread may hold the GIL while another waits (Python's default: 5 ms). A request
#: answered on the event loop while a lint runs in its thread waits up to this long each time
#: it needs the GIL back; a shorter slice answers it sooner, for a little more switching.
SWITCH_INTERVAL = 0.001


class SyllaServer(LanguageServer):
    """The pygls server plus sylla's session state."""

    def __init__(self) -> None:
        super().__init__("sylla", __version__, protocol_cls=SyllaProtocol)
        self.documents = Documents()
        #: the last outline's pieces per document (one per phase), reused by the next outline
        self.outlines: dict[str, Pieces] = {}
        #: per document, held while an outline is written: the next version's outline waits for
        #: it and reuses its pieces rather than writing every phase beside it
        self._outline_locks: dict[str, threading.Lock] = {}
        self._outline_locks_lock = threading.Lock()
        self.settings = ClientSettings()
        self.settings_generation = 0
        self.pull_mode = False
        self.config_support = False
        self.refresh_support = False
        #: the client re-asks for inlay hints / folding ranges when told to (LSP 3.17 / 3.18)
        self.stale_features: set[str] = set()
        self._refresh_due: set[str] = set()
        self._refresh_task: asyncio.Future[None] | None = None
        self._reported_problems: set[str] = set()
        self._settings_pull: asyncio.Future[None] | None = None
        self._analysis_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sylla-analyse")
        self.scheduler = LintScheduler(
            self.snapshot, self.compute, self.publish,
            failed=lambda snap, exc: failed_outcome(snap.uri, snap.version, snap.text, self.encoding, exc),
        )
        self.collector = IdleCollector()
        self.requests_first = RequestsFirst()

    # -- transport ---------------------------------------------------------------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio like pygls, but with a reader that survives a malformed header."""

        self._stop_event = stop = threading.Event()
        self.collector.start()
        sys.setswitchinterval(SWITCH_INTERVAL)
        source, sink = stdin or sys.stdin.buffer, stdout or sys.stdout.buffer
        self.protocol.set_writer(StdoutWriter(sink))

        async def serve() -> None:
            reader = await transport.pipe_reader(source, sink) or StdinAsyncReader(source, self.thread_pool)
            await transport.serve(stop, reader, self.protocol)

        try:
            asyncio.run(serve())
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    def start_tcp(self, host: str, port: int) -> None:
        """Serve one TCP client at a time like pygls, with the same hardened reader."""
        self._stop_event = stop_event = threading.Event()
        self.collector.start()
        sys.setswitchinterval(SWITCH_INTERVAL)

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            await transport.serve(stop_event, reader, self.protocol)
            self.shutdown()

        async def listen() -> None:
            self._server = await asyncio.start_server(connection, host, port)
            log.info("serving on %s:%s", host, port)
            async with self._server:
                await self._server.serve_forever()

        try:
            asyncio.run(listen())
        except (asyncio.CancelledError, KeyboardInterrupt):
            pass

    # -- documents ---------------------------------------------------------------------------
    @property
    def encoding(self) -> str:
        return encoding_name(self.workspace.position_encoding)

    def open_document(self, uri: str) -> TextDocument | None:
        """The open document at ``uri`` if it is JSON or XML (``get_text_document`` would invent one)."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None or not served(uri, doc.language_id):
            return None
        return doc

    def snapshot(self, uri: str) -> Snapshot | None:
        doc = self.open_document(uri)
        return None if doc is None else Snapshot(uri, doc.version, doc.source)

    def language(self, snap: Snapshot, config: Any = None, *, have_config: bool = False) -> Language | None:
        """The shared "is this a syllabus / a Science Birds config" decision for an open
        document (sticky once linted); ``config`` when the caller has already loaded it
        (``have_config``: None then means the config could not be read)."""
        if not have_config:
            config, _ = self.config_for(to_fs_path(snap.uri))
        doc = self.workspace.text_documents.get(snap.uri)
        xml = looks_like_xml(snap.uri, doc.language_id if doc is not None else None)
        return self.documents.language(snap.uri, snap.text, config, xml=xml)

    def served_snapshot(self, uri: str) -> tuple[Snapshot, Language] | None:
        """The current text of an open document sylla serves, and its language."""
        snap = self.snapshot(uri)
        if snap is None:
            return None
        language = self.language(snap)
        return None if language is None else (snap, language)

    def config_for(self, path: str | None) -> tuple[Any, str | None]:
        """The linter config for a file, and the problem that made us fall back, if any."""
        try:
            return load(path, self.settings), None
        except ConfigProblem as exc:
            problem = str(exc)
        try:
            return load(path, ClientSettings()), problem
        except ConfigProblem as exc:
            return None, f"{problem}; {exc}" if str(exc) != problem else problem

    def compute(self, snap: Snapshot) -> LintOutcome:
        """Lint one snapshot (in the worker thread)."""
        path = to_fs_path(snap.uri)
        config, problem = self.config_for(path)
        language = self.language(snap, config, have_config=True)
        if language is None:
            return empty_outcome(snap.uri, snap.version, snap.text, self.encoding)
        self.documents.linted_as(snap.uri, language)
        analysis = self.documents.analyse(snap.uri, snap.version, snap.text, self.encoding, language)
        doc = self.workspace.text_documents.get(snap.uri)
        if isinstance(doc, LspTextDocument):
            doc.adopt_index(analysis.result.lines)
        if editor_for(language).symbols:
            # an editor shows the outline and asks for it after every change: write it now,
            # with the parse and before the rules, rather than beside them. The
            # outline first: its request is already waiting for this parse, and the schedule
            # (which the outline does not need) built first or beside it took the GIL from it,
            # some 30 ms at 500 KB. The schedule next, while the outline's 2 MB travel to the
            # editor, so that the hover it sends once the outline is in answers at once on the
            # event loop. Every lint, from the open's on, before the editor has asked: the first
            # edit's outline is then written from the open's pieces (4-8 ms of CPU at 500 KB)
            # rather than from nothing (90-126 ms, 0.3-0.5 s on a busy machine), and by its own
            # lint before the rules, which its request, parsed later, no longer meets running.
            self.outline(analysis)
            analysis.schedule  # noqa: B018 - read for its effect: the cached schedule is built now

        self.requests_first.wait()
        # the checks the parse left for the lint (a just-opened syllabus's schema check: most
        # of a second at 500 KB, which the outline, hover and completion do not wait for),
        # stepping aside for requests every few dozen instructions
        parsed = analysis.checked(self.steps(snap))
        with between_rules(self.steps(snap)):  # and again before each rule
            outcome = outcome_for(
                snap.uri, snap.version, snap.text, path, config, self.encoding, parsed, analysis.positions,
                language,
            )
        outcome.config_problem = problem
        return outcome

    def steps(self, snap: Snapshot) -> Callable[[], None]:
        """What a lint of ``snap`` calls between its steps: it stops (``Superseded``) once the
        document has a newer version, whose lint would otherwise wait behind it (an edit typed
        right after opening a 500 KB syllabus waited for the open's whole schema check and
        rules), and otherwise steps aside while an editor request is answered."""
        pause = self.requests_first.pauses()

        def step() -> None:
            doc = self.workspace.text_documents.get(snap.uri)
            if doc is not None and doc.version != snap.version:
                raise Superseded(f"{snap.uri} changed from version {snap.version} to {doc.version}")
            pause()

        return step

    def symbols_of(self, snap: Snapshot, language: Language) -> str:
        """The outline's JSON text of one version, parsing it (or waiting for its parse) first."""
        return self.outline(self.documents.analyse(snap.uri, snap.version, snap.text, self.encoding, language))

    def outline(self, analysis: Analysis) -> str:
        """The document symbols of one version as JSON text, written once per version, from
        the last outline written for the document (``outline.document_symbols``)."""
        if analysis.has_view("symbols"):
            text, _ = analysis.view("symbols", document_symbols)  # written: nothing to wait for
            return text
        with self._outline_locks_lock:
            lock = self._outline_locks.setdefault(analysis.uri, threading.Lock())
        with lock:
            previous = self.outlines.get(analysis.uri)
            text, rendered = analysis.view("symbols", lambda a: document_symbols(a, previous))
            if rendered is not None:
                self.outlines[analysis.uri] = rendered
        return text

    def forget_outline(self, uri: str) -> None:
        """The document is closed: its outline's pieces and state go."""
        self.outlines.pop(uri, None)
        with self._outline_locks_lock:
            self._outline_locks.pop(uri, None)

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Around an editor request: lints step aside (``RequestsFirst``) and a collection
        waiting for quiet waits longer (``IdleCollector.touch``)."""
        self.collector.touch()
        with self.requests_first.answering():
            yield

    def publish(self, outcome: LintOutcome) -> None:
        self.collector.activity()
        if outcome.config_problem and outcome.config_problem not in self._reported_problems:
            self._reported_problems.add(outcome.config_problem)
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=f"sylla: configuration: {outcome.config_problem}")
            )
        if self.pull_mode:
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=outcome.uri, diagnostics=outcome.diagnostics, version=outcome.version)
        )

    def clear(self, uri: str) -> None:
        if not self.pull_mode:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    async def analysis(self, uri: str) -> Analysis | None:
        """The parsed current version of an open syllabus or Science Birds config (parsed off
        the event loop); ``Analysis.language`` says which."""
        found = self.served_snapshot(uri)
        if found is None:
            return None
        snap, language = found
        ready = self.documents.cached(uri, snap.version, snap.text, self.encoding, language)
        if ready is not None:
            return ready  # parsed already: no hand-over to a thread and back
        return await self.off_loop(self.documents.analyse, uri, snap.version, snap.text, self.encoding, language)

    async def current_or_stale(self, uri: str, feature: str | None) -> Analysis | Stale | None:
        """The analysis of the current version if it is parsed; else, while it is being
        parsed, the previous version's read through the edit (``stale``), and the client is
        told to ask for ``feature`` again when the parse lands. ``feature`` None: a request
        without a refresh (hover), which decides itself whether the stale answer will do."""
        found = self.served_snapshot(uri)
        if found is None:
            return None
        snap, language = found
        if editor_for(language).stale and not self.documents.ready(uri, snap.version, snap.text, language):
            last = self.documents.latest(uri)
            if (
                last is not None and last.language == language and last.encoding == self.encoding
                and last.model is not None and last.result.text == last.text
                and (feature is None or feature in self.stale_features)
            ):
                if feature is not None:
                    self._refresh_after_parse(uri, feature)
                return Stale(last, snap.text, snap.version)
        return await self.analysis(uri)

    def _refresh_after_parse(self, uri: str, feature: str) -> None:
        self._refresh_due.add(feature)
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = asyncio.ensure_future(self._refresh_when_parsed(uri))

    async def _refresh_when_parsed(self, uri: str) -> None:
        """Parse the current version (shared with its lint) and ask the client to refresh
        what it was given stale answers for."""
        try:
            await self.analysis(uri)
        except Exception as exc:  # noqa: BLE001 - the lint reports a failing parse; refresh anyway
            log.warning("sylla: parse of %s for a refresh failed: %s", uri, exc)
        finally:
            due, self._refresh_due = self._refresh_due, set()
            if "inlayHint" in due:
                self.workspace_inlay_hint_refresh(None)
            if "foldingRange" in due:
                self.workspace_folding_range_refresh(None)

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._analysis_pool, fn, *args)

    # -- settings ----------------------------------------------------------------------------
    def start_settings_pull(self) -> None:
        self._settings_pull = asyncio.ensure_future(self.pull_settings())

    async def settings_loaded(self) -> None:
        """Wait (briefly) for the first settings pull, so a request right after start-up
        already sees the user's registry and rule selection."""
        pending = self._settings_pull
        if pending is not None and not pending.done():
            await asyncio.wait([pending], timeout=2.0)

    async def pull_settings(self) -> None:
        if not self.config_support:
            return
        try:
            result = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="sylla")])
            )
        except Exception as exc:  # noqa: BLE001 - a client without settings is fine
            log.warning("workspace/configuration failed: %s", exc)
            return
        if result:
            self.apply_settings(result[0])

    def apply_settings(self, raw: Any) -> None:
        settings = ClientSettings.from_client(raw)
        if settings == self.settings:
            return
        self.settings = settings
        self.relint_all()

    def relint_all(self) -> None:
        """Settings or config files changed: every open syllabus is linted again."""
        self.settings_generation += 1
        self._reported_problems.clear()
        self.scheduler.invalidate()
        if self.pull_mode:
            if self.refresh_support:
                self.workspace_diagnostic_refresh(None)
            return
        for uri in list(self.workspace.text_documents):
            if self.open_document(uri) is not None:
                self.scheduler.schedule(uri, immediate=True)

    def registry_params(self, path: str | None) -> Mapping[str, Sequence[str]]:
        """Task name -> parameter names from the configured task registry (empty without one)."""
        config, _ = self.config_for(path)
        registry_path = getattr(config, "registry", None)
        if registry_path is None:
            return {}
        from sylla.linter.task_registry import TaskParams, task_registry  # noqa: PLC0415 - lazy: the task registry loads only when a config names one

        try:
            return TaskParams(task_registry(config))
        except Exception as exc:  # noqa: BLE001 - completion works without the registry
            log.warning("task registry unavailable: %s", exc)
            return {}


def snippets(server: SyllaServer) -> bool:
    """Whether the client takes snippet completions."""
    caps = server.client_capabilities.text_document
    item_caps = caps.completion.completion_item if caps and caps.completion else None
    return bool(item_caps and item_caps.snippet_support)


def markdown(server: SyllaServer) -> bool:
    """Whether the client renders markdown in completion documentation."""
    caps = server.client_capabilities.text_document
    item_caps = caps.completion.completion_item if caps and caps.completion else None
    return bool(item_caps and types.MarkupKind.Markdown in (item_caps.documentation_format or ()))


def create_server() -> SyllaServer:
    """The server with every handler registered, family by family (each ``_family`` below
    registers the handlers of one part of the protocol on ``server``)."""
    server = SyllaServer()
    _session(server)
    _document_sync(server)
    _diagnostics(server)
    _reading(server)
    _formatting(server)
    return server


def _session(server: SyllaServer) -> None:
    """The session: initialisation, the client's settings and watched config files, shutdown."""

    @server.feature(types.INITIALIZE)
    @guard.notification
    def initialize(params: types.InitializeParams) -> None:
        use_lsp_line_rules(server.workspace)
        caps = params.capabilities
        server.pull_mode = caps.text_document is not None and caps.text_document.diagnostic is not None
        workspace = caps.workspace
        server.config_support = bool(workspace and workspace.configuration)
        server.refresh_support = bool(workspace and workspace.diagnostics and workspace.diagnostics.refresh_support)
        if workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support:
            server.stale_features.add("inlayHint")
        if workspace and workspace.folding_range and workspace.folding_range.refresh_support:
            server.stale_features.add("foldingRange")
        options = params.initialization_options
        if isinstance(options, Mapping):
            server.settings = ClientSettings.from_client(options.get("settings", options))

    @server.feature(types.INITIALIZED)
    @guard.notification
    def initialized(params: types.InitializedParams) -> None:
        server.start_settings_pull()
        warm_up(server.protocol)  # the first edit's messages meet their converters made

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guard.notification
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        raw = params.settings
        if isinstance(raw, Mapping) and isinstance(raw.get("sylla"), Mapping):
            server.apply_settings(raw)
        elif server.config_support:
            await server.pull_settings()
        else:
            server.apply_settings(raw)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guard.notification
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        if any(c.uri.endswith(("pyproject.toml", "sylla.toml", ".toml", ".json")) for c in params.changes):
            server.relint_all()

    @server.feature(types.SHUTDOWN)
    @guard.notification
    def on_shutdown(params: Any) -> None:
        server.scheduler.shutdown()


def _document_sync(server: SyllaServer) -> None:
    """Open documents: each change schedules a lint (push mode) and keeps the parse current."""

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guard.notification
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        if server.open_document(uri) is not None and not server.pull_mode:
            server.scheduler.schedule(uri, immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guard.notification
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.collector.touch()
        uri = params.text_document.uri
        if server.open_document(uri) is not None and not server.pull_mode:
            server.scheduler.schedule(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guard.notification
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith(("pyproject.toml", "sylla.toml")):
            server.relint_all()
        elif server.open_document(uri) is not None and not server.pull_mode:
            server.scheduler.schedule(uri, immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guard.notification
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        server.scheduler.cancel(uri)
        server.documents.forget(uri)
        server.forget_outline(uri)
        if served(uri, None):
            server.clear(uri)


def _diagnostics(server: SyllaServer) -> None:
    """Findings on request (pull mode) and the fixes offered for them."""

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier="sylla", inter_file_dependencies=False, workspace_diagnostics=False),
    )
    @guard.request
    async def pull_diagnostics(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        uri = params.text_document.uri
        outcome = await server.scheduler.current(uri) if server.snapshot(uri) is not None else None
        if outcome is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        server.publish(outcome)  # reports a configuration problem once; never pushes in pull mode
        result_id = f"{outcome.version}:{server.settings_generation}:{hash(outcome.text)}"
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=outcome.diagnostics, result_id=result_id)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False),
    )
    @guard.request
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        if server.served_snapshot(uri) is None:
            return None
        outcome = await server.scheduler.current(uri)
        if outcome is None or outcome.language is None:  # a document sylla does not serve
            return None
        analysis = await server.analysis(uri)
        model = analysis.model if analysis is not None and analysis.text == outcome.text else None
        only = [str(k) for k in params.context.only] if params.context.only else None
        fixed = None
        if wants_fix_all(outcome, only):  # the fix loop lints once a round: off the event loop
            checked = analysis.checked if analysis is not None and analysis.text == outcome.text else None
            fixed = await server.off_loop(lambda: fix_all_text(outcome, checked() if checked is not None else None))
        return code_actions(outcome, outcome.positions.span(params.range), only, model, fixed)


def _reading(server: SyllaServer) -> None:
    """What the editor shows of a document: hover, completion, outline, folding, inlay hints."""

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guard.request
    async def on_hover(params: types.HoverParams) -> types.Hover | None:
        with server.answering():
            uri = params.text_document.uri
            current = await server.current_or_stale(uri, None)
            if isinstance(current, Stale):
                answer = stale_hover(current, current.positions.offset(params.position))
                if answer is not WAIT:
                    return answer if isinstance(answer, types.Hover) else None
            analysis = await server.analysis(uri)
            if analysis is None:
                return None
            editor = editor_for(analysis.language)
            if editor.hover is None:
                return None
            offset = analysis.positions.offset(params.position)
            if editor.hover_ready(analysis):  # e.g. the schedule is built: a bisection and a few lines of text
                return editor.hover(analysis, offset)
            # off the loop: the first hover of a version may build its schedule (0.1 s at 500 KB)
            return await server.off_loop(editor.hover, analysis, offset)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=['"', "$", "<"]))
    @guard.request
    async def on_completion(params: types.CompletionParams) -> types.CompletionList | None:
        with server.answering():
            return await completion(params)

    async def completion(params: types.CompletionParams) -> types.CompletionList | None:
        uri = params.text_document.uri
        found = server.served_snapshot(uri)
        if found is None:
            return None
        snap, language = found
        editor = editor_for(language)
        if editor.complete is None:
            return None
        registry: Mapping[str, Sequence[str]] = {}
        if editor.registry:
            await server.settings_loaded()
            snap = server.snapshot(uri) or snap
            registry = await server.off_loop(server.registry_params, to_fs_path(uri))
        request = CompletionRequest(snap.text, params.position, server.encoding, snippets(server), markdown(server), registry)
        if editor.complete_on_loop:
            return editor.complete(request)
        return await server.off_loop(editor.complete, request)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guard.request
    async def on_symbols(params: types.DocumentSymbolParams) -> list[types.DocumentSymbol] | None:
        with server.answering():
            uri = params.text_document.uri
            found = server.served_snapshot(uri)
            if found is None or not editor_for(found[1]).symbols:
                return None
            snap, language = found
            ready = server.documents.cached(uri, snap.version, snap.text, server.encoding, language)
            if ready is not None and ready.has_view("symbols"):  # written by the lint with its parse: send it
                return RawJson(server.outline(ready))  # type: ignore[return-value]  # pygls_compat.SyllaProtocol sends Wire/RawJson as they are; the client gets the declared LSP type
            # the parse (shared with the lint) and the outline in one hand-over to a thread:
            # right after a change both are in progress, and each extra trip through the
            # event loop waits for the GIL behind them
            return RawJson(await server.off_loop(server.symbols_of, snap, language))  # type: ignore[return-value]  # pygls_compat.SyllaProtocol sends Wire/RawJson as they are; the client gets the declared LSP type

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    @guard.request
    async def on_folding(params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
        with server.answering():
            analysis = await server.current_or_stale(params.text_document.uri, "foldingRange")
            if isinstance(analysis, Stale):
                return Wire(stale.folding_ranges(analysis))  # type: ignore[return-value]  # pygls_compat.SyllaProtocol sends Wire/RawJson as they are; the client gets the declared LSP type
            folding = editor_for(analysis.language).folding if analysis is not None else None
            if analysis is None or folding is None:
                return None
            return await server.off_loop(folding, analysis)  # FoldingRanges, or a Wire of them (sent as it is)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    @guard.request
    async def on_inlay_hints(params: types.InlayHintParams) -> list[types.InlayHint] | None:
        with server.answering():
            analysis = await server.current_or_stale(params.text_document.uri, "inlayHint")
            if isinstance(analysis, Stale):
                return stale.inlay_hints(analysis, params.range)
            hints = editor_for(analysis.language).inlay_hints if analysis is not None else None
            if analysis is None or hints is None:
                return None
            return await server.off_loop(hints, analysis, analysis.positions.span(params.range))


def _formatting(server: SyllaServer) -> None:
    """`sylla fmt` as the editor's Format Document."""

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @guard.request
    async def on_formatting(params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        found = server.served_snapshot(params.text_document.uri)
        fmt = editor_for(found[1]).format if found is not None else None
        if found is None or fmt is None:
            return None
        snap = found[0]
        return await server.off_loop(fmt, snap.text, PositionMap(snap.text, server.encoding))
