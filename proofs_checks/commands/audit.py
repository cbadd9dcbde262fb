"""``python -m proofs_checks audit``: audit the DP claim of a registered algorithm or of a user's mechanism.

Exact audit (worst neighbouring pair, exact privacy loss) when the mechanism
gives its output distribution (``log_prob``), statistical audit (lower
confidence bound on epsilon from ``--samples`` mechanism calls) otherwise.
Exit status 0 whenever the audit ran, whatever the verdict; 1 when the audited mechanism raised
(a one-line message naming it and what it raised); 2 for bad input.  ``--counterexample FILE.npz``
writes the worst pair and the audit's options; ``--replay FILE.npz`` audits that pair again with them.
``--curve`` adds the privacy curve delta(eps) of the worst pair (exact, or a lower curve simultaneous
over the grid), ``--curve-plot FILE.png`` draws it.
``--gray-box --algorithm MODULE:NAME`` runs the gray-box audit of an algorithm ``algorithm(data, rng)`` instead
(:mod:`proofs_checks.commands._gray_box`).

The flags of the audit's options are made from the fields of
:class:`~proofs_checks.audit.options.AuditOptions` (name, default, allowed values, help): a flag not given
keeps the field's default, so the command line and ``audit()`` cannot disagree.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
import zipfile

from ..audit.options import cli_spec
from . import UsageError
from ._common import add_backend_arguments, non_negative_int, npz_error, positive_int, usable_out_file
from ._gray_box import add_gray_box_arguments, run_gray_box

__all__ = ["NAME", "HELP", "EPILOG", "USAGE_ERRORS", "add_arguments", "given_options", "make_options", "run"]

NAME = "audit"
HELP = "audit the (epsilon, delta)-DP claim of an algorithm id or of --mechanism MODULE:NAME"
EPILOG = """\
examples:
  python -m proofs_checks audit laplace --epsilon 1
  python -m proofs_checks audit exponential --epsilon 1 --json --counterexample worst.npz
  python -m proofs_checks audit --replay worst.npz
  python -m proofs_checks audit --replay worst.npz --jobs 4 --sampler-samples 0
  python -m proofs_checks audit --mechanism mymod:MyMech --epsilon 0.5 --pair pair.npz --samples 10000000
  python -m proofs_checks audit --mechanism mymod:MECH --epsilon 1 --attack histogram --features mymod:feats
  python -m proofs_checks audit --mechanism mymod:MECH --epsilon 1 --statistic estimate --fixed-event-scoring cross-fit
  python -m proofs_checks audit --mechanism mymod:MECH --epsilon 1 --statistic estimate --threshold-scoring cross-fit
  python -m proofs_checks audit gem --epsilon 1 --search-budget 5000
  python -m proofs_checks audit laplace --epsilon 1 --method statistical --curve --curve-plot curve.png
  python -m proofs_checks audit --gray-box --algorithm mymod:noisy_mean --data D.npy --epsilon 1 --paths 500
  python -m proofs_checks audit --mechanism mymod:MECH --pair pair.npz --claim zcdp:0.5 --json

exit status: 0 the audit ran (whatever the verdict); 1 the audited mechanism raised (one line naming
it and what it raised); 2 bad arguments.
"""
USAGE_ERRORS = ()  # bad arguments raise UsageError; anything else is a failure (exit 1)

#: argparse types of the options' values (``AuditOptions`` field metadata ``type``); a ``callable`` is read as
#: ``MODULE:NAME`` and loaded when the command runs.
_TYPES = {
    "str": str,
    "int": int,
    "float": float,
    "non_negative_int": non_negative_int,
    "positive_int": positive_int,
    "callable": str,
}


@functools.lru_cache(maxsize=1)
def _registry():
    """The default registry, built once per process (it takes seconds: every claim set is imported)."""
    from ..registry import default_registry

    return default_registry()


class _LazyChoices:
    """Allowed values looked up only when a value is given, as an argparse ``type``: building the parser of every
    sub-command and printing ``--help`` must not build the registry nor import the attacks (numpy).  (As
    ``choices`` they would be listed by argparse's help formatter even where the help text does not show them.)"""

    def __init__(self, names, option):
        self._names = names
        self._option = option
        self.__name__ = option  # argparse names the type in its "invalid value" message

    def __call__(self, text):
        names = self._names()
        if text not in names:
            raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(names)})")
        return text


def _variant_names():
    from ..auditable_ids import VARIANT_NAMES  # static: no registry for a bad --variant

    return list(VARIANT_NAMES)


def _option_arguments(parser):
    """One flag per field of :class:`~proofs_checks.audit.options.AuditOptions`; a flag not given is absent from
    the parsed namespace (``argparse.SUPPRESS``), so the field keeps its default."""
    for spec in cli_spec():
        kwargs = {"default": argparse.SUPPRESS, "dest": spec["name"]}
        help_text = spec["help"].replace("%", "%%")
        if spec["cli"] == "flag":
            kwargs["action"] = "store_true"
        elif spec["cli"] == "switch":
            kwargs["action"] = argparse.BooleanOptionalAction
        else:
            kwargs["type"] = _TYPES[spec["type"]]
            kwargs["metavar"] = spec["metavar"]
            choices = _variant_names if spec["name"] == "variant" else spec["choices"]
            if callable(choices):
                # listing them would build the registry or import the attacks: seconds for --help; a value
                # not among them is answered with the list
                kwargs["type"] = _LazyChoices(choices, spec["flag"])
                help_text += " (a name not among them gets the list)"
            elif choices is not None:
                kwargs["choices"] = choices
                help_text += " (one of: %(choices)s)" if kwargs["metavar"] else ""
        if spec["default"] is not None and spec["default"] is not False:
            help_text += f" (default: {spec['default']})"
        parser.add_argument(spec["flag"], help=help_text, **kwargs)


def add_arguments(parser):
    parser.add_argument(
        "algorithm",
        nargs="?",
        metavar="ALGORITHM_ID",
        help="registered algorithm id (see `list`), e.g. laplace, exponential, wang-xu-1",
    )
    parser.add_argument(
        "--mechanism",
        metavar="MODULE:NAME",
        help="audit a user's mechanism object (or a zero-argument callable returning one)",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--pair", metavar="FILE.npz", help="neighbouring pair: arrays D and D_prime")
    group.add_argument(
        "--neighbours", metavar="MODULE:NAME", help="callable returning an iterable of (D, D_prime) pairs"
    )
    _option_arguments(parser)
    parser.add_argument(
        "--curve-epsilons",
        metavar="E1,E2,...",
        help="grid of the curve, implies --curve (default: 21 points from 0 to max(2 epsilon, 1.25 epsilon_lower))",
    )
    parser.add_argument("--curve-plot", metavar="FILE.png", help="draw the curve (needs matplotlib); implies --curve")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--counterexample", metavar="FILE.npz", help="write the worst pair (arrays D, D_prime) and the audit's options"
    )
    parser.add_argument(
        "--replay",
        metavar="FILE.npz",
        help="audit again the pair(s) saved by --counterexample with the saved options; options "
        "given on the command line replace the saved ones (e.g. --jobs, --sampler-samples)",
    )
    add_backend_arguments(parser)
    add_gray_box_arguments(parser)
    # ---- claims other than (epsilon, delta)-DP (see _run_claim below)
    parser.add_argument(
        "--claim",
        metavar="TYPE:PARAMETERS",
        help="audit a zCDP, Renyi-DP or mu-GDP claim instead of (epsilon, delta)-DP: zcdp:RHO, renyi:ALPHA:EPS or "
        "gdp:MU (with --mechanism and --pair, or a mechanism with pair(); --samples default 200000 here)",
    )


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


def _curve_grid(text):
    """The ``--curve-epsilons`` grid, checked."""
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--curve-epsilons must be comma-separated numbers, got {text!r}") from None
    from ..audit.curves import check_epsilons

    try:
        return tuple(float(e) for e in check_epsilons(values, "--curve-epsilons"))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def given_options(args):
    """The options given on the command line (``{field: value}``, MODULE:NAME values still as text)."""
    given = {spec["name"]: getattr(args, spec["name"]) for spec in cli_spec() if hasattr(args, spec["name"])}
    if args.curve_epsilons is not None:
        given["curve"] = _curve_grid(args.curve_epsilons)
    elif args.curve_plot and not given.get("curve"):
        given["curve"] = True
    return given


def make_options(given):
    """:class:`~proofs_checks.audit.options.AuditOptions` of ``given``, ``features`` loaded from its MODULE:NAME;
    bad values are usage errors (exit 2)."""
    from ..audit.options import AuditOptions

    values = dict(given)
    if values.get("features") is not None:
        features = _load(values["features"], "--features")
        if not callable(features):
            raise UsageError(
                f"--features {values['features']} is not callable (it must map outputs to a (samples, k) float array)"
            )
        values["features"] = features
    try:
        return AuditOptions(**values)
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def run(args):
    # Everything the command line alone can tell is checked before the auditor (numpy, scipy, numba) is imported
    # and before any work: a bad value or an unwritable output answers at once, not after the audit.
    for option, path in (("--curve-plot", args.curve_plot), ("--counterexample", args.counterexample)):
        if path:
            usable_out_file(path, option)
    if sys.path[0] != "":
        sys.path.insert(0, "")  # MODULE:NAME resolves from the current directory
    if args.algorithm is not None and not args.replay and not args.gray_box:
        from ..auditable_ids import AUDITABLE_IDS

        # before the options: validating them imports the attacks (scipy), half a second
        if args.algorithm not in AUDITABLE_IDS:
            raise UsageError(f"unknown algorithm id {args.algorithm!r}; auditable ids: {', '.join(AUDITABLE_IDS)}")
    given = given_options(args)
    if not args.replay and not args.gray_box:
        make_options(given)  # the saved options of a replay are checked once merged

    from ..audit.api import MechanismError

    try:
        if args.gray_box:
            return run_gray_box(args, _load, given)
        if args.claim is not None:
            return _run_claim(args, given)
        return _run(args, given)
    except MechanismError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


def _run(args, given):
    from ..audit.api import audit

    pairs = None
    if args.replay:
        saved, (args.algorithm, args.mechanism), pairs = _load_replay(args.replay)
        given = {**saved, **given}
    if (args.algorithm is None) == (args.mechanism is None):
        raise UsageError("give exactly one of ALGORITHM_ID and --mechanism MODULE:NAME")
    if args.pair and pairs is None:
        from ..audit.datasets import load_pair

        try:
            pairs = [load_pair(args.pair) + (f"pair file {args.pair}",)]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            if "lacks array" in str(exc):
                raise UsageError(f"--pair {args.pair}: {exc}") from None
            raise npz_error(args.pair, "--pair", exc) from None
    neighbours = _load(args.neighbours, "--neighbours") if args.neighbours else None
    if neighbours is not None and not callable(neighbours):
        raise UsageError(f"--neighbours {args.neighbours} is not callable")
    options = make_options(given)
    try:
        mech, options = _mechanism(args, options)
        res = audit(mech, options, pairs=pairs, neighbours=neighbours)
    except (ValueError, TypeError, KeyError) as exc:
        # audit() raises these for bad arguments only (a mechanism's own errors are MechanismError)
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise UsageError(str(msg)) from None
    if args.curve_plot:
        _plot_curve(res, args.curve_plot)
    if args.counterexample:
        _save_counterexample(
            args.counterexample, res, algorithm=args.algorithm, mechanism=args.mechanism, features=given.get("features")
        )
    _print_result(res, as_json=args.json)
    return 0


def _mechanism(args, options):
    """The mechanism to audit and the options completed with what the target gives: a registered algorithm's
    variant, claim and id (:func:`~proofs_checks.audit_claims.resolve_mechanism`), or a user's object."""
    if args.mechanism:
        from ..audit.api import MechanismError

        if options.epsilon is None:
            raise UsageError("--epsilon is required with --mechanism")
        mech = _load(args.mechanism, "--mechanism")
        if isinstance(mech, type) or (callable(mech) and not hasattr(mech, "sample")):
            try:
                mech = mech()  # a class or a zero-argument factory
            except Exception as exc:  # the user's code raised: exit 1, one line
                raise MechanismError(
                    f"mechanism {args.mechanism}: constructing it raised {type(exc).__name__}: {exc}".splitlines()[0]
                ) from exc
        return mech, options.replace(name=options.name or args.mechanism)
    from ..audit_claims import resolve_mechanism

    mech, alg, variant, epsilon, delta = resolve_mechanism(
        args.algorithm, options.variant, options.epsilon, options.delta, registry=_registry()
    )
    return mech, options.replace(variant=variant, epsilon=epsilon, delta=delta, name=options.name or alg.id)


# --------------------------------------------------------------------------- counterexample files

#: Options that a counterexample file written before the options were saved whole may lack, with the values
#: those audits ran with (so that its replay is the audit it records).
_LEGACY_OPTIONS = {
    "statistic": "auto",
    "attack": "auto",
    "fixed_event_scoring": "plug-in",
    # files written before the option existed were audited with the pessimistic rule
    "threshold_scoring": "pessimistic",
}


def _save_counterexample(path, res, *, algorithm, mechanism, features):
    """Write the worst pair, the pairs the audit compared and its options (``features`` as given: MODULE:NAME)."""
    import numpy as np

    ce = res.details.get("counterexample")
    if ce is None:
        raise UsageError("--counterexample: this audit has no counterexample pair to write")
    options = res.options.as_dict()
    options["features"] = features
    # the options whole (read by --replay); beside them what the audit found, and the keys by which a replay
    # before the options were saved whole read the settings
    settings = {
        "algorithm": algorithm,
        "mechanism": mechanism,
        "options": options,
        "variant": res.variant,
        "epsilon": res.claimed_epsilon,
        "delta": res.claimed_delta,
        "method": res.method,
        "seed": res.seed,
        "confidence": res.confidence,
        "samples": res.samples,
        "verdict": res.verdict,
        "epsilon_lower": res.epsilon_lower,
        "event": ce.get("event"),
        "counts": ce.get("counts"),
        "features": features,
        "sampler_samples": options["sampler_samples"],
        **{k: options[k] for k in _LEGACY_OPTIONS},
    }
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
        np.savez(
            path,
            D=np.asarray(ce["D"], dtype=np.float64),
            D_prime=np.asarray(ce["D_prime"], dtype=np.float64),
            settings=np.array(json.dumps(settings, default=str)),
            **arrays,
        )
    except OSError as exc:
        raise UsageError(f"--counterexample {path}: {exc}") from None


def _read_counterexample(path):
    """``(D, D_prime, settings, compared pairs)`` of a file written by ``--counterexample``."""
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
            compared = [
                (np.array(f[f"compared_D_{i}"]), np.array(f[f"compared_D_prime_{i}"]))
                for i in range(int(st.get("compared_pairs") or 0))
            ]
            return np.array(f["D"]), np.array(f["D_prime"]), st, compared
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        if isinstance(exc, UsageError):
            raise
        if isinstance(exc, (json.JSONDecodeError, KeyError)):
            raise UsageError(f"--replay {path}: its settings are not those --counterexample writes ({exc})") from None
        raise npz_error(path, "--replay", exc) from None


def _legacy_options(st):
    """The options of a file that has no ``options`` (written before they were saved whole), as its replay ran
    them: the claim, seed and method, the saved rules (:data:`_LEGACY_OPTIONS` when absent), the saved
    confidence and sampler check, a statistical audit's calls, and its pairs taken as given."""
    saved = {
        "variant": st.get("variant"),
        "epsilon": st["epsilon"],
        "delta": st["delta"],
        "seed": st["seed"],
        "method": st["method"],
        "features": st.get("features"),
        "any_pair": True,
    }
    saved.update({k: st.get(k, default) for k, default in _LEGACY_OPTIONS.items()})
    if st.get("confidence") is not None:  # the audit's own level, not the default
        saved["confidence"] = st["confidence"]
    if st.get("sampler_samples") is not None:
        saved["sampler_samples"] = st["sampler_samples"]
    if st["method"] == "statistical":
        saved["samples"] = max(int(st["samples"]), 100)
    return saved


def _load_replay(path):
    """``(saved options, (algorithm id, mechanism spec), pairs)`` of a counterexample file."""
    D, Dp, st, compared = _read_counterexample(path)
    saved = dict(st["options"]) if "options" in st else _legacy_options(st)
    if compared and st["method"] == "statistical":
        # the same pairs in the same order: the same selection, so the same event and bound
        pairs = [(a, b, f"replayed pair {i} of {len(compared)} from {path}") for i, (a, b) in enumerate(compared)]
    else:
        pairs = [(D, Dp, f"replayed pair from {path}")]
    return saved, (st.get("algorithm"), st.get("mechanism")), pairs


# --------------------------------------------------------------------------- output


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
        ax.step(
            curve["epsilons"],
            curve["delta_lower"],
            "C0-",
            where="pre",  # d_i bounds delta on (eps_{i-1}, eps_i]
            label=f"lower bound, simultaneous at {curve['confidence']}",
        )
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


def _print_result(res, *, as_json):
    if as_json:
        print(json.dumps(res.as_dict(), indent=2, allow_nan=False))
        return
    conf = f" at confidence {res.confidence}" if res.confidence is not None else ""
    print(f"{res.algorithm} [{res.variant}] claim ({res.claimed_epsilon}, {res.claimed_delta})-DP: {res.verdict}")
    print(
        f"  method: {res.method}; epsilon_lower = {res.epsilon_lower:.6g}{conf}"
        + (f"; p-value {res.p_value:.3g}" if res.p_value is not None else "")
        + (f"; {res.samples} mechanism calls" if res.samples else "")
    )
    print(f"  pair: {res.pair}")
    curve = res.details.get("curve")
    if curve is not None:
        cols = [k for k in ("delta_exact", "delta_lower") if k in curve]
        print("  curve (" + curve["method"] + "): epsilon  " + "  ".join(cols))
        for i, e in enumerate(curve["epsilons"]):
            print(f"    {e:10.4g}  " + "  ".join(f"{curve[k][i]:11.4g}" for k in cols))
    print(f"  seed {res.seed}, {res.seconds:.2f} s")


# --------------------------------------------------------------------------- claims other than (epsilon, delta)-DP

#: Settings ``--claim`` reads; the others of ``AuditOptions`` belong to the (epsilon, delta) audit and are refused.
_CLAIM_OPTIONS = ("samples", "confidence", "seed", "jobs", "method", "name", "progress")
#: Mechanism calls of a claim's statistical audit when ``--samples`` is not given.
CLAIM_DEFAULT_SAMPLES = 200_000


def _run_claim(args, given):
    """``--claim TYPE:PARAMETERS``: :func:`~proofs_checks.audit.claim_audit.audit_claim` on one pair."""
    from ..audit.claim_audit import audit_claim
    from ..audit.claim_types import parse_claim

    try:
        claim = parse_claim(args.claim)
    except ValueError as exc:
        raise UsageError(f"--claim: {exc}") from None
    other = sorted(k for k in given if k not in _CLAIM_OPTIONS)
    if other:
        raise UsageError(f"--claim {args.claim} does not take --{', --'.join(o.replace('_', '-') for o in other)}")
    if args.mechanism is None or args.replay or args.counterexample or args.curve_plot:
        raise UsageError("--claim needs --mechanism MODULE:NAME (and no --replay, --counterexample, --curve-plot)")
    options = make_options({**given, "epsilon": 1.0})  # epsilon: a placeholder so the mechanism loads
    mech, options = _mechanism(args, options)
    if args.pair:
        from ..audit.datasets import load_pair

        try:
            pair = load_pair(args.pair)[:2]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise npz_error(args.pair, "--pair", exc) from None
    elif callable(getattr(mech, "pair", None)):
        pair = mech.pair()
    else:
        raise UsageError("--claim needs --pair FILE.npz (or a mechanism with pair())")
    try:
        res = audit_claim(
            mech,
            claim,
            pair,
            method=given.get("method", "auto"),
            samples=given.get("samples", CLAIM_DEFAULT_SAMPLES),
            confidence=options.confidence,
            seed=options.seed,
            jobs=options.jobs,
            name=options.name,
        )
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(res.as_dict(), indent=2, allow_nan=False))
        return 0
    conf = f" at confidence {res.confidence}" if res.confidence is not None else ""
    print(f"{res.name} claim {args.claim}: {res.verdict}")
    print(
        f"  method: {res.method}; {res.bound_name} = {res.bound:.6g}{conf}"
        + (f"; {res.samples} calls" if res.samples else "")
    )
    print(f"  seed {res.seed}, {res.seconds:.2f} s")
    return 0
