"""Where independent tasks run: in this process, in local worker processes, or on a dask cluster.

Every parallel loop of the checkers (the cells of :func:`~proofs_checks.rates.sweep.run_sweep`,
the sampling chunks of the statistical audit) goes through :func:`run_calls`.  Callers assign one
``SeedSequence`` child per task *before* anything is scheduled, and :func:`run_calls` returns the
results in task order, so the numbers do not depend on where the tasks ran: one process, ``jobs``
local processes (joblib's default ``loky`` backend), or the workers of a ``dask.distributed``
cluster (joblib's ``dask`` backend) whose machines have the CPU of the client.  Workers on other
CPUs draw the same random numbers but may round elementary functions and BLAS products differently
in the last bits (``docs/reproducibility.md``, section 2).

The backend is chosen once per command with :func:`use_backend` (the ``--backend`` and
``--scheduler`` options); code below it only passes ``jobs`` along.

References
----------
joblib, "Parallel: using the dask backend", https://joblib.readthedocs.io/en/stable/parallel.html
dask.distributed, "Quickstart", https://distributed.dask.org/en/stable/quickstart.html
"""

from __future__ import annotations

import contextlib
import threading

__all__ = ["BACKENDS", "DASK_EXTRA_HINT", "active_backend", "run_calls", "use_backend", "worker_count"]

#: Values of ``--backend``.
BACKENDS = ("local", "dask")

#: What to install when ``--backend dask`` is asked for without dask.distributed.
DASK_EXTRA_HINT = (
    '--backend dask needs the optional "dask" extra (dask[distributed]); install it with '
    '`pip install -e ".[dask]"` from the source tree, or `pip install "heavytail-dp-reference[dask]"`'
)

# The active dask client and the thread that activated it.  Only that thread submits to the cluster:
# with an in-process cluster (LocalCluster(processes=False)) the worker threads share this module,
# and a task that itself calls run_calls must not submit to the cluster from inside a task.
_state = {"client": None, "thread": None}


def active_backend():
    """``"dask"`` inside :func:`use_backend` with the dask backend (in the thread that entered it), else ``"local"``."""
    if _state["client"] is not None and _state["thread"] == threading.get_ident():
        return "dask"
    return "local"


def worker_count(jobs):
    """Number of tasks that can run at once: the cluster's worker threads under dask, else ``jobs``.

    Used only to size batches of tasks; no result depends on it.
    """
    if active_backend() == "dask":
        threads = sum(_state["client"].nthreads().values())
        return max(1, int(threads))
    return jobs


def _progress(total, desc):
    """A tqdm bar on stderr for the tasks inside one long claim, only when stderr is a terminal."""
    import sys

    if total < 2 or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="task", leave=False, file=sys.stderr, dynamic_ncols=True)


def run_calls(calls, jobs=1, *, desc="tasks"):
    """``[func(*args) for func, args in calls]``, possibly in parallel; results in the order of ``calls``.

    Parameters
    ----------
    calls : iterable of (callable, tuple)
        Independent tasks.  For ``jobs > 1`` or the dask backend the functions and arguments
        must be picklable (module-level functions, ``functools.partial``).
    jobs : int
        Local worker processes (joblib ``loky``) when the backend is local; 1 runs in this
        process.  Under the dask backend the cluster's workers run the tasks and ``jobs`` is unused.
    desc : str
        Label of the progress bar shown on stderr while local tasks run (terminal only).
    """
    calls = list(calls)
    if active_backend() == "dask":
        from joblib import Parallel, delayed, parallel_config

        with parallel_config(backend="dask", client=_state["client"]):
            return Parallel(n_jobs=-1)(delayed(f)(*a) for f, a in calls)
    bar = _progress(len(calls), desc)
    try:
        if jobs == 1 or len(calls) <= 1:
            out = []
            for f, a in calls:
                out.append(f(*a))
                if bar is not None:
                    bar.update(1)
            return out
        from joblib import Parallel, delayed

        out = []
        for r in Parallel(n_jobs=jobs, return_as="generator")(delayed(f)(*a) for f, a in calls):
            out.append(r)
            if bar is not None:
                bar.update(1)
        return out
    finally:
        if bar is not None:
            bar.close()


def _import_distributed():
    try:
        import distributed
        import joblib._dask  # noqa: F401  registers joblib's "dask" backend
    except ImportError as exc:
        raise ImportError(f"{DASK_EXTRA_HINT} (import failed: {exc})") from None
    return distributed


@contextlib.contextmanager
def use_backend(backend="local", scheduler=None, jobs=1):
    """Run the :func:`run_calls` of the enclosed code on ``backend``.

    Parameters
    ----------
    backend : {"local", "dask"}
        ``"local"``: this process or ``jobs`` local processes.  ``"dask"``: a dask.distributed
        cluster, the one at ``scheduler`` or else a ``LocalCluster`` of ``jobs`` worker processes
        started here and closed on exit.
    scheduler : str or None
        Address of a running dask scheduler (``tcp://host:8786``); only with ``backend="dask"``.
    jobs : int
        Local worker processes (also the size of the ``LocalCluster`` without ``scheduler``).

    Yields
    ------
    distributed.Client or None
        The client under the dask backend.

    Raises
    ------
    ValueError
        For an unknown backend, or a ``scheduler`` without ``backend="dask"``.
    ImportError
        For ``backend="dask"`` without dask.distributed installed; the message names the extra.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError(f"a scheduler address ({scheduler!r}) needs the dask backend (--backend dask)")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ValueError(f"scheduler must be an address such as 'tcp://host:8786'; got {scheduler!r}")
    if backend == "local":
        yield None
        return
    if _state["client"] is not None:
        raise RuntimeError("use_backend('dask') is already active; it does not nest")
    distributed = _import_distributed()
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            cluster = stack.enter_context(
                distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0")
            )
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(scheduler, timeout="20s"))
            except OSError as exc:
                raise ValueError(f"cannot reach the dask scheduler at {scheduler!r}: {exc}") from None
        _state.update(client=client, thread=threading.get_ident())
        try:
            yield client
        finally:
            _state.update(client=None, thread=None)
