"""Structure-aware mutations of real logs, and the property every reader keeps on them.

One home for what the property test (``tests/metrics/test_readers_fuzz.py``, hypothesis,
bounded) and the long campaign (``bench/reader_fuzz.py``) both run, so they check the same
things. Mutations are what crashes, manual edits, bad merges and careless writers do to a log:
a row deleted, repeated, swapped or moved; an episode or experience renumbered (to a number
already used, past the end, huge, negative, fractional, text, empty); a block type, subtype or
status that means nothing; a task or worker name holding a NUL, a newline, a zero-width space,
a byte-order mark or a stray space, or left empty; a performance value that is empty, NaN,
infinite or text; a file cut inside its last line. Plain logs are mutated in every format
(CSV, TSV, JSON Lines, Parquet), l2logger logs in one of their block files.

The property (`check`): reading and computing a mutant either refuses it (`MetricsError`: exit
1 or 2 with a located message), or computes with a warning the original log did not have, or
computes exactly the original's numbers. Never another exception (a traceback), and never a new
number without a word. A mutation that yields data no reader can tell from a real run (deleting
a log's last row: a run that stopped one episode earlier; a task renamed to another real task)
is not made. Everything is driven by one ``random.Random`` so hypothesis can shrink a failure and
the campaign can replay one from its seed.
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import shutil
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sylla.metrics import MetricsError, compute_metrics
from sylla.metrics.readers import read_log

#: the plain formats, each a suffix the reader detects
PLAIN = ("csv", "tsv", "jsonl", "parquet")

#: block types, subtypes and statuses no reader can place
BAD_KINDS = ["traim", "Train", "TEST", "", " train", "train ", "train\x00", "tes", "1", "eval"]
BAD_SUBTYPES = ["wakey", "Wake", "", "sleep ", "w\x00ke", "dream"]
BAD_STATUSES = ["completed", "", "Complete", "done", "complete\x00"]
#: what a careless writer puts into a name: control and invisible characters, stray spaces
INSERTS = ["\x00", "\x01", "\x1b", "\n", "\r", "\t", "\x7f", "\x85", "\u200b", "\u200d", "\ufeff",
           "\u2028", "\u202e", "\u00ad"]
BAD_VALUES = ["", "nan", "NaN", "inf", "-inf", "x", "1,5", None, True]


@dataclass(frozen=True)
class Violation:
    """A mutant that broke the property: ``prop`` is ``traceback`` or ``silent-number``."""

    prop: str
    detail: str


# ---------------------------------------------------------------- plain logs

@dataclass
class Table:
    """A plain log as columns and rows of Python values (text, numbers, None)."""

    columns: list[str]
    rows: list[list[Any]]
    #: cut the written file inside its last line (a crash while it was written)
    cut: bool = False


def read_table(path: Path) -> Table:
    """A plain CSV log (the shape ``sylla simulate`` writes) as a `Table`, numbers typed."""
    with open(path, newline="", encoding="utf-8") as handle:
        lines = list(csv.reader(handle))
    columns, body = lines[0], lines[1:]
    rows = [[_typed(v) for v in row] for row in body]
    return Table(columns, rows)


def _typed(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def write_table(table: Table, path: Path, fmt: str) -> None:
    """Write ``table`` in a plain format, as a writer of that format would."""
    if fmt in ("csv", "tsv"):
        out = io.StringIO()
        writer = csv.writer(out, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow(table.columns)
        writer.writerows([["" if v is None else _text(v) for v in row] for row in table.rows])
        data = out.getvalue()
    elif fmt == "jsonl":
        data = "".join(json.dumps(dict(zip(table.columns, row))) + "\n" for row in table.rows)
    else:
        import pandas as pd

        # Parquet's integers are 64-bit: a writer stores a larger one as a double
        columns = {c: [float(v) if type(v) is int and abs(v) >= 2**63 else v
                       for v in (row[k] for row in table.rows)]
                   for k, c in enumerate(table.columns)}
        for col, values in columns.items():  # mixed types are written as text, as a writer would
            if len({type(v) for v in values if v is not None}) > 1:
                columns[col] = [None if v is None else _text(v) for v in values]
        frame = pd.DataFrame({c: pd.Series(v, dtype=object) for c, v in columns.items()})
        frame = frame.infer_objects()
        frame.to_parquet(path, index=False)
        return
    if table.cut and data.endswith("\n"):
        data = data[: -1 - min(len(data) // 50, 3)]
    path.write_text(data, encoding="utf-8", newline="")


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def mutate_table(table: Table, rng: random.Random, fmt: str, steps: int = 1) -> tuple[Table, str]:
    """A mutant of ``table`` and what was done to it."""
    rows = [list(r) for r in table.rows]
    out = Table(list(table.columns), rows)
    done = []
    for _ in range(steps):
        done.append(_mutate_rows(out, rng, fmt))
    return out, "; ".join(done)


def _mutate_rows(table: Table, rng: random.Random, fmt: str) -> str:
    rows, cols = table.rows, table.columns
    n = len(rows)
    kinds = ["delete", "duplicate", "duplicate_far", "swap", "move", "renumber", "perf"]
    kinds += [k for k, c in (("block_type", "block_type"), ("task", "task")) if c in cols]
    if fmt != "parquet":
        kinds.append("cut")
    kind = rng.choice(kinds)
    i = rng.randrange(n)
    if kind == "delete" and n > 2:
        i = rng.randrange(n - 1)  # the last row deleted is a run that ended one episode earlier
        del rows[i]
    elif kind == "duplicate":
        rows.insert(i + 1, list(rows[i]))
    elif kind == "duplicate_far" and n > 3:
        j = rng.choice([k for k in range(n + 1) if abs(k - i) > 1])
        rows.insert(j, list(rows[i]))
    elif kind == "swap" and n > 1:
        j = rng.choice([k for k in range(n) if k != i])
        rows[i], rows[j] = rows[j], rows[i]
    elif kind == "move" and n > 2:
        row = rows.pop(i)
        rows.insert(rng.choice([k for k in range(n) if k != i]), row)
    elif kind == "renumber" and "episode" in cols:
        e = cols.index("episode")
        others = [r[e] for r in rows if r[e] != rows[i][e]]
        rows[i][e] = rng.choice([rng.choice(others) if others else 0, n + rng.randrange(5),
                                 10 ** rng.randint(5, 20), -1, 1.5, "x", "", None])
    elif kind == "perf" and "reward" in cols:
        rows[i][cols.index("reward")] = rng.choice(BAD_VALUES)
    elif kind == "block_type":
        rows[i][cols.index("block_type")] = rng.choice(BAD_KINDS)
    elif kind == "task":
        t = cols.index("task")
        rows[i][t] = _bad_name(str(rows[i][t]), rng)
    elif kind == "cut":
        table.cut = True
    else:
        return "nothing"
    return f"{kind} at row {i}"


def _bad_name(name: str, rng: random.Random) -> Any:
    """``name`` spoilt the way a careless writer spoils a name."""
    choice = rng.randrange(5)
    if choice == 0:
        return rng.choice(["", None])
    if choice == 1:
        return rng.choice([name + " ", " " + name])
    k = rng.randrange(len(name) + 1)
    return name[:k] + rng.choice(INSERTS) + name[k:]


# ---------------------------------------------------------------- l2logger logs

def mutate_l2logger(source: Path, target: Path, rng: random.Random, steps: int = 1) -> str:
    """Copy the l2logger log ``source`` to ``target`` and spoil one of its block files."""
    shutil.copytree(source, target)
    files = sorted(target.rglob("data-log.tsv"))
    last = max(files, key=lambda f: _last_exp(f))
    done = []
    for _ in range(steps):
        file = rng.choice(files)
        done.append(f"{file.relative_to(target)}: {_mutate_block_file(file, rng, file == last)}")
    return "; ".join(done)


def _last_exp(file: Path) -> int:
    lines = file.read_text(encoding="utf-8").splitlines()
    return max((_number(line.split("\t")[1]) for line in lines[1:]), default=-1)


def _mutate_block_file(file: Path, rng: random.Random, holds_last: bool) -> str:
    text = file.read_bytes().decode("utf-8")
    if not text.endswith("\n"):
        return "nothing (cut already: rewritten whole, its cut value would look whole)"
    header, *rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    cols = header.split("\t")
    cells = [row.split("\t") for row in rows]
    n = len(cells)
    kind = rng.choice(["delete", "swap", "renumber", "block_num", "block_type", "subtype",
                       "task", "worker", "status", "perf", "cut"])
    i = rng.randrange(n)
    cut = False

    def put(column: str, value: Any) -> None:
        if column in cols:
            cells[i][cols.index(column)] = "" if value is None else _text(value)

    exp = [row[cols.index("exp_num")] for row in cells]
    alone = [k for k in range(n) if exp.count(exp[k]) == 1
             and not (holds_last and exp[k] == max(exp, key=_number))]
    if kind == "delete" and alone:
        # one row of an experience logged in several is indistinguishable from a log of fewer,
        # and the last experience of the log from a run that stopped one earlier
        i = rng.choice(alone)
        del cells[i]
    elif kind == "swap" and len(set(exp)) > 1:
        # rows of one experience in another order are a log written in that order
        j = rng.choice([k for k in range(n) if exp[k] != exp[i]] or [i])
        cells[i], cells[j] = cells[j], cells[i]
    elif kind == "renumber":
        put("exp_num", rng.choice([0, n + rng.randrange(5), 10 ** rng.randint(5, 20), -1, "1.5",
                                   "x", ""]))
    elif kind == "block_num":
        put("block_num", rng.choice([99, -1, "x", "", "1.5"]))
    elif kind == "block_type":
        put("block_type", rng.choice(BAD_KINDS))
    elif kind == "subtype":
        put("block_subtype", rng.choice(BAD_SUBTYPES))
    elif kind == "task":
        put("task_name", _bad_name(cells[i][cols.index("task_name")], rng))
    elif kind == "worker":
        put("worker_id", _bad_name(cells[i][cols.index("worker_id")], rng))
    elif kind == "status":
        put("exp_status", rng.choice(BAD_STATUSES))
    elif kind == "perf":
        put("reward", rng.choice(BAD_VALUES))
    elif kind == "cut":
        cut = True
    # a name holding a tab or a newline would be one more column or row in a TSV file: as
    # l2logger writes with pandas' to_csv, such a cell is quoted
    lines = [header] + ["\t".join(_quoted(c) for c in row) for row in cells]
    data = "\n".join(lines) + "\n"
    if cut:
        data = data[: -1 - min(len(lines[-1]) // 2, 3)]
    file.write_bytes(data.encode("utf-8"))
    return f"{kind} at row {i + 2}"


def _number(text: str) -> int:
    return int(text) if text.isdigit() else -1


def _quoted(cell: str) -> str:
    if any(c in cell for c in '\t\n\r"'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


# ---------------------------------------------------------------- the property

def outcome(log: Path, syllabus: Path | None = None, allow_partial: bool = False,
            stream: bool = True) -> dict[str, Any] | None:
    """The metrics document of ``log`` (`MetricsResult.to_json`), or None when it is refused
    (`MetricsError`). Any other exception propagates: it is what `check` calls a traceback.
    ``stream=False`` reads an l2logger log with the whole-log reader only."""
    try:
        source = log if stream else read_log(log, allow_partial=allow_partial, progress=False)
        result = compute_metrics(source, syllabus, allow_partial=allow_partial, progress=False)
    except MetricsError:
        return None
    return result.to_json()


def check(log: Path, original: dict[str, Any], syllabus: Path | None = None,
          allow_partial: bool = False, stream: bool = True) -> list[Violation]:
    """The property on one mutant ``log`` of a log whose document is ``original`` (`outcome`
    of the unmutated log, under the same name so that run names agree)."""
    return verdict(log, original, syllabus, allow_partial, stream)[1]


def verdict(log: Path, original: dict[str, Any], syllabus: Path | None = None,
            allow_partial: bool = False, stream: bool = True) -> tuple[str, list[Violation]]:
    """What became of one mutant (``refused``, ``warned``, ``unchanged``, or the property it
    broke) and the violations (`check`)."""
    try:
        doc = outcome(log, syllabus, allow_partial, stream)
    except Exception:  # noqa: BLE001 - any exception but a MetricsError is the bug looked for
        return "traceback", [Violation("traceback", traceback.format_exc())]
    if doc is None:
        return "refused", []
    if set(doc["warnings"]) - set(original["warnings"]):
        return "warned", []
    differ = _difference(doc, original)
    if differ is not None:
        return "silent-number", [Violation("silent-number", f"exit 0, no new warning, and {differ}")]
    return "unchanged", []


def _difference(a: Any, b: Any, where: str = "") -> str | None:
    """Where two metrics documents differ (floats to 1e-9), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{where or 'the document'} has keys {sorted(a)} instead of {sorted(b)}"
        for k in a:
            if k != "warnings":
                found = _difference(a[k], b[k], f"{where}/{k}")
                if found:
                    return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where} has {len(a)} entries instead of {len(b)}"
        for k, (x, y) in enumerate(zip(a, b)):
            found = _difference(x, y, f"{where}[{k}]")
            if found:
                return found
        return None
    if isinstance(a, float) and isinstance(b, float):
        same = math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b))
        return None if same else f"{where} is {a!r} instead of {b!r}"
    return None if a == b else f"{where} is {a!r} instead of {b!r}"
