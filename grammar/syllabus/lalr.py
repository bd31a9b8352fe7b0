"""The LALR driver: lexes with the grammar's terminals and parses with Lark's table.

Lark builds the LALR(1) table from ``syllabus.lark`` (see ``tables.py``); this driver runs it
in one tight loop, because Lark's general-purpose lexer and parser loop cost ten times
json.loads on large syllabi. Owning the loop also gives error recovery that never raises:
on an unexpected token the driver tries the repairs a person would make (insert a missing
comma, colon or bracket; otherwise drop the token), reports the error in plain words, and
goes on, so one run reports every syntax error in the file.

Values come out as plain Python values (what ``json.loads`` returns); positions come out as a
tree of ``Tok`` and ``Node`` objects beside them. A container lexed whole (``SHALLOW_*``) has
no inner positions until ``SourceMap`` asks for them, when this driver parses just that range
again in exact mode.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from json.scanner import make_scanner

from sylla.grammar.core import Diagnostic, Related, Severity, Span
from sylla.grammar.syllabus.model import NonJson, NonJsonKind
from sylla.grammar.syllabus.tables import Tables, tables
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.regex_cache import compile_cached

if TYPE_CHECKING:
    from typing import Any, Callable

#: Nesting deeper than this is refused: no syllabus needs more than six levels, and the
#: schema validator and every tree walk downstream recurse once per level.
MAX_DEPTH = 100
#: After this many syntax errors the parser stops: the rest would be noise.
MAX_ERRORS = 100

_OPEN = frozenset({"LBRACE", "LSQB"})
_CLOSE = frozenset({"RBRACE", "RSQB"})
_LEX_ERRORS = frozenset(
    {"BAD_STRING", "SINGLE_QUOTED", "OPEN_COMMENT", "WORD", "BAD_NUMBER", "ERROR", "HOLE"}
)
_COMMENT_KINDS = {
    "LINE_COMMENT": NonJsonKind.LINE_COMMENT,
    "BLOCK_COMMENT": NonJsonKind.BLOCK_COMMENT,
    "MARGIN_NOTE": NonJsonKind.MARGIN_NOTE,
}
# Characters that may not follow a number directly (``01``, ``1.``, ``0x1F``, ``1e``).
_AFTER_NUMBER = frozenset("0123456789.eE+-xXabcdfABCDF_")
#: what float() makes of a decimal beyond a 64-bit float (no math import: start-up, issue 24)
_INFINITIES = (float("inf"), float("-inf"))
_WORD_VALUES = {"True": ("TRUE", True), "False": ("FALSE", False), "None": ("NULL", None)}


class Tok:
    """A token: a scalar value, a punctuation mark, or a container lexed whole."""

    __slots__ = ("type", "value", "start", "end")

    def __init__(self, type: str, value: Any, start: int, end: int) -> None:
        self.type = type
        self.value = value
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"Tok({self.type}, {self.value!r}, {self.start}, {self.end})"


class Node:
    """A container parsed by the grammar's rules, with its members' positions.

    For an object ``children`` maps each key to its value's ``Tok``/``Node`` and ``keys`` maps
    it to the key's ``Tok``; for an array ``children`` is the list of items.
    """

    __slots__ = ("type", "value", "start", "end", "children", "keys")

    def __init__(
        self, type: str, value: Any, start: int, end: int, children: Any, keys: Any = None
    ) -> None:
        self.type = type
        self.value = value
        self.start = start
        self.end = end
        self.children = children
        self.keys = keys


Item = Tok | Node


class RawParse:
    """What one run of the driver found: the root item, its form, problems and non-JSON."""

    __slots__ = ("root", "form", "problems", "non_json", "stopped", "events", "escaped")

    def __init__(self) -> None:
        self.root: Item | None = None
        self.form: str = "object"
        self.problems: list[Diagnostic] = []
        self.non_json: list[NonJson] = []
        self.stopped = False
        #: ``[first start, last end]`` of every lexical or syntax error, reported or not (a
        #: repair made while errors are quiet changes the tree all the same); None: no error
        self.events: list[int] | None = None
        #: a list parse (``parse_list``) whose errors reached below its opening bracket, or
        #: whose bracket could not be closed where it ends: the same text inside a document
        #: might parse differently
        self.escaped = False


class _TooDeep(Exception):
    pass


class _Stop(Exception):
    pass


class _Run:
    """One parse of one range of text; holds the recorders the rule actions write to."""

    def __init__(self, text: str, t: Tables) -> None:
        self.text = text
        self.t = t
        self.out = RawParse()
        self.quiet = 0  # tokens still to shift before another syntax error is reported
        self.syntax_errors = 0
        self.shallow_duplicates = False
        #: in a list parse, the stack height of its opening bracket (see ``parse_list``)
        self.floor = 0
        #: the token standing for an already parsed value (see ``parse_around``)
        self.hole: Tok | None = None

    def event(self, start: int, end: int) -> None:
        events = self.out.events
        if events is None:
            self.out.events = [start, end]
        else:
            if start < events[0]:
                events[0] = start
            if end > events[1]:
                events[1] = end

    # ---- rule actions (named r_<rule>) ----
    def r_document(self, c: list) -> Item:
        item = c[0]
        self.out.form = (
            "object" if item.type in ("object", "SHALLOW_OBJECT") else
            "array" if item.type in ("array", "SHALLOW_ARRAY") else "scalar"
        )
        return item

    def r_fragment(self, c: list) -> Item:
        self.out.form = "fragment"
        if len(c) == 2:
            self._trailing(c[1])
        raw = c[0]
        return self._object_node(raw, raw[0].start, raw[-1].end)

    def r_object(self, c: list) -> Node:
        if len(c) == 2:
            return Node("object", {}, c[0].start, c[1].end, {}, {})
        if len(c) == 4:
            self._trailing(c[2])
        return self._object_node(c[1], c[0].start, c[-1].end)

    def r_members(self, c: list) -> list:
        if len(c) == 3:
            return [c[0], c[2]]
        acc = c[0]
        acc.append(c[2])
        acc.append(c[4])
        return acc

    def r_array(self, c: list) -> Node:
        if len(c) == 2:
            return Node("array", [], c[0].start, c[1].end, [])
        if len(c) == 4:
            self._trailing(c[2])
        items = c[1]
        return Node("array", [it.value for it in items], c[0].start, c[-1].end, items)

    def r_elements(self, c: list) -> list:
        if len(c) == 1:
            return [c[0]]
        acc = c[0]
        acc.append(c[2])
        return acc

    def _object_node(self, raw: list, start: int, end: int) -> Node:
        value: dict[str, Any] = {}
        children: dict[str, Item] = {}
        keys: dict[str, Tok] = {}
        for i in range(0, len(raw), 2):
            k = raw[i]
            name = k.value
            if name in keys:
                first = keys[name]
                self.out.problems.append(
                    Diagnostic(
                        "duplicate-key",
                        f'duplicate key "{name}": JSON keeps only the last value',
                        Span(k.start, k.end),
                        Severity.WARNING,
                        related=(Related(f'first "{name}" is here', Span(first.start, first.end)),),
                    )
                )
                del value[name]  # keep json.loads' order: the last value at the first place
            v = raw[i + 1]
            value[name] = v.value
            children[name] = v
            keys[name] = k
        return Node("object", value, start, end, children, keys)

    def _trailing(self, comma: Tok) -> None:
        self.out.non_json.append(NonJson(NonJsonKind.TRAILING_COMMA, Span(comma.start, comma.end)))

    # ---- lexing helpers ----
    def pairs_hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(pairs)
        if len(d) != len(pairs):
            self.shallow_duplicates = True
            # json.loads keeps the last value at the first key's place; so does dict(pairs)
        return d

    def lex_error(self, kind: str, start: int, end: int) -> Tok | None:
        """Report a lexical error and return the token that best repairs it (or None)."""
        if kind == "HOLE":
            return self.hole
        text = self.text[start:end]
        if kind == "BAD_STRING":
            if not text.endswith('"') or len(text) == 1:
                self._problem("unterminated-string", "string is not closed: add '\"' before the end of the line", start, end)
            else:
                self._problem("bad-string", _bad_string_message(text), start, end)
            return Tok("STRING", _lenient_string(text), start, end)
        if kind == "SINGLE_QUOTED":
            self._problem("single-quoted-string", "JSON strings use double quotes, not single quotes", start, end)
            return Tok("STRING", text.strip("'"), start, end)
        if kind == "OPEN_COMMENT":
            self._problem("unterminated-comment", "comment is never closed: add '*/'", start, start + 2)
            self.out.non_json.append(NonJson(NonJsonKind.BLOCK_COMMENT, Span(start, end)))
            return None
        if kind == "WORD":
            if text in _WORD_VALUES:
                typ, value = _WORD_VALUES[text]
                self._problem("bare-word", f"JSON spells it {json.dumps(value)}, not {text}", start, end)
                return Tok(typ, value, start, end)
            if text in ("NaN", "Infinity"):
                self._problem("bad-number", f"{text} is not a JSON number", start, end)
                return Tok("NUMBER", None, start, end)
            self._problem("bare-word", f"unquoted text '{_clip(text)}': strings and keys need double quotes", start, end)
            return Tok("STRING", text, start, end)
        if kind == "BAD_NUMBER":
            self._problem("bad-number", f"'{_clip(text)}' is not a valid JSON number", start, end)
            return Tok("NUMBER", None, start, end)
        self._problem("unexpected-character", f"unexpected character {_describe_char(text)}", start, end)
        return None

    def _problem(self, kind: str, message: str, start: int, end: int) -> None:
        self.event(start, end)
        self.syntax_errors += 1
        self.out.problems.append(Diagnostic(kind, message, Span(start, end)))
        if self.syntax_errors >= MAX_ERRORS:
            raise _Stop


def parse_range(text: str, start: int = 0, end: int | None = None, exact: bool = False) -> RawParse:
    """Parse ``text[start:end]``; positions stay absolute offsets into ``text``."""
    return _parse(text, start, len(text) if end is None else end, exact, None, False, False)


def parse_list(text: str, start: int, end: int) -> RawParse:
    """Parse ``text[start:end]`` as the elements of a list: a ``[`` is read before ``start``
    and a ``]`` after ``end``. ``escaped`` is set when an error's repair would reach below that opening bracket
    (closing it, or trying to), since inside a document such a repair finds another context;
    the result is then not that of the same elements inside their document."""
    return _parse(text, start, end, False, None, True, True)


def parse_around(text: str, start: int, end: int, hole: Item) -> RawParse:
    """Parse ``text[start:end]`` with the value ``hole`` standing for ``text[hole.start:hole.end]``
    (already parsed, lexed no more): the top level of a document around its instruction list.
    ``escaped`` is set when the hole was not read as a value right away."""
    return _parse(text, start, end, False, hole, False, False)


def _parse(text: str, start: int, end: int, exact: bool, hole: Item | None, open_: bool, close: bool) -> RawParse:
    t = tables()
    run = _Run(text, t)
    try:
        _drive(run, text, start, end, exact, hole, open_, close)
    except _Stop:
        run.out.stopped = True
        run.out.root = None
        run.out.problems.append(
            Diagnostic("too-many-errors", f"too many syntax errors; stopped after {MAX_ERRORS}", run.out.problems[-1].span)
        )
    except _TooDeep as exc:
        run.out.stopped = True
        run.out.root = None
        pos = exc.args[0]
        run.out.problems.append(
            Diagnostic("too-deep", f"nesting is deeper than {MAX_DEPTH} levels; sylla stops here", Span(pos, pos + 1))
        )
    return run.out


class _Hole:
    """A match-like stand-in for a value parsed before (see ``parse_around``)."""

    lastgroup = "HOLE"

    def __init__(self, item: Item) -> None:
        self.item = item

    def start(self) -> int:
        return self.item.start

    def end(self) -> int:
        return self.item.end

    def group(self) -> str:
        return ""


def _tokens(regex: "re.Pattern[str]", text: str, start: int, end: int, hole: Item | None, run: "_Run") -> Any:
    """The lexer's matches over ``[start, end)``; with a ``hole``, a stand-in in its place."""
    if hole is None:
        return regex.finditer(text, start, end)
    run.hole = Tok(
        "SHALLOW_ARRAY" if hole.type in ("array", "SHALLOW_ARRAY") else "SHALLOW_OBJECT", hole.value, hole.start, hole.end
    )
    return itertools.chain(_checked(regex.finditer(text, start, hole.start), hole.start, run), (_Hole(hole),), regex.finditer(text, hole.end, end))


#: tokens that, cut short where a parse of part of a text ends, could run on past it in the
#: whole text (a line comment before a ``]`` on the same line swallows it)
_OPEN_ENDED = frozenset({"LINE_COMMENT", "MARGIN_NOTE", "OPEN_COMMENT", "BAD_STRING", "SINGLE_QUOTED"})


def _checked(matches: Any, end: int, run: "_Run") -> Any:
    """``matches``, setting ``escaped`` when the last one is open-ended and reaches ``end``."""
    m = None
    for m in matches:
        yield m
    if m is not None and m.end() == end and m.lastgroup in _OPEN_ENDED:
        run.out.escaped = True


def _drive(
    run: _Run, text: str, start: int, end: int, exact: bool,
    hole: Item | None = None, open_: bool = False, close: bool = False,
) -> None:
    t = run.t
    actions, gotos, rules = t.actions, t.gotos, t.rules
    ignore = t.ignore
    regex = t.exact_regex if exact else t.fast_regex
    bound = {name: getattr(run, "r_" + name) for name in t.action_names}
    actions_for: list[Callable[[list], Any]] = [bound[action] for _, _, action in rules]
    states: list[int] = [t.start_state]
    values: list[Any] = []
    push_state, push_value = states.append, values.append
    loads = json.loads
    non_json = run.out.non_json
    scan = None  # the C JSON scanner, made on the first whole-lexed container
    # the run of instructions fast path (``_objects_run``): off in exact mode and around a hole
    run_of = None if exact or hole is not None else _run_shape(t)
    run_state = run_of[0] if run_of is not None else -1
    last_end = start
    skip_to = start  # the lexer may swallow a malformed run (``01``) as one bad token
    if open_:
        _feed(t, states, values, Tok("LSQB", None, start, start), actions_for)
        run.floor = len(states)
    m = None
    matches = _tokens(regex, text, start, end, hole, run)
    while matches is not None:
        restart = -1
        for m in matches:
            if m.start() < skip_to:
                continue
            k = m.lastgroup
            if k in ignore:
                if k != "WS":
                    non_json.append(NonJson(_COMMENT_KINDS[k], Span(m.start(), m.end())))
                continue
            s = m.group()
            if k == "STRING":
                tok = Tok(k, s[1:-1] if "\\" not in s else loads(s), m.start(), m.end())
            elif k == "SHALLOW_OBJECT" or k == "SHALLOW_ARRAY":
                if scan is None:
                    scan = _scanner(run)
                tok = Tok(k, scan(s, 0)[0], m.start(), m.end())
                if run.shallow_duplicates:
                    run.shallow_duplicates = False
                    _report_shallow_duplicates(run, m.start(), m.end())
            elif k == "NUMBER":
                tok = _number(run, text, s, m.start(), m.end())
                skip_to = tok.end
            elif k in _LEX_ERRORS:
                repaired = run.lex_error(k, m.start(), m.end())
                if repaired is None:
                    continue
                tok = repaired
                k = tok.type
            else:
                tok = Tok(k, True if k == "TRUE" else False if k == "FALSE" else None, m.start(), m.end())
            last_end = tok.end
            while True:
                act = actions[states[-1]].get(k)
                if act is None:
                    if not _recover(run, states, values, tok, actions_for):
                        break
                    continue
                if act[0]:
                    push_state(act[1])
                    push_value(tok)
                    if run.quiet:
                        run.quiet -= 1
                    if len(states) > MAX_DEPTH and k in _OPEN:
                        _check_depth(values, tok)
                    break
                name, n, _ = rules[act[1]]
                children = values[-n:]
                del values[-n:]
                del states[-n:]
                push_value(actions_for[act[1]](children))
                push_state(gotos[states[-1]][name])
            if states[-1] == run_state and not run.quiet:
                if scan is None:
                    scan = _scanner(run)
                pos = _objects_run(run, text, last_end, end, states, values, t, run_of, scan)  # type: ignore[arg-type]  # run_of is set where run_state is
                if pos > last_end:
                    last_end = restart = pos
                    m = None
                    break
        matches = regex.finditer(text, restart, end) if restart >= 0 else None

    if close:
        if m is not None and m.end() == end and m.lastgroup in _OPEN_ENDED:
            run.out.escaped = True
            return
        if _simulate(t, states, ("RSQB",), run.floor) == 1:
            _feed(t, states, values, Tok("RSQB", None, end, end), actions_for)
            last_end = end
        else:
            run.out.escaped = True
            return
    _finish(run, states, values, last_end, actions_for)


#: per table: the state after ``elements COMMA`` in a list, the state after a whole-lexed
#: object shifted there, and the rule ``elements: elements COMMA value`` (see ``_objects_run``)
_RUN_SHAPES: dict[int, tuple[int, int, int] | None] = {}


def _run_shape(t: Tables) -> tuple[int, int, int] | None:
    key = id(t)
    if key not in _RUN_SHAPES:
        _RUN_SHAPES[key] = _find_run_shape(t)
    return _RUN_SHAPES[key]


def _find_run_shape(t: Tables) -> tuple[int, int, int] | None:
    """Read ``[ {..} , {..} ,`` through the table: where a run of instructions loops."""
    def shift(state: int, terminal: str) -> int | None:
        act = t.actions.get(state, {}).get(terminal)
        return act[1] if act is not None and act[0] else None

    s1 = shift(t.start_state, "LSQB")
    s2 = shift(s1, "SHALLOW_OBJECT") if s1 is not None else None
    if s1 is None or s2 is None:
        return None
    act = t.actions[s2].get("COMMA")
    if act is None or act[0] or t.rules[act[1]][0] != "elements":
        return None
    s3 = t.gotos.get(s1, {}).get("elements")
    after_comma = shift(s3, "COMMA") if s3 is not None else None
    after_object = shift(after_comma, "SHALLOW_OBJECT") if after_comma is not None else None
    if after_comma is None or after_object is None:
        return None
    act = t.actions[after_object].get("COMMA")
    if act is None or act[0] or t.rules[act[1]] != ("elements", 3, "elements"):
        return None
    return after_comma, after_object, act[1]


def _objects_run(
    run: _Run, text: str, pos: int, end: int, states: list[int], values: list, t: Tables,
    shape: tuple[int, int, int], scan: Any,
) -> int:
    """After ``elements COMMA`` in a list: read the run of ``{whole object} ,`` that follows
    (whitespace around them) without a token or a table step each, and return where it ends
    (``pos`` when there is none).

    This is what the table does with them, step for step: shift the object, reduce
    ``elements COMMA object`` into the list (``r_elements`` appends it), shift the comma,
    which leaves the parser in the same state with the same stack below, so a run of
    instructions, most of a syllabus, is a loop of regex matches and C-decoded objects. The
    shape is checked on the stack (``_run_shape`` found the states in the table); anything
    else (a comment, a nested list, the closing bracket) ends the run and the driver goes on."""
    after_comma = shape[0]
    if len(states) < 3 or values[-2].__class__ is not list:
        return pos
    below = t.gotos.get(states[-3], {}).get("elements")
    act = t.actions.get(states[-2], {}).get("COMMA")
    if below != states[-2] or act is None or not act[0] or act[1] != after_comma:
        return pos
    match = _objects_regex(t).match
    m = match(text, pos, end)
    if m is None:
        return pos
    acc: list = values[-2]
    append = acc.append
    comma = values[-1]
    while m is not None:
        start, stop = m.span(1)
        append(Tok("SHALLOW_OBJECT", scan(text, start)[0], start, stop))
        if run.shallow_duplicates:
            run.shallow_duplicates = False
            _report_shallow_duplicates(run, start, stop)
        pos = m.end()
        comma = Tok("COMMA", None, pos - 1, pos)
        m = match(text, pos, end)
    values[-1] = comma
    return pos


_OBJECTS_REGEX: dict[int, "re.Pattern[str]"] = {}


def _objects_regex(t: Tables) -> "re.Pattern[str]":
    """One ``{whole object} ,`` with the whitespace before each (the lexer's own patterns)."""
    key = id(t)
    found = _OBJECTS_REGEX.get(key)
    if found is None:
        terminals = dict(t.terminals)
        # compiled from the cache like the lexer's own pattern (``regex_cache``): compiling the
        # whole-object terminal is tens of milliseconds of a small lint
        found = _OBJECTS_REGEX[key] = compile_cached("[ \t\r\n]*(%s)[ \t\r\n]*," % terminals["SHALLOW_OBJECT"])
    return found


def _scanner(run: _Run) -> Any:
    """The C JSON scanner, for whole-lexed containers: json.loads would build a new decoder
    for every token."""
    return make_scanner(json.JSONDecoder(object_pairs_hook=run.pairs_hook))  # type: ignore[arg-type]  # typeshed types make_scanner's argument as itself; it takes the decoder whose hooks it reads


def _number(run: _Run, text: str, s: str, start: int, end: int) -> Tok:
    if end < len(text) and text[end] in _AFTER_NUMBER:
        j = end
        while j < len(text) and (text[j].isalnum() or text[j] in "._+-"):
            j += 1
        run._problem("bad-number", f"'{_clip(text[start:j])}' is not a valid JSON number", start, j)
        return Tok("NUMBER", None, start, j)
    if s.lstrip("-").isdigit():
        value: Any = to_int(s)
        if value is None:  # more digits than Python converts (json.loads refuses them too)
            run._problem("bad-number", too_many_digits(len(s.lstrip("-"))), start, end)
    else:
        value = float(s)
        if value in _INFINITIES:  # json.loads would read it as infinity, which JSON cannot write back
            run._problem("bad-number", f"'{_clip(s)}' is beyond the range of a 64-bit float: JSON readers make it infinity", start, end)
            value = None
    return Tok("NUMBER", value, start, end)


def to_int(digits: str) -> int | None:
    """``int(digits)``, or None when Python refuses that many digits (``sys.get_int_max_str_digits``,
    4,300 by default): the one way a number read from a file becomes an int (a phase label's
    number, a completion's, a rule's suggestion), so none of them can raise on a long one."""
    try:
        return int(digits)
    except ValueError:
        return None


def too_many_digits(digits: int) -> str:
    """Why a number of ``digits`` digits is not read."""
    return f"number has {digits:,} digits; JSON readers in Python refuse more than {sys.get_int_max_str_digits() or 4300:,}"


def _check_depth(values: list, tok: Tok) -> None:
    depth = sum(1 for v in values if v.__class__ is Tok and v.type in _OPEN)
    if depth > MAX_DEPTH:
        raise _TooDeep(tok.start)


def _report_shallow_duplicates(run: _Run, start: int, end: int) -> None:
    sub = parse_range(run.text, start, end, exact=True)
    run.out.problems.extend(p for p in sub.problems if p.kind == "duplicate-key")


# ---- error recovery ----

_REPAIRS: tuple[tuple[str, ...], ...] = (
    ("COMMA",),
    ("COLON",),
    ("NULL",),
    ("RBRACE",),
    ("RSQB",),
    ("RBRACE", "COMMA"),
    ("RSQB", "COMMA"),
    ("RSQB", "RBRACE"),
    ("RBRACE", "RSQB"),
)


def _simulate(t: Tables, states: list[int], seq: tuple[str, ...] | list[str], floor: int = 0) -> int:
    """Would the parser shift every terminal of ``seq`` in turn (reducing as needed)? 1 yes,
    0 no, -1 when finding out pops the stack below ``floor`` (a list parse's bracket)."""
    actions, gotos, rules, end_state = t.actions, t.gotos, t.rules, t.end_state
    s = list(states)
    for k in seq:
        while True:
            act = actions[s[-1]].get(k)
            if act is None:
                return 0
            if act[0]:
                s.append(act[1])
                break
            name, n, _ = rules[act[1]]
            del s[-n:]
            if len(s) < floor:
                return -1
            s.append(gotos[s[-1]][name])
            if k == "$END" and s[-1] == end_state:
                return 1
    return 1


def _reduce(t: Tables, states: list[int], values: list, rule: int, actions_for: list) -> None:
    """Apply one reduction (the hot loop in ``_drive`` has its own inlined copy)."""
    name, n, _ = t.rules[rule]
    children = values[-n:]
    del values[-n:]
    del states[-n:]
    values.append(actions_for[rule](children))
    states.append(t.gotos[states[-1]][name])


def _feed(t: Tables, states: list[int], values: list, tok: Tok, actions_for: list) -> None:
    """Feed one token known to be acceptable (used for repairs, off the hot path)."""
    while True:
        act = t.actions[states[-1]][tok.type]
        if act[0]:
            states.append(act[1])
            values.append(tok)
            return
        _reduce(t, states, values, act[1], actions_for)


def _recover(run: _Run, states: list[int], values: list, tok: Tok, actions_for: list) -> bool:
    """Report an unexpected token and repair; True when ``tok`` should now be fed."""
    t = run.t
    run.event(tok.start, max(tok.end, tok.start + 1))
    if run.hole is not None and (tok is run.hole or (values and values[-1] is run.hole)):
        # the hole stands for a list whose closing bracket a full parse would still hold on
        # its stack here: its messages and repairs could differ
        run.out.escaped = True
    expected = set(t.actions[states[-1]])
    if not run.quiet:
        end = tok.end if tok.type == "$END" else max(tok.end, tok.start + 1)
        run._problem("syntax", _message(expected, states, values, tok, t), tok.start, end)
    for repair in _REPAIRS:
        found = _simulate(t, states, repair + (tok.type,), run.floor)
        if found < 0:
            run.out.escaped = True
        if found > 0:
            for k in repair:
                _feed(t, states, values, Tok(k, None, tok.start, tok.start), actions_for)
            run.quiet = 0
            return True
    # Dropping tokens can cascade: stay quiet until the parser has shifted a few again.
    run.quiet = 3
    return False


def _finish(run: _Run, states: list[int], values: list, pos: int, actions_for: list) -> None:
    t = run.t
    if len(states) == 1 and not values:
        return  # nothing but whitespace and comments: the caller reports an empty file
    end_tok = Tok("$END", None, pos, pos)
    for _ in range(2 * len(states) + 4):
        act = t.actions[states[-1]].get("$END")
        if act is None:
            if not _recover(run, states, values, end_tok, actions_for):
                return
            continue
        _reduce(t, states, values, act[1], actions_for)
        if states[-1] == t.end_state:
            run.out.root = values[-1]
            return


# ---- messages in plain words ----

_PUNCT = {"COMMA": "','", "COLON": "':'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'"}
_VALUE_STARTS = {"STRING", "NUMBER", "TRUE", "FALSE", "NULL", "LBRACE", "LSQB"}


def _expected_words(expected: set[str], in_object_start: bool) -> str:
    words: list[str] = []
    if _VALUE_STARTS <= expected:
        words.append("a value")
        rest = expected - _VALUE_STARTS - {"SHALLOW_OBJECT", "SHALLOW_ARRAY"}
    elif "STRING" in expected and "COLON" not in expected:
        words.append("a key in double quotes")
        rest = expected - {"STRING"}
    else:
        rest = set(expected)
    for k in ("COMMA", "COLON", "RBRACE", "RSQB"):
        if k in rest:
            words.append(_PUNCT[k])
    if "$END" in rest:
        words.append("the end of the file")
    if not words:
        words = sorted(rest)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _context(expected: set[str], values: list) -> str:
    """Where the parser is, in the syllabus' own terms: after an instruction, a key, ..."""
    if not values:
        return ""
    last = values[-1]
    if "COLON" in expected and last.__class__ is Tok and last.type == "STRING":
        return f' after the key "{_clip(str(last.value))}"'
    if "COMMA" in expected or "$END" in expected:
        if len(values) >= 3 and values[-2].__class__ is Tok and values[-2].type == "COLON":
            key = values[-3]
            if key.__class__ is Tok:
                return f' after the value of "{_clip(str(key.value))}"'
        i = _open_index(values)
        if i >= 0 and values[i].type == "LSQB":
            return " after an instruction" if _is_instruction_list(values, i) else " after an array element"
    return ""


def _open_index(values: list) -> int:
    """Index of the innermost '{' or '[' not yet closed (a closer may still be on the stack,
    waiting for the reduction the next token triggers); -1 at the top level."""
    closed = 0
    for i in range(len(values) - 1, -1, -1):
        v = values[i]
        if v.__class__ is Tok:
            if v.type in _CLOSE:
                closed += 1
            elif v.type in _OPEN:
                if closed:
                    closed -= 1
                else:
                    return i
    return -1


def _is_instruction_list(values: list, i: int) -> bool:
    """Is the open '[' at ``values[i]`` the syllabus' instruction list?"""
    if i == 0:
        return True  # a bare list of instructions
    return (
        i >= 2
        and values[i - 1].__class__ is Tok
        and values[i - 1].type == "COLON"
        and values[i - 2].__class__ is Tok
        and values[i - 2].value == "instructions"
    )


def _found(tok: Tok) -> str:
    if tok.type == "$END":
        return "the end of the file"
    if tok.type in _PUNCT:
        return _PUNCT[tok.type]
    if tok.type in ("SHALLOW_OBJECT", "SHALLOW_ARRAY"):
        return "'{'" if tok.type == "SHALLOW_OBJECT" else "'['"
    if tok.type == "STRING":
        return json.dumps(_clip(str(tok.value)))
    return "a value" if tok.value is None and tok.type != "NULL" else json.dumps(tok.value)


def _innermost_open(values: list) -> str | None:
    i = _open_index(values)
    return values[i].type if i >= 0 else None


def _message(expected: set[str], states: list[int], values: list, tok: Tok, t: Tables) -> str:
    # LALR merges states, so a state may list terminals only valid in another context
    # (the end of the file inside braces, say); name only what can follow here.
    inner = _innermost_open(values)
    if inner == "LBRACE":
        expected = expected - {"RSQB", "$END"}
    elif inner == "LSQB":
        expected = expected - {"RBRACE", "$END"}
    else:
        expected = expected - {"RBRACE", "RSQB"}
    return f"expected {_expected_words(expected, False)}{_context(expected, values)}, found {_found(tok)}"


def _clip(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _describe_char(c: str) -> str:
    if len(c) == 1 and (ord(c) < 32 or ord(c) == 127):
        return f"U+{ord(c):04X} (a control character)"
    if len(c) == 1 and c.isspace():
        return f"U+{ord(c):04X} (a space JSON does not allow)"
    return f"'{_clip(c)}'"


def _bad_string_message(text: str) -> str:
    for i, ch in enumerate(text):
        if ord(ch) < 32:
            return f"string contains a raw control character U+{ord(ch):04X}: write it escaped"
        if ch == "\\" and i + 1 < len(text) and text[i + 1] not in '"\\/bfnrtu':
            return f"invalid escape '\\{text[i + 1]}' in a string"
    return "invalid \\u escape in a string"


def _lenient_string(text: str) -> str:
    body = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
    try:
        return json.loads('"' + body + '"')
    except ValueError:
        return body
