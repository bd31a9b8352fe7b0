"""Configuration: ``[tool.sylla]`` in pyproject.toml or a ``sylla.toml``, found by walking up.

Keys (kebab-case, as in ruff): ``profile``, ``select``, ``ignore``, ``severity`` (code ->
error|warning|info), ``per-file-types`` (glob -> type), ``per-file-ignores`` (glob -> codes),
``registry`` (a task registry file), ``syllabi`` (globs of files that are syllabi whatever
their content; every other file is judged by ``sylla.grammar.syllabus.detect.is_syllabus``). Overrides from the command line or the editor use the
keys ``profile``, ``select``, ``ignore``, ``registry``, ``type`` and win. Anything unknown is
a ``ConfigError`` naming the file, the line and the key, because a misspelt key that is
silently ignored is a rule that silently does not run.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path, PurePath

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.detect import is_syllabus
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import field, record, replace
from sylla.kit.suggest import did_you_mean

from .codes import CODES
from .rule import known_selector_of
from .syllabus_type import TYPES

if TYPE_CHECKING:
    from typing import Any, Mapping

PROFILES = ("l2m", "pretest")
FILE_KEYS = ("profile", "select", "ignore", "severity", "per-file-types", "per-file-ignores", "registry", "syllabi",
             "metrics")
OVERRIDE_KEYS = ("profile", "select", "ignore", "registry", "type", "require-metric")


class ConfigError(Exception):
    """A configuration problem; the message names the file, line and key where known."""


@record(frozen=True)
class Config:
    """Resolved settings for linting one or more files."""

    profile: str = "l2m"
    #: code prefixes to run (None: all rules)
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    per_file_types: tuple[tuple[str, str], ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    registry: Path | None = None
    #: globs of files that are syllabi whatever their content (``syllabi = [...]``)
    syllabi: tuple[str, ...] = ()
    #: the type given on the command line or by the editor (wins over the file)
    type: str | None = None
    #: metrics the project must get (``metrics = [...]``, plus ``--require-metric``): M901
    metrics: tuple[str, ...] = ()
    #: the config file this came from (None: defaults) and the folder globs are relative to
    source: Path | None = None
    root: Path | None = None

    def enabled(self, code: str, path: str | None = None) -> bool:
        if self.select is not None and not any(_matches(code, s) for s in self.select):
            return False
        if any(_matches(code, s) for s in self.ignore):
            return False
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if self._glob(pattern, path) and any(_matches(code, c) for c in codes):
                    return False
        return True

    def type_for(self, path: str | None) -> str | None:
        """The type from per-file globs (first match), or None."""
        if path is None:
            return None
        for pattern, kind in self.per_file_types:
            if self._glob(pattern, path):
                return kind
        return None

    def is_syllabus(self, path: str | None, data: bytes | str) -> bool:
        """Whether to lint this file: the config's ``syllabi`` globs, else its content.

        The one decision the CLI (explicit paths and folder walks), the pre-commit hook and
        the language server share; a file it turns away gets no finding.
        """
        forced = path is not None and any(self._glob(g, path) for g in self.syllabi)
        return is_syllabus(data, force=forced)

    def _glob(self, pattern: str, path: str) -> bool:
        p = Path(path)
        candidates = [p.as_posix(), p.name]
        if self.root is not None:
            try:
                candidates.append(p.resolve().relative_to(self.root.resolve()).as_posix())
            except (ValueError, OSError):
                pass
        return any(fnmatch.fnmatchcase(c, pattern) or PurePath(c).match(pattern) for c in candidates)


def _matches(code: str, selector: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def find_config_file(start: str | Path | None) -> tuple[Path, str] | None:
    """The nearest sylla.toml, or pyproject.toml with [tool.sylla], walking up from ``start``
    (a file or folder); returns the file and the table path (``""`` or ``"tool.sylla"``)."""
    here = Path(start) if start is not None else Path.cwd()
    try:
        here = here.resolve()
    except OSError:
        return None
    if here.is_file() or not here.exists():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "sylla.toml"
        if candidate.is_file():
            return candidate, ""
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if re.search(r"^\s*\[\s*tool\s*\.\s*sylla\s*[\].]", text, re.M):
                return candidate, "tool.sylla"
    return None


def load_config(path: str | Path | None, overrides: Mapping[str, Any] | None = None) -> Config:
    """The config for a linted file (or folder), with CLI/editor ``overrides`` on top.

    ``path`` may also name a ``sylla.toml``/``pyproject.toml`` directly.
    """
    config = Config()
    found: tuple[Path, str] | None
    if path is not None and Path(path).suffix == ".toml" and Path(path).is_file():
        p = Path(path)
        found = (p, "tool.sylla" if p.name == "pyproject.toml" else "")
    else:
        found = find_config_file(path)
    if found is not None:
        config = _from_file(*found)
    if overrides:
        config = _apply_overrides(config, overrides)
    return config


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    import tomllib  # noqa: PLC0415 - lazy: start-up, tomllib loads only when used

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def key_line(text: str, table: str, key: str) -> int:
    """The 1-based line where ``key`` is set in ``[table]`` (or as ``[table.key]``), else 1.

    tomllib keeps no positions, so this scans the text: good enough to point a person at it.
    """
    header = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
    current = ""
    names = {table + "." + key if table else key}
    assign = re.compile(r'^\s*(?:"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*[=.]')
    for number, line in enumerate(text.splitlines(), 1):
        m = header.match(line)
        if m:
            current = re.sub(r"\s*\.\s*", ".", m.group(1).replace('"', ""))
            if current in names:
                return number
            continue
        if current == table:
            a = assign.match(line)
            if a and (a.group(1) or a.group(2) or a.group(3)) == key:
                return number
    return 1


def _from_file(path: Path, table: str) -> Config:
    data, text = _read_toml(path)
    section: Any = data
    for part in table.split(".") if table else ():
        section = section.get(part, {}) if isinstance(section, dict) else {}
    if not isinstance(section, dict):
        raise ConfigError(f"{path}:1: [{table}] must be a table")

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{path}:{key_line(text, table, key)}: {message}")

    values: dict[str, Any] = {}
    for key, value in section.items():
        if key not in FILE_KEYS:
            hint = did_you_mean(key, FILE_KEYS)
            return_error = fail(key, f'unknown config key "{key}"{hint}; known keys: {", ".join(FILE_KEYS)}')
            raise return_error
        values[key] = value
    try:
        return _build(Config(source=path, root=path.parent), values, base=path.parent)
    except _BadValue as exc:
        raise fail(exc.key, exc.message) from None


class _BadValue(Exception):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key, self.message = key, message


def _codes(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise _BadValue(key, f'"{key}" must be a list of rule codes, e.g. ["P301", "H5"]')
    for v in value:
        if not known_selector_of(v, CODES):
            raise _BadValue(key, f'"{key}": no rule code starts with "{v}"')
    return tuple(value)


def _build(config: Config, values: Mapping[str, Any], base: Path | None) -> Config:
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if key == "profile":
            if value not in PROFILES:
                raise _BadValue(key, f'profile must be one of {", ".join(PROFILES)}, got {value!r}')
            changes["profile"] = value
        elif key == "select":
            changes["select"] = _codes(key, value)
        elif key == "ignore":
            changes["ignore"] = _codes(key, value)
        elif key == "type":
            if value is not None and value not in TYPES:
                raise _BadValue(key, f'type must be one of {", ".join(TYPES)}, got {value!r}')
            changes["type"] = value
        elif key == "registry":
            if value is None:
                changes["registry"] = None
            elif not isinstance(value, (str, Path)):
                raise _BadValue(key, "registry must be a path to a TOML or JSON file")
            else:
                p = Path(value)
                changes["registry"] = p if p.is_absolute() or base is None else base / p
        elif key == "severity":
            if not isinstance(value, dict):
                raise _BadValue(key, 'severity must be a table of code = "error"|"warning"|"info"')
            sev: dict[str, Severity] = {}
            for code, level in value.items():
                _codes(key, [code])
                if level not in ("error", "warning", "info"):
                    raise _BadValue(key, f'severity of {code} must be "error", "warning" or "info", got {level!r}')
                sev[code] = Severity(level)
            changes["severity"] = sev
        elif key == "per-file-types":
            if not isinstance(value, dict) or not all(v in TYPES for v in value.values()):
                raise _BadValue(key, f'per-file-types must map globs to one of {", ".join(TYPES)}')
            changes["per_file_types"] = tuple(value.items())
        elif key == "syllabi":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _BadValue(key, 'syllabi must be a list of globs, e.g. ["datagen/*.json"]')
            changes["syllabi"] = tuple(value)
        elif key in ("metrics", "require-metric"):
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
                raise _BadValue(key, 'metrics must be a list of metric names, e.g. ["forward_transfer_ratio"]')
            # the file's list is replaced by a nearer file; --require-metric adds to it
            changes["metrics"] = tuple(dict.fromkeys(
                (tuple(config.metrics) if key == "require-metric" else ()) + tuple(value)))
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise _BadValue(key, "per-file-ignores must map globs to lists of rule codes")
            changes["per_file_ignores"] = tuple((g, _codes(key, c)) for g, c in value.items())
    return replace(config, **changes)


def _apply_overrides(config: Config, overrides: Mapping[str, Any]) -> Config:
    values = {k: v for k, v in overrides.items() if v is not None}
    for key in values:
        if key not in OVERRIDE_KEYS:
            raise ConfigError(f'unknown option "{key}"{did_you_mean(key, OVERRIDE_KEYS)}; known: {", ".join(OVERRIDE_KEYS)}')
    try:
        return _build(config, values, base=None)
    except _BadValue as exc:
        raise ConfigError(f"--{exc.key}: {exc.message}") from None
