"""Claims of the DP building blocks: Laplace [002 Def. 2], Gaussian, the exponential mechanism
[000 Def. 2] [002 Def. 3], report-noisy-max [004 App. E], GEM [004 App. D.1] and the composition
split of [002 Lemma 2].

Each check is built by a factory whose arguments default to the mechanism as implemented in
:mod:`reference.mechanisms`; the tests pass deliberately broken variants (a wrong noise scale, a
wrong exponent) to show that every check can fail.
"""

from __future__ import annotations

from ...audit.primitive_mechanisms import PRIMITIVE_FACTORIES
from ...model import Algorithm, Claim, Mutant
from . import audit_records
from .composition import composition_split_check
from .noise import gaussian_calibration_check, laplace_printed_density_check, laplace_privacy_check
from .selection import exponential_privacy_check, gem_privacy_check, gem_utility_check, report_noisy_max_privacy_check

__all__ = [
    "exponential_privacy_check",
    "report_noisy_max_privacy_check",
    "gem_privacy_check",
    "gem_utility_check",
    "laplace_privacy_check",
    "laplace_printed_density_check",
    "gaussian_calibration_check",
    "composition_split_check",
    "register",
]

#: Where each primitive is stated: one tag per paper that uses it (Dwork & Roth for the two the papers cite).
SOURCES = {
    "laplace": "[002 Def. 2]",
    "gaussian": "Dwork & Roth 2014, Thm. 3.22",
    "exponential": "[000 Def. 2] [002 Def. 3]",
    "report-noisy-max": "[004 App. E]; Dwork & Roth 2014, Sec. 3.3",
    "gem": "[004 App. D.1]",
    "peeling": "[002 Alg. 4]",
    "advanced-composition": "[002 Lemma 2]",
}


#: (id, summary, variants) of each primitive; all but the composition split are auditable.
_ALGORITHMS = [
    ("laplace", "Laplace mechanism q(D) + Lap(Delta_1/eps)^d", None),
    ("gaussian", "Gaussian mechanism, classic calibration", None),
    ("exponential", "exponential mechanism, P[r] ∝ exp(eps u(D,r) / (2 Delta)), in log space", None),
    ("report-noisy-max", "argmax of scores plus i.i.d. Laplace noise", None),
    ("gem", "Generalized Exponential Mechanism (Raskhodnikova & Smith) over (sensitivity, score) pairs", None),
    ("peeling", "private top-s selection by repeated noisy max", None),
    ("advanced-composition", "per-round budget split for T mechanisms", ("printed", "standard")),
]


#: What the audit's power knob (the mechanism built for m x epsilon) scales in each primitive, by m ** exponent.
KNOBS = {
    "laplace": ("Laplace scale", -1.0),
    "gaussian": ("sigma", -1.0),
    "exponential": ("log-weight", 1.0),
    "report-noisy-max": ("Laplace scale", -1.0),
    "gem": ("log-weight", 1.0),
    "peeling": ("Laplace scale", -1.0),
}


def _claims():
    """(id, algorithm, statement, kind, check, variant) of the eight claims."""
    return [
        (
            "primitives.exponential.privacy",
            "exponential",
            "The exponential mechanism with weight exp(eps*u/(2*Delta)) is eps-DP.",
            "privacy",
            exponential_privacy_check(),
            None,
        ),
        (
            "primitives.laplace.privacy",
            "laplace",
            "The Laplace mechanism with scale Delta_1(q)/eps is eps-DP.",
            "privacy",
            laplace_privacy_check(),
            None,
        ),
        (
            "primitives.laplace.density-as-printed",
            "laplace",
            "Lap(lambda) has density exp(-x/lambda)/(2*lambda) (as printed).",
            "formula",
            laplace_printed_density_check(),
            "printed",
        ),
        (
            "primitives.gaussian.classic-calibration",
            "gaussian",
            "sigma = Delta_2*sqrt(2 log(1.25/delta))/eps gives (eps, delta)-DP for eps in (0, 1).",
            "privacy",
            gaussian_calibration_check(),
            None,
        ),
        (
            "primitives.report-noisy-max.privacy",
            "report-noisy-max",
            "Report-noisy-max with Laplace scale 2*Delta/eps is eps-DP for scores of sensitivity Delta.",
            "privacy",
            report_noisy_max_privacy_check(),
            None,
        ),
        (
            "primitives.gem.privacy",
            "gem",
            "GEM run with privacy parameter eps is eps-DP.",
            "privacy",
            gem_privacy_check(),
            None,
        ),
        (
            "primitives.gem.utility",
            "gem",
            "With probability >= 1-beta GEM outputs j with q_j <= min_j (q_j + 4 gamma_j log(N/beta)/eps).",
            "inequality",
            gem_utility_check(),
            None,
        ),
        (
            "primitives.composition.lemma2",
            "advanced-composition",
            "eps' = eps/(2 sqrt(2T ln(2/delta))), delta' = delta/T per round gives (eps, T delta' + delta)-DP "
            "over T rounds, for 0 < eps < 1.",
            "privacy",
            composition_split_check(),
            "printed",
        ),
    ]


def _split_dropping(factor):
    """The Lemma 2 split with its per-round epsilon scaled by ``factor`` (a dropped constant)."""
    from reference.mechanisms import advanced_composition_split

    def split(eps, delta, rounds):
        s = advanced_composition_split(eps, delta, rounds, "printed")
        return factor * s.epsilon_step, s.delta_step

    return split


#: Why Lemma 2's split with its per-round epsilon x1.25 is still within the lemma's claim (a mutant that is no
#: violation); the number is the check's own observed value on that mutant (quick and full grids alike),
#: recomputed in tests/test_power_reach_analytic.py.
_LEMMA2_X125_PROOF = (
    "no violation on the check's grid: Dwork & Roth Thm. 3.20 (advanced composition, a valid upper bound) gives the "
    "T rounds at 1.25 eps' a total of at most 0.6244 eps (worst at eps = 0.999, delta = 1e-9, T = 1) with the "
    "lemma's delta T delta' + delta, on all 1,120 (eps, delta, T) points of both profiles, so the x1.25 split is "
    "still (eps, T delta' + delta)-DP there; the x2 mutant's 1.083 is a bound of the same theorem above eps, which "
    "refutes the proof's route, not privacy (the exact composition of proofs.002.lemma2.* keeps it within)"
)


def _mutants():
    """The broken implementations each primitive's check must catch (its power)."""
    over = (0.5, 0.8)  # noise scale factors: both over-spend (0.5 is the 2x over-spend)
    noise = lambda name, fac, key, base=1.0: tuple(  # noqa: E731 - one line per mutant family
        Mutant(f"{name} x{f:g}" + (" (2x over-spend)" if f == 0.5 else ""), fac(**{key: base * f}), factor=f)
        for f in over
    )
    return {
        # the exponent's 1/2 scaled by 1/f: f = 0.5 is eps u / Delta (the weight of a dropped factor 2)
        "primitives.exponential.privacy": tuple(
            Mutant(
                f"noise scale x{f:g}" + (" (drops the factor 2 of 2 Delta)" if f == 0.5 else ""),
                exponential_privacy_check(weight_factor=0.5 / f),
                factor=f,
            )
            for f in over
        ),
        "primitives.laplace.privacy": noise("Laplace scale", laplace_privacy_check, "scale_factor"),
        "primitives.gaussian.classic-calibration": noise("sigma", gaussian_calibration_check, "sigma_factor"),
        "primitives.report-noisy-max.privacy": noise(
            "Laplace scale", report_noisy_max_privacy_check, "scale_factor", 2.0
        )
        + (
            Mutant(
                "Laplace scale Delta/eps (drops the factor 2 for non-monotone scores)",
                report_noisy_max_privacy_check(scale_factor=1.0),
            ),
        ),
        "primitives.gem.privacy": tuple(
            Mutant(
                f"noise scale x{f:g}" + (" (2x over-spend)" if f == 0.5 else ""),
                gem_privacy_check(weight_scale=1.0 / f),
                factor=f,
            )
            for f in over
        ),
        "primitives.gem.utility": (
            Mutant("bound x0.5", gem_utility_check(bound_factor=2.0), factor=0.5),
            Mutant("bound x0.25", gem_utility_check(bound_factor=1.0), factor=0.25),
            Mutant("bound x0.9", gem_utility_check(bound_factor=3.6), factor=0.9),
        ),
        "primitives.composition.lemma2": tuple(
            Mutant(
                f"per-round epsilon x{f:g}" + (" (drops the factor 2)" if f == 2.0 else ""),
                composition_split_check(split=_split_dropping(f)),
                factor=f,
                not_a_violation=_LEMMA2_X125_PROOF if f == 1.25 else "",
            )
            for f in (2.0, 1.25)
        ),
    }


def register(registry):
    """Register the primitives (with their mechanism factories and audit records for the auditor) and their eight
    claims."""
    for aid, summary, variants in _ALGORITHMS:
        extra = (
            {"variants": variants} if variants else {"mechanism": PRIMITIVE_FACTORIES[aid], "privacy_knob": KNOBS[aid]}
        )
        registry.add_algorithm(Algorithm(aid, SOURCES[aid], summary, **extra))
    audit_records.register(registry)
    mutants = _mutants()
    for cid, aid, statement, kind, check, variant in _claims():
        registry.add_claim(
            Claim(
                cid, SOURCES[aid], statement, kind, check, algorithm=aid, variant=variant, mutants=mutants.get(cid, ())
            )
        )
