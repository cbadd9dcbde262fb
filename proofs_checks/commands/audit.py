"""``python -m proofs_checks audit``: audit the DP claim of a registered algorithm or of a user's mechanism.

Exact audit (worst neighbouring pair, exact privacy loss) when the mechanism
gives its output distribution (``log_prob``), statistical audit (lower
confidence bound on epsilon from ``--samples`` mechanism calls) otherwise.
Exit status 0 whenever the audit ran, whatever the verdict; 1 when the audited mechanism raised
(a one-line message naming it and what it raised); 2 for bad input.  ``--counterexample FILE.npz``
writes the worst pair and the audit's settings; ``--replay FILE.npz`` audits that pair again.
``--curve`` adds the privacy curve delta(eps) of the worst pair (exact, or a lower curve simultaneous
over the grid), ``--curve-plot FILE.png`` draws it.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys

from . import UsageError
from ._common import add_backend_arguments, non_negative_int, positive_int

NAME = "audit"
HELP = "audit the (epsilon, delta)-DP claim of an algorithm id or of --mechanism MODULE:NAME"
EPILOG = """\
examples:
  python -m proofs_checks audit laplace --epsilon 1
  python -m proofs_checks audit exponential --epsilon 1 --json --counterexample worst.npz
  python -m proofs_checks audit --replay worst.npz
  python -m proofs_checks audit --mechanism mymod:MyMech --epsilon 0.5 --pair pair.npz --samples 10000000
  python -m proofs_checks audit --mechanism mymod:MECH --epsilon 1 --attack histogram --features mymod:feats
  python -m proofs_checks audit --mechanism mymod:MECH --epsilon 1 --statistic estimate --fixed-event-scoring cross-fit
  python -m proofs_checks audit --mechanism mymod:MECH --epsilon 1 --statistic estimate --threshold-scoring cross-fit
  python -m proofs_checks audit gem --epsilon 1 --search-budget 5000
  python -m proofs_checks audit laplace --epsilon 1 --method statistical --curve --curve-plot curve.png

exit status: 0 the audit ran (whatever the verdict); 1 the audited mechanism raised (one line naming
it and what it raised); 2 bad arguments.
"""
USAGE_ERRORS = ()   # bad arguments raise UsageError; anything else is a failure (exit 1)


@functools.lru_cache(maxsize=1)
def _registry():
    """The default registry, built once per process (it takes seconds: every claim set is imported)."""
    from ..registry import default_registry

    return default_registry()


class _RegisteredVariants:
    """The variant names of the registered algorithms, as argparse ``choices``.

    Looked up on first use (a value to check, or ``--help``), so that building the parser
    of every sub-command does not build the registry.
    """

    def _names(self):
        return sorted({v for a in _registry().algorithms for v in a.variants})

    def __contains__(self, name):
        return name in self._names()

    def __iter__(self):
        return iter(self._names())


def add_arguments(parser):
    parser.add_argument("algorithm", nargs="?", metavar="ALGORITHM_ID",
                        help="registered algorithm id (see `list`), e.g. laplace, exponential, wang-xu-1")
    parser.add_argument("--variant", choices=_RegisteredVariants(), metavar="VARIANT",
                        help="algorithm variant, one of the algorithm's registered variants (see `list`): "
                             "%(choices)s (default: standard)")
    parser.add_argument("--epsilon", type=float, help="claimed epsilon (default: the algorithm's)")
    parser.add_argument("--delta", type=float, help="claimed delta (default: the algorithm's, or 0)")
    parser.add_argument("--samples", type=int, default=1_000_000,
                        help="total mechanism calls of a statistical audit, both datasets and all splits "
                             "(default: %(default)s)")
    parser.add_argument("--confidence", type=float, default=0.95, help="confidence level (default: %(default)s)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed (default: %(default)s)")
    parser.add_argument("--jobs", type=positive_int, default=1, help="parallel workers; results do not depend on it")
    add_backend_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--mechanism", metavar="MODULE:NAME",
                        help="audit a user's mechanism object (or a zero-argument callable returning one)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--pair", metavar="FILE.npz", help="neighbouring pair: arrays D and D_prime")
    group.add_argument("--neighbours", metavar="MODULE:NAME",
                       help="callable returning an iterable of (D, D_prime) pairs")
    parser.add_argument("--any-pair", action="store_true",
                        help="accept pairs that differ in more than one record (taken as given)")
    parser.add_argument("--method", choices=("auto", "exact", "statistical"), default="auto",
                        help="force the exact or the statistical audit (default: exact when log_prob exists)")
    parser.add_argument("--statistic", choices=("auto", "exact", "estimate"), default="auto",
                        help="statistical audit: exact log-likelihood ratio when the mechanism gives it, or "
                             "estimate (black box) (default: %(default)s)")
    parser.add_argument("--attack", choices=("auto", "logistic", "histogram"), default="auto",
                        help="statistical audit with an estimated statistic: the attacks that compete on the "
                             "selection split: logistic projection, histogram log-ratio on cells of atoms and "
                             "quantile bins, or all of them with per-coordinate and joint features "
                             "(default: %(default)s)")
    parser.add_argument("--fixed-event-scoring", choices=("plug-in", "cross-fit"), default="plug-in",
                        help="statistical audit with an estimated statistic: how events a model fixes itself "
                             "(outputs with atoms) compete with searched thresholds on the selection split: "
                             "plug-in against pessimistic scores, or one held-out plug-in rule for both "
                             "(default: %(default)s)")
    parser.add_argument("--threshold-scoring", choices=("pessimistic", "cross-fit", "cross-fit-smooth"),
                        default="cross-fit-smooth",
                        help="statistical audit with an estimated statistic, outputs without atoms: how searched "
                             "thresholds compete on the selection split: pessimistic scores, or cross-fitted "
                             "plug-in scores without a winner's curse; cross-fit-smooth adds, for one-column outputs, the raw "
                             "output's threshold chosen with a smoothed log-ratio (default: %(default)s)")
    parser.add_argument("--features", metavar="MODULE:NAME",
                        help="statistical audit: callable mapping outputs (samples, ...) to a (samples, k) float "
                             "array; the estimated statistics work on its columns")
    parser.add_argument("--sampler-samples", type=int, default=None,
                        help="exact audit: draws per dataset of the sampler's goodness-of-fit check "
                             "(default 2,000,000; 0 skips it)")
    parser.add_argument("--search-budget", type=int, default=None, metavar="N",
                        help="neighbour search without --pair/--neighbours: law evaluations of the exact search "
                             "(default 20,000; 40 for expensive log_prob) or distinct black-box pairs of the "
                             "statistical audit (default 12)")
    parser.add_argument("--counterexample", metavar="FILE.npz",
                        help="write the worst pair (arrays D, D_prime) and the audit's settings")
    parser.add_argument("--replay", metavar="FILE.npz",
                        help="audit again the pair and settings saved by --counterexample")
    parser.add_argument("--curve", action="store_true",
                        help="also give the privacy curve delta(eps) of the worst pair: exact for exact audits, "
                             "a lower curve simultaneous over the grid (Bonferroni) from --samples further calls "
                             "for statistical ones")
    parser.add_argument("--curve-epsilons", metavar="E1,E2,...",
                        help="grid of the curve (default: 21 points from 0 to max(2 epsilon, 1.25 epsilon_lower))")
    parser.add_argument("--curve-plot", metavar="FILE.png", help="draw the curve (needs matplotlib)")


def _load(spec, what):
    if ":" not in spec:
        raise UsageError(f"{what} must be MODULE:NAME, got {spec!r}")
    mod_name, attr = spec.split(":", 1)
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as exc:
        raise UsageError(f"{what} {spec!r}: cannot import module {mod_name!r} ({exc})") from None
    try:
        obj = mod
        for part in attr.split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise UsageError(f"{what} {spec!r}: module {mod_name!r} has no attribute {attr!r}") from None
    return obj


def _save_counterexample(path, res, spec):
    import numpy as np

    ce = res.details.get("counterexample")
    if ce is None:
        raise UsageError("--counterexample: this audit has no counterexample pair to write")
    settings = dict(spec, epsilon=res.claimed_epsilon, delta=res.claimed_delta, method=res.method,
                    seed=res.seed, confidence=res.confidence, samples=res.samples, verdict=res.verdict,
                    epsilon_lower=res.epsilon_lower,
                    event=ce.get("event"), counts=ce.get("counts"))
    # a statistical audit shares its selection split among the pairs it compared: all of them, in their order,
    # let --replay run the same audit (the same bound, bit for bit on the code paths of the machine that wrote
    # the file: python -m proofs_checks code-paths), not the worst pair alone
    compared = res.compared_pairs or []
    arrays = {}
    if len(compared) > 1:
        settings.update(compared_pairs=len(compared), pair_index=res.details.get("pair_index"))
        for i, (a, b) in enumerate(compared):
            arrays[f"compared_D_{i}"] = np.asarray(a, dtype=np.float64)
            arrays[f"compared_D_prime_{i}"] = np.asarray(b, dtype=np.float64)
    try:
        np.savez(path, D=np.asarray(ce["D"], dtype=np.float64), D_prime=np.asarray(ce["D_prime"], dtype=np.float64),
                 settings=np.array(json.dumps(settings, default=str)), **arrays)
    except OSError as exc:
        raise UsageError(f"--counterexample {path}: {exc}") from None


def _load_replay(path):
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as f:
            missing = [k for k in ("D", "D_prime", "settings") if k not in f.files]
            if missing:
                raise UsageError(f"--replay {path}: lacks array(s) {missing} (write it with --counterexample)")
            st = json.loads(str(f["settings"]))
            missing = [k for k in ("epsilon", "delta", "seed", "method") if k not in st]
            if missing:
                raise UsageError(f"--replay {path}: settings lack {missing} (write it with --counterexample)")
            compared = [(np.array(f[f"compared_D_{i}"]), np.array(f[f"compared_D_prime_{i}"]))
                        for i in range(int(st.get("compared_pairs") or 0))]
            st["compared"] = compared
            return np.array(f["D"]), np.array(f["D_prime"]), st
    except (OSError, ValueError) as exc:
        if isinstance(exc, UsageError):
            raise
        raise UsageError(f"--replay {path}: {exc}") from None


def run(args):
    from ..audit.api import MechanismError

    try:
        return _run(args)
    except MechanismError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _curve_option(args):
    """``None`` (no curve), ``True`` (default grid) or the parsed ``--curve-epsilons`` grid."""
    if args.curve_epsilons is None:
        return True if (args.curve or args.curve_plot) else None
    try:
        values = [float(v) for v in args.curve_epsilons.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--curve-epsilons must be comma-separated numbers, got {args.curve_epsilons!r}") from None
    from ..audit.curves import check_epsilons

    try:
        return check_epsilons(values, "--curve-epsilons")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _plot_curve(res, path):
    curve = res.details.get("curve")
    if curve is None:
        raise UsageError("--curve-plot: this audit has no curve (no counterexample pair)")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--curve-plot needs matplotlib") from None
    fig, ax = plt.subplots(figsize=(5, 3.5))
    if "delta_exact" in curve:
        ax.plot(curve["epsilons"], curve["delta_exact"], "k-", label="exact delta(eps)")
    if "delta_lower" in curve:
        ax.step(curve["epsilons"], curve["delta_lower"], "C0-", where="pre",   # d_i bounds delta on (eps_{i-1}, eps_i]
                label=f"lower bound, simultaneous at {curve['confidence']}")
    ax.plot([res.claimed_epsilon], [res.claimed_delta], "C3o", label="claim")
    ax.set_xlabel("epsilon")
    ax.set_ylabel("delta")
    ax.set_title(f"{res.algorithm}: privacy curve of the worst pair", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise UsageError(f"--curve-plot {path}: {exc}") from None
    finally:
        plt.close(fig)


def _run(args):
    from ..audit.api import MechanismError, audit
    from ..audit.neighbours import load_pair
    from ..audit_claims import audit_algorithm

    curve = _curve_option(args)
    if args.replay:
        D, Dp, st = _load_replay(args.replay)
        args.algorithm, args.mechanism = st.get("algorithm"), st.get("mechanism")
        args.variant, args.epsilon, args.delta = st.get("variant"), st["epsilon"], st["delta"]
        args.seed, args.method = st["seed"], st["method"]
        args.statistic = st.get("statistic", "auto")
        args.attack, args.features = st.get("attack", "auto"), st.get("features")
        args.fixed_event_scoring = st.get("fixed_event_scoring", "plug-in")
        # files written before the option existed were audited with the pessimistic rule
        args.threshold_scoring = st.get("threshold_scoring", "pessimistic")
        if st.get("confidence") is not None:        # the audit's own level, not the CLI default
            args.confidence = st["confidence"]
        if st.get("sampler_samples") is not None and args.sampler_samples is None:
            args.sampler_samples = st["sampler_samples"]
        if st["method"] == "statistical":
            args.samples = max(int(st["samples"]), 100)
        args.any_pair = True
        if st["compared"] and st["method"] == "statistical":
            # the same pairs in the same order: the same selection, so the same event and bound
            replay_pair = [(a, b, f"replayed pair {i} of {len(st['compared'])} from {args.replay}")
                           for i, (a, b) in enumerate(st["compared"])]
        else:
            replay_pair = [(D, Dp, f"replayed pair from {args.replay}")]
    else:
        replay_pair = None
    if (args.algorithm is None) == (args.mechanism is None):
        raise UsageError("give exactly one of ALGORITHM_ID and --mechanism MODULE:NAME")
    if sys.path[0] != "":
        sys.path.insert(0, "")          # MODULE:NAME resolves from the current directory
    pairs = None
    if args.pair:
        try:
            pairs = [load_pair(args.pair) + (f"pair file {args.pair}",)]
        except (OSError, ValueError, KeyError) as exc:
            raise UsageError(f"--pair {args.pair}: {exc}") from None
    if replay_pair is not None:
        pairs = replay_pair
    features = _load(args.features, "--features") if args.features else None
    if features is not None and not callable(features):
        raise UsageError(f"--features {args.features} is not callable (it must map outputs to a (samples, k) "
                         f"float array)")
    neighbours = _load(args.neighbours, "--neighbours") if args.neighbours else None
    if neighbours is not None and not callable(neighbours):
        raise UsageError(f"--neighbours {args.neighbours} is not callable")
    common = dict(pairs=pairs, neighbours=neighbours, any_pair=args.any_pair, samples=args.samples,
                  confidence=args.confidence, seed=args.seed, jobs=args.jobs, method=args.method,
                  statistic=args.statistic, sampler_samples=args.sampler_samples, attack=args.attack,
                  features=features, fixed_event_scoring=args.fixed_event_scoring,
                  threshold_scoring=args.threshold_scoring)
    if args.search_budget is not None:
        common["search_budget"] = args.search_budget
    if curve is not None:
        common["curve"] = curve
    if args.mechanism:
        if args.epsilon is None:
            raise UsageError("--epsilon is required with --mechanism")
        mech = _load(args.mechanism, "--mechanism")
        if isinstance(mech, type) or (callable(mech) and not hasattr(mech, "sample")):
            try:
                mech = mech()           # a class or a zero-argument factory
            except Exception as exc:    # the user's code raised: exit 1, one line
                raise MechanismError(f"mechanism {args.mechanism}: constructing it raised "
                                     f"{type(exc).__name__}: {exc}".splitlines()[0]) from exc
    try:
        if args.mechanism:
            res = audit(mech, epsilon=args.epsilon, delta=args.delta, variant=args.variant,
                        name=args.mechanism, **common)
        else:
            res = audit_algorithm(args.algorithm, args.variant, args.epsilon, args.delta, registry=_registry(),
                                  **common)
    except (ValueError, TypeError, KeyError) as exc:
        # audit() raises these for bad arguments only (a mechanism's own errors are MechanismError)
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise UsageError(str(msg)) from None
    if args.curve_plot:
        _plot_curve(res, args.curve_plot)
    if args.counterexample:
        _save_counterexample(args.counterexample, res,
                             {"algorithm": args.algorithm, "mechanism": args.mechanism, "variant": res.variant,
                              "statistic": args.statistic, "attack": args.attack,
                              "fixed_event_scoring": args.fixed_event_scoring,
                              "threshold_scoring": args.threshold_scoring,
                              "features": args.features, "sampler_samples": args.sampler_samples})
    out = res.as_dict()
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        conf = f" at confidence {res.confidence}" if res.confidence is not None else ""
        print(f"{res.algorithm} [{res.variant}] claim ({res.claimed_epsilon}, {res.claimed_delta})-DP: "
              f"{res.verdict}")
        print(f"  method: {res.method}; epsilon_lower = {res.epsilon_lower:.6g}{conf}"
              + (f"; p-value {res.p_value:.3g}" if res.p_value is not None else "")
              + (f"; {res.samples} mechanism calls" if res.samples else ""))
        print(f"  pair: {res.pair}")
        curve = res.details.get("curve")
        if curve is not None:
            cols = [k for k in ("delta_exact", "delta_lower") if k in curve]
            print("  curve (" + curve["method"] + "): epsilon  " + "  ".join(cols))
            for i, e in enumerate(curve["epsilons"]):
                print(f"    {e:10.4g}  " + "  ".join(f"{curve[k][i]:11.4g}" for k in cols))
        print(f"  seed {res.seed}, {res.seconds:.2f} s")
    return 0
