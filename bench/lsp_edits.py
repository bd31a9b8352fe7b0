"""documentSymbol, hover and completion after any one-keystroke edit of a 500 KB syllabus, as an
editor meets them: a real ``sylla lsp`` process driven over stdio by a bare JSON-RPC client.

The syllabus is made of the bundled examples (``examples/*.json*``): their instruction lists,
one after the other with the phases renumbered, one instruction per line, under the top level
of ``examples/cl-pong.json``, until it holds 500 KB. Twenty edits at seeded random places, one
character typed or deleted each, of these kinds (each at least once):

* ``between``: a space typed in the whitespace between two instructions;
* ``top-key``: a character typed into, or deleted from, a top-level key;
* ``top-line``: a space typed at the start of a top-level line (the issue's line 4);
* ``string``: a character typed into, or deleted from, a string inside an instruction;
* ``count``: a digit typed into a count;
* ``line-break``: a line break typed before an instruction or inside one;
* ``invalid``: the comma after an instruction deleted, which makes the file invalid.

Each edit is sent as a didChange and, at once, while the server parses and lints that version,
documentSymbol, hover and completion for the new version, one after another; then the edit is
undone the same way (an edit from an invalid file, for the ``invalid`` kind). Every answer is
timed from its request's bytes leaving the client to its answer's last byte arriving. Two more
rows for documentSymbol: until its first line arrives (the server's own part), and until this
client has also parsed it with ``json.loads`` (an editor's cost, shown but not judged).

The first edit after opening (``--first`` rounds, the first of a seeded plan's edits each, every
kind at least once in 7): each round opens the syllabus in a fresh server and makes one edit,
timed as above, with the diagnostics of its version from its didChange beside them (shown, not
judged); then, a keystroke's gap after those diagnostics, its undo, timed the same way: the
second edit in the same server, the first one's control. Twice per round: at once after the
didOpen (shown), when the edit's answers wait for a parse of the whole text in a fresh process
(the open's, or the edit's own when the didChange came before the open's lint started) and the
outline written from nothing; its diagnostics also wait for the schema check of each distinct
instruction (most of a second), which the answers no longer wait for; and a keystroke's gap
after the open's diagnostics, as a person types into a file they have just seen (judged). Each
round runs every server and both moments in turn, so that they meet the same load. The load
average is printed: on a shared machine, run it beside two busy loops too (the issue's "under
load") and compare the servers of one run, not runs.

Baselines measured in the same run, in this process: ``json.loads`` of the text and sylla's
full parse of it (best of 5). ``--before PYTHON`` also runs the same edits against another
installation's server (the code before a change, in its own venv), in the same run.

``--cpu`` measures instead, in this process, the server's own work on the outline's path for
the same edits: the incremental parse of each version and its outline, in CPU time (on a
machine shared with other work the wall time of a server process mostly measures the
scheduler); with ``--before``, also in a child process of the other installation.

Usage: python bench/lsp_edits.py [--seed 1] [--first 7] [--before /path/to/other/.venv/bin/python] [--cpu]
Exits 1 when a p95 exceeds 100 ms (not with ``--cpu``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_latency import Session, percentile

from sylla.grammar.syllabus.parse import parse

REPO = Path(__file__).resolve().parents[1]
TARGET_MS = 100.0
KINDS = ("between", "top-key", "top-line", "string", "count", "line-break", "invalid")
REQUESTS = ("documentSymbol", "hover", "completion")
#: documentSymbol until the first line of its answer arrives: the server's part, without this
#: client reading and parsing the 2 MB outline (what an editor then does is its own cost)
FIRST_LINE = "documentSymbol (first line)"
#: documentSymbol until this Python client has also parsed the answer: json.loads of 2 MB costs
#: it 40-80 ms, several times what an editor's JSON parser takes, so it is shown, not judged
PARSED = "documentSymbol (+ json.loads)"
#: the first edit's publishDiagnostics, from its didChange (shown, not judged: the lint of a
#: just-opened 500 KB file is not what the person waits for)
DIAGNOSTICS = "publishDiagnostics"
#: when the first edit is sent: right after the didOpen, or a keystroke's gap (50 ms) after the
#: open's diagnostics, as a person types into a file they have just seen; the target is judged
#: on the second (the first waits for the open's own parse, which no edit can make faster)
#: the rows of the second edit (the first one's undo) in the same server: the first one's control
SECOND = ", 2nd edit"
FIRST_WHEN = (("at once", True), ("after diagnostics", False))


def syllabus_from_examples(min_bytes: int = 500_000) -> str:
    """The bundled examples' instructions, repeated with phases renumbered, one per line."""
    rounds: list[list[Any]] = []
    for path in sorted(REPO.glob("examples/*.json*")):
        model = parse(path.read_text(encoding="utf-8")).model
        if model is not None and model.instructions:
            value = model.value
            rounds.append(value["instructions"] if isinstance(value, dict) else value)
    top = json.loads((REPO / "examples" / "cl-pong.json").read_text(encoding="utf-8"))
    lines: list[str] = []
    size, phase = 0, 0
    while size < min_bytes:
        for instructions in rounds:
            numbers: dict[str, int] = {}
            for ins in instructions:
                if isinstance(ins, dict) and isinstance(ins.get("$phase"), str) and "." in ins["$phase"]:
                    old, kind = ins["$phase"].split(".", 1)
                    if old not in numbers:
                        phase += 1
                        numbers[old] = phase
                    ins = {**ins, "$phase": f"{numbers[old]}.{kind}"}
                line = json.dumps(ins)
                lines.append(line)
                size += len(line) + 6
    head = {k: v for k, v in top.items() if k != "instructions"}
    head_text = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in head.items())
    return "{\n" + head_text + ',\n  "instructions": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n"


def plan_edits(text: str, seed: int, n: int = 20) -> list[tuple[str, int, int, str]]:
    """``n`` edits ``(kind, start, end, new text)`` on ``text``, each kind at least once."""
    rng = random.Random(seed)
    kinds = list(KINDS) + [rng.choice(KINDS) for _ in range(n - len(KINDS))]
    rng.shuffle(kinds)
    body = text.index('"instructions"')
    lines = [m.start() for m in re.finditer(r"\n    \{", text)]
    top_keys = [m.start() for m in re.finditer(r'^  "', text[:body], re.M)]

    def instruction_line() -> int:
        return lines[rng.randrange(len(lines) - 1)] + 5  # the "{" of an instruction

    edits: list[tuple[str, int, int, str]] = []
    for kind in kinds:
        if kind == "between":
            at = instruction_line() - 1
            edits.append((kind, at, at, " "))
        elif kind == "top-key":
            key = rng.choice(top_keys) + 3 + rng.randrange(2)
            edits.append((kind, key, key + 1, "") if rng.random() < 0.5 else (kind, key, key, "x"))
        elif kind == "top-line":
            at = rng.choice(top_keys + [body - 2])
            edits.append((kind, at, at, " "))
        elif kind == "string":
            start = instruction_line()
            quote = text.index('"', text.index(":", start) + 1) + 1
            edits.append((kind, quote + 1, quote + 2, "") if rng.random() < 0.5 else (kind, quote + 1, quote + 1, "z"))
        elif kind == "count":
            found = text.find('"count": ', instruction_line())
            at = found + len('"count": ')
            edits.append((kind, at, at, str(rng.randrange(1, 10))))
        elif kind == "line-break":
            start = instruction_line()
            at = start if rng.random() < 0.5 else text.index(",", start) + 1
            edits.append((kind, at, at, "\n"))
        else:  # invalid: the comma after an instruction
            at = text.index(",\n    {", instruction_line())
            edits.append((kind, at, at + 1, ""))
    return edits


def position(text: str, offset: int) -> dict[str, int]:
    """The LSP position (UTF-16) of ``offset``; the bench's text is ASCII."""
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


def change(text: str, start: int, end: int, new: str) -> dict[str, Any]:
    return {"range": {"start": position(text, start), "end": position(text, end)}, "text": new}


async def run_edits(python: str, text: str, uri: str, edits: list[tuple[str, int, int, str]]) -> dict[str, list[float]]:
    """Each request's answer times (ms) over every edit and its undo."""
    session = Session()
    session.python = python  # type: ignore[attr-defined]
    await start(session, python)
    await asyncio.wait_for(session.open(uri, text), 180)
    times: dict[str, list[float]] = {name: [] for name in REQUESTS + (FIRST_LINE, PARSED)}
    version = 0
    hover_at = text.rindex('"$episode"') + 3
    for kind, start_, end, new in edits:
        for step in ("edit", "undo"):
            version += 1
            if step == "edit":
                old_piece = text[start_:end]
                payload = change(text, start_, end, new)
                text = text[:start_] + new + text[end:]
            else:
                payload = change(text, start_, start_ + len(new), old_piece)
                text = text[:start_] + old_piece + text[start_ + len(new):]
            await asyncio.sleep(0.05)  # keystrokes are tens of milliseconds apart
            published = session.expect(version)
            session.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [payload]})
            hover = hover_at + (len(new) - (end - start_) if step == "edit" and start_ < hover_at else 0)
            complete = text.index('{"', text.index("\n    {", len(text) // 2)) + 2
            requests = {
                "documentSymbol": ("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
                "hover": ("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(text, hover)}),
                "completion": ("textDocument/completion", {"textDocument": {"uri": uri}, "position": position(text, complete)}),
            }
            for name, (method, params) in requests.items():
                sent = time.perf_counter()
                pending = session.request(method, params)
                request_id = session.next_id
                received, answer = await asyncio.wait_for(pending, 120)
                times[name].append((received - sent) * 1000)
                if name == "documentSymbol":
                    times[FIRST_LINE].append((session.first_line[request_id] - sent) * 1000)
                    times[PARSED].append((session.parsed[request_id] - sent) * 1000)
                if name == "documentSymbol" and not answer:
                    raise SystemExit(f"documentSymbol after {kind} ({step}) gave no outline")
            await asyncio.wait_for(published, 120)
    await session.stop()
    return times


async def first_edit(python: str, text: str, uri: str, edit: tuple[str, int, int, str], *, at_once: bool) -> dict[str, float]:
    """The first edit after opening, in a fresh server: the didOpen, then the edit's didChange
    and the three requests for its version, one after another, as ``run_edits`` sends them for
    later edits; then the diagnostics of that version (from the didChange). The edit comes
    ``at_once`` after the didOpen (while the open is parsed and linted), or, as in
    ``run_edits``, a keystroke's gap after the open's diagnostics."""
    kind, start_, end, new = edit
    times: dict[str, float] = {}
    session = Session()
    await start(session, python)
    opened = session.open(uri, text)
    if not at_once:
        await asyncio.wait_for(opened, 180)
        await asyncio.sleep(0.05)
    hover_at = text.rindex('"$episode"') + 3
    # the edit, then (a keystroke's gap after its diagnostics) its undo: the second edit, timed
    # the same way in the same server, is the first's control
    for version, (before, after, at, old_piece, piece) in enumerate(
        ((text, text[:start_] + new + text[end:], start_, text[start_:end], new),
         (text[:start_] + new + text[end:], text, start_, new, text[start_:end])), start=1
    ):
        if version == 2:
            await asyncio.sleep(0.05)
        published = session.expect(version)
        changed = time.perf_counter()
        payload = change(before, at, at + len(old_piece), piece)
        session.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [payload]})
        hover = hover_at + (len(new) - (end - start_) if version == 1 and start_ < hover_at else 0)
        complete = after.index('{"', after.index("\n    {", len(after) // 2)) + 2
        requests = {
            "documentSymbol": ("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
            "hover": ("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(after, hover)}),
            "completion": ("textDocument/completion", {"textDocument": {"uri": uri}, "position": position(after, complete)}),
        }
        suffix = "" if version == 1 else SECOND
        for name, (method, params) in requests.items():
            sent = time.perf_counter()
            pending = session.request(method, params)
            request_id = session.next_id
            received, answer = await asyncio.wait_for(pending, 180)
            times[name + suffix] = (received - sent) * 1000
            if name == "documentSymbol":
                times[FIRST_LINE + suffix] = (session.first_line[request_id] - sent) * 1000
                if not answer:
                    raise SystemExit(f"documentSymbol after the first edit ({kind}) gave no outline")
        times[DIAGNOSTICS + suffix] = (await asyncio.wait_for(published, 180) - changed) * 1000
    await session.stop()
    return times


async def start(session: Session, python: str) -> None:
    from lsp_latency import CAPABILITIES

    # out of this checkout: ``python -m`` puts the working directory first on the path, so a
    # --before server started from here ran this checkout's sylla, not its own installation's
    session.proc = await asyncio.create_subprocess_exec(
        python, "-m", "sylla", "lsp", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=tempfile.gettempdir()
    )
    session._reader = asyncio.ensure_future(session._read())
    await asyncio.wait_for(session.request("initialize", {"processId": None, "rootUri": None, "capabilities": CAPABILITIES}), 60)
    session.notify("initialized", {})


def cpu_edits(text: str, edits: list[tuple[str, int, int, str]]) -> dict[str, list[float]]:
    """CPU ms of the incremental parse and of the outline of each edited and undone version,
    each outline from the last one's pieces, as the server writes them (collector off, as
    in the server)."""
    import gc

    from sylla.grammar.syllabus.incremental import reparse
    from sylla.lsp.documents import Analysis
    from sylla.lsp.outline_pieces import document_symbols

    gc.disable()
    uri = "file:///edits-500k.json"
    clock = time.process_time
    t0 = clock()
    result = parse(text)
    t1 = clock()
    opened = Analysis(uri, 0, text, "utf-16", result)
    opened.positions  # noqa: B018 - built with the parse in the server, not by the outline
    t2 = clock()
    # the opened version's outline, from nothing: what the first edit's outline cost when the
    # server wrote none before the first documentSymbol request (it now writes it in the
    # open's lint, and the first edit's is written from its pieces, as every later one)
    _, pieces = document_symbols(opened, None)
    t3 = clock()
    times: dict[str, list[float]] = {"open parse (cold)": [(t1 - t0) * 1000], "open outline": [(t3 - t2) * 1000],
                                     "parse": [], "outline": [], "both": []}
    for _, start_, end, new in edits:
        old_piece = text[start_:end]
        for version in (text[:start_] + new + text[end:], text):
            t0 = clock()
            result = reparse(result, version)
            t1 = clock()
            analysis = Analysis(uri, 0, version, "utf-16", result)
            analysis.positions  # noqa: B018 - built with the parse in the server, not by the outline
            t2 = clock()
            _, pieces = document_symbols(analysis, pieces)
            t3 = clock()
            # the lint reads every instruction after the outline is sent, making the copies an
            # incremental parse leaves to be made when read (grammar/syllabus/shifted.py): not timed here
            # (it is not on the outline's path), but done, as in the server
            if result.model is not None:
                tuple(result.model.instructions)
            times["parse"].append((t1 - t0) * 1000)
            times["outline"].append((t3 - t2) * 1000)
            times["both"].append((t1 - t0 + t3 - t2) * 1000)
        assert text[start_:end] == old_piece
    return times


def main_cpu(args: argparse.Namespace, text: str, edits: list[tuple[str, int, int, str]]) -> int:
    if args.cpu_child:
        print(json.dumps(cpu_edits(text, edits)))
        return 0
    results = {"after": cpu_edits(text, edits)}
    if args.before:
        out = subprocess.run(
            [args.before, __file__, "--cpu", "--cpu-child", "--seed", str(args.seed)], check=True, capture_output=True, text=True
        ).stdout
        results["before"] = json.loads(out)
    print(f"\n{'code':>7} {'work (CPU)':>17} {'n':>3} {'p50':>8} {'p95':>8} {'max':>8}")
    for label, times in results.items():
        for name, values in times.items():
            print(f"{label:>7} {name:>17} {len(values):3d} {percentile(values, 50):7.1f}ms {percentile(values, 95):7.1f}ms {max(values):7.1f}ms")
    if "before" in results:
        for name in results["after"]:
            print(f"  {name}: p95 after / before = {percentile(results['after'][name], 95) / percentile(results['before'][name], 95):.2f}")
    print(f"load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1 / 5 / 15 min) on {os.cpu_count()} CPUs")
    return 0


def best_ms(fn: Any, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", help="the python of another installation whose server to run on the same edits")
    parser.add_argument("--first", type=int, default=7, help="rounds of the first edit after opening, each in a fresh server")
    parser.add_argument("--cpu", action="store_true", help="the server's parse and outline per edit, in CPU time, in process")
    parser.add_argument("--cpu-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    text = syllabus_from_examples()
    edits = plan_edits(text, args.seed)
    if args.cpu:
        return main_cpu(args, text, edits)
    loads_ms = best_ms(lambda: json.loads(text))
    parse_ms = best_ms(lambda: parse(text))
    print(f"syllabus from examples/: {len(text.encode()) / 1000:.0f} KB, {text.count(chr(10))} lines; "
          f"{len(edits)} edits (seed {args.seed}), each then undone: " + ", ".join(f"{k} {sum(e[0] == k for e in edits)}" for k in KINDS))
    print(f"baselines in this process: json.loads {loads_ms:.1f} ms, sylla full parse {parse_ms:.1f} ms ({parse_ms / loads_ms:.1f}x json.loads)")
    servers = [("after", sys.executable)] + ([("before", args.before)] if args.before else [])
    ok = True
    firsts = plan_edits(text, args.seed, n=max(args.first, len(KINDS)))[: args.first]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "edits-500k.json"
        path.write_text(text, encoding="utf-8")
        # round by round, each server and each moment in turn, so that they meet the same load
        first: dict[tuple[str, str], dict[str, list[float]]] = {}
        for edit in firsts:
            for label, python in servers:
                for when, at_once in FIRST_WHEN:
                    one = await first_edit(python, text, path.as_uri(), edit, at_once=at_once)
                    for name, took in one.items():
                        first.setdefault((label, when), {}).setdefault(name, []).append(took)
        results = {label: await run_edits(python, text, path.as_uri(), edits) for label, python in servers}
    print(f"\nthe first edit after opening, {len(firsts)} rounds, each in a fresh server: "
          + ", ".join(f"{k} {sum(e[0] == k for e in firsts)}" for k in KINDS if any(e[0] == k for e in firsts)))
    print(f"{'server':>7} {'edit sent':>20} {'request':>37} {'n':>3} {'p50':>8} {'p95':>8} {'max':>8}")
    for (label, when), times in first.items():
        for name in [n + suffix for suffix in ("", SECOND) for n in REQUESTS + (FIRST_LINE, DIAGNOSTICS)]:
            values = times[name]
            p95 = percentile(values, 95)
            verdict = ""
            if name in REQUESTS and when == FIRST_WHEN[1][0]:
                met = p95 <= TARGET_MS
                verdict = "  OK" if met else "  MISSED"
                if label == "after":
                    ok &= met
            print(f"{label:>7} {when:>20} {name:>37} {len(values):3d} {percentile(values, 50):7.1f}ms {p95:7.1f}ms {max(values):7.1f}ms{verdict}")
    print(f"  (sent at once, every answer waits for the open's own parse: {parse_ms:.0f} ms warm in this process, "
          "cold in a fresh server, and its outline written from nothing; before the schema check was left to the lint, "
          "most of a second more)")
    print(f"\n{'server':>7} {'request':>27} {'n':>3} {'p50':>8} {'p95':>8} {'max':>8} {'p95/parse':>10} {'p95/loads':>10}")
    for label, times in results.items():
        for name in REQUESTS + (FIRST_LINE, PARSED):
            values = times[name]
            p95 = percentile(values, 95)
            met = p95 <= TARGET_MS
            if label == "after" and name in REQUESTS:
                ok &= met
            # the first line and the client's own parse are shown, not judged (see above)
            verdict = ("  OK" if met else "  MISSED") if name in REQUESTS else "  (shown)"
            print(f"{label:>7} {name:>27} {len(values):3d} {percentile(values, 50):7.1f}ms {p95:7.1f}ms {max(values):7.1f}ms "
                  f"{p95 / parse_ms:10.2f} {p95 / loads_ms:10.1f}{verdict}")
    if "before" in results:
        for name in REQUESTS + (FIRST_LINE, PARSED):
            print(f"  {name}: p95 after / before = {percentile(results['after'][name], 95) / percentile(results['before'][name], 95):.2f}")
    print(f"\ntarget: p95 <= {TARGET_MS:.0f} ms per request kind; median of all answers "
          f"{statistics.median(v for k in REQUESTS for v in results['after'][k]):.1f} ms")
    print(f"load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())} (1 / 5 / 15 min) on {os.cpu_count()} CPUs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
