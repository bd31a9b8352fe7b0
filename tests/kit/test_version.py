"""The version sylla stamps (SARIF, the server, the sweep cache) is the one it is released as."""

from __future__ import annotations

import tomllib
from pathlib import Path

from sylla import __version__ as public
from sylla.kit.version import __version__

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_stamped_version_is_pyprojects() -> None:
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    assert __version__ == declared == public
