import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Deterministic hypothesis runs: a fixed derandomised profile so no test is flaky.
settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# One numba thread per test process.  The suite runs under xdist with one worker per core, so the
# prange loops of reference/hu/_ephi_kernel.py would put two OpenMP threads on each core, each
# waiting on the other worker's threads (the wang_xu score kernel, once parallel,
# lost 7.5 s against 0.6 s on one audit claim that way; it now runs on one thread itself).  Results
# do not depend on the thread count; a test that checks that with several threads uses the
# ``numba_all_threads`` fixture.  Set on the main thread, where pytest runs the tests.
try:
    import numba
except ImportError:  # pragma: no cover - the kernels fall back to numpy
    numba = None
else:
    numba.set_num_threads(1)


@pytest.fixture
def numba_all_threads():
    """Every thread numba was started with (``NUMBA_NUM_THREADS``, one per core) for one test, then one again."""
    if numba is None:
        yield 1
        return
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    try:
        yield numba.get_num_threads()
    finally:
        numba.set_num_threads(1)


# Compile the numba kernels once per run, not once per xdist worker.  With an empty numba cache (a
# clean clone: CI) every worker compiled the same kernels itself, about 29 s of CPU each for
# reference/hu/_ephi_kernel.py.  Under xdist the controller, idle otherwise, starts one process
# (tests/_numba_warm.py) that compiles them into numba's on-disk cache while the workers collect
# and run other tests; the first time a worker needs a kernel compiled it waits for that process to
# end and then loads the kernel from the cache.  With a warm cache the process only loads (~3 s).
_WARM_ENV = "TESTS_NUMBA_WARM_DONE"
_WARM_WAIT = 300.0  # seconds; past this a worker compiles by itself (slower, same results)
_warm = {}


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if numba is None or hasattr(config, "workerinput") or not config.pluginmanager.has_plugin("dsession"):
        return
    tmp = Path(tempfile.mkdtemp(prefix="numba-warm-"))
    done = tmp / "done"
    log = open(tmp / "stderr", "w")
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    # the done file is created whatever happens, even if the import fails, so no worker waits in vain
    code = (
        "import pathlib, sys\ntry:\n    from tests._numba_warm import warm\n    warm()\n"
        "finally:\n    pathlib.Path(sys.argv[1]).touch()\n"
    )
    _warm.update(
        tmp=tmp,
        log=log,
        proc=subprocess.Popen(
            [sys.executable, "-c", code, str(done)],
            cwd=Path(__file__).resolve().parents[1],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        ),
    )
    os.environ[_WARM_ENV] = str(done)  # inherited by the workers, started after this hook


def pytest_terminal_summary(terminalreporter):
    proc = _warm.get("proc")
    if proc is not None and proc.poll() not in (0, None):
        terminalreporter.write_line(
            f"note: tests/_numba_warm.py failed (exit {proc.returncode}); the workers "
            f"compiled the kernels themselves: {(_warm['tmp'] / 'stderr').read_text()[-2000:]}"
        )


def pytest_unconfigure(config):
    proc = _warm.pop("proc", None)
    if proc is not None:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        _warm["log"].close()
        os.environ.pop(_WARM_ENV, None)
        for f in _warm["tmp"].iterdir():
            f.unlink()
        _warm["tmp"].rmdir()


if numba is not None and os.environ.get(_WARM_ENV) and os.environ.get("PYTEST_XDIST_WORKER"):
    from numba.core.dispatcher import Dispatcher

    # private: _compile_for_args: numba has no public hook for "compile now"; the wait for the warm-up process wraps it
    _compile_for_args = Dispatcher._compile_for_args  # numba calls it for arguments with no compiled overload

    def _compile_after_warm(self, *args, **kws):
        done = Path(os.environ[_WARM_ENV])
        deadline = time.monotonic() + _WARM_WAIT
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        Dispatcher._compile_for_args = _compile_for_args  # wait once per worker
        return _compile_for_args(self, *args, **kws)

    Dispatcher._compile_for_args = _compile_after_warm
