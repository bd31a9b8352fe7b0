"""Reading a wave-3 delivery folder (predictions.csv, bests.csv, samples.csv, description.md)
into typed columns with row numbers, in the request's shape or in the known deviant shapes.

Each deviation from the request's shape is recorded once per file as a ``Note`` (what was
found, what was expected, where first) and, where its meaning is unambiguous, undone so the data
can still be used: a header-less file takes its columns from its width (13: the request's,
14: with ``length``, 7: ``problem,run,order,trial,program,cpu,count``); typographic quotes
are read as ``"``; trials (runs, orderings) numbered from 0 are shifted to 1, when the request
and the trial files say so (``numbering.py``); split ``samples0.csv``/``samples1.csv`` are read
as one table. Rows that cannot be read or placed are kept out of the columns and recorded with
their row numbers.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from dataclasses import dataclass, field

from .numbering import TOPS, ShownExamples, settle

#: the request's columns, in its order (wave3-online-trials-request.md, *Deliverables*)
COLUMNS = ("problem", "run", "order", "trial", "input", "correct", "predicted", "accuracy",
           "program", "cpu", "count", "nlp", "nll")
#: the request's own example header adds ``length`` after ``count``
WITH_LENGTH = COLUMNS[:11] + ("length",) + COLUMNS[11:]
#: the known short shape of bests.csv (no header)
SHORT_BESTS = ("problem", "run", "order", "trial", "program", "cpu", "count")
QUOTED = frozenset({"problem", "input", "correct", "predicted", "program"})
INTS = ("run", "order", "trial", "accuracy", "count")
FLOATS = ("cpu", "nlp", "nll", "length")
TYPOGRAPHIC = "“”„‟″"


@dataclass
class Note:
    """One deviation of one file: ``kind`` names the W9xx check, ``line`` is 1-based (0: the file)."""

    kind: str
    message: str
    line: int = 0
    column: int = 1
    severity: str = "warning"
    path: str | None = None  # the file it is about, when not the table's own (split samples)


@dataclass
class Table:
    """One CSV of the delivery: canonical column names, the rows that could be read (as
    columns of typed values) and their 1-based line numbers in the file."""

    path: str
    text: str
    columns: tuple[str, ...]
    data: dict[str, list] = field(default_factory=dict)
    lines: list[int] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    bad: dict[str, list[int]] = field(default_factory=dict)  # reason -> line numbers
    header: bool = True
    offsets: tuple[int, int, int] = (0, 0, 0)  # run, order, trial shifts applied
    texts: dict[str, str] = field(default_factory=dict)  # path -> text of each part (split samples)
    work: str | None = None  # the text as read: typographic quotes made ASCII (None until parse_table)
    untold: dict[str, Note] = field(default_factory=dict)  # column -> the error that its numbering cannot be told

    def __len__(self) -> int:
        return len(self.lines)

    def has(self, col: str) -> bool:
        return col in self.data

    def bad_row(self, reason: str, line: int) -> None:
        self.bad.setdefault(reason, []).append(line)

    def drop(self, rows: dict[int, str]) -> None:
        """Set the rows at these indices aside as bad, each with its reason."""
        if not rows:
            return
        for k, reason in sorted(rows.items()):
            self.bad_row(reason, self.lines[k])
        keep = [k for k in range(len(self.lines)) if k not in rows]
        self.lines = [self.lines[k] for k in keep]
        for c, values in self.data.items():
            self.data[c] = [values[k] for k in keep]


def read_table(path: str, names: tuple[str, ...] | None = None) -> Table:
    """Read one CSV of a delivery (``names``: force the columns of a header-less file)."""
    with open(path, "rb") as fh:
        raw = fh.read()
    text = raw.decode("utf-8-sig", errors="replace")
    return parse_table(text, path, names)


def parse_table(text: str, path: str, names: tuple[str, ...] | None = None) -> Table:
    # csv refuses fields over 128 KiB (a program nested a million deep is one): no field can be
    # longer than the text, and the text is in memory already
    if len(text) >= csv.field_size_limit():
        csv.field_size_limit(len(text) + 1)
    table = Table(path, text, ())
    base = os.path.basename(path)
    work = text
    m = None if text.isascii() else re.search(f"[{TYPOGRAPHIC}]", text)
    typo = m.start() if m else -1
    if typo >= 0:
        line = text.count("\n", 0, typo) + 1
        col = typo - (text.rfind("\n", 0, typo) + 1) + 1
        table.notes.append(Note("quoting", f"{base} quotes with typographic quotes ({text[typo]!r}); the request's CSV "
                                f"quotes with ASCII '\"'. Read as '\"'.", line, col))
        work = re.sub(f"[{TYPOGRAPHIC}]", '"', text)
    table.work = work
    physical = work.splitlines()
    if not physical:
        table.notes.append(Note("columns", f"{base} is empty; expected a header {','.join(COLUMNS)} and rows", 0, 1, "error"))
        return table
    first = next(csv.reader([physical[0]]))
    lowered = tuple(f.strip().lower() for f in first)
    start = 1
    if "problem" in lowered and ("trial" in lowered or all(c in WITH_LENGTH for c in lowered)):
        columns = lowered
        _check_header(table, columns, base)
    else:
        start = 0
        table.header = False
        columns = names or {13: COLUMNS, 14: WITH_LENGTH, 7: SHORT_BESTS}.get(len(first), ())
        how = ""
        if not columns:
            columns, fitting = infer_columns(physical)
            if len(fitting) != 1:
                why = ("no choice of the request's columns, in its order, fits their values" if not fitting else
                       f"several choices of the request's columns fit their values ({' or '.join(map(','.join, fitting))})")
                table.notes.append(Note("columns", f"{base} has no header and {len(first)} column{'s' if len(first) > 1 else ''}; "
                                        f"{why}. Its columns cannot be told, so it is not read: write the header "
                                        f"{','.join(COLUMNS)} (or the columns it has) as its first line.", 1, 1, "error"))
                return table
            how = " by their values"
        shape = "the request's 13 columns" if columns == COLUMNS else (
            "the request's columns with length" if columns == WITH_LENGTH else
            f"{len(columns)} column{'s' if len(columns) > 1 else ''}, read{how} as {','.join(columns)}")
        table.notes.append(Note("columns", f"{base} has no header ({shape}); expected the header {','.join(COLUMNS)} "
                                "as its first line", 1, 1))
    table.columns = columns
    _read_rows(table, physical, start)
    return table


#: what a value of each column looks like, for telling the columns of a header-less file apart
_LOOKS: dict[str, re.Pattern[str]] = {
    "problem": re.compile(r"\s*c[0-9]{3}\s*"),
    "list": re.compile(r"\s*\[[^\]]*\]\s*|"),
    "program": re.compile(r"\s*\(.*"),
    "accuracy": re.compile(r"\s*[01]\s*"),
    "int": re.compile(r"\s*-?[0-9]+\s*"),
    "number": re.compile(r"\s*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\s*"),
}
_LOOK_OF = {"problem": "problem", "input": "list", "correct": "list", "predicted": "list", "program": "program",
            "accuracy": "accuracy", "run": "int", "order": "int", "trial": "int", "count": "int",
            "cpu": "number", "nlp": "number", "nll": "number", "length": "number"}
#: lines whose values decide the columns of a header-less file
_SAMPLE_LINES = 50


def infer_columns(physical: list[str]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The columns of a header-less file of a width no known shape has, told by their values:
    every choice of the request's columns, in its order, whose kinds (a ``c???`` label, a list,
    a program, 0 or 1, an integer, a number) fit the values of the first lines. Returns the one
    choice (or ``()``) and up to two of the choices that fit: the file is read only when one does."""
    rows = [r for r in csv.reader([ln for ln in physical[:_SAMPLE_LINES] if ln.strip()]) if r]
    width = len(rows[0]) if rows else 0
    if not width or any(len(r) != width for r in rows):
        return (), []
    fits = [[all(_LOOKS[_LOOK_OF[c]].fullmatch(r[i]) for r in rows) for c in WITH_LENGTH] for i in range(width)]
    found: list[tuple[str, ...]] = []

    def choose(i: int, after: int, chosen: tuple[str, ...]) -> None:
        if len(found) > 1:
            return
        if i == width:
            found.append(chosen)
            return
        for j in range(after, len(WITH_LENGTH) - (width - i) + 1):
            if fits[i][j]:
                choose(i + 1, j + 1, (*chosen, WITH_LENGTH[j]))

    choose(0, 0, ())
    return (found[0] if len(found) == 1 else ()), found


def _check_header(table: Table, cols: tuple[str, ...], base: str) -> None:
    if cols == COLUMNS:
        return
    if cols == WITH_LENGTH:
        table.notes.append(Note("columns", f"{base} has a length column after count: accepted (the request's own "
                                "example header has it, its column list does not)", 1, 1, "info"))
        return
    missing = [c for c in COLUMNS if c not in cols]
    extra = [c for c in cols if c not in WITH_LENGTH]
    if missing:
        table.notes.append(Note("columns", f"{base} lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                                f"expected {','.join(COLUMNS)}", 1, 1, "error"))
    if extra:
        table.notes.append(Note("columns", f"{base} has column{'s' if len(extra) > 1 else ''} the request does not name: "
                                f"{', '.join(extra)} (ignored)", 1, 1, "info"))
    known = [c for c in cols if c in COLUMNS]
    if not missing and known != list(COLUMNS):
        table.notes.append(Note("columns", f"{base} has the columns in another order ({','.join(cols)}); expected "
                                f"{','.join(COLUMNS)}. Read by name.", 1, 1))


def _pattern(columns: tuple[str, ...]) -> re.Pattern[str]:
    parts = ['"[^"\\n]*+"' if c in QUOTED else '[^",\\n]*+' for c in columns]
    return re.compile("^" + ",".join(parts) + r"[ \t\r]*$", re.MULTILINE)


def _read_rows(table: Table, physical: list[str], start: int) -> None:
    """Rows -> typed columns. The common case (every row well formed) runs column-wise in C
    (``csv``, ``zip``, ``map``); rows that are not are found one by one only when there are some."""
    cols = table.columns
    n = len(cols)
    body = physical[start:]
    if _fast_rows(table, body, start, table.work):
        _check_quoting(table, physical, body)
        return
    rows = list(csv.reader(body))
    numbered = [(k, r) for k, r in enumerate(rows, start + 1) if r]
    wrong_width = [k for k, r in numbered if len(r) != n]
    if wrong_width:
        numbered = [(k, r) for k, r in numbered if len(r) == n]
    bad_number: list[int] = []
    data: dict[str, list] = {}
    if numbered:
        lines, good = zip(*numbered)
        columns = list(zip(*good))
        try:
            for i, c in enumerate(cols):
                data[c] = _convert(c, columns[i])
        except ValueError:
            keep = []
            for k, r in numbered:
                try:
                    for i, c in enumerate(cols):
                        _convert(c, (r[i],))
                    keep.append((k, r))
                except ValueError:
                    bad_number.append(k)
            numbered = keep
            data = {c: [] for c in cols}
            if numbered:
                lines, good = zip(*numbered)
                columns = list(zip(*good))
                for i, c in enumerate(cols):
                    data[c] = _convert(c, columns[i])
        table.lines = list(lines) if numbered else []
    table.data = data or {c: [] for c in cols}
    _check_quoting(table, physical, body)
    for line in wrong_width:
        table.bad_row(f"not {n} fields", line)
    for line in bad_number:
        table.bad_row("a number column that is not a finite number", line)


def _fast_rows(table: Table, body: list[str], start: int, work: str | None = None) -> bool:
    """The well-formed case through pandas' C parser when pandas is installed (the metrics
    extra): True when every line is one row of the right width with numbers where numbers go."""
    try:
        import pandas as pd  # noqa: PLC0415 - optional dependency: absent without the extra
    except ImportError:
        return False
    if not body or any(not line.strip() for line in body):
        return False
    cols = table.columns
    source = work
    if source is None or "\r" in source:
        source = "\n".join(body)
    elif start:
        source = source[source.index("\n") + 1:]
    try:
        df = pd.read_csv(io.StringIO(source), header=None, names=list(cols),
                         dtype={c: object for c in cols if c not in INTS and c not in FLOATS},
                         keep_default_na=False, engine="c", skip_blank_lines=False, quotechar='"')
    except Exception:  # noqa: BLE001 - any parser complaint: the row-by-row path says which row
        return False
    if len(df) != len(body) or df.shape[1] != len(cols):
        return False
    data: dict[str, list] = {}
    for c in cols:
        col = df[c]
        kind = col.dtype.kind
        if c in INTS:
            if kind != "i":
                return False  # a value that is not an integer: found row by row
            data[c] = col.tolist()
        elif c in FLOATS:
            if kind not in "if":
                return False
            values = col.astype("float64")
            if not values.map(math.isfinite).all():
                return False  # nan or inf: found row by row
            data[c] = values.tolist()
        else:
            data[c] = col.tolist()
    table.data = data
    table.lines = list(range(start + 1, start + 1 + len(body)))
    return True


def _quotes_balance(table: Table, source: str) -> bool:
    """A whole-text test that every row quotes exactly the quoted columns: the counts of
    row-initial ``"``, ``,"`` and ``",`` are what that implies, and no field holds a ``"``
    (``""``). Counting is a scan in C; the per-row regex runs only when this fails."""
    cols = table.columns
    n = len(table.lines)
    if not n or table.bad or '""' in source or "\r" in source:
        return False
    q = sum(1 for c in cols if c in QUOTED)
    first, last = cols[0] in QUOTED, cols[-1] in QUOTED
    starts = source.count('\n"') + (1 if source.startswith('"') else 0)
    if not table.header:
        pass
    elif source.startswith('"'):
        return False  # a quoted header: leave it to the regex
    return (starts == n * first and source.count(',"') == n * (q - first)
            and source.count('",') == n * (q - last))


def _check_quoting(table: Table, physical: list[str], body: list[str]) -> None:
    cols = table.columns
    pattern = _pattern(cols)
    work = getattr(table, "work", None)
    source = work if work is not None and "\r" not in work else "\n".join(body) + "\n"
    if _quotes_balance(table, source):
        return
    quoted_ok = len(pattern.findall(source)) if body else 0
    unquoted: list[int] = []
    if quoted_ok < len(table.lines):
        unquoted = [k for k in table.lines if not pattern.match(physical[k - 1])]
    base = os.path.basename(table.path)
    if unquoted:
        bare, quoted = _misquoted(cols, [physical[k - 1] for k in unquoted[:_SAMPLE_ROWS]])
        rows = f"{len(unquoted):,} row{'s' if len(unquoted) > 1 else ''} {'do' if len(unquoted) > 1 else 'does'}"
        if bare:
            what = f"not quote {', '.join(bare)} as the request asks"
        elif quoted:
            what = f"quote {', '.join(quoted)}, which the request writes as {'numbers' if len(quoted) > 1 else 'a number'}"
        else:
            what = "not quote the string columns as the request asks"
        table.notes.append(Note("quoting", f"{base}: {rows} {what} (rows {_rows(unquoted)})", unquoted[0], 1))


#: rows of a file whose quoting is looked at field by field, to name the columns at fault
_SAMPLE_ROWS = 1000
_RAW_FIELD = re.compile(r'[ \t]*("(?:[^"]|"")*"|[^,]*)[ \t]*(?:,|$)')


def field_starts(line: str) -> list[tuple[int, int]]:
    """Where each field of a CSV line starts (its opening quote, if any) and whether it is
    quoted (1) or not (0): positions for findings about one field of a row."""
    return [(m.start(1), int(m.group(1).startswith('"'))) for m in _RAW_FIELD.finditer(line.rstrip("\r"))]


def _misquoted(cols: tuple[str, ...], lines: list[str]) -> tuple[list[str], list[str]]:
    """The string columns some of these lines leave bare, and the number columns some quote, in
    the file's column order: W912 names the columns at fault, not every quoted column."""
    bare: set[str] = set()
    quoted: set[str] = set()
    for line in lines:
        raw = [m.group(1) for m in _RAW_FIELD.finditer(line.rstrip("\r"))][: len(cols)]
        for c, field_ in zip(cols, raw):
            if c in QUOTED and not field_.startswith('"'):
                bare.add(c)
            elif c not in QUOTED and field_.startswith('"'):
                quoted.add(c)
    return [c for c in cols if c in bare], [c for c in cols if c in quoted]


def _convert(col: str, values: tuple[str, ...]) -> list:
    """Typed values of one column; ValueError for one that is not a number, or not a finite one
    (``nan`` and ``inf`` would pass every comparison with a recomputed value, or fail all)."""
    if col in INTS:
        return list(map(int, values))
    if col in FLOATS:
        out = list(map(float, values))
        if not all(map(math.isfinite, out)):
            raise ValueError(col)
        return out
    return list(values)


def _rows(lines: list[int], limit: int = 8) -> str:
    shown = ", ".join(map(str, lines[:limit]))
    return shown + (f", ... ({len(lines):,} in all)" if len(lines) > limit else "")


_LABEL = re.compile(r"^\s*c([0-9]{3})\s*$")
_SPACE = re.compile(r"\s+")


def problem_of(label: str) -> int | None:
    """The problem number of a ``c???`` label (``"c046"`` -> 46), else None."""
    m = _LABEL.match(label)
    return int(m.group(1)) if m else None


def list_text(s: str) -> str:
    """A list as the deliverables write it, spaces removed (``[1, 2]`` -> ``[1,2]``)."""
    return _SPACE.sub("", s) if (" " in s or "\t" in s) else s


def settle_numbering(table: Table, shown: ShownExamples | None = None) -> None:
    """Read run, order and trial in the numbering the request and the trial files give
    (``numbering.settle``): shift a column numbered from 0, set aside rows outside the numbering
    read, and leave a column whose numbering cannot be told as written, with an error that names
    the rows of both kinds."""
    cols = {c: table.data[c] for c in TOPS if table.has(c)}
    if not cols or not table.lines:
        return
    base = os.path.basename(table.path)
    labels = table.data.get("problem")

    def problems() -> list[int | None]:
        if labels is None:
            return [None] * len(table.lines)
        known = {x: problem_of(x) for x in set(labels)}
        return [known[x] for x in labels]

    settled = settle(cols, problems, table.data.get("input"), table.data.get("correct"), shown or {}, list_text)
    shifts: list[int] = []
    drop: dict[int, str] = {}
    for name, top in TOPS.items():
        col = settled.get(name)
        if col is None:
            shifts.append(0)
            continue
        if col.shift is None:
            zero, one = ([table.lines[k] for k in ks] for ks in (col.zero, col.one))
            table.untold[name] = Note("numbering", f"{base}: its {name} numbering cannot be told: {_count(zero)} "
                                    f"only a numbering from 0 ({col.zero_why}; {_which(zero)}), {_count(one)} only "
                                    f"the request's numbering from 1 ({col.one_why}; {_which(one)}). Correct the rows "
                                    "in error.", min(zero, one, key=len)[0], 1, "error")
            table.notes.append(table.untold[name])
            shifts.append(0)
            continue
        shifts.append(col.shift)
        if col.shift:
            values = [v + 1 for v in table.data[name]]
            table.data[name] = values
            outside = set(col.outside)
            kept = [v for k, v in enumerate(values) if k not in outside] or values
            lo, hi = min(kept) - 1, max(kept) - 1
            table.notes.append(Note("numbering", f"{base} numbers {name}s from 0 ({lo}..{hi}); the request numbers them from 1. "
                                    f"Read as {lo + 1}..{hi + 1}.", table.lines[col.zero[0]], 1))
        for k in col.outside:
            drop.setdefault(k, f"{name} outside {1 - col.shift}..{top - col.shift}, the file's numbering")
    table.offsets = (shifts[0], shifts[1], shifts[2])
    table.drop(drop)


def _which(lines: list[int]) -> str:
    return f"row {lines[0]}" if len(lines) == 1 else f"rows {_rows(lines)}"


def _count(lines: list[int]) -> str:
    return f"{len(lines):,} row{' allows' if len(lines) == 1 else 's allow'}"


@dataclass
class Delivery:
    folder: str
    predictions: Table | None
    bests: Table | None
    samples: Table | None
    description: str | None
    notes: list[tuple[str, Note]] = field(default_factory=list)  # (file, note) about the folder


def read_delivery(folder: str, shown: ShownExamples | None = None) -> Delivery:
    """Read a delivery folder; missing files are None (the checker says so). ``shown``: the
    test examples of the trial files, which decide each file's numbering where rows carry inputs."""
    def read(path: str) -> Table:
        t = read_table(path)
        settle_numbering(t, shown)
        return t

    def table(name: str) -> Table | None:
        p = os.path.join(folder, name)
        return read(p) if os.path.isfile(p) else None

    preds, bests = table("predictions.csv"), table("bests.csv")
    samples = table("samples.csv")
    d = Delivery(folder, preds, bests, samples, None)
    if samples is None:
        parts = sorted(n for n in os.listdir(folder) if re.fullmatch(r"samples[0-9]+\.csv", n))
        if parts:
            tables = [read(os.path.join(folder, n)) for n in parts]
            merged = tables[0]
            for n_ in merged.notes:
                n_.path = merged.path
            for t in tables[1:]:
                for n_ in t.notes:
                    n_.path = t.path
                for c in merged.columns:
                    merged.data.setdefault(c, []).extend(t.data.get(c, []))
                merged.lines.extend(t.lines)
                merged.notes.extend(t.notes)
                merged.untold = {**t.untold, **merged.untold}
                for r, ls in t.bad.items():
                    merged.bad.setdefault(r, []).extend(ls)
            said = (f"samples are split into {', '.join(parts)}; the request asks for one samples.csv. Read together."
                    if len(parts) > 1 else f"the samples are in {parts[0]}; the request names the file samples.csv. Read as it.")
            merged.notes.insert(0, Note("samples", said, 0, 1, path=merged.path))
            merged.texts = {t.path: t.text for t in tables}
            d.samples = merged
    desc = os.path.join(folder, "description.md")
    if os.path.isfile(desc):
        with open(desc, encoding="utf-8", errors="replace") as fh:
            d.description = fh.read()
    return d


def paragraphs(markdown: str) -> list[str]:
    """The prose paragraphs of a markdown text (headings, lists' markers kept; blank-line separated)."""
    out = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = [ln for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if lines:
            out.append(" ".join(ln.strip() for ln in lines))
    return out
