"""Units checks of 004's privacy statement and explicit bounds: rescale by ``k`` and compare.

Two rescalings leave the squared-loss problem the same problem in other units:

* ``"labels"``: labels, the radius ``B``, the model and the learner's noise ``sigma`` times ``k``, features fixed;
* ``"records"``: features and labels times ``k``, model, ``B`` and ``sigma`` fixed.

Under both every loss value is multiplied by ``k^2``.  A bound on a loss must then scale like ``k^2``
(exponent 2), a privacy loss must not change, and a sample size (``n0``) must not change either.

Claims: Boosting's privacy at the printed ``sigma~`` [004 Thm. E] (exact law, not invariant: refuted), the two
``Delta(B)`` of [004 Lemma D.4] (scale like the loss: confirmed) and the validation penalty ``tau_j`` of
[004 Alg. 1] / [004 App. D.2], which adds ``sqrt(4 Y^2 log(4K/beta)/n)``, a quantity in the units of ``Y``, to
losses in the units of ``Y^2`` (refuted; the same term sits in the bound of [004 Thm. 1]).
"""

from __future__ import annotations

import math

from reference.arora.learners import delta_noisy_gd, delta_output_perturbation

from ...model import Claim, Mutant, Result
from .boosting_rescaled import rescaled_boosting_law

__all__ = ["scaling_exponent", "register"]

#: The unit factors the checks compare with ``k = 1`` (powers of 2 keep the rescaled inputs exact in float64).
FACTORS = (8.0, 1024.0)
#: Relative tolerance of an exponent or of a privacy loss computed through exp/log (docs/reproducibility.md).
RTOL = 1e-9


def scaling_exponent(f, k):
    """``log(f(k) / f(1)) / log k``: the power of ``k`` a positive quantity ``f`` scales with.

    Parameters
    ----------
    f : callable
        ``f(k)`` > 0, the quantity computed in units ``k``.
    k : float
        The unit factor, finite, > 0 and not 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``k`` is 1, not positive or not finite, or ``f`` is not positive at 1 or ``k``.

    References
    ----------
    [004 Lemma D.4], [004 App. D.2] (the bounds it is applied to).

    Examples
    --------
    >>> round(scaling_exponent(lambda k: 3 * k**2, 10.0), 12)
    2.0
    """
    if not (math.isfinite(k) and k > 0 and k != 1):
        raise ValueError(f"k must be finite, > 0 and not 1, got {k!r}")
    a, b = f(1.0), f(k)
    if not (a > 0 and b > 0):
        raise ValueError(f"f must be positive at 1 and at k = {k!r}, got {a!r} and {b!r}")
    return math.log(b / a) / math.log(k)


#: The Delta(B) bounds of [004 Lemma D.4] as functions of the units (B = 2, X = 1, Y = 3, sigma = 0.5, H = 2,
#: K = 4, delta = 1e-5, beta = 0.1, d = 3 at k = 1).
def _delta_bounds(variant, mutant):
    def noisy_gd(k, rescaling):
        B, X, Y = (2.0 * k, 1.0, 3.0 * k) if rescaling == "labels" else (2.0, k, 3.0 * k)
        if mutant:  # B X^2 for B^2 X^2: a bound not homogeneous in the model's units
            return Y * Y + 2.0 * B * X * X if variant == "printed" else 2 * Y * Y + 2.0 * B * X * X
        return delta_noisy_gd(B, X, Y, 2.0, variant)

    def output_perturbation(k, rescaling):
        B, X, Y, s = (2.0 * k, 1.0, 3.0 * k, 0.5 * k) if rescaling == "labels" else (2.0, k, 3.0 * k, 0.5)
        return delta_output_perturbation(B, X, Y, 2.0, s, 4, 1e-5, beta=0.1, dim=3, variant=variant)

    return {"noisy GD": noisy_gd, "output perturbation": output_perturbation}


def delta_units_check(variant="printed", mutant=False):
    """Both ``Delta(B)`` of [004 Lemma D.4] must scale like the loss (exponent 2) under both rescalings."""

    def check(ctx):
        rows, worst = [], 0.0
        for name, f in _delta_bounds(variant, mutant).items():
            for rescaling in ("labels", "records"):
                for k in FACTORS:
                    e = scaling_exponent(lambda u, f=f, r=rescaling: f(u, r), k)
                    rows.append({"bound": name, "rescaling": rescaling, "k": k, "exponent": e})
                    worst = max(worst, abs(e - 2.0))
        return Result(
            "refuted" if worst > RTOL else "confirmed",
            observed=worst,
            bound=RTOL,
            direction="at_most",
            method="exponent log(Delta(k)/Delta(1))/log k of the reference formulas at k = "
            f"{', '.join(f'{k:g}' for k in FACTORS)}, both rescalings",
            reading=f"[004 Lemma D.4] ({variant} Delta), [004 Assumption 1]: Delta(B) bounds a loss value, so it "
            "must scale like the loss (k^2) when labels, B, the model and sigma (or features and labels) are "
            "multiplied by k; H = 2 (squared loss, unit-free)",
            evidence={
                "rows": rows,
                "observed_is": "largest |exponent - 2|",
                "note": "mutant: B X^2 for B^2 X^2 in the noisy-GD Delta" if mutant else "the reference formulas",
            },
        )

    return check


def _tau(k, rescaling, unit_consistent=False):
    """``tau_j`` of [004 App. D.2] at ``B_j = 2``, ``K = 4``, ``beta = 0.1``, ``n = 1000`` in units ``k``."""
    B, X, Y = (2.0 * k, 1.0, 3.0 * k) if rescaling == "labels" else (2.0, k, 3.0 * k)
    lg = math.log(4 * 4 / 0.1)
    second = math.sqrt(4 * Y**4 * lg / 1000) if unit_consistent else math.sqrt(4 * Y * Y * lg / 1000)
    return delta_noisy_gd(B, X, Y, 2.0, "printed") * lg / 1000 + second


def penalty_units_check(unit_consistent=False):
    """``tau_j`` (added to ``L(w_j; S2)``) must scale like the loss (exponent 2)."""

    def check(ctx):
        rows, worst = [], 0.0
        for rescaling in ("labels", "records"):
            for k in FACTORS:
                e = scaling_exponent(lambda u, r=rescaling: _tau(u, r, unit_consistent), k)
                rows.append(
                    {
                        "rescaling": rescaling,
                        "k": k,
                        "exponent": e,
                        "tau_over_loss_scale": _tau(k, rescaling, unit_consistent)
                        / (k * k * _tau(1.0, rescaling, unit_consistent)),
                    }
                )
                worst = max(worst, abs(e - 2.0))
        return Result(
            "refuted" if worst > RTOL else "confirmed",
            observed=worst,
            bound=RTOL,
            direction="at_most",
            method="exponent of tau_j (reference Delta of noisy GD, printed) at k = "
            f"{', '.join(f'{k:g}' for k in FACTORS)}, both rescalings; B_j = 2, K = 4, beta = 0.1, n = 1000, "
            "X = 1, Y = 3 at k = 1",
            reading="[004 Alg. 1] L~_j = L(w_j; S2) + tau_j and [004 App. D.2] tau_j = Delta(B_j) log(4K/beta)/n + "
            "sqrt(4Y^2 log(4K/beta)/n): tau_j is added to a loss, so it must scale like k^2"
            + (" (the unit-consistent sqrt(4Y^4 log/n), not the paper's)" if unit_consistent else "")
            + "; the same sqrt(4Y^2 log/n) term appears in the excess-risk bound of [004 Thm. 1]",
            evidence={"rows": rows, "observed_is": "largest |exponent - 2|"},
        )

    return check


def boosting_units_check(scale_power=1.0, n=1280):
    """Boosting's exact-law epsilon at ``delta`` must not change when labels, ``B`` and model are times ``k``.

    ``scale_power``: the Laplace scale is the printed ``sigma~`` times ``k^(scale_power - 1)`` (1: the paper's,
    in the units of ``Y``; 2: in the units of ``Y^2``, a control that must be invariant)."""

    def check(ctx):
        base = rescaled_boosting_law(1.0, n)["epsilon_at_delta_lower"]
        rows = []
        for k in (10.0,) if ctx.profile == "quick" else (2.0, 10.0, 100.0):
            r = rescaled_boosting_law(k, n, 4, k ** (scale_power - 1.0))
            rows.append(
                {"k": k, "epsilon_at_delta_lower": r["epsilon_at_delta_lower"], "laplace_scale": r["laplace_scale"]}
            )
        worst = max(abs(r["epsilon_at_delta_lower"] - base) for r in rows)
        # the brackets are the same up to float rounding when the law is invariant: 1e-6 is far above it
        return Result(
            "refuted" if worst > 1e-6 else "confirmed",
            observed=worst,
            bound=1e-6,
            direction="at_most",
            method="guaranteed-bracket quadrature of the output law on the designed pair (boosting_law_bounds, "
            "5000 cells, 64 lattice steps per Laplace scale) at k = 1 and each k; epsilon at delta = 1e-5",
            reading=f"[004 Thm. E] privacy, n = {n}, m = 4, X = 1, Y = 3k, B = 2k; Laplace scale "
            + ("sigma~ as printed (units of Y)" if scale_power == 1.0 else "sigma~ x k (units of Y^2; not the paper's)")
            + "; the privacy loss of a mechanism must not depend on the units of its data",
            evidence={
                "rows": [{"k": 1.0, "epsilon_at_delta_lower": base}] + rows,
                "observed_is": "largest |eps(k) - eps(1)| at delta",
            },
            evidence_kind="formula",
        )

    return check


UNITS_NOTE = "a units check: rescale by k, compare the exponent (bounds) or the privacy loss (laws) with k = 1"


def register(registry):
    """Add the units checks of 004."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "arora.units.boosting-privacy",
        "[004 Thm. E] [004 App. E]",
        "Boosting's privacy at the printed sigma~ does not depend on the units of labels, radius and model.",
        "privacy",
        boosting_units_check(),
        algorithm="arora-boosting",
        variant="printed",
        mutants=(
            Mutant(
                "Laplace scale in the units of Y^2 (must be confirmed)",
                boosting_units_check(2.0),
                detected_by=("confirmed",),
            ),
        ),
    )
    for variant in ("printed", "standard"):
        claim(
            f"arora.units.lemma-d4{'' if variant == 'printed' else '.standard'}",
            "[004 Lemma D.4]",
            f"Both Delta(B) of Lemma D.4 ({variant}) scale like the loss (k^2) under a change of units.",
            "formula",
            delta_units_check(variant),
            variant=variant,
            scope="paper" if variant == "printed" else "reproduction",
            mutants=(Mutant("B X^2 for B^2 X^2 in the noisy-GD Delta", delta_units_check(variant, mutant=True)),),
        )
    claim(
        "arora.units.validation-penalty",
        "[004 Alg. 1] [004 App. D.2] [004 Thm. 1]",
        "The penalty tau_j added to the validation loss scales like the loss under a change of units.",
        "formula",
        penalty_units_check(),
        variant="printed",
        mutants=(
            Mutant("sqrt(4Y^4 log/n) (must be confirmed)", penalty_units_check(True), detected_by=("confirmed",)),
        ),
    )
