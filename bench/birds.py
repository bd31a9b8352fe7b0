"""Benchmark linting a large Science Birds config.xml against the bare libraries doing less.

A generated config.xml in the real shape (800 trials x 150 ``<game_levels>``, ~10 MB, what the
game writes for a large evaluation) is linted by sylla (decode, hardened read with positions,
XSD validation, model, rules) and, in the same run, read and validated the plain way
(``defusedxml.ElementTree.fromstring`` + ``xmlschema`` on the same XSD, no positions, no rules).
Prints the time ratio and each side's peak memory (separate processes, ``ru_maxrss``).
Target: <= 3x the plain way's time; memory bounded by ``MAX_BYTES`` (32 MB files are refused).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

LEVEL = '        <game_levels level_path="Levels/novelty_level_1/type1/Levels/1_1_{n:05d}.xml" />\n'
TRIAL = (
    '    <trial id="{i}" number_of_executions="1" checkpoint_time_limit="200" checkpoint_interaction_limit="200" notify_novelty="False">\n'
    '      <game_level_set mode="training" time_limit="360" total_interaction_limit="60000" attempt_limit_per_level="3" allow_level_selection="True">\n'
    "{levels}      </game_level_set>\n    </trial>\n"
)


def config_xml(trials: int = 800, levels: int = 150) -> str:
    body = "".join(TRIAL.format(i=i, levels="".join(LEVEL.format(n=n) for n in range(levels))) for i in range(trials))
    return f'<?xml version="1.0" encoding="utf-16"?>\n<evaluation>\n  <trials>\n{body}  </trials>\n</evaluation>\n'


SYLLA = """
import sys, time, resource
from sylla.linter.languages import lint_text
data = open(sys.argv[1], "rb").read()
start = time.perf_counter()
result = lint_text(data, sys.argv[1])
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(result.findings))
"""

PLAIN = """
import sys, time, resource
import xmlschema
from defusedxml.ElementTree import fromstring
from sylla.grammar.birds.schema import schema_path
data = open(sys.argv[1], "rb").read()
schema = xmlschema.XMLSchema10(str(schema_path("generated")))
start = time.perf_counter()
root = fromstring(data.decode("utf-8").replace('encoding="utf-16"', 'encoding="utf-8"', 1).encode())
errors = list(schema.iter_errors(root))
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, len(errors))
"""


def measure(code: str, path: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]) / 1024


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.xml"
        path.write_text(config_xml())
        size = path.stat().st_size / (1024 * 1024)
        sylla_s, sylla_mb = measure(SYLLA, str(path))
        plain_s, plain_mb = measure(PLAIN, str(path))
    report = {
        "file_mb": round(size, 1), "sylla_s": round(sylla_s, 2), "plain_s": round(plain_s, 2),
        "ratio": round(sylla_s / plain_s, 2), "sylla_peak_mb": round(sylla_mb), "plain_peak_mb": round(plain_mb),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
