"""The tiers stay honest: a test module that starts one of the costly outside processes carries
that tier's marker, so ``scripts/test.sh --fast`` (which deselects every tier) cannot silently
grow slow again, and a contributor sees from a module's top which tier it belongs to.

The check reads each module's source: a module that drives a language client, runs the
l2metrics oracle, starts a Dask cluster, builds a wheel or the extension, or runs pre-commit
must name the matching ``pytest.mark.<tier>`` (on the module's ``pytestmark`` or on the test
that does it). The markers themselves are declared in pyproject.toml (``--strict-markers``).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: tier -> source patterns that mean a module starts that tier's outside process
SIGNS: dict[str, tuple[str, ...]] = {
    "editor": (r"^from lsp_support import", r"\bnvim\b", r"^from vscode_support import", r"\bcode_server\b"),
    "parity": (r"\bl2m_driver\b", r"\.venv-l2m", r"\.venv-rliable", r"from \.differential", r"^from differential"),
    "dask": (r"^from distributed import", r"^import distributed", r"\bLocalCluster\b", r'"dask", "worker"|dask\W+worker'),
    "packaging": (r'"pip", "wheel"', r'"-m", "build"', r"\bvsce\b"),
    "precommit": (r"\b_pre_commit\(\)|\"pre-commit\"\]|pre_commit\b",),
    # a real browser: seconds to start, seconds per page; the demo: half a minute of real runs
    "slow": (r"\bsync_playwright\b", r'"scripts/demo\.sh"'),
    "sb3": (r"\bstable_baselines3\b", r'"sb3-(ppo|dqn)"'),  # torch's start-up and training
}
TIERS = ("editor", "parity", "dask", "packaging", "precommit", "slow", "sb3")
MODULES = sorted(p for p in TESTS.rglob("test_*.py") if p.name != Path(__file__).name)


def needed(source: str) -> set[str]:
    return {tier for tier, signs in SIGNS.items() if any(re.search(s, source, re.M) for s in signs)}


def declared(source: str) -> set[str]:
    return set(re.findall(r"pytest\.mark\.(\w+)", source)) & set(TIERS)


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.relative_to(TESTS).as_posix())
def test_a_module_that_starts_a_costly_process_is_marked_with_its_tier(module: Path) -> None:
    source = module.read_text(encoding="utf-8")
    missing = needed(source) - declared(source)
    assert not missing, f"{module.relative_to(ROOT)} starts {sorted(missing)} processes but is not marked; add pytestmark = pytest.mark.<tier>"


def test_the_signs_recognise_what_they_stand_for() -> None:
    assert needed("from lsp_support import RecordingClient\n") == {"editor"}
    assert needed('cmd = [str(L2M_PY), str(DRIVER)]\nDRIVER = ROOT / "tests/metrics/l2m_driver.py"\n') == {"parity"}
    assert needed("from distributed import Client\n") == {"dask"}
    assert needed('run([sys.executable, "-m", "pip", "wheel", src])\n') == {"packaging"}
    assert needed('run([sys.executable, "-m", "build", "--outdir", dist, src])\n') == {"packaging"}
    assert needed("subprocess.run([_pre_commit(), 'install'])\n") == {"precommit"}
    assert needed("from playwright.sync_api import sync_playwright\n") == {"slow"}
    assert needed('DEMO = ROOT / "scripts/demo.sh"\n') == {"slow"}
    assert needed('sylla("run", path, "--agent", "sb3-ppo")\n') == {"sb3"}
    assert needed("import json\n") == set()


def test_every_tier_is_declared_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    names = {line.split(":", 1)[0] for line in config["markers"]}
    assert names == set(TIERS)
    assert "--strict-markers" in config["addopts"]
