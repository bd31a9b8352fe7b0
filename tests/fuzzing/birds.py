"""Mutations of real Science Birds configs, and the properties lint, explain and fix keep on them.

The counterpart of ``fuzzing.syllabus`` for configMeta.xml and config.xml, shared by the property
test (``tests/linter/test_birds_fuzz.py``, hypothesis) and any longer campaign. Mutations are
what hands, tools and disks do to a config: a value retyped as a word, a number of thousands of
digits or past int.Parse's range, a boolean's case, an attribute or a line dropped or doubled,
a NUL or an invalid byte, a long comment before the root, deep nesting, an entity, a cut, a
change of encoding or line ends. Everything is driven by one ``random.Random``, so hypothesis
can shrink a failure and a campaign can replay one from its seed.

``mutate`` returns the bytes and whether a mutation is certain to have broken the file (a NUL,
an invalid byte, a cut inside the root, nesting past 64 levels, a number past int.Parse's range
in a numeric value, an entity): the lint of such a file must fail. A second, independent
judge is the standard library's XML parser on the plainly decoded text: a file it refuses must
fail the lint as well.
"""

from __future__ import annotations

import random
import re
import tracemalloc
from dataclasses import dataclass
from typing import Any, Callable
from xml.etree import ElementTree

from sylla.grammar.birds.describe import describe
from sylla.grammar.birds.model import MetaConfig, numeric_fields
from sylla.grammar.birds.numbers import game_range
from sylla.grammar.birds.plan import n_testsets
from sylla.linter.config import Config
from sylla.linter.fixes import fix_all
from sylla.linter.languages import encode_fixed, language_of, lint_text, spec_for

#: numeric attribute values and limit texts (``name="123"``, ``>123<``)
_NUMBER = re.compile(r'(?<==")[+-]?[0-9]+(?:-[0-9]+)?(?=")|(?<=>)\s*[+-]?[0-9]+\s*(?=</)')
_BOOLEAN = re.compile(r'(?<==")(?:true|false|True|False|both)(?=")|(?<=>)(?:true|false)(?=</)')
_ATTRIBUTE = re.compile(r'\s[A-Za-z_]+="[^"]*"')
_START_TAG = re.compile(r"<[A-Za-z_][\w.-]*[^>]*>")
WORDS = ["", "two", "1.5", "0", "-1", " 7 ", "0x10", "1e3", "∞", "2147483647", "-2147483648", "3-1", "5-5", "0-3"]
#: past int.Parse's 32 bits: a certain error wherever a number is read
OUT_OF_RANGE = ["2147483648", "-2147483649", "99999999999"]


def _huge(rng: random.Random) -> str:
    return rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(rng.choice((12, 400, 4301, 6000))))


def _past_int32(value: str) -> bool:
    """Outside [-2**31, 2**31 - 1], judged on the digits (int() refuses 4,300 of them)."""
    digits = value.lstrip("+-").lstrip("0") or "0"
    return len(digits) > 10 or not -(2**31) <= int(value) <= 2**31 - 1


@dataclass
class Mutant:
    data: bytes
    #: a mutation certain to make the file fail the lint (what it was)
    broken: str | None = None


def _replace(text: str, m: re.Match[str], new: str) -> str:
    return text[: m.start()] + new + text[m.end() :]


def _pick(pattern: re.Pattern[str], text: str, rng: random.Random) -> re.Match[str] | None:
    found = list(pattern.finditer(text))
    return rng.choice(found) if found else None


def _root_span(text: str) -> tuple[int, int]:
    """Where the root element's start tag ends and its end tag begins (a cut between the two
    is inside the root, certain to leave it unclosed)."""
    m = re.search(r"<(config_generation|evaluation)\b[^>]*>", text)
    if m is None:
        return (len(text), len(text))
    end = text.rfind(f"</{m.group(1)}")
    return (m.end(), end if end > m.end() else len(text))


def _text_mutation(text: str, rng: random.Random, broken: list[str]) -> str:
    kind = rng.randrange(12)
    if kind == 0 and (m := _pick(_NUMBER, text, rng)):
        return _replace(text, m, rng.choice(WORDS))
    if kind == 1 and (m := _pick(_NUMBER, text, rng)):
        huge = rng.choice(OUT_OF_RANGE + [_huge(rng)])
        value = ("-" if rng.random() < 0.2 and huge[0] != "-" else "") + huge
        if m.group(0).strip().lstrip("+-").isdigit() and _past_int32(value):
            broken.append(f"number out of range: {value[:20]}")
        return _replace(text, m, value)
    if kind == 2 and (m := _pick(_BOOLEAN, text, rng)):
        return _replace(text, m, rng.choice(["True", "TRUE", "false", "False", "yes", "1", "both", ""]))
    if kind == 3 and (m := _pick(_ATTRIBUTE, text, rng)):
        return _replace(text, m, "" if rng.random() < 0.5 else m.group(0) * 2)
    if kind == 4 and text:
        lines = text.splitlines(keepends=True)
        i = rng.randrange(len(lines))
        op = rng.randrange(3)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        else:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines)
    if kind == 5:  # in the root's start tag, in another tag, or anywhere
        where = rng.randrange(3)
        tags = list(_START_TAG.finditer(text))
        root = re.search(r"<(config_generation|evaluation)\b[^>]*>", text)
        tag = root if where == 0 and root else rng.choice(tags) if where == 1 and tags else None
        at = rng.randrange(tag.start() + 1, tag.end()) if tag else rng.randrange(len(text) + 1)
        broken.append("a NUL byte")
        return text[:at] + "\x00" + text[at:]
    if kind == 6:
        lo, hi = _root_span(text)
        depth = rng.choice((10, 70, 5000, 100_000))
        at = text.find("<", lo, hi) if lo < hi else -1
        if at < 0:
            return text
        if depth + 2 > 64:
            broken.append(f"nesting {depth} deep")
        return text[:at] + "<x>" * depth + "</x>" * depth + text[at:]
    if kind == 7:
        m = re.search(r"<(config_generation|evaluation)\b", text)
        at = m.start() if m else 0
        return text[:at] + "<!--" + "long comment line\n" * rng.choice((10, 4000, 12000)) + "-->\n" + text[at:]
    if kind == 8:
        lo, hi = _root_span(text)
        at = rng.randrange(len(text) + 1)
        if lo <= at < hi:
            broken.append("cut inside the root element")
        return text[:at]
    if kind == 9:
        m = re.search(r"<(config_generation|evaluation)\b", text)
        if m is None:
            return text
        broken.append("an entity declaration")
        entity = '<!DOCTYPE x [<!ENTITY a "aaaa">]>\n'
        return text[: m.start()] + entity + text[m.start() :]
    if kind == 10 and (m := _pick(_START_TAG, text, rng)):
        return _replace(text, m, m.group(0) + m.group(0))
    if kind == 11:
        return text.replace("\r\n", "\n").replace("\n", "\r\n") if rng.random() < 0.5 else text.replace("\r\n", "\n")
    return text


def mutate(text: str, rng: random.Random, steps: int = 2) -> Mutant:
    """``steps`` mutations of ``text``, then an encoding; whether one of them is certain to break it."""
    broken: list[str] = []
    for _ in range(steps):
        text = _text_mutation(text, rng, broken)
    encoding = rng.randrange(8)
    if encoding == 0:
        data = text.encode("utf-16")  # with a BOM
    elif encoding == 1:
        data = text.encode("utf-16-le")  # without one
    elif encoding == 2:
        data = b"\xef\xbb\xbf" + text.encode("utf-8")
    elif encoding == 3:
        at = rng.randrange(len(text) + 1)
        data = text[:at].encode("utf-8") + b"\xff" + text[at:].encode("utf-8")
        broken.append("an invalid UTF-8 byte")
    else:
        data = text.encode("utf-8")
    return Mutant(data, "; ".join(broken) or None)


@dataclass(frozen=True)
class Violation:
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"


def _plain_text(data: bytes) -> str | None:
    """The text decoded the plain way: a byte-order mark, else UTF-8 (None: not UTF-8)."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            body, name = data[len(bom) :], codec
            break
    else:
        body, name = data, "utf-16-le" if data[1:2] == b"\x00" else "utf-8"
    try:
        return body.decode(name)
    except UnicodeDecodeError:
        return None


def has_root(data: bytes) -> bool:
    """Whether the file's first element is a config's root (then it is linted as one, whatever
    else is wrong with it; a file whose first element is another is someone else's XML)."""
    text = _plain_text(data)
    if text is None:
        text = data.decode("utf-8", errors="replace")
    text = re.sub(r"<!--.*?-->|<\?.*?\?>|<!DOCTYPE[^>\[]*(?:\[.*?\])?\s*>", "", text.replace("\x00", ""), flags=re.S)
    first = re.search(r"<([A-Za-z_][\w.-]*)", text)
    return first is not None and first.group(1) in ("config_generation", "evaluation")


def plain_parse_refuses(data: bytes) -> bool:
    """The independent judge: the standard library's parser on the text decoded the plain way
    (a byte-order mark, else UTF-8; the declaration's encoding dropped, as the game ignores it)."""
    text = _plain_text(data)
    if text is None:
        return True
    text = re.sub(r"""\A(\s*<\?xml\b[^>]*?)\s+encoding\s*=\s*(["'])[^"']*\2""", r"\1", text)
    try:
        ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return True
    return False


#: memory a lint may hold: a multiple of the input's size and a floor for the parser, the
#: schema and the rules (measured: about 30 x the file and 8 MB on the fixtures)
MEMORY_FACTOR, MEMORY_FLOOR = 200, 48 * 1024 * 1024


def check(mutant: Mutant, path: str = "configMeta.xml", config: Config | None = None) -> list[Violation]:
    """Run lint, explain, hover text and the fix loop on the mutant; return what does not hold.
    An exception is a violation (its type and message), never a crash of the run."""
    config = config or Config()
    out: list[Violation] = []
    for name, prop in (("lint", _lint_props), ("explain", _explain_props), ("fix", _fix_props)):
        try:
            out.extend(prop(mutant, path, config))
        except Exception as exc:  # noqa: BLE001 - any exception is the finding
            out.append(Violation(f"{name} raised", f"{type(exc).__name__}: {str(exc)[:500]}"))
    return out


def _fails(result: Any) -> bool:
    return any(f.severity.value in ("error", "warning") for f in result.findings)


def _lint_props(mutant: Mutant, path: str, config: Config) -> list[Violation]:
    out = []
    tracemalloc.start()
    try:
        result = lint_text(mutant.data, path, config)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    found = language_of(path, mutant.data, config)  # what a folder walk and the pre-commit hook ask
    if found != "birds" and has_root(mutant.data):
        out.append(Violation("a mutated config is not linted as one", f"language_of: {found}"))
    if found is None and (mutant.broken or plain_parse_refuses(mutant.data)) and has_root(mutant.data):
        out.append(Violation("a broken config is skipped unread", mutant.broken or "the standard parser refuses it"))
    if peak > MEMORY_FACTOR * len(mutant.data) + MEMORY_FLOOR:
        out.append(Violation("memory", f"{peak / 1e6:.0f} MB for a {len(mutant.data) / 1e6:.2f} MB file"))
    if mutant.broken and not _fails(result):
        out.append(Violation("a broken file passes", mutant.broken))
    if plain_parse_refuses(mutant.data) and not _fails(result):
        out.append(Violation("a file the standard parser refuses passes", repr(mutant.data[:300])))
    for f in result.findings:
        if not 0 <= f.span.start <= f.span.end <= len(result.text):
            out.append(Violation("finding span outside the text", f"{f.code} {f.span}"))
        if len(f.message) > 1000:
            out.append(Violation("a message repeats a long value", f"{f.code}: {len(f.message)} characters"))
    return out


def _explain_props(mutant: Mutant, path: str, config: Config) -> list[Violation]:
    spec = spec_for("birds")
    parsed = spec.parse(mutant.data, path)
    if parsed.model is None or not parsed.syntax_ok:
        return []
    doc, _text = spec.explain(parsed, path)
    for offset in range(0, len(parsed.text), max(1, len(parsed.text) // 25)):
        describe(parsed, offset)
    if not isinstance(parsed.model, MetaConfig):
        return []
    return _meta_consistency(parsed.model, doc)


def _meta_consistency(model: MetaConfig, doc: dict[str, Any]) -> list[Violation]:
    """Every total is the sum of its items (unknown when one is), every n_testsets is the
    reference formula on the document's own numbers, and a number the plan reads that cannot
    be read leaves its template with something unknown."""
    out = []

    def total(values: list[Any]) -> Any:
        return None if any(v is None for v in values) else sum(values)

    for key in ("trials_generated", "executions"):
        if doc["totals"][key] != total([t[key] for t in doc["trials"]]):
            out.append(Violation("a total is not the sum of its trials", key))
    read = {id(f) for t in model.trials for f in _plan_inputs(t)}
    unreadable = {id(f) for f, _ in numeric_fields(model) if f.int is None and id(f) in read and not _range_ok(f)}
    for template, t in zip(model.trials, doc["trials"]):
        sets = t["test"]["sets"]
        n_all = t["timeline"][1].get("count") if len(t["timeline"]) > 1 and t["timeline"][1]["event"] == "checkpoint-tests" else None
        if sets and t["timeline"][1]["event"] == "checkpoint-tests":
            counts = [s["n_testsets"] for s in sets]
            want = None if any(c is None for c in counts) else {"min": sum(c["min"] for c in counts), "max": sum(c["max"] for c in counts)}
            if n_all != want:
                out.append(Violation("test sets in all is not the sum of the sets' n_testsets", f"{n_all} != {want}"))
        total_n = t["test"]["total_n_testsets"]
        for s in sets:
            pct = s["set_appearance_percentage"]
            if total_n is not None and pct is not None:
                want = {"min": n_testsets(total_n["min"], pct), "max": n_testsets(total_n["max"], pct)}
                if s["n_testsets"] != want:
                    out.append(Violation("n_testsets is not the reference formula", f"{s['n_testsets']} != {want}"))
            elif s["n_testsets"] is not None:
                out.append(Violation("n_testsets from an unknown total or percentage", str(s["n_testsets"])))
        if any(id(f) in unreadable for f in _plan_inputs(template)) and not t["unknown"]:
            out.append(Violation("an unreadable value left nothing unknown", f"trial template {t['index'] + 1}"))
    return out


def _range_ok(f: Any) -> bool:
    return f.name == "amount" and game_range(f.raw) is not None


def _plan_inputs(template: Any) -> list[Any]:
    """The values the plan computes with: count, repeats, the numeric limits it reads (the last
    of each type) and the training sets' amounts."""
    fields = [template.count, template.repeats]
    for limits, kinds in ((template.checkpoint, ("time", "interaction")),
                          (template.training.limits if template.training else None, ("time", "interaction", "attempt_per_level"))):
        for kind in kinds:
            item = limits.get(kind) if limits is not None else None
            fields.append(item.value if item is not None else None)
    per_level = template.training.limits.get("time") if template.training else None
    if per_level is not None and (per_level.value.int or 0) > 0:  # else the training time is off, whatever the amounts
        fields += [s.amount for s in template.training.sets]
    return [f for f in fields if f is not None]


def _fix_props(mutant: Mutant, path: str, config: Config) -> list[Violation]:
    first = lint_text(mutant.data, path, config)
    if not first.parse.syntax_ok:
        return []
    relint: Callable[[str], Any] = lambda t: lint_text(encode_fixed(mutant.data, t, "birds"), path, config, language="birds")
    loop = fix_all(first, relint)
    out = []
    fresh = lint_text(encode_fixed(mutant.data, loop.text, "birds"), path, config)
    if _fails(fresh) != _fails(loop.result):
        out.append(Violation("--fix exits otherwise than a fresh lint of what it wrote", repr(loop.text[:300])))
    if fix_all(fresh, relint).text != loop.text:
        out.append(Violation("fix not idempotent", repr(loop.text[:300])))
    return out
