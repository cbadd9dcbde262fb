"""The findings about Wang & Xu (000), each backed by claim ids (numbers from the quick-profile run, seed 20261121)."""

from __future__ import annotations

from ...model import Finding

__all__ = ["FINDINGS", "register"]

FINDINGS = (
    Finding(
        id="000.printed-weight", paper="000",
        title="The printed weight of Algorithms 1-2 is 2 eps-DP over replace-one neighbours, exactly eps-DP over "
              "add/remove neighbours",
        claims=("wang-xu.alg1.privacy.printed", "wang-xu.alg2.privacy.printed",
                "wang-xu.alg1.privacy.printed.add-remove", "wang-xu.alg2.privacy.printed.add-remove",
                "wang-xu.alg1.privacy.calibrated", "wang-xu.alg2.privacy.calibrated"),
        reading="[000 Alg. 1 step 2] / [000 Alg. 2 step 2]: output w with probability proportional to "
                "exp(-n iota eps L-hat_iota(w, D) / log theta); [000 Def. 1] (Sec. III): D, D' are neighbours "
                "'if they differ by only one entry', and the sensitivity of [000 Def. 2] and of the proofs of "
                "Theorems 1-2 is over datasets of the same size n: replace-one.  Refuted under replace-one "
                "(the paper's relation); holds under add/remove (iota a fixed input), because "
                "S(w) = sum_i psi_i(w) with psi_i in [0, log theta] moves in one direction for every w.",
        summary="@PRINTED_WEIGHT@"),
    Finding(
        id="000.eq26-derivation", paper="000",
        title="Eq. (26) does not follow from its premises: it drops the statistical term 4 log(N/eta)/(n iota) "
              "and doubles the mechanism's term",
        claims=("wang-xu.thm2.eq26.follows", "wang-xu.thm1.eq14.follows"),
        reading="[000 eq. (26)], proof of [000 Thm. 2]: 'combing with (20), Lemma 7, (23) and (24)'.  Reading A "
                "(the printed (24) taken as a premise) and reading B ((24) re-derived from Lemma 9 and (25)) both "
                "give a larger bound than (26); (14) of Theorem 1, derived the same way, follows exactly.  The "
                "rate (18) in O-notation is unaffected for eps = O(1); the dropped term is the non-private "
                "d/(n iota) term of (27).",
        summary="@EQ26@"),
)


def register(registry):
    """Register the findings (summaries filled in from :data:`SUMMARIES`)."""
    for f in FINDINGS:
        key = f.summary.strip("@")
        registry.add_finding(Finding(f.id, f.paper, f.title, f.claims, f.reading, SUMMARIES[key]))


SUMMARIES = {
    "PRINTED_WEIGHT": "to be filled from the run",
    "EQ26": "to be filled from the run",
}
