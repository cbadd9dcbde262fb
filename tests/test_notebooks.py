"""Every notebook in notebooks/ runs top to bottom, quickly, without warnings, and says what it prints.

The notebooks are kept as jupytext "percent" scripts (reviewable diffs, no stored outputs);
this test turns each into a notebook with jupytext and executes it with nbclient in a fresh
kernel, from the repository root. Each number a notebook's prose quotes is then read back from
the executed outputs (:data:`QUOTES`): the prose must agree with the outputs to the digits it quotes.
"""

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9]*.py"))
#: Per notebook. Measured on a loaded 2-core machine: 4-18 s each (06 the slowest, 02 about 11 s); the margin
#: keeps a busy CI machine from failing a notebook that is merely slow.
TIME_LIMIT = 90

_NUMBER = r"([-+]?\d[\d.]*(?:e[-+]?\d+)?)"
_ROW = r"^\s+{a}\s+{b}\s+\S+\s+\S+\s+" + _NUMBER  # 02's table: a, b, mpmath, |expected_phi err|, |printed err|

#: Per notebook: (what the prose says, where the outputs say it); each a regular expression whose group is the
#: number. An output pattern given as ``("max", pattern)`` stands for the largest of all its matches.
QUOTES = {
    "01_audit_your_mechanism": [
        (r"on each of the " + _NUMBER + " pairs", r"neighbouring pairs in the domain: " + _NUMBER),
        (r"`epsilon_lower` is " + _NUMBER + ", twice the claim", r"^refuted - largest privacy loss found: " + _NUMBER),
        (r"finds a largest privacy loss of " + _NUMBER + ", the claim", r"^not refuted - .* found: " + _NUMBER),
    ],
    "02_check_a_formula_and_a_port": [
        (r"within " + _NUMBER + " of mpmath at `a = 30`", _ROW.format(a="30", b=r"0\.001")),
        (_NUMBER + r" at `a = 300`", _ROW.format(a="300", b=r"0\.001")),
        (_NUMBER + r" at `a = 3000`", _ROW.format(a="3000", b="1")),
        (_NUMBER + r" at `a = 1e5`", _ROW.format(a="100000", b="1")),
        (r"its relative error is " + _NUMBER, _ROW.format(a=r"1e\+06", b="1") + r"\s+" + _NUMBER),
        (r"`expected_phi` stays within " + _NUMBER, ("max", r"^\s+\S+\s+\S+\s+[-+]\d\.\d+\s+" + _NUMBER)),
    ],
    "03_paper_000_printed_weight": [
        (r"reaches " + _NUMBER + " times the claimed epsilon", r"privacy loss / eps = " + _NUMBER),
        (r"within epsilon \(" + _NUMBER + " of it\\)", r"alg1\.privacy\.standard.*\n.*observed " + _NUMBER),
    ],
    "04_paper_002_c_hat_and_blind_walk": [
        (r"by " + _NUMBER + " at its worst point", r"identity5\.float64.*\n.*observed " + _NUMBER),
        (r"by a factor of up to " + _NUMBER, r"alg1-noise-shrinks.*\n.*observed " + _NUMBER),
    ],
    "07_gray_box_audit": [
        (r"moved by " + _NUMBER + " times the sensitivity", r"^sensitivity ratio = " + _NUMBER),
        (r"a `delta` of at least " + _NUMBER, r"^delta_pair lower bound = " + _NUMBER),
        (r"by exactly its declared sensitivity \(ratio " + _NUMBER, r"declared sensitivity: " + _NUMBER + r" \(row"),
    ],
}


def _agrees(quoted, value):
    """``value`` printed to as many significant digits as ``quoted`` reads as ``quoted``."""
    mantissa = quoted.lower().split("e")[0].lstrip("+-").replace(".", "").lstrip("0") or "0"
    digits = max(len(mantissa), 1)
    return float(f"{value:.{digits}g}") == float(quoted)


def _markdown(nb):
    return "\n".join(" ".join(c.source.split()) for c in nb.cells if c.cell_type == "markdown")


def _stdout(nb):
    return "".join(
        o.get("text", "")
        for c in nb.cells
        for o in c.get("outputs", [])
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )


def _number_in_output(text, pattern):
    if isinstance(pattern, tuple):
        _, pattern = pattern
        found = [float(m) for m in re.findall(pattern, text, re.M)]
        assert found, pattern
        return max(found)
    match = re.search(pattern, text, re.M)
    assert match, f"no output matches {pattern!r}"
    return float(match.groups()[-1])


def test_notebooks_exist():
    assert len(NOTEBOOKS) >= 6
    assert set(QUOTES) <= {p.stem for p in NOTEBOOKS}


def test_agrees_reads_quoted_digits():
    assert _agrees("1.6e-13", 1.5920598e-13) and _agrees("2", 1.9999999999999987) and _agrees("0.0053", 0.005309)
    assert not _agrees("1.6e-13", 1.7e-13) and not _agrees("0.49993", 0.49990)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_says_what_it_prints(path, monkeypatch):
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    # one numba thread in the kernel, as in the test processes (tests/conftest.py says why)
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    nb = jupytext.read(path)
    start = time.perf_counter()
    nbclient.NotebookClient(
        nb, timeout=TIME_LIMIT, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}
    ).execute()
    seconds = time.perf_counter() - start
    assert seconds < TIME_LIMIT, f"{path.name} took {seconds:.0f} s"
    outputs = [o for c in nb.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    stderr = [o.get("text", "") for o in outputs if o.get("output_type") == "stream" and o.get("name") == "stderr"]
    assert not stderr, f"{path.name} wrote to stderr (a warning?): {stderr}"
    prose, printed = _markdown(nb), _stdout(nb)
    for said, shown in QUOTES.get(path.stem, []):
        quoted = re.search(said, prose)
        assert quoted, f"{path.name}: the prose no longer says {said!r}"
        value = _number_in_output(printed, shown)
        assert _agrees(quoted.group(1), value), f"{path.name}: the prose says {quoted.group(1)}, the output {value}"


def test_jupytext_executes_a_notebook_from_the_command_line(tmp_path):
    """The README's way to open a notebook: ``jupytext --to ipynb --execute`` (needs nbconvert)."""
    pytest.importorskip("jupytext")
    pytest.importorskip("nbconvert")
    out = tmp_path / "01.ipynb"
    command = [sys.executable, "-m", "jupytext", "--to", "ipynb", "--execute", "-o", str(out), str(NOTEBOOKS[0])]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=TIME_LIMIT)
    assert '"output_type": "stream"' in out.read_text()
