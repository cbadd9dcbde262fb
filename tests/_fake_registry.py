"""A small registry of made-up claims (and findings) for the CLI and report tests."""

from __future__ import annotations

from proofs_checks.model import Algorithm, Claim, Finding, Result
from proofs_checks.registry import Registry


def _fixed(verdict, observed=0.25, bound=0.5, figure=None):
    def check(ctx):
        figures = []
        if figure is not None and ctx.out_dir is not None:
            path = ctx.out_dir / figure
            path.parent.mkdir(parents=True, exist_ok=True)
            # a 1x1 PNG (the smallest valid one), so the report has a figure to inline
            path.write_bytes(
                bytes.fromhex(
                    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d4944415478da63f8cfc0f01f0005000201a0d3a4b00000000049454e44ae426082"
                )
            )
            figures.append(figure)
        return Result(
            verdict,
            observed=observed,
            bound=bound,
            direction="at_most",
            method="made up for a test",
            reading="[000 Def. 1] as read by the test",
            evidence={"evaluations": 10},
            evidence_kind="bound_search",
            figures=figures,
        )

    return check


def fake_registry(*, extra=(), findings=True):
    reg = Registry()
    reg.add_algorithm(Algorithm("toy", "[000 Alg. 1]", "a toy algorithm"))
    reg.add_claim(
        Claim(
            "toy.privacy",
            "[000 Thm. 1]",
            "toy is eps-DP",
            "privacy",
            _fixed("confirmed", figure="figures/toy.png"),
            algorithm="toy",
        )
    )
    reg.add_claim(
        Claim(
            "toy.sensitivity",
            "[002 Lemma 3]",
            "the sensitivity is 1",
            "sensitivity",
            _fixed("refuted", observed=2.0, bound=1.0),
        )
    )
    reg.add_claim(
        Claim("toy.rate", "[004 Thm. 1]", "rate 1/n", "rate", _fixed("inconclusive", observed=0.9, bound=1.0))
    )
    reg.add_claim(
        Claim(
            "toy.calibration",
            "Dwork & Roth, Thm. 3.6",
            "the auditor finds eps of Laplace",
            "inequality",
            _fixed("confirmed"),
            scope="self-test",
        )
    )
    for claim in extra:
        reg.add_claim(claim)
    if findings:
        reg.add_finding(
            Finding(
                "002.toy-sensitivity",
                "002",
                "The toy sensitivity is twice the stated one",
                ("toy.sensitivity",),
                "Lemma 3 read with replace-one neighbours",
                "Observed 2 against the stated 1.",
            )
        )
    return reg
