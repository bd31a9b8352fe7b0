"""Validate a parsed syllabus against ``syllabus.schema.json`` and word the errors for people.

The schema file is the single statement of structure (editors load the same file). Two
things make validation fast on large syllabi: the top level is checked with the instruction
list emptied, and each instruction is checked on its own, memoised by its source text, since
real syllabi repeat the same few instructions thousands of times. An instruction's errors do
not depend on where it stands, so a cached result is exact.

Across runs, the digests of instructions (and top levels) that passed are kept in the cache
directory, keyed by the schema's own digest: linting a file whose parts are all known to be
valid never imports jsonschema, which is most of a short run's start-up time.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import time
from pathlib import Path

from sylla.grammar.core import Diagnostic, Span
from sylla.grammar.syllabus.source_map import SourceMap
from sylla.kit import cache
from sylla.kit.digest import blake2b
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.sorted_lines import SortedLines

if TYPE_CHECKING:
    from typing import Any, Callable, Iterable

SCHEMA_PATH = Path(__file__).with_name("syllabus.schema.json")
_CACHE_LIMIT = 100_000
#: Documents with more instructions use only the in-process memo: hashing every instruction
#: would cost more than the import it saves.
_DISK_CACHE_MAX_INSTRUCTIONS = 5_000
_DISK_CACHE_LIMIT = 50_000
_DIRECTIVES = ("$phase", "$repeat", "$episode", "$dataset", "$info")
#: the directives that are whole instructions, never a key of a block's leaf (``notInLeaf``)
_OWN_INSTRUCTIONS = ("$phase", "$repeat", "$info")

# (relative path, keyword, message) of each error of one instruction, by its source text.
_instruction_cache: dict[str, tuple[tuple[tuple[str | int, ...], str, str], ...]] = {}
# where those errors are, relative to the instruction's start (None: nowhere, ``_NOWHERE``)
_span_cache: dict[str, tuple[tuple[int, int] | None, ...]] = {}
_NOWHERE = Span(0, 0)


@functools.cache
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@functools.cache
def _validators() -> tuple[Any, Any]:
    """The validators of the top level and of one instruction (imports jsonschema)."""
    from jsonschema import Draft202012Validator  # noqa: PLC0415 - lazy: start-up, jsonschema loads only when used

    root = schema()
    top = Draft202012Validator(root)
    one = Draft202012Validator({"$defs": root["$defs"], "$ref": "#/$defs/instruction"})
    return top, one


class _KnownValid:
    """Digests of texts that passed this schema, in earlier runs and in this one (see the
    module docstring). The file is read once per process and written once, at exit (or when
    many new digests wait): a run over hundreds of files must not rewrite it per file."""

    def __init__(self, use_disk: bool, remember: bool = True) -> None:
        self.use_disk = use_disk and cache.enabled()
        self.remember = remember

    def digest(self, text: str) -> str | None:
        if not self.use_disk:
            return None
        return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()

    def __contains__(self, digest: str | None) -> bool:
        return digest is not None and (digest in _pending or digest in _known())

    def add(self, digest: str | None) -> None:
        if digest is None or not self.remember or digest in _known():
            return
        if not _pending:
            _flush_at_exit()
        _pending.add(digest)
        if len(_pending) >= _FLUSH_EVERY:
            flush_known()


#: digests that passed in this process and are not yet in the file
_pending: set[str] = set()
_FLUSH_EVERY = 10_000


def flush_known() -> None:
    """Write the digests that passed in this process into the cache file (atomically; a
    concurrent run's additions since this one read the file may be lost, which only costs a
    validation)."""
    global _known_lines
    if not _pending:
        return
    known = _known().lines()
    if len(known) >= _DISK_CACHE_LIMIT:
        known.clear()
    known.update(_pending)
    _pending.clear()
    data = "\n".join(sorted(known)).encode()
    _known_lines = SortedLines(data)  # what this process knows, whether or not the write succeeds
    cache.write_atomically(_known_path(), data)


@functools.cache
def _flush_at_exit() -> None:
    atexit.register(flush_known)


def _known_path() -> Path:
    digest = blake2b(SCHEMA_PATH.read_bytes(), digest_size=8).hexdigest()
    return cache.directory() / f"valid-{digest}.txt"


#: the cache file's digests, read on the first lookup (``_known``)
_known_lines: SortedLines | None = None


def _known() -> SortedLines:
    """The file's digests, read once and searched in place (``SortedLines``: building a set
    of them cost a small lint more than its parse)."""
    global _known_lines
    if _known_lines is None:
        try:
            _known_lines = SortedLines(_known_path().read_bytes())
        except OSError:
            _known_lines = SortedLines(b"")
    return _known_lines


#: how many instructions ``validate`` checks between two calls of its ``between``
_BETWEEN_EVERY = 64

#: A test hook, never set outside the tests: a folder in which every check of a whole document
#: (``validate``) waits until a file named ``schema`` exists. The editor's tests hold the schema
#: check with it to see what is answered before it ends (tests/lsp/test_schema_later.py).
HOLD_CHECK = os.environ.get("SYLLA_TEST_HOLD_SCHEMA", "")


def validate(
    value: Any, form: str, source: SourceMap, text: str, between: "Callable[[], None] | None" = None
) -> list[Diagnostic]:
    """Schema diagnostics for a parsed document, each on the span of the offending node.

    ``between`` is called every few dozen instructions: the language server's lint steps aside
    there for an editor request (a check from nothing of a 500 KB syllabus takes a second)."""
    if HOLD_CHECK:
        while not os.path.exists(os.path.join(HOLD_CHECK, "schema")):
            time.sleep(0.005)
    found: list[tuple[tuple[str | int, ...], str, str]] = []
    if form == "array":
        base: tuple[str | int, ...] = ()
        instructions = value
    else:
        base = ("instructions",)
        instructions = value.get("instructions") if isinstance(value, dict) else None
    many = isinstance(instructions, list) and len(instructions) > _DISK_CACHE_MAX_INSTRUCTIONS
    valid = _KnownValid(use_disk=not many)
    if form != "array":
        if not (isinstance(value, dict) and isinstance(instructions, list)):
            instructions = None
        found.extend(_top_errors(value, valid))
    out = _diagnostics(found, source)
    if isinstance(instructions, list):
        items = source.children(base) if base or form == "array" else None
        for i, instruction in enumerate(instructions):
            if between is not None and not i % _BETWEEN_EVERY:
                between()
            item = items[i] if isinstance(items, list) and i < len(items) else None
            key = text[item.start : item.end] if item is not None else None
            errors = _instruction_errors(instruction, key, valid)
            if errors:
                out.extend(_placed(errors, base + (i,), key, item, source))
    out.sort(key=_start)
    return out


def _start(d: Diagnostic) -> int:
    return d.span.start


def _placed(
    errors: tuple[tuple[tuple[str | int, ...], str, str], ...], path: tuple[str | int, ...],
    key: str | None, item: Any, source: SourceMap,
) -> list[Diagnostic]:
    """The diagnostics of one instruction's ``errors`` (at ``path``, source text ``key``).

    Their spans are memoised by the text too, relative to the instruction's start: finding
    one means parsing the instruction again for its inner positions, and a syllabus repeats
    its few faulty instructions hundreds of times (a 500 KB one revalidated after a syntax
    error is fixed would spend a tenth of a second on that alone)."""
    relative = _span_cache.get(key) if key is not None else None
    if relative is None:
        placed = _diagnostics([(path + rel, keyword, message) for rel, keyword, message in errors], source, ordered=False)
        if key is None or item is None:
            return placed
        at = item.start
        relative = tuple((d.span.start - at, d.span.end - at) if d.span != _NOWHERE else None for d in placed)
        if len(_span_cache) >= _CACHE_LIMIT:
            _span_cache.clear()
        _span_cache[key] = relative
        return placed
    at = item.start
    return [
        Diagnostic("schema", message, _NOWHERE if where is None else Span(at + where[0], at + where[1]), path=path + rel, keyword=keyword)
        for (rel, keyword, message), where in zip(errors, relative)
    ]


def _top_errors(value: Any, valid: _KnownValid) -> list[tuple[tuple[str | int, ...], str, str]]:
    """The errors of a document object's top level, its instruction list (when it is a list)
    left out: those are checked one instruction at a time."""
    if isinstance(value, dict) and isinstance(value.get("instructions"), list):
        shallow = dict(value)
        shallow["instructions"] = []
    else:
        shallow = value
    key = valid.digest("top:" + json.dumps(shallow, sort_keys=True, ensure_ascii=False))
    if key in valid:
        return []
    errors = list(_describe(_validators()[0].iter_errors(shallow)))
    if not errors:
        valid.add(key)
    return errors


def validate_top(value: Any, source: SourceMap) -> list[Diagnostic]:
    """Schema diagnostics of a document object's top level only, exactly those ``validate``
    gives it (an incremental parse of an edit outside the instruction list needs no more)."""
    return _diagnostics(_top_errors(value, _KnownValid(use_disk=True, remember=False)), source)


def validate_instruction(instruction: Any, path: tuple[str | int, ...], source: SourceMap, key: str) -> list[Diagnostic]:
    """Schema diagnostics of the one instruction at ``path`` whose source text is ``key``:
    exactly the ones ``validate`` gives it, since an instruction's errors do not depend on
    where it stands (an incremental parse revalidates only the instruction that changed).
    Texts found valid are not added to the disk cache: an editor makes a new one per keystroke."""
    valid = _KnownValid(use_disk=True, remember=False)
    found = [(path + rel, keyword, message) for rel, keyword, message in _instruction_errors(instruction, key, valid)]
    return _diagnostics(found, source)


def _instruction_errors(
    instruction: Any, key: str | None, valid: _KnownValid
) -> tuple[tuple[tuple[str | int, ...], str, str], ...]:
    """(relative path, keyword, message) of each error of one instruction, memoised by its text."""
    cached = _instruction_cache.get(key) if key is not None else None
    if cached is None:
        digest = valid.digest(key) if key is not None else None
        if digest in valid:
            cached = ()
        else:
            cached = tuple(_describe(_validators()[1].iter_errors(instruction)))
            if not cached:
                valid.add(digest)
        if key is not None:
            if len(_instruction_cache) >= _CACHE_LIMIT:
                _instruction_cache.clear()
            _instruction_cache[key] = cached
    return cached


def _diagnostics(found: list[tuple[tuple[str | int, ...], str, str]], source: SourceMap, *, ordered: bool = True) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for path, keyword, message in found:
        span = source.span(path) or _NOWHERE
        if keyword in ("additionalProperties", "propertyNames"):
            span = source.key_span(path) or span
        out.append(Diagnostic("schema", message, span, path=path, keyword=keyword))
    if ordered:
        out.sort(key=_start)
    return out


def _describe(errors: Iterable[Any]) -> Iterable[tuple[tuple[str | int, ...], str, str]]:
    for error in errors:
        path = tuple(error.absolute_path)
        keyword = error.validator
        if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
            # jsonschema reports the keyword that failed inside propertyNames (a pattern or
            # an anyOf), on the name itself; the name is what the author must change.
            yield path + (error.instance,), "propertyNames", _extra_key_message(error.instance, error.instance)
            continue
        if keyword == "additionalProperties":
            for key in _offending_keys(error):
                yield path + (key,), keyword, _extra_key_message(key, error.instance)
            continue
        yield path, keyword, _message(error, path)


def _offending_keys(error: Any) -> list[str]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    allowed = set(error.schema.get("properties", {}))
    patterns = error.schema.get("patternProperties", {})
    return [k for k in instance if k not in allowed and not patterns]


def _what(instance: Any) -> str:
    """The directive an instruction object is, for messages."""
    if isinstance(instance, dict):
        for d in _DIRECTIVES:
            if d in instance:
                return f"a {d} instruction"
    return "this object"


def _extra_key_message(key: str, container: Any) -> str:
    if isinstance(container, str):  # propertyNames reports the name itself
        if key in _OWN_INSTRUCTIONS:
            return (f'"{key}" is an instruction of its own, not a key of a $repeat, $episode or $dataset object '
                    "(a $repeat repeats exactly one $episode or $dataset)")
        if key.startswith("$"):
            return f'unexpected directive "{key}": a leaf has one $episode or $dataset, and parameters without "$"'
        return f'"{key}" is not a valid parameter name (use names or slash paths such as bot/paddle/width)'
    return f'unexpected key "{key}" in {_what(container)}'


def _field(path: tuple[str | int, ...]) -> str:
    for step in reversed(path):
        if isinstance(step, str):
            return step
    return "value"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _message(error: Any, path: tuple[str | int, ...]) -> str:
    keyword = error.validator
    instance = error.instance
    name = _field(path)
    if name in ("count", "num_batches") and keyword in ("type", "minimum"):
        return f"{name} must be a positive integer, got {_show(instance)}"
    if keyword == "pattern" and name == "$phase":
        return f'phase label must be "<n>.train" or "<n>.test", got {_show(instance)}'
    if keyword == "pattern" and name in ("$episode", "$dataset", "$repeat"):
        return f'task reference must be a name ("Pong") or a module reference ("$package.module:Pong"), got {_show(instance)}'
    if keyword == "anyOf" and all("required" in option for option in error.validator_value):
        if path and path[-1] == "$repeat":
            return "$repeat needs one $episode or $dataset object"
        keys = ", ".join(instance) if isinstance(instance, dict) and instance else "no keys"
        return f"an instruction needs one of the directives {', '.join(_DIRECTIVES)} (found {keys})"
    if keyword == "anyOf":
        return f"{name} must be a number, string, boolean or a list of them, got {_show(instance)}"
    if keyword == "required":
        missing = [k for k in error.validator_value if not (isinstance(instance, dict) and k in instance)]
        if missing == ["count"]:
            return '$repeat needs a "count" beside it'
        if missing == ["instructions"]:
            return 'a syllabus needs an "instructions" list'
        return f"{_what(instance)} needs {', '.join(repr(m) for m in missing)}"
    if keyword == "enum":
        options = " or ".join(json.dumps(v) for v in error.validator_value)
        return f"{name} must be {options}, got {_show(instance)}"
    if keyword == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        article = "an" if str(expected)[:1] in "aeiou" else "a"
        return f"{name} must be {article} {expected}, got {_show(instance)}"
    if keyword == "minimum":
        return f"{name} must be at least {error.validator_value}, got {_show(instance)}"
    return f"{name}: {error.message}"
