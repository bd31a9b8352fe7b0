"""The LALR tables and the lexer regex, both derived from ``syllabus.lark`` by Lark.

Lark reads the grammar and builds the LALR(1) parse table; this module turns that table into
plain dictionaries for the driver in ``lalr.py`` and joins the grammar's terminals into one
regular expression for the lexer. Building the table takes Lark a noticeable fraction of a
second, which editors and pre-commit would pay on every start, so the compact table is cached
in the user's cache directory, keyed by a hash of the grammar and Lark's version: marshalled,
as Python stores bytecode, since reading it as JSON cost four times as much (issue 24).
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

from sylla.kit import cache
from sylla.kit.digest import blake2b
from sylla.kit.record import record
from sylla.kit.regex_cache import compile_cached

GRAMMAR_PATH = Path(__file__).with_name("syllabus.lark")
_FORMAT = 2

#: Terminals that stand for a value, and the whole-container ones the exact mode switches off.
VALUE_TERMINALS = frozenset(
    {"STRING", "NUMBER", "TRUE", "FALSE", "NULL", "SHALLOW_OBJECT", "SHALLOW_ARRAY"}
)
SHALLOW_TERMINALS = ("SHALLOW_OBJECT", "SHALLOW_ARRAY")

# What the lexer reports when no terminal matches, tried after every terminal of the grammar.
ERROR_PATTERNS = (
    ("BAD_STRING", r'"(?:[^"\\\r\n]|\\.)*"?'),
    ("SINGLE_QUOTED", r"'(?:[^'\\\r\n]|\\.)*'?"),
    ("OPEN_COMMENT", r"/\*[\s\S]*"),
    ("WORD", r"[A-Za-z_$][\w$.\-/]*"),
    ("BAD_NUMBER", r"[+\-.]?[0-9][\w.+\-]*|[+\-.][A-Za-z]\w*"),
    ("ERROR", r"[\s\S]"),
)


@record(frozen=True)
class Tables:
    """The parse table and lexer patterns.

    ``actions[state][terminal]`` is ``(True, next_state)`` for a shift and
    ``(False, rule_id)`` for a reduce; ``rules[rule_id]`` is ``(name, length, action)`` and
    ``gotos[state][name]`` the state after reducing to ``name``; ``action`` names the rule's
    alias (or the rule itself) for the driver's rule actions.
    """

    actions: dict[int, dict[str, tuple[bool, int]]]
    gotos: dict[int, dict[str, int]]
    rules: list[tuple[str, int, str]]
    start_state: int
    end_state: int
    terminals: list[tuple[str, str]]
    ignore: frozenset[str]

    @functools.cached_property
    def action_names(self) -> tuple[str, ...]:
        """The distinct rule actions (a handful) that the driver binds once per run."""
        return tuple(dict.fromkeys(action for _, _, action in self.rules))

    @functools.cached_property
    def fast_regex(self) -> re.Pattern[str]:
        """Every terminal, whole shallow containers included."""
        return self._regex(skip=())

    @functools.cached_property
    def exact_regex(self) -> re.Pattern[str]:
        """Every terminal but the whole shallow containers: one token per JSON token."""
        return self._regex(skip=SHALLOW_TERMINALS)

    def _regex(self, skip: tuple[str, ...]) -> re.Pattern[str]:
        parts = [f"(?P<{name}>{rx})" for name, rx in self.terminals if name not in skip]
        parts += [f"(?P<{name}>{rx})" for name, rx in ERROR_PATTERNS]
        return compile_cached("|".join(parts))  # its compile was a tenth of a small lint (issue 24)


def _build() -> dict:
    from lark import Lark  # noqa: PLC0415 - lazy: start-up, lark loads only when used
    from lark.parsers.lalr_analysis import Shift  # noqa: PLC0415 - lazy: start-up, lark loads only when used

    lark = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer="basic")
    parse_table = lark.parser.parser.parser.parse_table
    rule_ids: dict[object, int] = {}
    rules: list[tuple[str, int, str]] = []
    actions: dict[int, dict[str, list]] = {}
    gotos: dict[int, dict[str, int]] = {}
    for state, row in parse_table.states.items():
        acts: dict[str, list] = {}
        for symbol, (action, arg) in row.items():
            if action is Shift:
                if symbol.isupper() or symbol == "$END":
                    acts[symbol] = [True, arg]
                else:
                    gotos.setdefault(state, {})[symbol] = arg
            else:
                if arg not in rule_ids:
                    rule_ids[arg] = len(rules)
                    rules.append((arg.origin.name, len(arg.expansion), arg.alias or arg.origin.name))
                acts[symbol] = [False, rule_ids[arg]]
        actions[state] = acts
    terms = sorted(
        enumerate(lark.lexer_conf.terminals), key=lambda it: (-it[1].priority, it[0])
    )
    import json  # noqa: PLC0415 - lazy: start-up, json loads only when the tables are built

    # through JSON: plain values only (lark's names are str subclasses, which marshal refuses)
    return json.loads(json.dumps({
        "format": _FORMAT,
        "actions": {str(k): v for k, v in actions.items()},
        "gotos": {str(k): v for k, v in gotos.items()},
        "rules": rules,
        "start_state": parse_table.start_states["start"],
        "end_state": parse_table.end_states["start"],
        "terminals": [(t.name, t.pattern.to_regexp()) for _, t in terms],
        "ignore": sorted(lark.lexer_conf.ignore),
    }))


def _lark_fingerprint() -> bytes:
    """Lark's ``__init__.py`` (it holds the version) without importing Lark, which costs
    more start-up time than everything else a cached parse needs."""

    spec = importlib.util.find_spec("lark")
    try:
        return Path(spec.origin).read_bytes() if spec and spec.origin else b""
    except OSError:
        return b""


def _cache_file() -> Path:
    digest = blake2b(GRAMMAR_PATH.read_bytes() + _lark_fingerprint()).hexdigest()
    return cache.directory() / f"tables-{_FORMAT}-{digest[:16]}.sealed"


def _load_or_build() -> dict:
    path = _cache_file()
    if cache.enabled():
        data = cache.read_marshalled(path)
        if isinstance(data, dict) and data.get("format") == _FORMAT:
            return data
    data = _build()
    if cache.enabled():
        cache.write_marshalled(path, data)
    return data


@functools.cache
def tables() -> Tables:
    data = _load_or_build()
    return Tables(
        actions={
            int(k): {t: (a[0], a[1]) for t, a in v.items()} for k, v in data["actions"].items()
        },
        gotos={int(k): v for k, v in data["gotos"].items()},
        rules=[(name, n, action) for name, n, action in data["rules"]],
        start_state=data["start_state"],
        end_state=data["end_state"],
        terminals=[(name, rx) for name, rx in data["terminals"]],
        ignore=frozenset(data["ignore"]),
    )
