"""``python -m proofs_checks formulas``: formula checks, and the accuracy report of one closed form.

Without ``--target`` it runs every registered claim of kind ``formula`` or ``inequality`` and
prints the table (id, kind, verdict, seconds).  With ``--target expected-phi|c-hat`` it compares
a callable (``reference.hu.catoni.expected_phi`` / ``reference.hu.catoni.c_hat`` by default, or a
port's function given as ``--port MODULE:NAME``) with the mpmath reference of
:mod:`proofs_checks.formulas.catoni` and prints the report (``--json``: a JSON object with at
least ``target, points, max_abs_error, max_rel_error, worst_point, verdict``).
"""

from __future__ import annotations

import json
import sys

from . import UsageError
from ._common import non_negative_int, usable_out_dir

__all__ = ["NAME", "HELP", "EPILOG", "USAGE_ERRORS", "TARGETS", "add_arguments", "run"]

NAME = "formulas"
HELP = "run the formula checks, or report the float64 accuracy of E[phi(a+bZ)] / C-hat(a,b) (002)"
EPILOG = """\
examples:
  python -m proofs_checks formulas                                   # every formula/inequality claim
  python -m proofs_checks formulas --target c-hat --out figs         # accuracy map of the printed C-hat
  python -m proofs_checks formulas --target expected-phi --port mypkg.catoni:expected_phi --json

exit status: 0 done (whatever the verdict); 1 a check or the port raised; 2 bad arguments.
"""
USAGE_ERRORS = ()

TARGETS = ("expected-phi", "c-hat")


def add_arguments(parser):
    parser.add_argument(
        "--target",
        choices=TARGETS,
        help="report the accuracy of a callable computing E[phi(a+bZ)] (expected-phi) or "
        "C-hat(a,b) plugged into identity (5) (c-hat)",
    )
    parser.add_argument(
        "--port", metavar="MODULE:NAME", help="the callable to test (default: reference.hu.catoni.expected_phi / c_hat)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--reference",
        choices=("quad", "closed"),
        default="quad",
        help="mpmath reference: split quadrature (default, slower) or identity (5) at "
        "adaptive precision (verified against it by claim catoni.identity5.math)",
    )
    parser.add_argument(
        "--grid-step",
        type=int,
        default=25,
        help="decades between grid magnitudes outside [1e-3, 1e3] (default: %(default)s)",
    )
    parser.add_argument("--random", type=int, default=200, help="random log-uniform points (default: %(default)s)")
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=20261121,
        help="seed of the random points and of the checks (default: %(default)s)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="folder for the accuracy-map figure (target mode) or the checks' figures (default: none)",
    )
    parser.add_argument("--profile", choices=("quick", "full"), default="quick", help="profile of the checks")


def _run_table(args):
    from ..jsonable import to_jsonable
    from ..model import CheckContext
    from ..registry import default_registry
    from ..runner import run_claims

    if args.port:
        raise UsageError("--port needs --target expected-phi or --target c-hat")
    out = usable_out_dir(args.out) if args.out else None
    reg = default_registry()
    claims = [c for c in reg.claims if c.kind in ("formula", "inequality")]
    ctx = CheckContext(profile=args.profile, seed=args.seed, out_dir=out)
    rows = [
        {
            "id": claim.id,
            "kind": claim.kind,
            "source": claim.source,
            "verdict": res.verdict,
            "seconds": round(res.seconds, 3),
            "evidence": res.evidence,
            "figures": res.figures,
        }
        for claim, res in run_claims(claims, ctx, progress=sys.stderr)
    ]
    status = 1 if any(r["verdict"] == "error" for r in rows) else 0
    if args.json:
        print(json.dumps(to_jsonable({"checks": rows}), indent=2))
        return status
    width = max(len(r["id"]) for r in rows) if rows else 10
    print(f"{'claim':<{width}}  {'kind':<11}  {'verdict':<12}  seconds  source")
    for r in rows:
        print(f"{r['id']:<{width}}  {r['kind']:<11}  {r['verdict']:<12}  {r['seconds']:7.2f}  {r['source']}")
    return status


def _run_target(args):
    from reference.hu import catoni

    from ..formulas import catoni as F
    from ..jsonable import to_jsonable

    if args.grid_step < 1:
        raise UsageError(f"--grid-step must be >= 1, got {args.grid_step}")
    if args.random < 0:
        raise UsageError(f"--random must be >= 0, got {args.random}")
    out = usable_out_dir(args.out) if args.out else None
    if args.port:
        try:
            fn = F.load_callable(args.port)
        except (ValueError, TypeError) as exc:  # not MODULE:NAME, no such module or attribute
            raise UsageError(f"--port: {exc}") from None
        name = args.port
    else:
        fn = catoni.expected_phi if args.target == "expected-phi" else catoni.c_hat
        name = f"reference.hu.catoni:{fn.__name__}"
    rep = F.accuracy_report(
        fn, target=args.target, rng=args.seed, grid_step=args.grid_step, n_random=args.random, reference=args.reference
    )
    public = {k: v for k, v in rep.items() if not k.startswith("_")}
    public["callable"] = name
    if out is not None:
        path = out / f"accuracy_map_{args.target}.png"
        F.accuracy_map_figure([(f"{args.target}: {name}", rep)], path)
        public["figure"] = str(path)
    if args.json:
        print(json.dumps(to_jsonable(public), indent=2))
        return 0
    print(f"target {args.target}: {name}  (reference: mpmath {args.reference})")
    print(f"points {public['points']}, verdict {public['verdict']} (tolerance {public['tolerance']:g} abs or rel)")
    print(
        f"max abs error {public['max_abs_error']:.3g}, max rel error {public['max_rel_error']:.3g} "
        f"(normal range: {public['max_rel_error_normal_range']:.3g})"
    )
    wp = public["worst_point"]
    print(f"worst point a={wp['a']!r} b={wp['b']!r}: value {wp['value']!r}, reference {wp['reference']}")
    print(f"non-finite values {public['non_finite_values']}, inaccurate points {public['inaccurate_points']}")
    print("\nregion                          points  max abs err  max rel err  inaccurate")
    for region, r in public["regions"].items():
        print(
            f"{region:<30}  {r['points']:6d}  {r['max_abs_error']:11.3g}  {r['max_rel_error']:11.3g}  {r['inaccurate']:10d}"
        )
    box = public["accurate_region"]["box"]
    print(
        "\naccurate region:",
        box["description"] if box else "none found on the grid",
        f"; b = 0 accurate: {public['accurate_region']['b=0 accurate']}",
    )
    for row in public["accurate_region"]["b_range_for_abs_a_up_to"]:
        rng_txt = f"{row['b_min']:.3g} <= b <= {row['b_max']:.3g}" if row["b_min"] is not None else "none"
        print(f"  |a| <= {row['max_abs_a']:<8.3g}: {rng_txt}")
    if "figure" in public:
        print(f"figure: {public['figure']}", file=sys.stderr)
    return 0


def run(args):
    if args.target is None:
        return _run_table(args)
    return _run_target(args)
