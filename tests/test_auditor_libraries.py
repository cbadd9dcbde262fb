"""Third-party DP libraries audited unchanged as black boxes (proofs_checks/audit/libraries): not refuted at the
library's own claim, refuted at half of it.  Each test skips with a reason when its library is absent (diffprivlib is
in the ``thirdparty`` extra; OpenDP and python-dp are optional: ``pip install opendp python-dp``).

OpenDP and python-dp draw from their own secure sources, so their audits run with ``allow_unseeded=True`` and are not
reproducible; the margins are wide (the bound at the claim is about 0.93 of it, the halved claim is 0.5 of it), so
the verdicts do not depend on the draw in practice.
"""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.audit import audit
from proofs_checks.audit.claim_audit import audit_claim
from proofs_checks.audit.libraries import available, counting_pair, counting_query


def _skip_without(library):
    from proofs_checks.audit.libraries import LIBRARIES

    if not available(library):
        pytest.skip(f"{LIBRARIES[library]} is not installed (optional; see docs/auditor.md, real libraries)")


def _dp_verdicts(mech, samples, seeded):
    eps = mech.claim["epsilon"]
    kw = dict(delta=0.0, pairs=[mech.pair()], samples=samples, seed=0, method="statistical", progress=False)
    if not seeded:
        kw["allow_unseeded"] = True
    at_claim = audit(mech, epsilon=eps, **kw)
    at_half = audit(mech, epsilon=eps / 2, **kw)
    return at_claim, at_half


def test_counting_query_and_pair():
    D, Dp = counting_pair()
    assert counting_query(Dp) - counting_query(D) == 1.0
    with pytest.raises(ValueError, match="library"):
        available("numpy")


def test_diffprivlib_laplace_epsilon_claim():
    _skip_without("diffprivlib")
    from proofs_checks.audit.libraries.diffprivlib import DiffprivlibCount

    at_claim, at_half = _dp_verdicts(DiffprivlibCount("laplace", 1.0), 10_000, seeded=True)
    assert at_claim.verdict == "not refuted" and at_half.verdict == "refuted"
    assert 0.5 < at_half.epsilon_lower <= 1.0


def test_diffprivlib_is_seeded_through_rng():
    _skip_without("diffprivlib")
    from proofs_checks.audit.libraries.diffprivlib import DiffprivlibCount

    m = DiffprivlibCount("laplace", 1.0)
    D, _ = m.pair()
    a, b = m.sample(D, 5, np.random.default_rng(1)), m.sample(D, 5, np.random.default_rng(1))
    assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="delta"):
        DiffprivlibCount("laplace", 1.0, delta=1e-5)


def test_diffprivlib_gaussian_analytic_gdp_claim():
    _skip_without("diffprivlib")
    from proofs_checks.audit.gdp import gdp_delta
    from proofs_checks.audit.libraries.diffprivlib import DiffprivlibCount

    g = DiffprivlibCount("gaussian-analytic", 1.0, 1e-5)
    mu = g.claim["mu"]
    assert gdp_delta([1.0], mu)[0] == pytest.approx(1e-5, rel=1e-9)
    assert audit_claim(g, f"gdp:{mu}", g.pair(), samples=40_000, seed=0).verdict == "not refuted"
    assert audit_claim(g, f"gdp:{mu / 2}", g.pair(), samples=40_000, seed=0).verdict == "refuted"


def test_opendp_laplace_epsilon_claim():
    _skip_without("opendp")
    from proofs_checks.audit.libraries.opendp import OpenDPCount

    m = OpenDPCount("laplace", 1.0)
    assert m.claim == {"epsilon": 1.0, "delta": 0.0}
    at_claim, at_half = _dp_verdicts(m, 10_000, seeded=False)
    assert at_claim.verdict == "not refuted" and at_half.verdict == "refuted"


@pytest.mark.slow
def test_opendp_gaussian_zcdp_claim():
    _skip_without("opendp")
    from proofs_checks.audit.libraries.opendp import OpenDPCount

    m = OpenDPCount("gaussian", 1.0)
    rho = m.claim["rho"]
    assert rho == pytest.approx(0.5)
    assert audit_claim(m, f"zcdp:{rho}", m.pair(), samples=40_000, seed=0).verdict == "not refuted"
    assert audit_claim(m, f"zcdp:{rho / 2}", m.pair(), samples=40_000, seed=0).verdict == "refuted"


def test_python_dp_bounded_sum_epsilon_claim():
    _skip_without("python_dp")
    from proofs_checks.audit.libraries.python_dp import PyDPBoundedSum

    at_claim, at_half = _dp_verdicts(PyDPBoundedSum(1.0), 10_000, seeded=False)
    assert at_claim.verdict == "not refuted" and at_half.verdict == "refuted"
