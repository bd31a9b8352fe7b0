"""The long fuzz campaign: N structure-aware mutants of the fixtures through parse, lint,
``--fix``, ``fmt``, ``explain`` and the reporters (the properties of
``fuzzing.syllabus.check`` in ``tests/fuzzing/``), and a sample of them through the real ``sylla`` process, outside CI.

    python bench/fuzz.py 1000000 [--seed S] [--jobs J] [--minutes M] [--cli EVERY] [--out failures.jsonl]

Each input is replayable: mutant ``k`` of seed ``S`` is built from ``random.Random(f"{S}:{k}")``.
Prints a progress line every 10 000 inputs and, at the end (after N inputs, or after
``--minutes``, whichever comes first), how many inputs each property was checked on and how
many violated it; the first few failing inputs of each property are written to ``--out``
(JSON lines).

Every ``--cli``-th mutant (default 200; 0: none) also goes through ``sylla lint`` (text and
JSON), ``lint --fix``, ``fmt --check`` and ``explain`` as separate processes, as a user or the
pre-commit hook meets it (issue 38): no traceback, no hang, peak resident memory bounded in
the input's size (measured by the kernel, ``wait4``), a text report bounded by its findings,
``--fix`` exiting as a fresh lint of what it wrote, and no exit 0 for a file with an error
(one strict JSON refuses, saved as ``.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

# The schema's on-disk cache of known-valid instructions is not under test here; a campaign
# of a million distinct mutants would rewrite it for every new instruction, from two jobs.
os.environ.setdefault("SYLLA_NO_CACHE", "1")

# the harness is test code (tests/fuzzing/), not part of the package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from campaign import chunk_results, write_examples
from fuzzing.syllabus import check, configs, mutate, neutral, strict_json

from sylla.linter.languages import content_language, language_of

REPO = Path(__file__).resolve().parent.parent
SYLLA = str(Path(sys.executable).with_name("sylla"))
#: the in-process properties each input is checked for (the counts' denominators)
PROPERTIES = ("lint", "fix", "fmt", "errors", "explain", "memory")
#: a ``sylla`` process may take this much resident memory, plus ``CLI_PER_BYTE`` per input byte
CLI_BASE = 160 << 20
CLI_PER_BYTE = 400
#: a text report may take this much per finding (a clipped message, a window of the line), plus a base
TEXT_PER_FINDING = 4096
CLI_TIMEOUT = 300
#: the share of mutation steps that are hostile (issue 38: NUL, deep nesting, huge numbers, ...)
HOSTILE = 0.2


def corpus() -> list[tuple[str, str]]:
    """The fixtures (tests/fixtures/**.json*) and the examples, as (name, text)."""
    files = sorted(REPO.glob("tests/fixtures/**/*.json*")) + sorted(REPO.glob("examples/**/*.json*"))
    out = []
    for f in files:
        try:
            out.append((str(f.relative_to(REPO)), f.read_bytes().decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return out


def run_chunk(seed: int, start: int, stop: int, cli_every: int = 0, hostile: float = HOSTILE) -> tuple[int, Counter, Counter, list[dict]]:
    seeds = corpus()
    all_configs = configs()
    counts: Counter = Counter()
    checked: Counter = Counter()
    examples: list[dict] = []
    for k in range(start, stop):
        rng = random.Random(f"{seed}:{k}")
        name, text = rng.choice(seeds)
        mutant = mutate(text, rng, rng.randint(1, 4), hostile=hostile)
        config = rng.choice(all_configs)
        path = rng.choice(["fuzz.json", "fuzz.jsonc"])
        violations = [(v.prop, v.detail) for v in check(mutant, config, path)]
        checked.update(PROPERTIES)
        if cli_every and k % cli_every == 0:
            cli = cli_check(mutant, path)
            checked.update(CLI_PROPERTIES)
            violations += cli
        language = content_language(mutant.encode("utf-8", errors="surrogatepass"), path)
        if language != "syllabus":  # the other languages' cores (wave-3, Science Birds) are counted apart
            violations = [(f"{prop} [{language}]", detail) for prop, detail in violations]
        for prop, detail in violations:
            counts[prop] += 1
            if counts[prop] <= 5:
                examples.append({"k": k, "seed": seed, "source": name, "profile": config.profile, "type": config.type,
                                 "path": path, "property": prop, "detail": detail[:500], "input": mutant[:20000]})
    return stop - start, checked, counts, examples


CLI_PROPERTIES = ("cli: no traceback or hang", "cli: memory bounded by the input", "cli: text report bounded by its findings",
                  "cli: --fix exits as a fresh lint", "cli: no exit 0 for a file with an error")


#: runs its arguments and writes their exit status and peak resident memory (KiB) to the file
#: it is given first. A child's ``ru_maxrss`` counts the memory of the process it was forked from
#: (Linux keeps the old memory's high-water mark across ``exec``): measured straight from a fuzz
#: worker it is the worker's hundreds of megabytes, so a small interpreter forks the command
_MEASURE = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[2:])\n"
    "_, status, usage = os.wait4(p.pid, 0)\n"
    "open(sys.argv[1], 'w').write(f'{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}')\n"
)


def _run(args: list[str], cwd: str) -> tuple[int, str, str, int]:
    """Run ``args``; its exit status (-9 on a timeout), stdout, stderr and peak resident memory in bytes."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as measured:
        proc = subprocess.Popen([sys.executable, "-c", _MEASURE, measured.name, *args], cwd=cwd, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=CLI_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
            return -9, "", "timed out", 0
        code, _, rss = measured.read().partition(" ")
        out.seek(0)
        err.seek(0)
        return int(code or -1), out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"), int(rss or 0) * 1024


def cli_check(mutant: str, path: str) -> list[tuple[str, str]]:
    """The properties through the real ``sylla`` process (see the module docstring)."""
    data = mutant.encode("utf-8", errors="surrogatepass")
    out: list[tuple[str, str]] = []
    folder = tempfile.mkdtemp(prefix="sylla-fuzz-")
    try:
        file = os.path.join(folder, path)
        Path(file).write_bytes(data)
        runs = {
            "lint": [SYLLA, "lint", path], "lint json": [SYLLA, "lint", "--format", "json", path],
            "fmt": [SYLLA, "fmt", "--check", path], "explain": [SYLLA, "explain", path],
        }
        results = {what: _run(args, folder) for what, args in runs.items()}
        shutil.copy(file, file + ".fixed.json")
        fixed = _run([SYLLA, "lint", "--fix", path + ".fixed.json"], folder)
        fresh = _run([SYLLA, "lint", path + ".fixed.json"], folder)
        results["fix"], results["fresh"] = fixed, fresh
        for what, (code, _, stderr, rss) in results.items():
            if code < 0 or code > 2 or "Traceback" in stderr:
                out.append(("cli: no traceback or hang", f"{what}: exit {code}: {stderr[-300:]}"))
            if rss > CLI_BASE + CLI_PER_BYTE * len(data):
                out.append(("cli: memory bounded by the input", f"{what}: {rss:,} bytes resident for {len(data):,} bytes"))
        code, stdout, _, _ = results["lint json"]
        try:
            findings = len(json.loads(stdout)) if stdout.strip() else 0
        except ValueError:
            findings = 0
        text_size = len(results["lint"][1])
        if text_size > TEXT_PER_FINDING * findings + (1 << 16):
            out.append(("cli: text report bounded by its findings", f"{text_size:,} characters for {findings} findings"))
        if fixed[0] != fresh[0]:
            out.append(("cli: --fix exits as a fresh lint", f"--fix exit {fixed[0]}, a fresh lint {fresh[0]}"))
        linted = language_of(path, mutant.replace("\x00", "")) is not None  # a file sylla lints, NUL or not
        silenced = neutral(mutant) != mutant  # a finding its author suppressed is the author's call
        if path.endswith(".json") and code == 0 and linted and not silenced:
            try:
                strict_json(mutant)
            except ValueError:
                out.append(("cli: no exit 0 for a file with an error", "strict JSON refuses it, sylla lint exits 0"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="number of mutants")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long (the counts say how far it got)")
    ap.add_argument("--cli", type=int, default=200, metavar="EVERY",
                    help="also run every EVERY-th mutant through the sylla process (0: none)")
    ap.add_argument("--hostile", type=float, default=HOSTILE,
                    help="share of mutation steps that are hostile (NUL, deep nesting, huge numbers, ...; 0: none)")
    ap.add_argument("--out", default="fuzz-failures.jsonl")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    done, counts, checked, examples = 0, Counter(), Counter(), []
    chunks = [(args.seed, s, min(s + args.chunk, args.n), args.cli, args.hostile) for s in range(0, args.n, args.chunk)]
    for n, ch, c, ex in chunk_results(run_chunk, chunks, args.jobs, args.minutes):
        done += n
        checked.update(ch)
        counts.update(c)
        examples.extend(e for e in ex if sum(1 for x in examples if x["property"] == e["property"]) < 5)
        if done % 10_000 < args.chunk:
            rate = done / (time.perf_counter() - t0)
            print(f"{done} inputs, {sum(counts.values())} violations, {rate:.0f}/s", flush=True)
    write_examples(args.out, examples)
    elapsed = time.perf_counter() - t0
    print(f"{done} inputs in {elapsed:.0f} s ({done / elapsed:.0f}/s), seed {args.seed}")
    print("  checked  violated  property")
    for prop, n in sorted(checked.items()):
        print(f"  {n:7d}  {counts.get(prop, 0):8d}  {prop}")
    for prop, n in counts.most_common():
        if prop not in checked:
            print(f"  {'':7s}  {n:8d}  {prop}")
    if not counts:
        print("  no property violated")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
