"""[004 Thm. E] judged by its rate: Boosting's output within ``O~(n^(-1/2))`` of the best model.

The theorem (re-derived from [004 App. E]; the proof is not in the fragment) bounds, w.p. ``>= 1 - beta`` and
for ``n >= n_0 = 16 gamma^2 log^8(4/beta) H~ / Y^2``, the excess risk ``L(w_{i*}; D) - L(w*; D)`` of the
output by ``O~(err(n/(4 log(4/beta)), eps/2, gamma) + 2 Delta/(n eps) + 2 Delta'/n + 32 gamma~ sqrt(H~)
Y/sqrt(n) + 16 Y/sqrt(n) + 128 H~ gamma^2/n)``.  Readings (all in the claim's ``reading``):

* **what is bounded.**  As printed (reading A), the output against ``w*`` with the base learner's *expected*
  excess ``err`` on a chunk; the confidence-boosting step of the proof (reading B, the claim's statement)
  puts the output within the remaining terms of the *best of the m models*, ``min_i excess(w_i)``.  B implies
  A up to the Markov step that turns ``err`` into ``min_i`` (w.p. ``1 - 2^(-m)``, one model within ``2 err``);
  a design whose ``err`` is a constant makes A say ``O~(1)`` only, so the rate is judged under B.
* **the n-dependence.**  The leading terms are ``32 gamma~ sqrt(H~) Y/sqrt(n) + 16 Y/sqrt(n)`` (the garbled
  ``32γ~H\\yboundn`` and ``16\\yboundn`` read as ``/sqrt(n)``, as the ``U``, ``V`` terms of the lemma after
  the theorem are); only ``2 Delta/(n eps)`` carries ``n eps``; ``2 Delta'/n`` and ``128 H~ gamma^2/n`` are
  lower order.  At fixed ``eps`` the stated exponent in ``n`` is ``1/2``.  The ``/sqrt(n)`` reading follows the
  lemma after the theorem (``sqrt(n)`` in its ``T``, ``U``, ``V``); the box's Laplace scale
  ``sigma~ ~ (n eps)^(-1/2)`` agrees but does not decide it (the theorem's ``2 Delta/(n eps)`` is the error of a
  scale ``~ Delta/(n eps)``).
* **what the confirmation covers.**  Reading B is the project's reconstruction of the selection step; the
  fragment has no proof, so a refutation under B would not refute the theorem as printed.  The printed
  ``sigma~`` is in the units of ``Y`` while the scores are in those of ``Y^2`` (finding
  ``004.boosting-printed-scale``): on this design the selection at the printed scale is about 3300-DP at
  n = 260 and 206-DP at n = 66560, so the check confirms the utility of the printed, not privately calibrated,
  selection; a selection calibrated to eps is near-uniform here and would be refuted.
* **O~.**  Constants, ``log(1/beta)`` and ``log m`` are hidden: the check judges the exponent (as 000's and
  002's rate claims do), never the level; the explicit terms with constant 1 are kept as evidence.
* **n >= n_0.**  Every grid point is above ``n_0`` (computed at ``beta = 0.2 - 2^(-12)``, ``gamma`` of the
  design); ``gamma~`` of ``sigma~`` and ``gamma`` of ``n_0`` are taken equal.

Design (:mod:`proofs_checks.rates.trials_arora`): a data-independent (``0``-DP) base learner whose models are
good (excess ``U(0, b_n)``, ``b_n = 2Y/sqrt(n eps)``) or stale (excess log-uniform on ``[b_min/2, 2 b_min]``,
fixed in ``n``), w.p. 1/2 each, ``m = 12`` (``4 log(4/beta) = 11.98``; ``m = 12`` is within the O~).  The 0.8 quantile of the
output's excess is what the selection's resolution makes it: the stale models are rejected only as fast as
``sigma~`` shrinks.  Under B, ``excess(w_out) <= min_i excess(w_i) + C n^(-1/2)`` and ``min_i excess(w_i) <=
b_n`` unless no model is good (``2^(-12)``), so the 0.8 quantile is ``O~(n^(-1/2))``.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from ...model import Claim, Mutant, Result
from ...rates.check import make_rate_check
from ...rates.trials_arora import BoostingRateSetup, boosting_design, trial_boosting_excess
from ._common import with_power
from .boosting_rate_explicit import EXPLICIT_TERMS, explicit_terms_rows

__all__ = [
    "CLAIM_ID",
    "SETUP",
    "GRIDS",
    "REPETITIONS",
    "STATED_EXPONENT",
    "MUTANTS",
    "POWER_NOTE",
    "boosting_rate_check",
    "design_rows",
    "register",
]

CLAIM_ID = "arora.boosting.excess-risk"

SETUP = BoostingRateSetup()

#: ``n = 260 * 2^k``: k = 0..6 (260 to 16640) at quick, 0..8 (to 66560) at full; all above ``n_0`` = 45.
GRIDS = {
    "quick": [{"n": SETUP.n_min * 2**k} for k in range(7)],
    "full": [{"n": SETUP.n_min * 2**k} for k in range(9)],
}
REPETITIONS = {"quick": 64, "full": 192}

#: The exponent in ``n`` of the leading terms ``32 gamma~ sqrt(H~) Y/sqrt(n) + 16 Y/sqrt(n)``.
STATED_EXPONENT = 0.5

#: The judged quantile is ``1 - beta`` with ``beta = 0.2``.
BETA = 0.2

_READING = (
    "[004 Thm. E], reading B (the claim's statement): w.p. >= 1 - beta = 0.8 the output's excess risk is within "
    f"O~({EXPLICIT_TERMS}) of the best of the m models; leading terms 32 gamma~ sqrt(H~) Y/sqrt(n) + 16 Y/sqrt(n) "
    "(the garbled '32γ~H\\yboundn', '16\\yboundn' read /sqrt(n), as the lemma's U, V terms; the box's Laplace "
    "scale sigma~ ~ (n eps)^(-1/2) agrees but does not decide it), so the stated exponent in n at fixed "
    "eps = 1 is 1/2; only 2 Delta/(n eps) carries n eps.  Reading A (as printed: against the base learner's "
    "expected excess err(n/(4 log(4/beta)), eps/2, gamma)) says only O~(1) on this design (err is a constant: "
    "the stale models) and is not judged here; B implies A up to the Markov step.  O~ hides constants and "
    "logs: the exponent of the 0.8 quantile is judged, never the level; the explicit terms with O~ constant 1 "
    "are evidence (vacuous: above the largest excess any output can reach).  n >= n_0 at every grid point "
    "(gamma~ = gamma).  Design: 0-DP base learner, good models excess U(0, 2Y/sqrt(n)), stale ones log-uniform "
    "on [b_min/2, 2 b_min] fixed in n, m = 12, Y = 4000, printed sigma~ (Laplace scale sigma~; in the units of Y "
    "against scores in those of Y^2, so the selection is about 206- to 3300-DP here: the confirmation covers the "
    "utility of the printed selection, and reading B is the project's reconstruction, not the paper's text).  A "
    "refutation by this check counts against Theorem E only if it persists at full: the printed sigma~ x4, inside "
    "the O~, is refuted at quick on 4 of 5 seeds and confirmed at full"
)


def design_rows(profile, setup=SETUP):
    """Per grid point: ``sigma~``, the Laplace scale used, ``b_n``, the explicit terms and ``n_0``.

    Parameters
    ----------
    profile : {"quick", "full"}
    setup : BoostingRateSetup

    Returns
    -------
    list of dict
        One row per ``n``; ``vacuous`` is ``explicit_terms >= largest_excess`` (the largest excess any output
        of the algorithm can reach on this design, ``2 b_min``).

    Examples
    --------
    >>> rows = design_rows("quick")
    >>> len(rows), all(r["vacuous"] and r["n"] >= r["n0"] for r in rows)
    (7, True)
    """
    rows = []
    for point in GRIDS[profile]:
        des = boosting_design(point["n"], setup)
        rows.append(
            {
                "n": point["n"],
                "sigma_tilde": des["sigma_tilde"],
                "laplace_scale": des["laplace_scale"],
                "good_scale": des["good_scale"],
                "largest_excess": des["largest_excess"],
                "explicit_terms": des["explicit_terms"],
                "explicit_over_largest_excess": des["explicit_terms"] / des["largest_excess"],
                "vacuous": bool(des["explicit_terms"] >= des["largest_excess"]),
                "gamma": des["gamma"],
                "n0": des["n0"],
            }
        )
    return rows


def boosting_rate_check(setup=SETUP):
    """The rate check of ``arora.boosting.excess-risk``: the 0.8 quantile's exponent in ``n`` against 1/2.

    Parameters
    ----------
    setup : BoostingRateSetup
        The stated algorithm (default) or a mutant (``broken``).

    Returns
    -------
    callable
        ``check(ctx) -> Result`` (``rate_fit`` evidence, with ``design_rows``, the explicit terms on this design
        and, in ``level_test``, the explicit terms on the output-perturbation design of the former check).

    References
    ----------
    .. [1] [004 Thm. E], [004 App. E].
    """
    inner = make_rate_check(
        None,
        functools.partial(trial_boosting_excess, setup=setup),
        GRIDS,
        _n_of,
        STATED_EXPONENT,
        repetitions=REPETITIONS,
        zeta=BETA,
        xlabel="n",
        reading=_READING,
    )

    def check(ctx):
        res = inner(ctx)
        rows = design_rows(ctx.profile, setup)
        q = res.evidence["quantile_errors"]
        explicit = explicit_terms_rows(ctx.rng("explicit-terms"), ctx.profile)
        evidence = {
            **res.evidence,
            "design_rows": rows,
            "explicit_bound": f"[004 Thm. E] {EXPLICIT_TERMS}, O~ constant 1, Delta = (rho X + Y)^2; vacuous at "
            "every n of this design (above the largest excess any output can reach, 2 b_min)",
            "ratio_to_explicit_bound": [float(v) / r["explicit_terms"] for v, r in zip(q, rows)],
            "measurement": "exact excess risk s ||w_out - w*||^2 of the output (squared loss, E x x^T = s I); "
            "one fresh validation chunk S_{m+1} per run (the 0-DP learner ignores its chunks: zeros stand in)",
            "departure": "the base learner is a 0-DP, data-independent law (the theorem allows any learner meeting "
            "its four conditions); Y = 4000 so that n_0 = 45 < 260; m = 12",
            "level_test": [explicit],
            "level_method": "the former check, kept as evidence: [004 Thm. E]'s explicit terms with O~ constant 1 "
            "on output perturbation (m = 4); 'vacuous' where they exceed the largest spread "
            "max_i excess(w_i) - min_i excess(w_i) of any run (no selection among the models could break them)",
            "broken": setup.broken if setup.broken != "scale" else f"scale x{setup.scale_factor:g}",
        }
        return Result(
            res.verdict,
            observed=res.observed,
            bound=res.bound,
            direction=res.direction,
            method=res.method,
            reading=res.reading,
            evidence=evidence,
            figures=res.figures,
            evidence_kind=res.evidence_kind,
        )

    return check


def _n_of(point):
    return float(point["n"])


_SCALE_PROOF = (
    "a constant factor on the Laplace scale is inside the O~: report-noisy-max with scale c b selects a model "
    "within 2 c b log(m/beta) of the best score w.p. 1 - beta (the Laplace tail), c times the selection term at "
    "scale b, so the exponent 1/2 in n is kept and only the hidden constant grows; measured at quick (seeds of "
    "--seeds 5) the x2 mutant is confirmed on every seed"
)

#: What the mutants show the check catches and misses (the evidence's ``power``).
POWER_NOTE = (
    "refutes a selection that ignores S_{m+1} and Laplace noise that does not shrink with n (all 5 seeds of "
    "--seeds 5); Laplace x2 is confirmed (not a violation: inside the O~); a x4 scale, also inside the O~, is "
    "refuted at quick on 4 of 5 seeds (the x64 grid ends before a x4 noise rejects the stale models) and "
    "confirmed at full (x256 grid): at quick the check confirms the printed sigma~ up to about a factor 2"
)

#: Mutant name -> (setup, label).  Measured numbers: docs/rates.md, section "004 (Arora et al.)".
MUTANTS = {
    "selection ignores the validation data (uniform i*)": (replace(SETUP, broken="uniform-selection"), {}),
    "Laplace noise that does not shrink with n (scale of n = 260)": (replace(SETUP, broken="fixed-noise"), {}),
    "Laplace scale x2": (replace(SETUP, broken="scale", scale_factor=2.0), {"not_a_violation": _SCALE_PROOF}),
}


def register(registry):
    """Register ``arora.boosting.excess-risk`` with the mutants of :data:`MUTANTS`."""
    registry.add_claim(
        Claim(
            CLAIM_ID,
            "[004 Thm. E]",
            "Reading B of [004 Thm. E] (the project's reconstruction of its selection step; as printed the theorem "
            "bounds the excess by err(...) plus these terms): w.p. >= 1-beta the boosted output's excess exceeds "
            "the best model's by O~(n^(-1/2)) at fixed eps.",
            "rate",
            with_power(boosting_rate_check(), POWER_NOTE),
            algorithm="arora-boosting",
            variant="printed",
            mutants=tuple(Mutant(name, boosting_rate_check(s), **label) for name, (s, label) in MUTANTS.items()),
        )
    )
