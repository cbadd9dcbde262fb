"""Helpers shared by the sub-commands: the output folder check, the seed and jobs types, the backend options."""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from pathlib import Path

from . import UsageError

__all__ = [
    "add_backend_arguments",
    "backend_from_args",
    "default_jobs",
    "non_negative_int",
    "positive_int",
    "usable_out_dir",
    "usable_out_file",
    "npz_error",
]


def positive_int(text):
    """argparse type: an integer >= 1 (``--jobs``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def default_jobs():
    """The cores this process may use (its CPU affinity where the platform has one): ``--jobs``'s default."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def non_negative_int(text):
    """argparse type: an integer >= 0 (``--seed``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def usable_out_dir(path, option="--out"):
    """Create ``path`` if needed and check that files can be written there, before any work runs.

    Raises :class:`~proofs_checks.commands.UsageError` naming the option and the reason, so that
    an unusable folder is reported at once, not after minutes of checks.
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{option} {str(path)!r} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".write-test-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"{option} {str(path)!r} is not a writable folder ({exc.strerror or exc})") from None
    return out


def usable_out_file(path, option):
    """Check, before any work runs, that the file ``path`` can be written: its folder exists and is writable, and
    ``path`` is not a folder.  Creates nothing (an audit that fails writes no file).

    Raises :class:`~proofs_checks.commands.UsageError` naming the option, the path and the reason.
    """
    out = Path(path)
    if out.is_dir():
        raise UsageError(f"{option} {str(path)!r} is a folder; give a file name")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{option} {str(path)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise UsageError(f"{option} {str(path)!r} is not writable")
    return out


def npz_error(path, option, exc):
    """A one-line :class:`~proofs_checks.commands.UsageError` for an ``.npz`` file numpy could not read.

    numpy answers a corrupt or foreign file with its pickle advice and an object array with "allow_pickle";
    neither says what is wrong with the file.
    """
    import zipfile

    if isinstance(exc, FileNotFoundError):
        return UsageError(f"{option} {path}: no such file")
    if Path(path).is_file() and not zipfile.is_zipfile(path):
        return UsageError(f"{option} {path}: not an .npz archive (numpy.savez); the file is corrupt or another format")
    if "Object arrays" in str(exc) or "pickle" in str(exc):
        return UsageError(f"{option} {path}: holds an object array; only numeric arrays are read (pickles are not)")
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return UsageError(f"{option} {path}: cannot be read as an .npz archive ({first})")


def add_backend_arguments(parser):
    """``--backend {local,dask}`` and ``--scheduler ADDRESS``; :func:`backend_from_args` applies them."""
    parser.add_argument(
        "--backend",
        choices=("local", "dask"),
        default="local",
        help="where parallel work runs: local processes (--jobs of them) or a dask.distributed "
        "cluster (needs the [dask] extra); results do not depend on it (default: local)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --backend dask: address of a running dask scheduler, e.g. tcp://host:8786 "
        "(default: a local cluster of --jobs worker processes); see docs/scaling.md",
    )


@contextlib.contextmanager
def backend_from_args(args):
    """Run the enclosed command on the backend its ``--backend``/``--scheduler`` ask for.

    A command without these options runs as before.  Bad combinations, a missing dask extra and an
    unreachable scheduler become :class:`~proofs_checks.commands.UsageError` (exit status 2).
    """
    backend = getattr(args, "backend", None)
    if backend is None:
        yield None
        return
    from ..parallel import use_backend

    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None and backend != "dask":
        raise UsageError(f"--scheduler {scheduler!r} needs --backend dask")
    jobs = getattr(args, "jobs", 1)
    jobs = default_jobs() if jobs is None else jobs
    stack = contextlib.ExitStack()
    try:  # bad --jobs is the command's own error, reported by it; the cluster gets one worker then
        client = stack.enter_context(use_backend(backend, scheduler, jobs if isinstance(jobs, int) and jobs > 0 else 1))
    except (ImportError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    with stack:
        yield client
