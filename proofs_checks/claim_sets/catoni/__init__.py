"""Claims about the smoothed Catoni estimator of 002: phi [002 eq. (2)], the sandwich [002 eq. (16)],
identity [002 eq. (5)] with C-hat of [002 App. A], the sensitivity of the robust gradient
([002 Sec. 4], [002 Thm. 1]) and the deviation bound [002 Lemma 4].

Every check is built by a factory whose arguments default to the real implementation
(:mod:`reference.hu.catoni`, :mod:`proofs_checks.formulas.catoni`); the tests pass deliberately
wrong variants (a flipped sign in one of T1..T5, a phi that leaves its bound, a halved
sensitivity, a tightened deviation bound) to show that every check can fail.
"""

from __future__ import annotations

from reference.hu.catoni import expected_phi

from ...model import Algorithm, Claim, Mutant
from .identity5 import float64_accuracy_check, identity5_math_check
from .lemma4 import lemma4_bound, lemma4_check
from .phi import PHI_BOUND, phi_bound_check, sandwich_check
from .sensitivity import sensitivity_check

__all__ = [
    "phi_bound_check",
    "sandwich_check",
    "identity5_math_check",
    "float64_accuracy_check",
    "sensitivity_check",
    "lemma4_bound",
    "lemma4_check",
    "register",
]

ALGORITHM = "catoni-robust-gradient"


def _scaled_phi(factor):
    """``factor * phi`` in mpmath: a phi the sandwich (16) must reject for any ``factor != 1``."""
    from ...formulas import catoni as F

    return lambda u: factor * F.phi_mp(u)


def _perturbed_expected_phi(rel):
    """``E phi`` with a relative error ``rel``: a port that loses accuracy the 1e-12 claim must catch."""
    return lambda a, b: expected_phi(a, b) * (1.0 + rel)


def register(registry):
    """Register the robust-gradient algorithm and the eight claims about it."""
    registry.add_algorithm(
        Algorithm(
            ALGORITHM,
            "[002 eq. (2)] to [002 eq. (5)], [002 Alg. 1 step 4]",
            "smoothed Catoni mean / coordinate-wise robust gradient with Gaussian multiplicative noise",
            variants=("printed", "standard"),
        )
    )
    claim = registry.add_claim
    claim(
        Claim(
            "catoni.phi.bound",
            "[002 eq. (2)]",
            "|phi(x)| <= 2*sqrt(2)/3 for every x.",
            "inequality",
            phi_bound_check(),
            algorithm=ALGORITHM,
            mutants=tuple(Mutant(f"bound x{f:g}", phi_bound_check(bound=f * PHI_BOUND), factor=f) for f in (0.9, 0.5)),
        )
    )
    claim(
        Claim(
            "catoni.phi.sandwich",
            "[002 eq. (16)]",
            "-log(1 - u + u^2/2) <= phi(u) <= log(1 + u + u^2/2) for every real u.",
            "inequality",
            sandwich_check(),
            algorithm=ALGORITHM,
            mutants=tuple(Mutant(f"phi x{f:g}", sandwich_check(phi_fn=_scaled_phi(f)), factor=f) for f in (1.1, 0.9)),
        )
    )
    claim(
        Claim(
            "catoni.identity5.math",
            "[002 eq. (5)] [002 App. A]",
            "E phi(a + b sqrt(beta) eta) = a(1 - b^2/2) - a^3/6 + C-hat(a, b) with C-hat = T1 + ... + T5 "
            "(as mathematics, b > 0).",
            "formula",
            identity5_math_check(),
            algorithm=ALGORITHM,
            variant="printed",
            mutants=tuple(
                Mutant(
                    f"C-hat with the sign of T{k + 1} flipped",
                    identity5_math_check(signs=tuple(-1 if j == k else 1 for j in range(5))),
                )
                for k in range(5)
            ),
        )
    )
    claim(
        Claim(
            "catoni.identity5.float64",
            "[002 eq. (5)] [002 App. A] [002 Alg. 1 step 4]",
            "C-hat is 'easy to implement': identity (5) with the printed C-hat evaluated in float64 gives "
            "E phi(a + bZ) (to 1e-12) over the float64 range.",
            "formula",
            float64_accuracy_check(
                target="c-hat",
                companion=("expected-phi: reference.hu.catoni.expected_phi", expected_phi, "expected-phi"),
            ),
            algorithm=ALGORITHM,
            variant="printed",
            seed_policy="once",
        )
    )  # 4.1 s a quick run
    claim(
        Claim(
            "catoni.expected-phi.accuracy",
            "[002 eq. (4)] [002 eq. (5)]",
            "reference.hu.catoni.expected_phi computes E phi(a + bZ) within 1e-12 for every finite a and b >= 0.",
            "formula",
            float64_accuracy_check(target="expected-phi"),
            algorithm=ALGORITHM,
            variant="standard",
            mutants=(
                Mutant(
                    "E phi with a relative error 1e-10",
                    float64_accuracy_check(fn=_perturbed_expected_phi(1e-10), target="expected-phi"),
                    factor=1 + 1e-10,
                ),
            ),
        )
    )
    for variant in ("printed", "standard"):
        claim(
            Claim(
                f"catoni.sensitivity.{variant}",
                "[002 Sec. 4] [002 Thm. 1]",
                "Replacing one of m samples changes the robust gradient by at most 4*sqrt(2)*s/(3m) in the "
                f"sup norm (float64, {variant} evaluation).",
                "sensitivity",
                sensitivity_check(variant),
                algorithm=ALGORITHM,
                variant=variant,
                mutants=tuple(
                    Mutant(f"stated bound x{f:g}", sensitivity_check(variant, sensitivity_factor=f), factor=f)
                    for f in (0.9, 0.5)
                ),
            )
        )
    claim(
        Claim(
            "catoni.lemma4",
            "[002 Lemma 4] [002 eq. (12)]",
            "With probability >= 1 - zeta, |x-hat(s, beta) - E x| <= tau/(2s)(1/beta + 1) + s/n(beta/2 + "
            "log(2/zeta)) when E x^2 <= tau.",
            "inequality",
            lemma4_check(),
            algorithm=ALGORITHM,
            variant="standard",
            mutants=tuple(
                Mutant(f"confidence radius x{f:g}", lemma4_check(bound_factor=f), factor=f) for f in (0.5, 0.2, 0.1)
            ),
        )
    )
