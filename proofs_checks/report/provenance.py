"""Where a report comes from: enough to rerun it (version, commit, libraries, command line, seed)."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

__all__ = ["LIBRARIES", "provenance"]

#: The run-time dependencies of pyproject.toml whose versions can change a number in the report.
LIBRARIES = ("numpy", "scipy", "mpmath", "statsmodels", "joblib", "matplotlib", "jinja2", "tqdm")

_REPO = Path(__file__).resolve().parents[2]


def _git(*args):
    try:
        out = subprocess.run(["git", "-C", str(_REPO), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _library_versions():
    from importlib import metadata

    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def _package_version():
    from importlib import metadata

    try:
        return metadata.version("heavytail-dp-reference")
    except metadata.PackageNotFoundError:
        from .. import __version__

        return __version__


def provenance(*, command, seed, profile, wall_seconds=None, generated=None):
    """The provenance block of a report.

    ``commit`` is ``None`` outside a git checkout; ``clean`` says whether tracked files differ
    from it (untracked files, such as a report folder inside the tree, do not count).
    ``wall_seconds`` and ``generated`` are left out (``None``) by ``--no-timings`` so that two
    runs diff clean.
    """
    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain", "--untracked-files=no") if commit else None
    return {
        "package": "heavytail-dp-reference",
        "version": _package_version(),
        "commit": commit,
        "clean": None if status is None else status == "",
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "libraries": _library_versions(),
        "command": list(command) if command is not None else list(sys.argv),
        "seed": seed,
        "profile": profile,
        "wall_seconds": None if wall_seconds is None else round(float(wall_seconds), 2),
        "generated": generated,
    }
