"""Golden cases of the smoothed Catoni estimator [002 eq. (2)]-(5), [002 App. A], [002 Alg. 1 step 4]."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np

from reference.hu import catoni

from ..formulas import catoni as F
from . import catoni_mp
from .cases import case
from .independent import mp_keywords

__all__ = ["SUBJECT", "DESCRIPTION", "REFERENCE_PRECISION", "stress_grid", "build"]

SUBJECT = "catoni"
DESCRIPTION = (
    "phi [002 eq. (2)], E[phi(a+bZ)] [002 eq. (4)-(5)] with mpmath reference values, the printed "
    "C-hat [002 App. A], robust_mean [002 eq. (4)] and robust_gradient [002 Alg. 1 step 4], "
    "variants printed and standard, on stress grids"
)
REFERENCE_PRECISION = (
    "float64 reference; every case also carries an independent mp_reference: E[phi] by identity [002 eq. (5)] "
    f"at adaptive precision, 36 significant digits (proofs_checks.formulas.catoni, DPS={F.DPS}; checked against "
    "split quadrature by claim catoni.identity5.math), phi, C-hat and the robust means in mpmath "
    "(proofs_checks/golden/catoni_mp.py)"
)

#: Provenance of the E[phi] values.
_EPHI_PROVENANCE = (
    "mpmath: identity [002 eq. (5)] with the printed C-hat at adaptive precision, 36 digits "
    "(proofs_checks/formulas/catoni_points.py, method closed; checked against split quadrature by the claim "
    "catoni.identity5.math)"
)

_MAGS_A = [0.0, 5e-324, 1e-300, 1e-100, 1e-8, 0.5, 1.0, math.sqrt(2.0), 1.5, 3.0, 10.0, 1e8, 1e100, 1e300]
_MAGS_B = [0.0, 5e-324, 1e-300, 1e-100, 1e-8, 0.1, 0.5, 1.0, 2.0, 10.0, 1e8, 1e100, 1e300]


def stress_grid():
    """``a`` in +-{0, subnormal, ..., 1e300} times ``b`` in {0, subnormal, ..., 1e300} (flattened)."""
    a_vals = np.array(sorted(set(_MAGS_A) | {-x for x in _MAGS_A if x}))
    a, b = np.meshgrid(a_vals, np.array(_MAGS_B), indexing="ij")
    return a.ravel(), b.ravel()


def _mp_strings(vals):
    return [mp.nstr(v, 30, min_fixed=1, max_fixed=0) for v in vals]


def build(seed):
    rng = np.random.default_rng(seed)
    cases = []
    r2 = math.sqrt(2.0)
    x = np.array(
        [
            0.0,
            5e-324,
            1e-300,
            1e-8,
            0.5,
            1.0,
            r2,
            np.nextafter(r2, 0),
            np.nextafter(r2, 3),
            1.5,
            10.0,
            1e300,
            1.7976931348623157e308,
        ]
    )
    x = np.concatenate([x, -x[1:]])
    cases.append(case("phi/stress", "phi", [x], catoni.phi(x), **mp_keywords(catoni_mp.phi(x), catoni_mp.PROVENANCE)))

    a, b = stress_grid()
    cases.append(
        case(
            "expected_phi/stress",
            "expected_phi",
            [a, b],
            catoni.expected_phi(a, b),
            mp_reference=_mp_strings(F.reference_values(a, b, method="closed")),
            mp_provenance=_EPHI_PROVENANCE,
        )
    )
    ar = rng.uniform(-4.0, 4.0, 60)
    # log-uniform-like over [2^-10, 2^5] from IEEE operations only (np.exp's last bit depends on the CPU, and so
    # would every case built on these inputs: docs/reproducibility.md)
    br = np.ldexp(1.0 + rng.uniform(0.0, 1.0, 60), rng.integers(-10, 5, 60))
    cases.append(
        case(
            "expected_phi/moderate",
            "expected_phi",
            [ar, br],
            catoni.expected_phi(ar, br),
            mp_reference=_mp_strings(F.reference_values(ar, br, method="closed")),
            mp_provenance=_EPHI_PROVENANCE,
        )
    )

    cases.append(
        case(
            "c_hat/stress",
            "c_hat",
            [a, b],
            catoni.c_hat(a, b),
            note="non-finite expected values (b = 0, overflow) are not compared",
            **mp_keywords(catoni_mp.c_hat(a, b), catoni_mp.PROVENANCE),
        )
    )
    cases.append(
        case(
            "c_hat/moderate",
            "c_hat",
            [ar, br],
            catoni.c_hat(ar, br),
            **mp_keywords(catoni_mp.c_hat(ar, br), catoni_mp.PROVENANCE),
        )
    )

    xs = rng.standard_t(2.0, size=24) * 3.0
    xs[:3] = [0.0, 1e300, -1e-300]
    xm = rng.standard_t(2.0, size=(16, 3))
    for s, beta in [(1.0, 0.5), (10.0, 2.0)]:
        cases.append(
            case(
                f"robust_mean/standard/s={s:g},beta={beta:g}",
                "robust_mean",
                [xs, s, beta],
                catoni.robust_mean(xs, s, beta, variant="standard"),
                kwargs={"variant": "standard"},
                **mp_keywords(catoni_mp.robust_mean(xs, s, beta), catoni_mp.PROVENANCE),
            )
        )
        cases.append(
            case(
                f"robust_mean/printed/s={s:g},beta={beta:g}",
                "robust_mean",
                [xm, s, beta],
                catoni.robust_mean(xm, s, beta, variant="printed", axis=0),
                kwargs={"variant": "printed", "axis": 0},
                **mp_keywords(catoni_mp.robust_mean(xm, s, beta), catoni_mp.PROVENANCE),
            )
        )
    G = rng.standard_t(2.5, size=(12, 4)) * 2.0
    Gz = G.copy()
    Gz[0, 0], Gz[1, 1], Gz[2, 2] = 0.0, 1e200, -1e-300
    for s, beta in [(2.0, 4.0), (5.0, 0.25)]:
        cases.append(
            case(
                f"robust_gradient/standard/s={s:g},beta={beta:g}",
                "robust_gradient",
                [Gz, s, beta],
                catoni.robust_gradient(Gz, s, beta, variant="standard"),
                kwargs={"variant": "standard"},
                **mp_keywords(catoni_mp.robust_mean(Gz, s, beta), catoni_mp.PROVENANCE),
            )
        )
        cases.append(
            case(
                f"robust_gradient/printed/s={s:g},beta={beta:g}",
                "robust_gradient",
                [G, s, beta],
                catoni.robust_gradient(G, s, beta, variant="printed"),
                kwargs={"variant": "printed"},
                **mp_keywords(catoni_mp.robust_mean(G, s, beta), catoni_mp.PROVENANCE),
            )
        )
    return cases
