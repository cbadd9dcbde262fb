"""The API reference site (docs/api) builds with Sphinx and numpydoc, warnings as errors.

Marked ``docs`` (excluded from the default run, about a minute); ``.ci/run`` runs ``pytest -m docs``
after installing the ``docs`` extra.
"""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.docs


def test_api_site_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("numpydoc")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs/api", str(tmp_path)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    pages = {p.name for p in (tmp_path / "generated").glob("*.html")}
    # the public entry points each have their page
    for module in (
        "reference.mechanisms.exponential",
        "reference.hu.catoni",
        "proofs_checks.audit.api",
        "proofs_checks.conform.kit",
        "proofs_checks.report.overview",
        "proofs_checks.evidence",
    ):
        assert f"{module}.html" in pages, module
    catoni = (tmp_path / "generated" / "reference.hu.catoni.html").read_text(encoding="utf-8")
    assert "expected_phi" in catoni and "Parameters" in catoni
