"""docs/cli.md is generated from the argparse definitions (sylla.cli_docs) and kept fresh."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from sylla.cli import build_parser
from sylla.cli_docs import CLI_DOCS_PATH, generate


def test_cli_docs_up_to_date() -> None:
    assert CLI_DOCS_PATH.read_text(encoding="utf-8") == generate(), "run: python -m sylla.cli_docs"


def test_every_command_and_option_is_on_the_page() -> None:
    page = generate()
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        assert f"## `sylla {name}`" in page
        section = page.split(f"## `sylla {name}`")[1].split("\n## ")[0]
        for action in command._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert f"`{option}" in section or f", {option}" in section, (name, option)
        assert "| exit code | meaning |" in section and "| 2 |" in section, name


def test_the_page_does_not_depend_on_the_terminal() -> None:
    code = "from sylla.cli_docs import generate; import sys; sys.stdout.write(generate())"
    narrow = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            env={**os.environ, "COLUMNS": "40"}).stdout
    assert narrow == generate()


def test_readme_lists_every_command_with_its_reference() -> None:
    readme = (CLI_DOCS_PATH.parent.parent / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# sylla\n\n```sh\nbash scripts/demo.sh ") and "\nbash scripts/test.sh " in readme
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in sub.choices:
        assert f"[`sylla {name}`](docs/cli.md#sylla-{name})" in readme, name
