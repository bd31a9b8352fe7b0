"""Writes by ``lint --fix`` and ``fmt`` respect the file system: symlinks, hard links, modes,
read-only files and folders; ``--fix -`` and ``fmt -`` behave as filters (ruff's shape)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sylla.cli import main

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "linter"
REPO = Path(__file__).resolve().parents[2]
#: H505 (merge) is the fix; one line of it changes
BAD = (FIX / "H505_bad.json").read_bytes()
#: not in the canonical layout
UNFORMATTED = b'{"name": "x", "instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5}]}\n'

COMMANDS = {"fix": ["lint", "--fix"], "fmt": ["fmt"]}
INPUTS = {"fix": BAD, "fmt": UNFORMATTED}


def _changed(kind: str, data: bytes) -> bool:
    return data != INPUTS[kind]


@pytest.mark.parametrize("kind", ["fix", "fmt"])
def test_symlink_is_written_through_and_kept(tmp_path: Path, kind: str, capsys) -> None:
    real = tmp_path / "real" / "s.json"
    real.parent.mkdir()
    real.write_bytes(INPUTS[kind])
    link = tmp_path / "link.json"
    link.symlink_to(os.path.relpath(real, tmp_path))
    main([*COMMANDS[kind], str(link)])
    assert link.is_symlink() and os.readlink(link) == os.path.relpath(real, tmp_path)
    assert _changed(kind, real.read_bytes())
    assert sorted(p.name for p in real.parent.iterdir()) == ["s.json"]  # no temp file left


@pytest.mark.parametrize("kind", ["fix", "fmt"])
def test_read_only_file_is_refused_and_untouched(tmp_path: Path, kind: str, capsys) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(INPUTS[kind])
    target.chmod(0o444)
    before = os.stat(target)
    assert main([*COMMANDS[kind], str(target)]) == 2
    err = capsys.readouterr().err
    assert f"sylla: cannot write {target}: Permission denied\n" in err
    after = os.stat(target)
    assert target.read_bytes() == INPUTS[kind]
    assert (after.st_ino, after.st_mode, after.st_mtime_ns) == (before.st_ino, before.st_mode, before.st_mtime_ns)


@pytest.mark.parametrize("kind", ["fix", "fmt"])
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_mode_bits_are_kept(tmp_path: Path, kind: str, mode: int, capsys) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(INPUTS[kind])
    target.chmod(mode)
    assert main([*COMMANDS[kind], str(target)]) in (0, 1)
    assert _changed(kind, target.read_bytes())
    assert stat.S_IMODE(os.stat(target).st_mode) == mode


@pytest.mark.parametrize("kind", ["fix", "fmt"])
def test_hard_link_is_not_split(tmp_path: Path, kind: str, capsys) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(INPUTS[kind])
    other = tmp_path / "other-name.json"
    os.link(target, other)
    inode = os.stat(target).st_ino
    main([*COMMANDS[kind], str(target)])
    assert os.stat(target).st_ino == inode == os.stat(other).st_ino
    assert _changed(kind, target.read_bytes()) and other.read_bytes() == target.read_bytes()


@pytest.mark.parametrize("kind", ["fix", "fmt"])
def test_read_only_folder_is_a_clear_error(tmp_path: Path, kind: str, capsys) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "s.json"
    target.write_bytes(INPUTS[kind])
    folder.chmod(0o555)
    try:
        assert main([*COMMANDS[kind], str(target)]) == 2
    finally:
        folder.chmod(0o755)
    err = capsys.readouterr().err
    assert err.startswith(f"sylla: cannot write {target}: Permission denied") and "Traceback" not in err
    assert target.read_bytes() == INPUTS[kind] and os.listdir(folder) == ["s.json"]


def _can_run_sylla_as(prefix: list[str]) -> None:
    """The unprivileged user must be able to read this checkout (a clone inside a 0700 folder,
    as ``mktemp -d`` makes, is not): say so instead of failing on "No module named sylla"."""
    probe = subprocess.run([*prefix, sys.executable, "-c", "import sylla"], capture_output=True,
                           text=True, cwd=REPO)
    if probe.returncode != 0:
        why = (f"this test runs sylla as uid 65534, who cannot import it from {REPO} "
               f"(a folder on the way is not readable by others): {probe.stderr.strip()[-200:]}")
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)


@pytest.mark.skipif(
    os.getuid() == 0 and shutil.which("setpriv") is None and os.environ.get("CI") != "true",
    reason="as root, needs setpriv (util-linux) to run sylla as an unprivileged user",
)
@pytest.mark.parametrize("kind", ["fix", "fmt"])
def test_read_only_folder_as_an_ordinary_user(kind: str) -> None:
    """What a user without root meets: the OS refuses the temp file; no traceback."""
    base = Path(tempfile.mkdtemp(prefix="sylla-ro-"))
    try:
        base.chmod(0o755)
        target = base / "s.json"
        target.write_bytes(INPUTS[kind])
        target.chmod(0o666)
        base.chmod(0o555)
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.getuid() == 0 else []
        _can_run_sylla_as(prefix)
        proc = subprocess.run([*prefix, sys.executable, "-m", "sylla", *COMMANDS[kind], str(target)],
                              capture_output=True, text=True, cwd=REPO)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(f"sylla: cannot write {target}: Permission denied") and "Traceback" not in proc.stderr
        assert target.read_bytes() == INPUTS[kind]
    finally:
        base.chmod(0o755)
        shutil.rmtree(base)


def _run(args: list[str], stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sylla", *args], input=stdin, capture_output=True, cwd=REPO)


def test_fix_stdin_prints_fixed_text_and_reports_the_rest_on_stderr() -> None:
    # H505 is fixed; P303 (a second "1.train") has no fix and stays
    text = (
        "\ufeff{\r\n  // keep\r\n  \"instructions\": [\r\n    {\"$phase\": \"1.train\"},\r\n"
        "    {\"$repeat\": {\"$episode\": \"Pong\"}, \"count\": 10},\r\n"
        "    {\"$repeat\": {\"$episode\": \"Pong\"}, \"count\": 5},\r\n"
        "    {\"$phase\": \"1.train\"},\r\n    {\"$repeat\": {\"$episode\": \"Pong\"}, \"count\": 2}\r\n  ]\r\n}\r\n"
    ).encode("utf-8")
    proc = _run(["lint", "--fix", "-", "--stdin-filename", "s.json"], text)
    expected = text.replace(
        b'"count": 10},\r\n    {"$repeat": {"$episode": "Pong"}, "count": 5},\r\n', b'"count": 15},\r\n'
    )
    assert proc.stdout == expected
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert "s.json:6:16: P303" in err  # line 6 of the fixed text
    assert "H505" not in err


def test_fix_stdin_with_nothing_to_fix_echoes_the_input() -> None:
    data = (FIX / "good.json").read_bytes()
    proc = _run(["lint", "--fix", "-"], data)
    assert proc.stdout == data and proc.returncode == 0


def test_fmt_stdin_keeps_bom_and_check_settles(tmp_path: Path, capsys) -> None:
    data = b"\xef\xbb\xbf" + UNFORMATTED.replace(b"\n", b"\r\n")
    proc = _run(["fmt", "-"], data)
    assert proc.returncode == 0
    out = proc.stdout
    assert out.startswith(b"\xef\xbb\xbf{\r\n  \"name\": \"x\",\r\n") and b"\n" not in out.replace(b"\r\n", b"")
    target = tmp_path / "s.json"
    target.write_bytes(data)
    assert main(["fmt", "--check", str(target)]) == 1
    assert main(["fmt", str(target)]) == 0
    assert target.read_bytes() == out
    assert main(["fmt", "--check", str(target)]) == 0
    assert _run(["fmt", "-"], out).stdout == out
