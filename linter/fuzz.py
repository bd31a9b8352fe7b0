"""Structure-aware mutations of real syllabi, and the properties parse, lint, fix and fmt keep.

One home for what the fuzz test (``tests/linter/test_fuzz.py``, hypothesis, bounded) and the
long campaign (``bench/fuzz.py``) both run, so they check the same things. Mutations are
what authors and tools do to syllabi: reorder, duplicate and drop instructions, mistype phase
labels and counts, toggle learning, add comments, margin notes, suppression directives
(well formed or not), trailing and leading commas, CRLF line ends, a BOM, and cut a file down
to a bare fragment or array. Everything is driven by one ``random.Random`` so hypothesis can
shrink a failure and the campaign can replay one from its seed.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from sylla.grammar.parse import parse
from sylla.grammar.record import replace

from .config import PROFILES, TYPES, Config
from .edits import skip_trivia
from .engine import lint
from .fixes import fix_all
from .fmt import format_text
from .suppress import directives

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


def mutate(text: str, rng: random.Random, steps: int = 2) -> str:
    """``text`` after ``steps`` mutations, each on the JSON value (re-serialised in a random
    published layout) or on the token stream (comments, commas, scalars, line ends)."""
    for _ in range(steps):
        if rng.random() < 0.4:
            try:
                value = json.loads(text.lstrip("\ufeff"))
            except ValueError:
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


def _strict(text: str) -> Any:
    def no_constants(name: str) -> Any:
        raise ValueError(name)

    return json.loads(text, parse_constant=no_constants)


def check(text: str, config: Config, path: str = "fuzz.jsonc") -> list[Violation]:
    """Run parse, lint, fix and fmt on ``text`` and return the properties that do not hold.
    An exception is a violation too (with its type and message), never a crash of the run."""
    out: list[Violation] = []
    for name, prop in (("lint", _lint_props), ("fix", _fix_props), ("fmt", _fmt_props)):
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
        strict = _strict(text.lstrip("\ufeff"))
    except ValueError:
        strict = None
    if strict is not None and _strict(formatted.lstrip("\ufeff")) != strict:
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
