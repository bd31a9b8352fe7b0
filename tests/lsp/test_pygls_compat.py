"""The fence around pygls' internals (``lsp/pygls_compat.py``): the private members it overrides
still exist on the installed pygls, and pyproject.toml caps pygls below the next minor version,
so an upgrade is a deliberate change that runs this test first."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument, Workspace

from sylla.lsp import pygls_compat

REPO = Path(__file__).resolve().parents[2]


def test_overridden_private_members_exist_upstream() -> None:
    assert callable(getattr(LanguageServerProtocol, "_send_response", None))
    assert callable(getattr(TextDocument, "_apply_incremental_change", None))
    assert callable(getattr(Workspace, "_create_text_document", None))
    assert issubclass(pygls_compat.LspWorkspace, Workspace)
    assert issubclass(pygls_compat.LspTextDocument, TextDocument)


def test_pygls_is_capped_and_the_installed_version_is_inside() -> None:
    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    spec = next(d for d in deps if d.startswith("pygls"))
    cap = re.search(r"<\s*([\d.]+)", spec)
    assert cap, f"pygls needs an upper bound: {spec}"
    installed = tuple(int(p) for p in version("pygls").split(".")[:2])
    assert installed < tuple(int(p) for p in cap.group(1).split(".")[:2]), (version("pygls"), spec)


def test_the_module_names_its_upstream_issues() -> None:
    doc = pygls_compat.__doc__ or ""
    assert "openlawlibrary/pygls#131" in doc and "openlawlibrary/pygls#326" in doc
