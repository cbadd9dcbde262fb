"""The options of an audit: :class:`AuditOptions`, one frozen dataclass with every setting of ``audit()``.

Each field has its default, its check (the functions of :mod:`~proofs_checks.audit.checks` and
:mod:`reference.validation`) and its description (the Parameters section of :class:`AuditOptions`).
``python -m proofs_checks audit`` builds its flags from the fields (:func:`cli_spec`, :func:`field_docs`):
flag names, defaults, allowed values and help cannot drift from the Python interface.  This module imports
no numpy (the command line's ``--help`` must answer at once); the checks import what they need when they run.

:func:`~proofs_checks.audit.api.audit` takes the datasets it audits (``pairs``, ``neighbours``, ``data``)
beside the options: they are inputs, not settings (arrays and callables that have no default to compare, no
JSON form and no place in a counterexample file's settings).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Union

from ..verdicts import CONFIDENCE
from .checks import (
    DEFAULT_THRESHOLD_SCORING,
    FIXED_EVENT_SCORINGS,
    METHODS,
    STATISTICS,
    THRESHOLD_SCORINGS,
    check_confidence,
    check_fixed_event_scoring,
    check_method,
    check_sampler_alpha,
    check_samples,
    check_statistic,
    check_threshold_scoring,
)

__all__ = [
    "AuditOptions",
    "DEFAULT_SAMPLES",
    "SAMPLER_SAMPLES",
    "field_docs",
    "cli_spec",
    "build_options",
    "options_table",
]

#: Total mechanism calls of a statistical audit when none is given (the command line's default before the options
#: had one source; the Python interface's was 10^5).
DEFAULT_SAMPLES = 1_000_000
#: Draws per dataset of the exact audit's sampler check outside verify: with two datasets of up to
#: four outcomes it detects a 10% change of any outcome of probability >= 1e-3 with probability
#: 0.95 at error 0.05 (:func:`~proofs_checks.audit.laws.detectable_change` gives 0.098).
SAMPLER_SAMPLES = 2_000_000


# --------------------------------------------------------------------------- checks of the fields without one


def _optional_str(name):
    def check(value):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str or None, got {value!r}")
        return value

    return check


def _is_numpy_bool(value):
    return getattr(value, "shape", None) == () and getattr(getattr(value, "dtype", None), "kind", None) == "b"


def _flag(name, optional=False):
    def check(value):
        if (value is None and optional) or isinstance(value, bool):
            return value
        if _is_numpy_bool(value):  # the same truth value, as a Python bool
            return bool(value)
        raise TypeError(f"{name} must be True or False{' or None' if optional else ''}, got {value!r}")

    return check


def _integer(name, minimum, optional=False):
    def check(value):
        if value is None and optional:
            return None
        from reference.validation import check_integer

        return check_integer(name, value, minimum=minimum)

    return check


def _looks(value):
    from reference.validation import check_integer

    looks = check_integer("sequential_looks", value, minimum=0)
    if looks == 1:
        raise ValueError("sequential_looks must be 0 (one look) or at least 2, got 1")
    return looks


def _epsilon(value):
    if value is None:
        return None
    from reference.validation import check_epsilon

    return check_epsilon(value)


def _delta(value):
    if value is None:
        return None
    from reference.validation import check_probability

    return check_probability("delta", value, low_open=False)


def _sampler_samples(value):
    return SAMPLER_SAMPLES if value is None else _integer("sampler_samples", 0)(value)


def _threshold_scoring(value):
    return check_threshold_scoring(DEFAULT_THRESHOLD_SCORING if value is None else value)


def _attack(value):
    from . import float_attacks  # noqa: F401  (registers the "float" attacks after the auditor's own)
    from .classifiers import check_attack  # the registry of attacks, complete once classifiers is imported

    return check_attack(value)


def _features(value):
    if value is not None and not callable(value):
        from .features import check_features

        check_features(value)  # its TypeError names the parameter
    return value


def _curve(value):
    """``False`` (no curve), ``True`` (the default grid) or the grid as a sorted tuple of distinct floats."""
    if value is None or value is False:
        return False
    if value is True or _is_numpy_bool(value):
        return bool(value)
    from .curves import check_epsilons

    return tuple(float(e) for e in check_epsilons(value, "curve"))


def _attack_names():
    from . import float_attacks  # noqa: F401
    from .classifiers import attack_names

    return attack_names()


def _option(default, check, *, cli="value", type="str", choices=None, metavar=None):
    """A field of :class:`AuditOptions`: its default, its check and how the command line reads it.

    ``cli``: ``"value"`` (``--flag VALUE`` parsed by ``type``: ``"str"``, ``"int"``, ``"float"``,
    ``"non_negative_int"``, ``"positive_int"``; ``"callable"``: ``MODULE:NAME`` loaded by the command),
    ``"flag"`` (``--flag`` sets True) or ``"switch"`` (``--flag`` / ``--no-flag``).  ``choices``: the allowed
    values, a tuple or a zero-argument callable returning them (looked up when needed).
    """
    return field(
        default=default, metadata={"check": check, "cli": cli, "type": type, "choices": choices, "metavar": metavar}
    )


@dataclass(frozen=True)
class AuditOptions:
    """How :func:`~proofs_checks.audit.api.audit` audits a mechanism: every setting, checked once, with its default.

    Build it with keywords (``AuditOptions(epsilon=1.0, samples=10**6)``), change it with :meth:`replace`, and
    pass it to ``audit(mechanism, options)``; ``audit`` also takes the fields as keywords.  Every field is
    checked when the options are made (TypeError or ValueError naming it; nothing is coerced: a number given as
    a string is an error) and kept as the plain Python value (an ``int`` for a numpy integer).  The parameters
    are the fields, of the same names.

    Parameters
    ----------
    variant : str or None
        Label of the variant audited: reported, not used by the audit (the command line builds a registered
        algorithm's variant).
    epsilon : float or None
        The claimed epsilon, > 0: required for a mechanism object; a registered algorithm's own claim when not
        given.
    delta : float or None
        The claimed delta, in [0, 1): 0 for a mechanism object and a registered algorithm's default delta when
        not given.
    samples : int
        Total mechanism calls of a statistical audit, both datasets and all splits (at least 100); also the
        further calls of a statistical curve.
    confidence : float
        Confidence level of the statistical bounds, in (0, 1).
    seed : int
        Seed of every random choice (>= 0): the same seed gives the same audit, whatever jobs is.
    jobs : int
        Parallel workers (>= 1); results do not depend on it.
    method : str
        exact (worst neighbouring pair, exact privacy loss; needs log_prob), statistical (a lower confidence
        bound on epsilon from samples), or auto: exact when the mechanism gives log_prob.
    statistic : str
        Statistical audit: the exact log-likelihood ratio when the mechanism gives it (auto, or exact to require
        it), or estimate it from samples as for a black box.
    attack : str
        Statistical audit with an estimated statistic: the attack whose candidate statistics compete on the
        selection split, or auto for all of them (the registry of proofs_checks.audit.attacks).
    features : callable or None
        Statistical audit: a map from outputs (samples, ...) to a (samples, k) float array; the estimated
        statistics work on its columns (MODULE:NAME on the command line).
    fixed_event_scoring : str
        Statistical audit with an estimated statistic, outputs with atoms: how events a model fixes itself
        compete with searched thresholds on the selection split: plug-in against pessimistic scores, or one
        held-out plug-in rule for both (cross-fit).
    threshold_scoring : str
        Statistical audit with an estimated statistic, outputs without atoms: how searched thresholds compete
        on the selection split: pessimistic scores, or cross-fitted plug-in scores without a winner's curse
        (cross-fit); cross-fit-smooth adds, for one-column outputs, the raw output's threshold chosen with a
        smoothed log-ratio (None: the default).
    any_pair : bool
        Accept given pairs that differ in more than one record (taken as given).
    allow_unseeded : bool
        Statistical audit of a mechanism whose sample ignores its rng (an own random source): draw every split
        in its own calls in this process and mark the result non-reproducible, instead of stopping with an
        error.
    search_budget : int or None
        Neighbour search when no pairs are given (>= 1): law evaluations of the exact search (at least 2;
        default 20,000, or 40 for an expensive log_prob) or distinct black-box pairs of the statistical audit
        (default 12).
    pair_budget : int or None
        Statistical audit without given pairs: mechanism calls of a pair search (heavy-tailed records, the StatDP /
        DP-Sniper patterns at random magnitudes, hill climbing on the estimated divergence) run on calls of its
        own before the audit; its two best pairs join the fixed black-box pairs (None or 0: no search).
    sequential_looks : int
        Statistical audit: draw the estimation split in this many looks and stop when the verdict is settled
        (refuted, or the bound cannot reach the claim at the full size); each look's bound at error
        (1 - confidence) / looks, so the confidence holds (0: one look, the default; else >= 2).
    refine_steps : int
        Exact search: hill-climbing steps without improvement before a climb stops (>= 0; 0 skips the climb).
    sampler_samples : int
        Exact audit: draws per dataset of the sampler's goodness-of-fit check against log_prob (0 skips it;
        None: the default).
    sampler_alpha : float or None
        Exact audit: error of the sampler check, its chance of refuting a correct sampler, in (0, 1); when not
        given, 1 - confidence.
    curve : bool or tuple of float
        Also give the privacy curve delta(eps) of the worst pair: exact for exact audits, a lower curve
        simultaneous over the grid from further calls for statistical ones; True (--curve) for the default
        grid, or the grid itself (--curve-epsilons).
    name : str or None
        Name reported for the mechanism; when not given, its class name (the command line: the algorithm id,
        or MODULE:NAME of --mechanism).
    progress : bool or None
        tqdm progress bars on stderr; when not given, when stderr is a terminal.

    Examples
    --------
    >>> options = AuditOptions(epsilon=1.0, samples=20_000, seed=3)
    >>> options.samples, options.confidence, options.threshold_scoring
    (20000, 0.95, 'cross-fit-smooth')
    >>> options.replace(seed=4).seed
    4
    >>> AuditOptions(samples=50)
    Traceback (most recent call last):
    ...
    ValueError: samples must be >= 100 (total mechanism calls), got 50
    """

    variant: Optional[str] = _option(None, _optional_str("variant"), metavar="VARIANT")
    epsilon: Optional[float] = _option(None, _epsilon, type="float", metavar="E")
    delta: Optional[float] = _option(None, _delta, type="float", metavar="D")
    samples: int = _option(DEFAULT_SAMPLES, check_samples, type="int", metavar="N")
    confidence: float = _option(CONFIDENCE, check_confidence, type="float", metavar="C")
    seed: int = _option(0, _integer("seed", 0), type="non_negative_int", metavar="S")
    jobs: int = _option(1, _integer("jobs", 1), type="positive_int", metavar="J")
    method: str = _option("auto", check_method, choices=METHODS)
    statistic: str = _option("auto", check_statistic, choices=STATISTICS)
    attack: str = _option("auto", _attack, choices=_attack_names, metavar="ATTACK")
    features: Optional[Callable] = _option(None, _features, type="callable", metavar="MODULE:NAME")
    fixed_event_scoring: str = _option("plug-in", check_fixed_event_scoring, choices=FIXED_EVENT_SCORINGS)
    threshold_scoring: str = _option(DEFAULT_THRESHOLD_SCORING, _threshold_scoring, choices=THRESHOLD_SCORINGS)
    any_pair: bool = _option(False, _flag("any_pair"), cli="flag")
    allow_unseeded: bool = _option(False, _flag("allow_unseeded"), cli="flag")
    search_budget: Optional[int] = _option(None, _integer("search_budget", 1, optional=True), type="int", metavar="N")
    pair_budget: Optional[int] = _option(None, _integer("pair_budget", 0, optional=True), type="int", metavar="CALLS")
    sequential_looks: int = _option(0, _looks, type="int", metavar="L")
    refine_steps: int = _option(30, _integer("refine_steps", 0), type="int", metavar="N")
    sampler_samples: int = _option(SAMPLER_SAMPLES, _sampler_samples, type="int", metavar="N")
    sampler_alpha: Optional[float] = _option(None, check_sampler_alpha, type="float", metavar="ALPHA")
    curve: Union[bool, tuple] = _option(False, _curve, cli="flag")
    name: Optional[str] = _option(None, _optional_str("name"), metavar="NAME")
    progress: Optional[bool] = _option(None, _flag("progress", optional=True), cli="switch")

    def __post_init__(self):
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, f.metadata["check"](getattr(self, f.name)))

    def replace(self, **changes: Any) -> "AuditOptions":
        """A copy with ``changes`` (field names; TypeError naming an unknown one), checked like a new one.

        >>> AuditOptions().replace(samples=10_000).samples
        10000
        """
        return build_options(self, changes)

    def as_dict(self) -> dict:
        """The fields as JSON values: ``features`` as ``"module:qualname"`` (the command line's ``MODULE:NAME``),
        ``curve`` as a list when it is a grid.

        >>> AuditOptions(curve=[0.0, 1.0]).as_dict()["curve"]
        [0.0, 1.0]
        """
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if out["features"] is not None:
            fn = getattr(out["features"], "fn", out["features"])  # a UserFeatures wraps the user's callable
            out["features"] = f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', type(fn).__name__)}"
        if isinstance(out["curve"], tuple):
            out["curve"] = list(out["curve"])
        return out


def build_options(options: Optional[AuditOptions] = None, fields: Optional[Mapping[str, Any]] = None) -> AuditOptions:
    """``options`` (default :class:`AuditOptions()`) with the keyword ``fields`` given over it.

    Raises
    ------
    TypeError
        ``options`` is not an :class:`AuditOptions`, or ``fields`` names no field (the message names it).

    Examples
    --------
    >>> build_options(AuditOptions(seed=2), {"samples": 10_000}).seed
    2
    >>> build_options(None, {"epsilo": 1.0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: unknown audit option 'epsilo'; the options are the fields of AuditOptions: variant, epsilon, ...
    """
    if options is None:
        options = AuditOptions()
    elif not isinstance(options, AuditOptions):
        raise TypeError(f"options must be an AuditOptions, got {type(options).__name__}")
    fields = dict(fields or {})
    if not fields:
        return options
    known = [f.name for f in dataclasses.fields(AuditOptions)]
    unknown = [k for k in fields if k not in known]
    if unknown:
        raise TypeError(
            f"unknown audit option {unknown[0]!r}; the options are the fields of AuditOptions: {', '.join(known)}"
        )
    return dataclasses.replace(options, **fields)


_FIELD = re.compile(r"^    (\w+) : (.+)$")


def field_docs() -> dict:
    """``{field: (type, description)}`` read from the Parameters section of :class:`AuditOptions`
    (the command line's help of each flag).

    >>> field_docs()["seed"][0]
    'int'
    """
    doc = AuditOptions.__doc__
    if doc is None:  # python -OO drops docstrings, and with them the flags' help
        raise RuntimeError("AuditOptions has no docstring (python -OO?): the command line's help is read from it")
    lines = doc[doc.index("    Parameters\n    ----------\n") : doc.index("    Examples\n")].splitlines()[2:]
    out: dict[str, tuple[str, list[str]]] = {}
    name: str | None = None
    for line in lines:
        m = _FIELD.match(line)
        if m:
            name = m.group(1)
            out[name] = (m.group(2), [])
        elif line.strip() and name is not None:
            out[name][1].append(line.strip())
    return {k: (t, " ".join(words)) for k, (t, words) in out.items()}


def cli_spec() -> list:
    """One dict per field, in field order: ``name``, ``flag`` (``--field-name``), ``default``, ``cli``, ``type``,
    ``choices``, ``metavar`` and ``help`` (its description), from which the command line makes its flags.

    >>> [s["flag"] for s in cli_spec()][:3]
    ['--variant', '--epsilon', '--delta']
    """
    docs = field_docs()
    return [
        {
            "name": f.name,
            "flag": "--" + f.name.replace("_", "-"),
            "default": f.default,
            "cli": f.metadata["cli"],
            "type": f.metadata["type"],
            "choices": f.metadata["choices"],
            "metavar": f.metadata["metavar"],
            "help": docs.get(f.name, (None, None))[1],
        }
        for f in dataclasses.fields(AuditOptions)
    ]


def options_table() -> str:
    """The options as a Markdown table (``docs/auditor.md`` shows it; a test checks it is the current one).

    >>> options_table().splitlines()[2].startswith("| `variant` | `--variant VARIANT` |")
    True
    """
    rows = ["| option | flag | default | allowed values | description |", "|---|---|---|---|---|"]
    for spec in cli_spec():
        flag = {"flag": spec["flag"], "switch": f"{spec['flag']} / --no-{spec['flag'][2:]}"}.get(
            spec["cli"], f"{spec['flag']} {spec['metavar'] or ''}".rstrip()
        )
        choices = spec["choices"]
        if callable(choices):
            allowed = "`auto` or a registered attack (`attack_names()`)"
        elif choices is not None:
            allowed = ", ".join(f"`{c}`" for c in choices)
        else:
            allowed = field_docs()[spec["name"]][0]
        rows.append(
            f"| `{spec['name']}` | `{flag}` | `{spec['default']}` | {allowed} | {spec['help'].replace('|', '/')} |"
        )
    return "\n".join(rows)
