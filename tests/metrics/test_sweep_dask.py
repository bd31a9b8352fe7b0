"""``sylla sweep --dask``: the same per-run tasks on real Dask clusters give byte-identical
results to local ones. Two clusters: ``distributed.LocalCluster``, and ``dask scheduler`` +
``dask worker`` processes over TCP on 127.0.0.1, started and torn down here (the scheduler in
an interpreter that cannot import sylla)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from .test_sweep import FAST, PATTERN, SWEEP

pytestmark = pytest.mark.dask


distributed = pytest.importorskip(
    "distributed", reason="the dask extra is not installed (pip install 'sylla[dask]')") \
    if not os.environ.get("CI") else __import__("distributed")

BIN = Path(sys.executable).parent
#: ``dask scheduler`` in an interpreter where ``import sylla`` fails
NO_SYLLA_SCHEDULER = (
    "import sys\n"
    "class Hide:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] == 'sylla':\n"
    "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
    "sys.meta_path.insert(0, Hide())\n"
    "from distributed.cli.dask_scheduler import main\n"
    "main(prog_name='dask scheduler')\n")


def _sweep_cli(root: Path, out: Path, *extra: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "sylla", "sweep", str(root), "--group-by", PATTERN, "--out",
         str(out), "--compare", "agent", "--format", "json", "--no-progress",
         *sum((["-m", m] for m in FAST), []), *extra],
        capture_output=True, text=True, timeout=300, env={**os.environ, **(env or {})})
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, bytes]:
    """A copy of the tree (a shared root for all clusters) and the local result to match."""
    base = tmp_path_factory.mktemp("dask")
    root = base / "agents"
    shutil.copytree(SWEEP / "agents", root)
    code, out, err = _sweep_cli(root, base / "local", "--jobs", "1")
    assert code == 0, err
    return root, out, (base / "local" / "rows" / "part-00000.parquet").read_bytes()


def _check_same(local: tuple[Path, str, bytes], out: Path, stdout: str, err: str) -> None:
    assert re.search(r"6 computed \(.*\), 0 from the cache", err), err
    assert stdout == local[1]
    assert (out / "rows" / "part-00000.parquet").read_bytes() == local[2]


def _task_prefixes(address: str) -> set[str]:
    """The kinds of task the scheduler has seen: the runs, and the bootstrap chunks of the
    summaries, which go to the cluster's workers too."""
    from distributed import Client

    with Client(address, timeout="30s") as client:
        return set(client.run_on_scheduler(
            lambda dask_scheduler: list(dask_scheduler.task_prefixes)))


def test_local_cluster_gives_byte_identical_results(local: tuple[Path, str, bytes],
                                                    tmp_path: Path) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        code, stdout, err = _sweep_cli(local[0], tmp_path / "o", "--dask",
                                       cluster.scheduler_address)
        assert code == 0, err
        _check_same(local, tmp_path / "o", stdout, err)
        assert {"sylla-run", "sylla-chunk"} <= _task_prefixes(cluster.scheduler_address)
        # the Python API accepts a client too, and finds everything in the cache now
        from distributed import Client

        from sylla.metrics.sweep import sweep

        with Client(cluster) as client:
            again = sweep(local[0], group_by=PATTERN, out=tmp_path / "o", dask=client,
                          metrics=FAST, compare="agent", progress=False)
        assert again.counts["cached"] == 6 and again.counts["computed"] == 0


def _children_of_worker() -> list[tuple[int, int]]:
    """On a worker: (pid, parent pid) of its idle children that compute the runs."""
    import psutil

    from sylla.metrics.sweep import isolate

    return [(c.proc.pid, psutil.Process(c.proc.pid).ppid()) for c in isolate._idle if c.alive]


def test_runs_are_computed_in_children_of_the_workers(local: tuple[Path, str, bytes],
                                                      tmp_path: Path) -> None:
    """The runs are computed in a child process of each worker; a child that crashes fails
    only its own call, the worker survives and starts a new child; the children end with the
    cluster."""
    import pickle

    import psutil
    from distributed import Client, LocalCluster

    from sylla.metrics.sweep import isolate
    from sylla.metrics.sweep.execute import _blob

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        code, stdout, err = _sweep_cli(local[0], tmp_path / "o", "--dask",
                                       cluster.scheduler_address)
        assert code == 0, err
        _check_same(local, tmp_path / "o", stdout, err)
        pids = client.run(os.getpid)
        children = client.run(_children_of_worker)
        assert set(children) == set(pids)
        for address, kids in children.items():
            assert kids and all(parent == pids[address] for _, parent in kids), children
        everyone = [pid for kids in children.values() for pid, _ in kids]

        # a call whose process aborts (as a crash inside a C extension would)
        crash = _blob(isolate.run_pickled, isolate.payload(os.abort))
        worker = next(iter(pids))
        reply = client.submit(pickle.loads, crash, pure=False, workers=[worker]).result()
        with pytest.raises(isolate.ChildDied, match=r"killed \(SIGABRT\)"):
            isolate.result(reply)
        assert client.run(os.getpid) == pids  # the same workers, none restarted
        again = _blob(isolate.run_pickled, isolate.payload(os.getppid))
        assert isolate.result(client.submit(pickle.loads, again, pure=False,
                                            workers=[worker]).result()) == pids[worker]
    deadline = time.monotonic() + 30
    while any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE
              for p in everyone):
        assert time.monotonic() < deadline, "children outlived their workers"
        time.sleep(0.1)


@pytest.fixture
def tcp_cluster(tmp_path: Path) -> Iterator[str]:
    """``dask scheduler`` and ``dask worker`` (two worker processes) on 127.0.0.1."""
    dask = BIN / "dask"
    if not dask.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{dask} is missing: scripts/setup.sh installs the dask extra")
        pytest.skip("the dask command is not installed (pip install 'sylla[dask]')")
    info = tmp_path / "scheduler.json"
    procs: list[subprocess.Popen[bytes]] = []
    address = ""
    log = open(tmp_path / "cluster.log", "wb")
    try:
        # the scheduler runs where sylla cannot be imported: it must never need sylla's code
        procs.append(subprocess.Popen(
            [sys.executable, "-c", NO_SYLLA_SCHEDULER, "--host", "127.0.0.1", "--port", "0",
             "--dashboard-address", ":0", "--scheduler-file", str(info)],
            stdout=log, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert info.exists(), (tmp_path / "cluster.log").read_text()
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        procs.append(subprocess.Popen(
            [str(dask), "worker", address, "--nworkers", "2", "--nthreads", "1",
             "--no-dashboard", "--host", "127.0.0.1"], stdout=log, stderr=subprocess.STDOUT))
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        _shut_down(address, procs)
        log.close()


def _shut_down(address: str, procs: list[subprocess.Popen[bytes]]) -> None:
    """Stop the cluster the way its owner would: the scheduler closes its workers, each
    nanny closes, and ``dask worker`` and the scheduler exit on their own (about a second).
    SIGTERM is only the fallback: ``dask worker`` takes it as a request to retire gracefully
    and can take well over ten seconds to exit."""
    from distributed import Client

    if address:
        try:
            with Client(address, timeout="10s") as client:
                client.shutdown()
        except (OSError, TimeoutError):
            pass  # the scheduler is already gone: the processes are ended below
    deadline = time.monotonic() + 30
    for proc in reversed(procs):
        try:
            proc.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            proc.terminate()
    for proc in reversed(procs):
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_tcp_scheduler_and_workers_give_byte_identical_results(
        local: tuple[Path, str, bytes], tcp_cluster: str, tmp_path: Path) -> None:
    code, stdout, err = _sweep_cli(local[0], tmp_path / "o", "--dask", tcp_cluster)
    assert code == 0, err
    _check_same(local, tmp_path / "o", stdout, err)
    assert {"sylla-run", "sylla-chunk"} <= _task_prefixes(tcp_cluster)


def test_an_unreachable_scheduler_is_a_usage_error(local: tuple[Path, str, bytes],
                                                   tmp_path: Path) -> None:
    # how long to try is Dask's own setting; a user's environment variable shortens it as here
    code, _, err = _sweep_cli(local[0], tmp_path / "o", "--dask", "tcp://127.0.0.1:9",
                              env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert code == 2
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err


def test_without_dask_installed_dask_says_how_to_install_it(local: tuple[Path, str, bytes],
                                                            tmp_path: Path) -> None:
    # a Python in which `import distributed` fails, as in an install without the extra
    hide = ("import sys\n"
            "class Hide:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('dask', 'distributed'):\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, Hide())\n"
            "from sylla.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    proc = subprocess.run([sys.executable, "-c", hide, "sweep", str(local[0]), "--out",
                           str(tmp_path / "o"), "--dask", "tcp://127.0.0.1:8786"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "pip install 'sylla[dask]'" in proc.stderr and "Traceback" not in proc.stderr
