"""Helpers shared by the sub-commands: the output folder check, the seed and jobs types."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from . import UsageError

__all__ = ["non_negative_int", "positive_int", "usable_out_dir"]


def positive_int(text):
    """argparse type: an integer >= 1 (``--jobs``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


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
