"""The mirror of a growing run (`sylla.metrics.watch.mirror`): what it lists and what it reads
again. Files and folders are given old timestamps (``os.utime``) where a test needs the mirror
to trust them, and the mirror's clock is set where it must not, so nothing here depends on how
fast the machine runs."""

from __future__ import annotations

import os
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.metrics.watch import mirror as mirror_module
from sylla.metrics.watch.mirror import COARSE_NS, FINE_NS, RECHECK_NS, Mirror, settled

OLD_NS = time.time_ns() - 60 * 1_000_000_000  # a minute ago: settled on any file system


def _walked(source: Path) -> list[Path]:
    """The listing as `os.walk` gives it (what the mirror listed before it kept its listing)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(folder) / f for f in sorted(files) if not f.startswith("."))
    return found


def _age(root: Path) -> None:
    """Every file and folder under ``root`` (and ``root``) last changed a minute ago."""
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(Path(folder) / name, ns=(OLD_NS, OLD_NS), follow_symlinks=False)
        os.utime(folder, ns=(OLD_NS, OLD_NS))


NAMES = st.sampled_from(["a", "b", "B", ".hidden", "10-train", "2-test", "data-log.tsv",
                         "logger_info.json", "x y"])
#: a tree: each name a file (None), a subtree (dict), or a symlink to the first folder ("link")
TREES = st.recursive(st.none() | st.just("link"),
                     lambda sub: st.dictionaries(NAMES, sub, max_size=4), max_leaves=12)


def _build(folder: Path, tree: object, target: Path) -> None:
    if not isinstance(tree, dict):
        return
    for name, sub in tree.items():
        path = folder / name
        if sub is None:
            path.write_bytes(b"row\n")
        elif sub == "link":
            path.symlink_to(target, target_is_directory=True)
        else:
            path.mkdir()
            _build(path, sub, target)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=TREES)
def test_the_listing_is_os_walks(tmp_path_factory, tree):
    """Top down, names sorted, hidden names skipped, symlinked folders not entered (a symlink
    to a folder is no file either)."""
    source = tmp_path_factory.mktemp("tree")
    (source / "real").mkdir()
    (source / "real" / "inside.tsv").write_bytes(b"row\n")
    _build(source, tree if isinstance(tree, dict) else {}, source / "real")
    with Mirror(source) as mirror:
        assert mirror.sources() == _walked(source)


def _observed(monkeypatch, owner: object, name: str) -> list[Path]:
    """The paths ``owner.name`` is called with, in order (the real function, observed)."""
    seen: list[Path] = []
    real = getattr(owner, name)

    def observed(path, *args, **kwargs):
        seen.append(Path(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(owner, name, observed)
    return seen


def _reads(monkeypatch) -> list[Path]:
    """The files the mirror reads (`appended`)."""
    return _observed(monkeypatch, mirror_module, "appended")


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    for block in ("0-train", "1-test", "2-train"):
        (run / "worker-default" / block).mkdir(parents=True)
        (run / "worker-default" / block / "data-log.tsv").write_bytes(b"head\nrow 1\n")
    (run / "logger_info.json").write_text('{"metrics_columns": ["reward"]}')
    return run


def test_files_unchanged_since_they_were_read_are_not_read_again(tmp_path, monkeypatch):
    run = _run(tmp_path)
    _age(run)
    read = _reads(monkeypatch)
    with Mirror(run) as mirror:
        assert mirror.sync()
        assert len(read) == 3
        read.clear()
        growing = run / "worker-default" / "2-train" / "data-log.tsv"
        with open(growing, "ab") as handle:
            handle.write(b"row 2\n")
        assert mirror.sync()
        assert read == [growing]  # the finished blocks were not opened
        assert (mirror.path / growing.relative_to(run)).read_bytes() == b"head\nrow 1\nrow 2\n"
        read.clear()
        mirror.clock = lambda: os.stat(growing).st_mtime_ns  # read in the tick it was stamped
        assert not mirror.sync()
        assert read == [growing]  # not settled: read again however it looks
        read.clear()
        assert not mirror.sync()
        assert read == [growing]  # still not: its stamp is the one it had when read


def test_a_change_that_leaves_a_recent_stamp_as_it_was_is_seen(tmp_path, monkeypatch):
    """A rewrite in place within one tick of the file system's clock keeps the size and the
    modification time: a file read in the tick it was stamped is read again."""
    run = _run(tmp_path)
    _age(run)
    data = run / "worker-default" / "0-train" / "data-log.tsv"
    with Mirror(run) as mirror:
        before = os.stat(data)
        mirror.clock = lambda: before.st_mtime_ns
        mirror.sync()
        with open(data, "r+b") as handle:
            handle.write(b"HEAD\nROW 1\n")  # same size
        os.utime(data, ns=(before.st_atime_ns, before.st_mtime_ns))  # same tick
        assert mirror.sync()
        assert (mirror.path / data.relative_to(run)).read_bytes() == b"HEAD\nROW 1\n"
        assert mirror.generation == 1  # copied again from its start


def test_a_file_added_to_an_old_folder_is_listed(tmp_path, monkeypatch):
    run = _run(tmp_path)
    _age(run)
    with Mirror(run) as mirror:
        mirror.sync()
        new = run / "worker-default" / "3-test" / "data-log.tsv"
        new.parent.mkdir()
        new.write_bytes(b"head\nrow 1\n")
        assert mirror.sync()
        assert new in mirror.sources()
        assert (mirror.path / new.relative_to(run)).exists()


def test_a_folder_changed_within_one_tick_is_listed_again(tmp_path):
    """A file added to a recently changed folder, with the folder's timestamp left as it was
    (the same tick of the file system's clock), is listed all the same."""
    run = _run(tmp_path)
    _age(run)
    folder = run / "worker-default" / "2-train"
    with Mirror(run) as mirror:
        stamp = os.stat(folder)
        mirror.clock = lambda: stamp.st_mtime_ns
        mirror.sync()
        (folder / "late.tsv").write_bytes(b"row\n")
        os.utime(folder, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
        assert folder / "late.tsv" in mirror.sources()


def test_a_removed_file_leaves_the_mirror(tmp_path):
    run = _run(tmp_path)
    _age(run)
    gone = run / "worker-default" / "1-test" / "data-log.tsv"
    with Mirror(run) as mirror:
        mirror.sync()
        generation = mirror.generation
        gone.unlink()
        assert mirror.sync()
        assert not (mirror.path / gone.relative_to(run)).exists()
        assert mirror.generation == generation + 1
        assert gone not in mirror.sources()


def test_a_stamp_settles_after_its_file_systems_resolution():
    fine = 1_700_000_000_123_456_789
    assert not settled(fine, fine + FINE_NS)
    assert settled(fine, fine + FINE_NS + 1)
    whole = 1_700_000_000_000_000_000  # a file system that stamps in seconds (FAT: in two)
    assert not settled(whole, whole + FINE_NS + 1)
    assert not settled(whole, whole + COARSE_NS)
    assert settled(whole, whole + COARSE_NS + 1)
    assert not settled(fine, fine - 1)  # a stamp ahead of the clock (another machine's)


def test_a_changed_folder_alone_is_listed_again(tmp_path, monkeypatch):
    """A block folder added to a run of many has it and its parent listed, not the rest."""
    run = tmp_path / "run"
    for block in range(40):
        (run / "worker-default" / f"{block}-train").mkdir(parents=True)
        (run / "worker-default" / f"{block}-train" / "data-log.tsv").write_bytes(b"h\nrow\n")
    _age(run)
    listed: list[Path] = []
    real = mirror_module._list

    def observed(folder, *args):
        listed.append(folder)
        return real(folder, *args)

    monkeypatch.setattr(mirror_module, "_list", observed)
    with Mirror(run) as mirror:
        mirror.sync()
        assert len(listed) == 42
        listed.clear()
        new = run / "worker-default" / "40-test" / "data-log.tsv"
        new.parent.mkdir()
        new.write_bytes(b"h\nrow\n")
        _age(new.parent)
        assert mirror.sync()
        assert sorted(listed) == [run / "worker-default", new.parent]
        assert mirror.sources() == _walked(run)


#: what a run does to a file between two syncs
OPS = st.lists(st.tuples(st.sampled_from(["write", "append", "half", "replace", "remove",
                                          "json", "bad json"]),
                         st.sampled_from(["0-train", "1-test", "2-train"]),
                         st.sampled_from(["worker-0", "worker-1"])),
               min_size=1, max_size=25)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_the_record_of_mirrored_files_is_what_is_on_disk(tmp_path_factory, ops):
    """`Mirror.mirrored` (what the l2logger tail lists instead of searching the mirror's
    folder) names exactly the files a search finds, after every sync, and `layout` moves
    whenever that set does."""
    run = tmp_path_factory.mktemp("run")
    with Mirror(run) as mirror:
        before: set[Path] = set()
        layout = mirror.layout
        for op, block, worker in ops:
            folder = run / worker / block
            folder.mkdir(parents=True, exist_ok=True)
            data, info = folder / "data-log.tsv", run / "logger_info.json"
            if op == "write":
                data.write_bytes(b"h\nrow\n")
            elif op == "append" and data.exists():
                with open(data, "ab") as handle:
                    handle.write(b"row\n")
            elif op == "half":
                data.write_bytes(b"h")  # no complete line yet
            elif op == "replace":
                data.write_bytes(b"other\n")
            elif op == "remove":
                data.unlink(missing_ok=True)
            elif op == "json":
                info.write_text('{"metrics_columns": ["reward"]}')
            elif op == "bad json":
                info.write_text('{"metrics_')
            mirror.sync()
            for name in ("data-log.tsv", "logger_info.json"):
                assert set(mirror.mirrored(name)) == set(mirror.path.rglob(name))
            now = {*mirror.path.rglob("data-log.tsv"), *mirror.path.rglob("logger_info.json")}
            assert now == before or mirror.layout != layout
            before, layout = now, mirror.layout


def test_what_stamps_hide_is_seen_at_the_next_full_check(tmp_path, monkeypatch):
    """A file system that keeps no folder stamps (a FUSE mount of an object store) hides a new
    file from the kept listing, and a rewrite that keeps size and stamp hides itself: both are
    seen once `RECHECK_NS` has passed since every file was last read."""
    run = _run(tmp_path)
    _age(run)
    read = _reads(monkeypatch)
    now = [OLD_NS + 30 * 1_000_000_000]
    data = run / "worker-default" / "0-train" / "data-log.tsv"
    folder = run / "worker-default" / "2-train"
    with Mirror(run) as mirror:
        mirror.clock = lambda: now[0]
        mirror.sync()
        read.clear()
        late = folder / "late.tsv"
        late.write_bytes(b"row\n")
        os.utime(folder, ns=(OLD_NS, OLD_NS))  # the folder's stamp as it was
        with open(data, "r+b") as handle:
            handle.write(b"HEAD\nROW 1\n")
        os.utime(data, ns=(OLD_NS, OLD_NS))
        now[0] += RECHECK_NS // 2
        assert not mirror.sync()
        assert read == [] and late not in mirror.sources()
        assert mirror.full_checks == 1
        before = {path: path for path in mirror.sources()}
        now[0] += RECHECK_NS // 2 + 1
        assert mirror.sync()
        assert mirror.full_checks == 2
        assert late in mirror.sources()
        # the listings made again reuse the paths they had (`_list`), for every old entry
        assert all(before[path] is path for path in mirror.sources() if path in before)
        assert (mirror.path / data.relative_to(run)).read_bytes() == b"HEAD\nROW 1\n"
        assert (mirror.path / late.relative_to(run)).read_bytes() == b"row\n"


def test_written_since_names_the_files_a_sync_wrote_and_removed(tmp_path: Path) -> None:
    """`written_since` tells a reader of the mirror which of its files changed after it read
    them (the l2logger tail checks finished block files so instead of with a stat of each):
    the file a sync appended to, one copied again from the start, one removed; not the files
    it left alone."""
    source = tmp_path / "run"
    for block in ("0-train", "1-test", "2-train"):
        (source / "w" / block).mkdir(parents=True)
        (source / "w" / block / "data-log.tsv").write_bytes(b"h\nrow\n")
    with Mirror(source) as mirror:
        mirror.sync()
        target = {b: mirror.path / "w" / b / "data-log.tsv" for b in ("0-train", "1-test", "2-train")}
        mark = mirror.writes
        assert not any(mirror.written_since(p, mark) for p in target.values())
        with open(source / "w" / "2-train" / "data-log.tsv", "ab") as handle:
            handle.write(b"more\n")
        mirror.sync()
        assert [b for b, p in target.items() if mirror.written_since(p, mark)] == ["2-train"]
        mark = mirror.writes
        (source / "w" / "0-train" / "data-log.tsv").write_bytes(b"H\n")  # cut and rewritten
        (source / "w" / "1-test" / "data-log.tsv").unlink()
        mirror.sync()
        assert [b for b, p in target.items() if mirror.written_since(p, mark)] == [
            "0-train", "1-test"]
        assert not (mirror.path / "w" / "1-test" / "data-log.tsv").exists()


def _stats(monkeypatch) -> list[Path]:
    """The paths the mirror stats (`os.stat`)."""
    return _observed(monkeypatch, mirror_module.os, "stat")


def test_events_name_what_is_looked_at(tmp_path, monkeypatch):
    """With the paths the file system's events named, a trusted file or folder no event names
    is taken as it was, without a stat; the named file is read, and a file added to a named
    folder is listed."""
    run = _run(tmp_path)
    _age(run)
    with Mirror(run) as mirror:
        mirror.sync()
        growing = run / "worker-default" / "2-train" / "data-log.tsv"
        with open(growing, "ab") as handle:
            handle.write(b"row 2\n")
        new = run / "worker-default" / "3-test" / "data-log.tsv"
        new.parent.mkdir()
        new.write_bytes(b"head\nrow 1\n")
        stats, read = _stats(monkeypatch), _reads(monkeypatch)
        assert mirror.sync([growing, new.parent, new])
        assert set(read) == {growing, new}
        assert not [p for p in stats if p.parent.name in ("0-train", "1-test")]
        assert (mirror.path / growing.relative_to(run)).read_bytes() == b"head\nrow 1\nrow 2\n"
        assert (mirror.path / new.relative_to(run)).read_bytes() == b"head\nrow 1\n"


def test_a_change_no_event_named_is_seen_without_events_or_at_the_recheck(tmp_path):
    """What the events miss (a write on another host of a network file system) waits for the
    next sync without events, or for the full check every `RECHECK_NS`, which ignores them."""
    run = _run(tmp_path)
    _age(run)
    quiet = run / "worker-default" / "0-train" / "data-log.tsv"
    with Mirror(run) as mirror:
        target = mirror.path / quiet.relative_to(run)
        now = time.time_ns()
        mirror.clock = lambda: now
        mirror.sync()
        with open(quiet, "ab") as handle:
            handle.write(b"row 2\n")
        assert not mirror.sync([run / "worker-default" / "1-test" / "data-log.tsv"])
        assert target.read_bytes() == b"head\nrow 1\n"
        assert mirror.sync()  # no events: every file looked at
        assert target.read_bytes() == b"head\nrow 1\nrow 2\n"
        with open(quiet, "ab") as handle:
            handle.write(b"row 3\n")
        os.utime(quiet, ns=(OLD_NS, OLD_NS))
        mirror.clock = lambda: now + RECHECK_NS + 1
        assert mirror.sync([])  # the full check: the events are not trusted then
        assert target.read_bytes() == b"head\nrow 1\nrow 2\nrow 3\n"


def test_a_recent_file_is_looked_at_whatever_the_events_say(tmp_path):
    """A file read within its clock's resolution of its stamp has no trusted stamp: it is
    looked at at every sync, named by an event or not."""
    run = _run(tmp_path)
    growing = run / "worker-default" / "2-train" / "data-log.tsv"
    with Mirror(run) as mirror:
        mirror.clock = lambda: os.stat(growing).st_mtime_ns  # read in the tick it was stamped
        mirror.sync()
        with open(growing, "ab") as handle:
            handle.write(b"row 2\n")
        assert mirror.sync([])
        assert (mirror.path / growing.relative_to(run)).read_bytes() == b"head\nrow 1\nrow 2\n"
