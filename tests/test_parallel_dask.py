"""The dask backend: a two-worker cluster reproduces a local run byte for byte.

Without dask installed only the argument and missing-extra tests run.  One in-process
``distributed.LocalCluster`` (two workers, one thread each) serves the module; it
starts in well under a second.  Wall-clock fields (``seconds*``) and the ``jobs`` echo are the only
parts of a result allowed to differ between runs, so they are dropped before comparing.
"""

import json
import sys

import numpy as np
import pytest

from proofs_checks import parallel
from proofs_checks.audit.statistical import statistical_audit
from proofs_checks.cli import main
from proofs_checks.rates.sweep import run_sweep
from tests._audit_helpers import ShiftLaplace
from tests._parallel_helpers import backend_seen, cauchy_mean

GRID = [{"n": 10}, {"n": 100}, {"n": 1000}]
D = np.zeros((4, 1))
DP = D.copy()
DP[0, 0] = 1.0


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _strip(obj):
    """Drop wall-clock times and the ``jobs`` echo, recursively."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if not (k.startswith("seconds") or k == "jobs")}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def test_sweep_identical_on_cluster_and_locally(scheduler):
    local = [run_sweep(cauchy_mean, GRID, 12, seed=5, jobs=j).errors for j in (1, 2)]
    with parallel.use_backend("dask", scheduler) as client:
        assert parallel.active_backend() == "dask" and parallel.worker_count(1) == 2
        assert client.run(lambda: 1).keys() == client.nthreads().keys()  # both workers answer
        remote = run_sweep(cauchy_mean, GRID, 12, seed=5).errors
        remote_chunked = run_sweep(cauchy_mean, GRID, 12, seed=5, chunk=5).errors
    assert parallel.active_backend() == "local"
    assert local[0].tobytes() == local[1].tobytes() == remote.tobytes() == remote_chunked.tobytes()
    # power: another seed gives other numbers, so the comparison can fail
    assert run_sweep(cauchy_mean, GRID, 12, seed=6).errors.tobytes() != remote.tobytes()


def test_statistical_audit_identical_on_cluster_and_locally(scheduler):
    kw = dict(samples=20_000, seed=7, chunk_size=3000, statistic="estimate")
    local = [statistical_audit(ShiftLaplace(1.0), [(D, DP)], 1.0, jobs=j, **kw) for j in (1, 2)]
    with parallel.use_backend("dask", scheduler):
        remote = statistical_audit(ShiftLaplace(1.0), [(D, DP)], 1.0, **kw)
    texts = [json.dumps(_strip(r.as_dict()), sort_keys=True) for r in (*local, remote)]
    assert texts[0] == texts[1] == texts[2]
    assert remote.counts["n_each"] > 0 and np.isfinite(remote.epsilon_lower)


def test_tasks_on_workers_do_not_resubmit(scheduler):
    with parallel.use_backend("dask", scheduler):
        seen = parallel.run_calls([(backend_seen, (i,)) for i in range(4)])
    assert seen == ["local"] * 4


def test_cli_experiments_and_audit_identical_on_cluster(scheduler, tmp_path, capsys):
    runs = {}
    # --jobs 2 against --jobs 1 is shown above (and in test_rates_engine, test_audit_statistical);
    # here the whole command line, JSON included, on the cluster and in one process
    for label, extra in (("jobs1", ["--jobs", "1"]), ("dask", ["--backend", "dask", "--scheduler", scheduler])):
        assert main(["experiments", "--figure", "1", "--json", "--out", str(tmp_path), *extra]) == 0
        exp = json.loads(capsys.readouterr().out)
        assert (
            main(["audit", "laplace", "--method", "statistical", "--samples", "20000", "--seed", "3", "--json", *extra])
            == 0
        )
        aud = json.loads(capsys.readouterr().out)
        runs[label] = json.dumps(_strip([exp, aud]), sort_keys=True)
    assert runs["jobs1"] == runs["dask"]


@pytest.mark.slow
def test_cli_dask_without_scheduler_starts_local_worker_processes(tmp_path, capsys):
    """``--backend dask`` alone: a LocalCluster of --jobs worker processes, started and closed by the command."""
    pytest.importorskip("distributed")
    texts = []
    for extra in (["--jobs", "2"], ["--backend", "dask", "--jobs", "2"]):
        assert main(["experiments", "--figure", "1", "--json", "--out", str(tmp_path), *extra]) == 0
        texts.append(json.dumps(_strip(json.loads(capsys.readouterr().out)), sort_keys=True))
    assert texts[0] == texts[1]


def test_scheduler_without_dask_backend_is_a_usage_error(capsys):
    assert main(["rates", "--scheduler", "tcp://127.0.0.1:1", "--json"]) == 2
    assert "--scheduler 'tcp://127.0.0.1:1' needs --backend dask" in capsys.readouterr().err


def test_missing_extra_names_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(ImportError, match=r'pip install -e "\.\[dask\]"'):
        with parallel.use_backend("dask"):
            pass
    assert main(["experiments", "--figure", "1", "--json", "--backend", "dask"]) == 2
    err = capsys.readouterr().err
    assert "dask[distributed]" in err and '.[dask]' in err


@pytest.mark.parametrize(
    "backend, scheduler, match",
    [
        ("spark", None, "backend must be one of local, dask; got 'spark'"),
        ("local", "tcp://h:1", "needs the dask backend"),
        ("dask", "  ", "scheduler must be an address"),
    ],
)
def test_bad_backend_arguments(backend, scheduler, match):
    with pytest.raises(ValueError, match=match):
        with parallel.use_backend(backend, scheduler):
            pass
