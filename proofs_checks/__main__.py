"""``python -m proofs_checks``: run the CLI, then leave without the interpreter's finalisation.

Once a command has returned, its output is written (the report files are closed by then) and nothing is left
to do but free memory: the interpreter's finalisation of the loaded numerical stack (numpy, scipy, numba,
statsmodels) took 0.3-0.5 s of CPU and 0.7-1.0 s of wall per process (measured 2026-11-23), and with
``verify``'s worker processes the parent also waited for each worker's own finalisation.  So the standard
streams are flushed, the ``atexit`` handlers run (joblib's temporary folders, logging), the local worker
processes, if any were started, are stopped (they are idle: every result is in), and the process exits with
``os._exit``.  An exception (``SystemExit`` from ``--help`` or a usage error included) takes the ordinary path.
"""

import sys

from .cli import main


def _leave(status):
    """Flush, run the ``atexit`` handlers, stop idle loky workers, then ``os._exit(status)``."""
    import atexit
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (exit status 141) or a closed stream: nothing to flush
            pass
    loky = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(loky, "_executor", None) if loky is not None else None
    if executor is not None:
        # not kill_workers: a killed worker leaves its semaphores to the resource tracker, which then warns
        # "leaked semaphore objects" on stderr (seen on every quick verify); idle workers leave at once anyway
        executor.shutdown(wait=True, kill_workers=False)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


if __name__ == "__main__":
    _leave(int(main() or 0))
else:  # imported rather than run (as before: the CLI runs), with the ordinary exit
    sys.exit(main())
