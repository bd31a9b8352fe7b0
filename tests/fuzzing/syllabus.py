"""Structure-aware mutations of real syllabi, and the properties parse, lint, fix and fmt keep.

One home for what the fuzz test (``tests/linter/test_fuzz.py``, hypothesis, bounded) and the
long campaign (``bench/fuzz.py``) both run, so they check the same things. Mutations are
what authors and tools do to syllabi: reorder, duplicate and drop instructions, mistype phase
labels and counts, toggle learning, add comments, margin notes, suppression directives
(well formed or not), trailing and leading commas, CRLF line ends, a BOM, and cut a file down
to a bare fragment or array. Hostile mutations (issue 38) are what breaks tools rather than
what authors write: a NUL byte, nesting tens of thousands deep, integers past Python's 4,300
digits and floats past a double, absurd counts and phase numbers, a minified file of thousands
of instructions on one line, and directives where they do not belong (a ``$phase`` inside a
``$repeat``). Everything is driven by one ``random.Random`` so hypothesis can shrink a failure
and the campaign can replay one from its seed.

The properties: no exception anywhere (parse, lint, fix, fmt, explain, the reporters); fix and
fmt keep what they promise; no file with an error lints clean (a file strict JSON refuses, one
the schema refuses, one with an instruction the schedule cannot place, a syllabus that a NUL
byte would hide from detection); and memory and report size stay bounded by the input's size
and the number of findings.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
import tracemalloc
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from jsonschema import Draft202012Validator

from sylla.grammar.core import Severity
from sylla.grammar.syllabus.detect import is_syllabus
from sylla.grammar.syllabus.explain import explain, render_text
from sylla.grammar.syllabus.fmt import format_text
from sylla.grammar.syllabus.model import Unknown
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.schema import SCHEMA_PATH
from sylla.kit.record import replace
from sylla.linter.config import PROFILES, TYPES, Config
from sylla.linter.edits import skip_trivia
from sylla.linter.engine import lint
from sylla.linter.fixes import fix_all
from sylla.linter.languages import language_of, lint_text
from sylla.linter.reporters import FileReport, writer
from sylla.linter.suppress import directives

# ---------------------------------------------------------------- mutations

_LEX = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<comment>//[^\r\n]*|/\*.*?\*/|<--[^\r\n]*)|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<punct>[{}\[\]:,])|(?P<other>[^\s{}\[\]:,\"]+|.)",
    re.S,
)
COMMENTS = [
    "// a note", "/* block */", "/* multi\n   line */", "<-- margin note", "// sylla: ignore[H501]",
    "// sylla: ignore[H50", "/* sylla: ignore */", "// sylla: ignore[]", "// Pöng 🎮", "/* a // b */", "/**/",
]
INSTRUCTIONS = [
    {"$phase": "1.train"}, {"$phase": "1.test"}, {"$phase": "2.train"}, {"$phase": "2.test"},
    {"$phase": "0.test"}, {"$phase": "1.Test"}, {"$phase": "3.train", "enable_updates": False},
    {"$phase": "2.test", "enable_updates": True}, {"$info": {}}, {"$info": {"disable_updates": True}},
    {"$info": {"disable_updates": False}}, {"$info": {"note": "x"}},
    {"$repeat": {"$episode": "Pong"}, "count": 5}, {"$repeat": {"$episode": "Pong", "w": 0.2}, "count": 5},
    {"$repeat": {"$episode": "Breakout"}, "count": 3}, {"$episode": "Pong"},
    {"$repeat": {"$dataset": "mnist"}, "count": 2}, {"$repeat": {"$episode": "Pong"}, "count": 0},
    {"$repeat": {"$episode": "Pong"}, "count": 5, "x_seed": 7}, {"$unknown": 1}, {"$repeat": {"$episode": "Pong"}},
]
#: directives where they do not belong: inside a ``$repeat``, or two in one instruction
MISPLACED = [
    {"$repeat": {"$phase": "1.train"}, "count": 100}, {"$repeat": {"$phase": "2.test"}, "count": 1},
    {"$repeat": {"$info": {"disable_updates": True}}, "count": 3}, {"$repeat": {"$info": {}}, "count": 1},
    {"$repeat": {"$repeat": {"$episode": "Pong"}, "count": 2}, "count": 5},
    {"$repeat": {"$episode": "Pong", "$phase": "1.train"}, "count": 5}, {"$repeat": {"$episode": "Pong", "$info": {}}, "count": 5},
    {"$episode": "Pong", "$phase": "1.train"}, {"$phase": "1.train", "$info": {"disable_updates": True}},
    {"$repeat": {"$episode": "Pong"}, "count": 5, "$phase": "2.train"}, {"$repeat": {}, "count": 5},
]
#: counts no run can reach, and numbers no reader converts
HUGE_COUNTS = [10**9 + 1, 10**12, 10**30, 2**63, 10**4000]
HUGE_NUMBERS = ["9" * 4301, "-" + "1" * 5000, "1e400", "-1e999", "1" * 400 + ".5", "1" * 4300, "12e308"]
NESTING = [99, 100, 101, 1_000, 70_000]
SCALARS = ["0", "-1", "1.5", "1e999", "true", "false", "null", '"5"', "10000000000000000000000", '"1.train"', '"2.test"']
STRINGS = ['"1.train"', '"1.test"', '"2.train"', '"1.Test"', '"Pong"', '"Breakout"', '"CL"', '"ANT-A"', '"ANT-C"', '""']


def _tokens(text: str) -> list[tuple[str, str]]:
    return [(m.lastgroup or "other", m.group()) for m in _LEX.finditer(text)]


def _join(tokens: list[tuple[str, str]]) -> str:
    return "".join(t for _, t in tokens)


def _comment(rng: random.Random) -> str:
    c = rng.choice(COMMENTS)
    return c + "\n" if c.startswith(("//", "<--")) else c


def _value_mutation(value: Any, rng: random.Random) -> Any:
    value = copy.deepcopy(value)
    holder = value if isinstance(value, dict) else {"instructions": value}
    ins = holder.get("instructions")
    if not isinstance(ins, list):
        ins = holder["instructions"] = []
    op = rng.randrange(10)
    if op == 0 and ins:
        del ins[rng.randrange(len(ins))]
    elif op == 1 and ins:
        i = rng.randrange(len(ins))
        ins.insert(i, copy.deepcopy(ins[i]))
    elif op == 2 and len(ins) > 1:
        i, j = rng.randrange(len(ins)), rng.randrange(len(ins))
        ins[i], ins[j] = ins[j], ins[i]
    elif op in (3, 4):
        ins.insert(rng.randrange(len(ins) + 1), copy.deepcopy(rng.choice(INSTRUCTIONS)))
    elif op == 5 and ins:
        target = rng.choice(ins)
        if isinstance(target, dict) and "count" in target:
            target["count"] = rng.choice([0, 1, 2, 5, -3, 10**6, "5", 2.5])
    elif op == 6 and ins:
        target = rng.choice(ins)
        if isinstance(target, dict) and "$phase" in target:
            target["enable_updates"] = rng.choice([True, False])
    elif op == 7 and isinstance(value, dict):
        value["syllabus_type"] = rng.choice(["CL", "ANT-A", "ANT-B", "ANT-C", "STE", "XX"])
    elif op == 8 and isinstance(value, dict):
        key = rng.choice(["x_extra", "comments", "contains", "sylla_ignore", "default_params"])
        value[key] = {"contains": rng.choice(["episodes", "datasets"]), "sylla_ignore": ["H5"],
                      "default_params": {"w": 0.1}}.get(key, "x")
    elif op == 9 and ins:
        i = rng.randrange(len(ins))
        ins[i : i + 2] = ins[i : i + 2][::-1]
    return value if isinstance(value, dict) else holder["instructions"]


def _dump(value: Any, rng: random.Random) -> str:
    style = rng.randrange(4)
    if style == 0:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if style == 1:
        return json.dumps(value, indent=rng.choice([1, 2, 4]), ensure_ascii=False) + "\n"
    if isinstance(value, dict) and isinstance(value.get("instructions"), list):
        # the published shape: one instruction per line
        head = {k: v for k, v in value.items() if k != "instructions"}
        lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
        body = ",\n".join("    " + json.dumps(i, ensure_ascii=False) for i in value["instructions"])
        return "{\n" + "\n".join(lines) + ('\n' if lines else "") + '  "instructions": [\n' + body + "\n  ]\n}\n"
    return json.dumps(value, ensure_ascii=False)


def _text_mutation(text: str, rng: random.Random) -> str:
    toks = _tokens(text)
    if not toks:
        return text
    op = rng.randrange(14)
    i = rng.randrange(len(toks))
    kinds = [k for k, _ in toks]
    if op <= 2:  # a comment after a token
        toks.insert(i + 1, ("comment", " " + _comment(rng)))
    elif op == 3:  # a comment before a leading comma
        commas = [n for n, (k, t) in enumerate(toks) if t == ","]
        if commas:
            n = rng.choice(commas)
            toks[n] = ("punct", "\n  " + _comment(rng).rstrip("\n") + "\n  ,")
    elif op == 4:  # a trailing comma
        closes = [n for n, (k, t) in enumerate(toks) if t in "]}" and n > 0 and toks[n - 1][1] not in "[{,"]
        if closes:
            n = rng.choice(closes)
            toks.insert(n, ("punct", ","))
    elif op == 5:  # drop a token: syntax errors
        del toks[i]
    elif op == 6:  # a scalar changes type or range
        scalars = [n for n, k in enumerate(kinds) if k == "other"]
        if scalars:
            toks[rng.choice(scalars)] = ("other", rng.choice(SCALARS))
    elif op == 7:  # a string changes (phase labels, tasks, types)
        strings = [n for n, k in enumerate(kinds) if k == "string" and n + 1 < len(toks) and toks[n + 1][1] != ":"]
        if strings:
            toks[rng.choice(strings)] = ("string", rng.choice(STRINGS))
    elif op == 8:  # an instruction after a comma
        commas = [n for n, (k, t) in enumerate(toks) if t == ","]
        if commas:
            toks.insert(rng.choice(commas) + 1, ("other", " " + json.dumps(rng.choice(INSTRUCTIONS)) + ","))
    elif op == 9:
        return text.replace("\r\n", "\n").replace("\n", "\r\n")
    elif op == 10:
        return text if text.startswith("\ufeff") else "\ufeff" + text
    elif op == 11:  # a line duplicated or dropped
        lines = text.split("\n")
        n = rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines.insert(n, lines[n])
        else:
            del lines[n]
        return "\n".join(lines)
    elif op == 12:  # cut down to the fragment or the bare array
        m = re.search(r'"instructions"\s*:', text)
        if m:
            if rng.random() < 0.5:
                end = text.rfind("}")
                return text[m.start() : end if end > m.start() else len(text)]
            start = text.find("[", m.end())
            end = text.rfind("]")
            if 0 <= start < end:
                return text[start : end + 1]
    else:  # a stray character
        toks.insert(i, ("other", rng.choice(["'", "True", "/", "*", "\x00", "\t", "<-", "é", "\\"])))
    return _join(toks)


def hostile_mutation(text: str, rng: random.Random) -> str:
    """What breaks tools rather than what authors write (issue 38): see the module docstring."""
    op = rng.randrange(8)
    if op == 0:  # a NUL byte anywhere (in the first KiB, pre-commit's identify calls the file binary)
        at = rng.randrange(min(len(text), 1024) + 1) if rng.random() < 0.5 else rng.randrange(len(text) + 1)
        return text[:at] + "\x00" + text[at:]
    if op == 1:  # nesting deeper than anything follows, closed or not
        n = rng.choice(NESTING)
        opener = rng.choice(["[", '{"a":'])
        closer = "]" if opener == "[" else "}"
        nested = opener * n + ("1" if opener != "[" else "") + (closer * n if rng.random() < 0.8 else "")
        return _at_a_value(text, rng, nested)
    if op == 2:  # a number no reader converts, in place of one that is there
        return _at_a_number(text, rng, rng.choice(HUGE_NUMBERS))
    if op == 3:  # a count no run reaches
        return _at_a_count(text, rng, str(rng.choice(HUGE_COUNTS)))
    if op == 4:  # a phase number no reader converts, or one that is no number
        label = rng.choice([f"{'7' * rng.choice([4300, 4301, 6000])}.{rng.choice(['train', 'test'])}", "1e5000.train",
                            f"{10**30}.test"])
        matches = list(re.finditer(r'"\$phase"\s*:\s*"[^"]*"', text))
        if matches:
            m = rng.choice(matches)
            return text[: m.start()] + f'"$phase": "{label}"' + text[m.end() :]
        return text
    if op == 5:  # minified, thousands of instructions on one line, a finding or two each
        try:
            value = json.loads(text.lstrip("\ufeff"))
        except (ValueError, RecursionError):
            return text.replace("\r", "").replace("\n", "")
        holder = value if isinstance(value, dict) else {"instructions": value}
        ins = holder.get("instructions") if isinstance(holder, dict) else None
        if isinstance(ins, list):
            k = rng.randrange(len(ins) + 1)
            # blocks apart (identical neighbours would be merged by --fix a pair per round, more
            # rounds than the fix loop runs), each after an $info key no engine knows (N606)
            ins[k:k] = [copy.deepcopy(x) for _ in range(rng.choice([100, 500]))
                        for x in ({"$info": {"note": "x"}}, {"$repeat": {"$episode": "Pong"}, "count": 5})]
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    # a directive where it does not belong
    return _at_an_instruction(text, rng, json.dumps(rng.choice(MISPLACED)))


def _at_a_value(text: str, rng: random.Random, value: str) -> str:
    """``value`` in place of a scalar of ``text`` (after a colon or a bracket), or appended."""
    places = [m for m in re.finditer(r'(?<=[:\[,])\s*(?:-?[0-9][0-9.eE+-]*|true|false|null|"(?:[^"\\]|\\.)*")', text)]
    if not places:
        return text + value
    m = rng.choice(places)
    return text[: m.start()] + value + text[m.end() :]


def _at_a_number(text: str, rng: random.Random, number: str) -> str:
    places = list(re.finditer(r"(?<=[:\[,\s])-?[0-9][0-9.eE+-]*", text))
    if not places:
        return _at_a_value(text, rng, number)
    m = rng.choice(places)
    return text[: m.start()] + number + text[m.end() :]


def _at_a_count(text: str, rng: random.Random, count: str) -> str:
    places = list(re.finditer(r'("count"\s*:\s*)-?[0-9][0-9.eE+-]*', text))
    if not places:
        return _at_an_instruction(text, rng, '{"$repeat": {"$episode": "Pong"}, "count": %s}' % count)
    m = rng.choice(places)
    return text[: m.start()] + m.group(1) + count + text[m.end() :]


def _at_an_instruction(text: str, rng: random.Random, instruction: str) -> str:
    """``instruction`` after an instruction of ``text`` (after a ``},`` or a ``[{``)."""
    places = [m.end() for m in re.finditer(r"\}\s*,|\[\s*(?=\{)", text)]
    if not places:
        return text
    at = rng.choice(places)
    return text[:at] + " " + instruction + "," + text[at:]


def mutate(text: str, rng: random.Random, steps: int = 2, hostile: float = 0.0) -> str:
    """``text`` after ``steps`` mutations, each on the JSON value (re-serialised in a random
    published layout), on the token stream (comments, commas, scalars, line ends), or, with
    probability ``hostile``, hostile (``hostile_mutation``). With ``hostile`` 0 the mutants of a
    seed are those they always were (the random draws are the same)."""
    for _ in range(steps):
        if hostile and rng.random() < hostile:
            text = hostile_mutation(text, rng)
            continue
        if rng.random() < 0.4:
            try:
                value = json.loads(text.lstrip("\ufeff"))
            except (ValueError, RecursionError):
                value = None
            if isinstance(value, (dict, list)):
                text = _dump(_value_mutation(value, rng), rng)
                continue
        text = _text_mutation(text, rng)
    return text


# ---------------------------------------------------------------- properties


@dataclass(frozen=True)
class Violation:
    prop: str
    detail: str

    def __str__(self) -> str:
        return f"{self.prop}: {self.detail}"


def configs() -> list[Config]:
    """Every profile crossed with every type (and no type: declared or inferred)."""
    return [replace(Config(), profile=p, type=t) for p in PROFILES for t in (None, *TYPES)]


def _comments_of(text: str) -> Counter:
    result = parse(text)
    if result.model is None:
        return Counter()
    out: Counter = Counter()
    for item in result.model.non_json:
        if item.kind.value in ("line-comment", "block-comment", "margin-note"):
            out[item.text(result.model.text).replace("\r\n", "\n").rstrip()] += 1
    return out


def strict_json(text: str) -> Any:
    """``text`` as a strict JSON reader takes it (no NaN, no infinity); ValueError when it
    refuses it (json.loads' RecursionError on deep nesting is a refusal too)."""
    def no_constants(name: str) -> Any:
        raise ValueError(name)

    try:
        return json.loads(text, parse_constant=no_constants)
    except RecursionError as exc:
        raise ValueError("nested too deep") from exc


def neutral(text: str) -> str:
    """``text`` with its suppressions switched off: a finding its author silenced is still there."""
    return text.replace("sylla:", "sylla-").replace('"sylla_ignore"', '"sylla-ignore"')


@functools.cache
def _schema_validator() -> Any:
    """The shipped schema file read by jsonschema directly: an oracle beside sylla's own
    memoised, per-instruction validation."""
    return Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def _error_props(text: str, config: Config, path: str) -> list[Violation]:
    """No file with an error lints clean (exit 0 at the default ``--fail-on warning``): one a
    strict JSON reader refuses (a ``.json`` file; ``.jsonc`` may hold comments), one the schema
    refuses, one with an instruction the schedule cannot place, and no syllabus is hidden from
    detection by a NUL byte (issue 38)."""
    out: list[Violation] = []
    result = lint(neutral(text), path, config)
    failing = [f for f in result.findings if f.severity in (Severity.ERROR, Severity.WARNING)]
    errors = [f for f in result.findings if f.severity is Severity.ERROR]
    try:
        value: Any = strict_json(text)
        strict_ok = True
    except ValueError:
        value, strict_ok = None, False
    if path.endswith(".json") and not strict_ok and not failing:
        out.append(Violation("a file strict JSON refuses passes", repr(text[:500])))
    if strict_ok and not errors and next(iter(_schema_validator().iter_errors(value)), None) is not None:
        out.append(Violation("a file the schema refuses has no error", repr(text[:500])))
    model = result.parse.model
    if model is not None and any(isinstance(i, Unknown) for i in model.instructions) and not errors:
        out.append(Violation("an instruction the schedule skips has no error", repr(text[:500])))
    if is_syllabus(text.replace("\x00", "")):
        data = text.encode("utf-8", errors="surrogatepass")
        if language_of(path, data, config) is None:
            out.append(Violation("a syllabus is skipped by detection", repr(text[:500])))
    return out


def _explain_props(text: str, config: Config, path: str) -> list[Violation]:
    """``sylla explain`` of a file that parses: its document and text are made (a huge count
    is a number in a table, never an allocation)."""
    result = parse(text, path)
    if result.model is None or not result.syntax_ok:
        return []
    for workers in (1, 3):
        doc = explain(result.model, workers, workers - 1)
        render_text(doc)
        json.dumps(doc)
    return []


#: the most memory a lint of ``n`` bytes and its four reports may take: ``PER_BYTE * n + BASE``
#: (a parse keeps tokens and a model per byte; the base is the tables, the schema and caches)
MEMORY_PER_BYTE = 400
MEMORY_BASE = 48 << 20
#: inputs up to this size are traced (tracemalloc slows a parse tenfold); ``bench/fuzz.py``
#: measures the peak of every size as the resident memory of a ``sylla`` process
TRACED_BYTES = 64 << 10
#: the most bytes a report may take per finding (a clipped message, a window of the source
#: line, a location), beside the text of the finding's fixes and a base (SARIF's rule pages)
REPORT_PER_FINDING = 4096
REPORT_BASE = 1 << 20
_FORMATS = ("text", "json", "sarif", "github")


class _Counting:
    """A stream that keeps only how much was written to it."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, s: str) -> int:
        self.size += len(s)
        return len(s)


def _memory_props(text: str, config: Config, path: str) -> list[Violation]:
    """Memory bounded in the input's size, reports bounded in the number of findings: a
    minified file's thousands of findings once printed its whole line each (589 MB from 98 KB,
    issue 38). The file is linted from its bytes, as the command line does."""
    data = text.encode("utf-8", errors="surrogatepass")
    traced = len(data) <= TRACED_BYTES
    tracing = tracemalloc.is_tracing()
    if traced and tracing:
        tracemalloc.reset_peak()
    elif traced:
        tracemalloc.start()
    try:
        result = lint_text(data, path, config)
        sizes = {}
        for fmt in _FORMATS:
            sink = _Counting()
            writer(fmt)([FileReport(path, result)], sink)  # type: ignore[arg-type]  # a stream: only write() is called
            sizes[fmt] = sink.size
        peak = tracemalloc.get_traced_memory()[1] if traced else 0
    finally:
        if traced and not tracing:
            tracemalloc.stop()
    out: list[Violation] = []
    if peak > MEMORY_PER_BYTE * len(data) + MEMORY_BASE:
        out.append(Violation("memory not bounded by the input's size", f"{peak:,} bytes at peak for {len(data):,} bytes"))
    fixes = sum(len(e.new_text) for f in result.findings if f.fix is not None for e in f.fix.edits)
    bound = REPORT_PER_FINDING * len(result.findings) + 2 * fixes + REPORT_BASE
    for fmt, size in sizes.items():
        if size > bound:
            out.append(Violation(f"{fmt} report not bounded by its findings", f"{size:,} characters for {len(result.findings)} findings"))
    return out


def check(text: str, config: Config, path: str = "fuzz.jsonc") -> list[Violation]:
    """Run parse, lint, fix, fmt, explain and the reporters on ``text`` and return the
    properties that do not hold. An exception is a violation too (with its type and message),
    never a crash of the run."""
    out: list[Violation] = []
    for name, prop in (("lint", _lint_props), ("fix", _fix_props), ("fmt", _fmt_props), ("errors", _error_props),
                       ("explain", _explain_props), ("memory", _memory_props)):
        try:
            out.extend(prop(text, config, path))
        except Exception as exc:  # noqa: BLE001 - any exception is the finding
            out.append(Violation(f"{name} raised", f"{type(exc).__name__}: {exc}"))
    return out


def _lint_props(text: str, config: Config, path: str) -> list[Violation]:
    result = lint(text, path, config)
    out = []
    for f in result.findings:
        if not (0 <= f.span.start <= f.span.end <= len(result.text)):
            out.append(Violation("finding span outside the text", f"{f.code} {f.span}"))
    # the same file as bytes, after a line holding an invalid UTF-8 byte (a line of its own,
    # so no `sylla: ignore` on it), and saved as UTF-16
    data = text.encode("utf-8", errors="surrogatepass")
    for variant in (b"\xff\n" + data, text.encode("utf-16")):
        if not lint(variant, path, config).findings:
            out.append(Violation("an undecodable file linted clean", repr(variant[:200])))
    return out


def _fix_props(text: str, config: Config, path: str) -> list[Violation]:
    first = lint(text, path, config)
    if not first.parse.syntax_ok:
        return []
    relint: Callable = lambda t: lint(t, path, config)
    loop = fix_all(first, relint)
    fixed = loop.text
    if fixed == first.text:
        return []
    out = []
    after = lint(fixed, path, config)
    if not after.parse.syntax_ok:
        out.append(Violation("fix broke the syntax", repr(fixed[:2000])))
        return out
    if fix_all(after, relint).text != fixed:
        out.append(Violation("fix not idempotent", repr(fixed[:2000])))
    still = [f for f in after.findings if f.fix is not None and f.fix.safe]
    if still:
        out.append(Violation("fixable findings remain after --fix", ", ".join(f"{f.code} {f.message}" for f in still)))
    # a fixed finding may share its message with an unfixable one (three equal blocks): count
    before_n = Counter((f.code, f.message) for f in first.findings)
    after_n = Counter((f.code, f.message) for f in after.findings)
    fixed_keys = {(f.code, f.message) for f in first.findings if f.fix is not None and f.fix.safe}
    again = [f"{c} {m}" for c, m in fixed_keys if after_n[(c, m)] >= before_n[(c, m)]]
    if again:
        out.append(Violation("fixed findings reported again", "; ".join(again)))
    new_errors = Counter(f.code for f in after.findings if f.code[0] == "S") - Counter(
        f.code for f in first.findings if f.code[0] == "S"
    )
    if new_errors:
        out.append(Violation("fix introduced schema/syntax findings", str(dict(new_errors))))
    if _comments_of(fixed) != _comments_of(first.text):
        out.append(Violation("fix lost or changed comments", repr(fixed[:2000])))
    return out


def _fmt_props(text: str, config: Config, path: str) -> list[Violation]:
    parsed = parse(text)
    formatted = format_text(text)
    if formatted is None:
        if parsed.syntax_ok and parsed.model is not None:
            return [Violation("fmt refused valid input", repr(text[:2000]))]
        return []
    out = []
    again = parse(formatted)
    if not again.syntax_ok:
        return [Violation("fmt produced a syntax error", repr(formatted[:2000]))]
    if format_text(formatted) != formatted:
        out.append(Violation("fmt not idempotent", repr(formatted[:2000])))
    if again.model is None or parsed.model is None or again.model.value != parsed.model.value:
        out.append(Violation("fmt changed the value", repr(formatted[:2000])))
    try:
        strict = strict_json(text.lstrip("\ufeff"))
    except ValueError:
        strict = None
    if strict is not None and strict_json(formatted.lstrip("\ufeff")) != strict:
        out.append(Violation("fmt changed the JSON value", repr(formatted[:2000])))
    if _comments_of(formatted) != _comments_of(text):
        out.append(Violation("fmt lost or changed comments/notes", repr(formatted[:2000])))
    if formatted.startswith("\ufeff") != text.startswith("\ufeff"):
        out.append(Violation("fmt changed the BOM", ""))
    if "\r" in formatted.replace("\r\n", "") and "\r" not in text.replace("\r\n", ""):
        out.append(Violation("fmt added a bare CR", repr(formatted[:2000])))
    # the rules see the same syllabus (directives switched off: a directive on a line with
    # several instructions cannot keep naming all of them once each has a line of its own)
    neutral = lambda t: t.replace("sylla:", "sylla-")
    before = Counter(f.code for f in lint(neutral(text), path, config).findings if f.code != "N602")
    after = Counter(f.code for f in lint(neutral(formatted), path, config).findings if f.code != "N602")
    if before != after:
        out.append(Violation("fmt changed the findings", f"before-only {dict(before - after)}, after-only {dict(after - before)}"))
    moved = _directive_places(text) - _directive_places(formatted, strict=False)
    if moved:
        out.append(Violation("fmt moved a directive off its instruction's line", f"{dict(moved)} {formatted[:2000]!r}"))
    return out


def _list_end(model: Any, i: int) -> int:
    """Where what follows instruction ``i`` stops being about it: the next instruction, or
    the ``]`` closing the list (a directive after ``]}`` on that line names the brackets)."""
    if i + 1 < len(model.instructions):
        return model.instructions[i + 1].span.start
    text = model.text
    pos = skip_trivia(text, model.instructions[i].span.end)
    if pos < len(text) and text[pos] == ",":
        pos = skip_trivia(text, pos + 1)
    return pos if pos < len(text) and text[pos] == "]" else len(text)


def _directive_places(text: str, strict: bool = True) -> Counter:
    """(directive text, instruction index) for each ``sylla: ignore`` comment that names one
    instruction: its lines meet that instruction only, the instruction starts on them, and the
    directive is inside or after it (one before it on line 1 also names the top object).
    ``strict=False`` pairs every directive with every instruction starting on its lines."""
    result = parse(text)
    model = result.model
    if model is None:
        return Counter()
    lines = result.lines
    ranges = [
        (lines.line_col(ins.span.start)[0], lines.line_col(max(ins.span.start, ins.span.end - 1))[0])
        for ins in model.instructions
    ]
    out: Counter = Counter()
    for d in directives(model):
        first, last = lines.line_col(d.span.start)[0], lines.line_col(max(d.span.start, d.span.end - 1))[0]
        starting = [i for i, (a, _) in enumerate(ranges) if first <= a <= last]
        meeting = [i for i, (a, b) in enumerate(ranges) if a <= last and first <= b]
        named = starting
        if strict:  # one instruction on its lines, and the directive inside or after it
            named = [i for i in starting if meeting == [i] and d.span.start >= model.instructions[i].span.start
                     and d.span.start < _list_end(model, i)]
        for i in named:
            out[(model.text[d.span.start : d.span.end].replace("\r\n", "\n").rstrip(), i)] += 1
    return out
