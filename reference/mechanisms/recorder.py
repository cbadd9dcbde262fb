"""Recording the privacy primitives an algorithm calls: one event per call, for gray-box audits.

Every privacy primitive of :mod:`reference.mechanisms` (and every place where an algorithm of the three
papers draws privacy noise or makes a private selection) hands its draw to :func:`record_call`, with what
the privacy proof composes: the data-dependent input, the sensitivity the caller declared for it and its
norm, the budget the caller's accounting charges, the exact law the sampler consumed, the public
arguments and the citation tag of the step.  With no active recorder :func:`record_call` only runs the
draw (one context-variable lookup), so results are bit for bit those of an unrecorded run.

Two context managers activate it:

``recording()``
    runs the algorithm and keeps its :class:`Transcript` (a tuple of :class:`PrimitiveCall`);
``replaying(transcript)``
    runs the algorithm again (on a neighbour, with the same seed) and forces every primitive's output to
    the recorded one; a different primitive or different public arguments at the same position raises
    :class:`ControlFlowDivergence`.  The draws are still made, so the random stream stays aligned with
    the first run.

The exact per-call laws live in a registry (:class:`PrimitiveLaw`, :func:`register_primitive`): the
replay engine computes each call's privacy loss from ``law`` without knowing the primitive.  The
built-in laws (laplace, gaussian, categorical, report_noisy_max, gem, peeling) are registered when
:mod:`reference.mechanisms` is imported (:mod:`reference.mechanisms.primitive_laws`).  A user declares
a function of theirs a primitive with :func:`primitive`, or a third-party function for the length of a
``with`` block with :func:`wrapped_primitive`.

Cost, measured on one DP-FW run ([002 Alg. 1], squared loss, n = 200, d = 20 so 40 vertices, T = 50; best of
40 x 3 runs on the project's shared 2-core machine, base and new alternated four times):

* no recorder active: 9.17 ms per run against 9.31 ms before the recorder existed, i.e. not measurable (the
  spread between repetitions is 9-18 ms); :func:`record_call` with no recorder costs 0.22 us, and the run
  makes 50 selections, about 11 us or 0.1 %;
* recording: 18.7 ms per run (x2): each selection's event recomputes the scores the fused sampler does not
  keep (the robust gradients of [002 Alg. 1 steps 4-5]) and copies the data, law and output.

A batch of one run (``public["batch"] == (1,)``) is one run through a batched interface: the base learners
of 004 are called for ``size`` runs by Boosting and Private Grid Search, one run included.

References
----------
.. [1] T. Cebere, A. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play: gray-box auditing
       of differential privacy implementations", PETS 2026 (record on D, replay on D' with the
       primitives' outputs frozen).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import math
import numbers
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "NORMS",
    "PrimitiveCall",
    "PrimitiveLaw",
    "Transcript",
    "Replay",
    "ControlFlowDivergence",
    "register_primitive",
    "unregister_primitive",
    "primitive_law",
    "registered_primitives",
    "record_call",
    "recorder_active",
    "recording",
    "replaying",
    "primitive",
    "wrapped_primitive",
]

T = TypeVar("T")
_Session = TypeVar("_Session", bound="Transcript")

#: The norms a declared sensitivity may be stated in.
NORMS = ("l1", "l2", "linf")


@dataclass(frozen=True)
class PrimitiveCall:
    """One call of a privacy primitive, as the recorder saw it.

    Parameters
    ----------
    index : int
        Position in the run's transcript (0, 1, 2, ...).
    primitive : str
        The registered primitive name (:func:`registered_primitives`).
    data : numpy.ndarray of float64
        The data-dependent input whose change the declared sensitivity bounds (a copy): the query value(s)
        of Laplace or Gaussian, the score vector of a selection, ``v`` of Peeling.
    sensitivity : float
        The sensitivity the caller declared for ``data`` (what calibrated the noise); may be ``inf``.
    norm : str
        ``"l1"``, ``"l2"`` or ``"linf"``: the norm in which ``sensitivity`` bounds the change of ``data``.
    privacy : Mapping[str, float]
        The budget the caller's accounting charges for this call, e.g. ``{"epsilon": e}``; ``{}`` if none.
    law : Mapping[str, Any]
        Exactly what the sampler consumed (arrays copied), e.g. ``{"center": x, "scale": b}`` for Laplace.
    public : Mapping[str, Any]
        The public arguments (compared exactly between a run and its replay).
    output : Any
        What the primitive returned (a copy).
    site : str
        The caller's site, the citation tag of the step (e.g. ``"[002 Alg. 2 step 4]"``).

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> import numpy as np
    >>> with recording() as transcript:
    ...     _ = record_call("laplace", data=1.0, sensitivity=1.0, norm="l1", privacy={"epsilon": 1.0},
    ...                     law={"center": 1.0, "scale": 1.0}, public={}, sample=lambda: 1.5, site="doc")
    >>> call = transcript.calls[0]
    >>> call.index, call.primitive, float(call.data), call.output, call.site
    (0, 'laplace', 1.0, 1.5, 'doc')
    """

    index: int
    primitive: str
    data: np.ndarray
    sensitivity: float
    norm: str
    privacy: Mapping[str, float]
    law: Mapping[str, Any]
    public: Mapping[str, Any]
    output: Any
    site: str


@dataclass(frozen=True)
class PrimitiveLaw:
    """The exact law of a registered primitive, for the replay engine.

    Parameters
    ----------
    name : str
        The primitive's name, as :func:`record_call` receives it.
    log_prob : callable ``(law, output) -> float``
        ``log P(output | law)`` (a log-density for continuous outputs), for a call's ``law`` mapping.
    norm : str
        The norm its sensitivity is stated in (one of :data:`NORMS`).
    accounting : callable ``(PrimitiveCall) -> (str, float)`` or None
        The call as a standard mechanism under its declared sensitivity, for composition:
        ``("laplace", scale / sensitivity)``, ``("gaussian", sigma / sensitivity)`` or
        ``("pure", epsilon_bound)``; ``None`` when no closed form exists.
    noise : callable ``(law, output) -> numpy.ndarray`` or None
        The standardised noise of an output (e.g. ``(output - center) / scale`` for Laplace), whose law is
        fixed (documented in ``description``); ``None`` for a selection without one.
    description : str
        One line: what the law is and the law of the standardised noise.
    components : callable ``(PrimitiveCall) -> tuple of (str, float)`` or None, default None
        The call as a sequence of standard mechanisms (each as ``accounting`` gives one) whose composition
        the paper's proof uses, when it is tighter than the single ``accounting`` bound (Peeling: ``s``
        selections and ``s`` Laplace releases); ``None``: the call is its ``accounting``.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> primitive_law("laplace").norm
    'l1'
    """

    name: str
    log_prob: Callable[[Mapping[str, Any], Any], float]
    norm: str
    accounting: Callable[[PrimitiveCall], tuple[str, float]] | None
    noise: Callable[[Mapping[str, Any], Any], np.ndarray] | None
    description: str
    components: Callable[[PrimitiveCall], tuple[tuple[str, float], ...]] | None = None


class ControlFlowDivergence(RuntimeError):
    """A replay left the recorded path: another primitive, other public arguments, or more calls.

    Parameters
    ----------
    index : int
        Position of the first diverging call.
    field : str
        What differs: ``"primitive"``, ``"public"``, ``"public[<key>]"`` or ``"length"`` (more calls than
        the transcript holds).
    recorded, replayed : Any
        The two values (``None`` for the missing side of ``"length"``).
    site : str
        The site of the replayed call.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026 (control flow and public parameters must not depend
       on the private data).

    Examples
    --------
    >>> str(ControlFlowDivergence(3, "public[k]", 2, 5, "[004 Alg. 1 step 8]"))
    'replay diverges at call 3 ([004 Alg. 1 step 8]): public[k] recorded 2, replayed 5'
    """

    def __init__(self, index: int, field: str, recorded: Any, replayed: Any, site: str) -> None:
        self.index = index
        self.field = field
        self.recorded = recorded
        self.replayed = replayed
        self.site = site
        super().__init__(
            f"replay diverges at call {index} ({site or 'no site'}): {field} recorded {recorded!r}, "
            f"replayed {replayed!r}"
        )

    def __reduce__(self):
        return (type(self), (self.index, self.field, self.recorded, self.replayed, self.site))


# ----------------------------------------------------------------------------------------------------------
# the law registry

_LAWS: dict[str, PrimitiveLaw] = {}


def register_primitive(law: PrimitiveLaw) -> None:
    """Register the law of a primitive under ``law.name``.

    Parameters
    ----------
    law : PrimitiveLaw
        The law; its name must be new, its norm one of :data:`NORMS`, ``log_prob`` callable.

    Raises
    ------
    TypeError
        If ``law`` is not a :class:`PrimitiveLaw` or ``log_prob``, ``accounting`` or ``noise`` is not callable.
    ValueError
        If the name is empty or already registered (nothing is replaced silently: unregister first), or the
        norm is not one of :data:`NORMS`.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> law = PrimitiveLaw("coin", lambda law, out: math.log(0.5), "l1", None, None, "a fair coin")
    >>> register_primitive(law)
    >>> "coin" in registered_primitives()
    True
    >>> unregister_primitive("coin")
    """
    if not isinstance(law, PrimitiveLaw):
        raise TypeError(f"law must be a PrimitiveLaw, got {law!r} of type {type(law).__name__}")
    if not isinstance(law.name, str) or not law.name:
        raise ValueError(f"law.name must be a non-empty string, got {law.name!r}")
    if law.name in _LAWS:
        raise ValueError(f"primitive {law.name!r} is already registered; unregister_primitive({law.name!r}) first")
    _check_norm("law.norm", law.norm)
    if not callable(law.log_prob):
        raise TypeError(f"law.log_prob must be callable, got {law.log_prob!r}")
    for name in ("accounting", "noise", "components"):
        value = getattr(law, name)
        if value is not None and not callable(value):
            raise TypeError(f"law.{name} must be callable or None, got {value!r}")
    _LAWS[law.name] = law


def unregister_primitive(name: str) -> None:
    """Remove the law registered under ``name``.

    Parameters
    ----------
    name : str
        A registered primitive name.

    Raises
    ------
    ValueError
        If ``name`` is not registered.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> unregister_primitive("no such primitive")
    Traceback (most recent call last):
    ...
    ValueError: unknown primitive 'no such primitive'; registered: categorical, gaussian, gem, laplace, peeling, report_noisy_max
    """
    primitive_law(name)
    del _LAWS[name]


def primitive_law(name: str) -> PrimitiveLaw:
    """The law registered under ``name``.

    Parameters
    ----------
    name : str
        A registered primitive name.

    Returns
    -------
    PrimitiveLaw

    Raises
    ------
    ValueError
        If ``name`` is not registered (the message lists the registered names).

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> primitive_law("gaussian").norm
    'l2'
    """
    try:
        return _LAWS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown primitive {name!r}; registered: {', '.join(registered_primitives())}") from None


def registered_primitives() -> tuple[str, ...]:
    """The registered primitive names, sorted.

    Returns
    -------
    tuple of str

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> registered_primitives()
    ('categorical', 'gaussian', 'gem', 'laplace', 'peeling', 'report_noisy_max')
    """
    return tuple(sorted(_LAWS))


# ----------------------------------------------------------------------------------------------------------
# transcripts and the active session


class Transcript:
    """The primitive calls of one recorded run, in order (:attr:`calls`).

    Filled while its :func:`recording` block runs; read it after.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> with recording() as transcript:
    ...     pass
    >>> transcript.calls, len(transcript)
    ((), 0)
    """

    def __init__(self) -> None:
        self._calls: list[PrimitiveCall] = []

    @property
    def calls(self) -> tuple[PrimitiveCall, ...]:
        """The calls recorded so far, in order."""
        return tuple(self._calls)

    def __len__(self) -> int:
        return len(self._calls)

    def __repr__(self) -> str:
        names = ", ".join(call.primitive for call in self._calls[:8])
        more = ", ..." if len(self._calls) > 8 else ""
        return f"{type(self).__name__}({len(self._calls)} calls: {names}{more})"

    def _emit(self, primitive, data, sensitivity, norm, privacy, law, public, output, site):
        call = PrimitiveCall(
            index=len(self._calls),
            primitive=primitive,
            data=data,
            sensitivity=sensitivity,
            norm=norm,
            privacy=privacy,
            law=law,
            public=public,
            output=_copied(output),
            site=site,
        )
        self._calls.append(call)
        return output


class Replay(Transcript):
    """The calls of a replayed run, each with the recorded output it was forced to.

    Parameters
    ----------
    recorded : Transcript
        The transcript being replayed (kept as the attribute ``recorded``).

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> with recording() as first:
    ...     _ = record_call("laplace", data=0.0, sensitivity=1.0, norm="l1", privacy={}, law={}, public={},
    ...                     sample=lambda: 0.25)
    >>> with replaying(first) as again:
    ...     record_call("laplace", data=1.0, sensitivity=1.0, norm="l1", privacy={}, law={}, public={},
    ...                 sample=lambda: 9.0)
    0.25
    >>> again.complete
    True
    """

    def __init__(self, recorded: Transcript) -> None:
        super().__init__()
        self.recorded = recorded
        self._recorded_calls = recorded.calls

    @property
    def complete(self) -> bool:
        """Whether every recorded call was replayed (no fewer calls than the first run)."""
        return len(self._calls) == len(self._recorded_calls)

    def _emit(self, primitive, data, sensitivity, norm, privacy, law, public, output, site):
        index = len(self._calls)
        if index >= len(self._recorded_calls):
            raise ControlFlowDivergence(index, "length", None, primitive, site)
        recorded = self._recorded_calls[index]
        if recorded.primitive != primitive:
            raise ControlFlowDivergence(index, "primitive", recorded.primitive, primitive, site)
        _check_same_public(index, recorded.public, public, site)
        super()._emit(primitive, data, sensitivity, norm, privacy, law, public, recorded.output, site)
        return _copied(recorded.output)


_ACTIVE: ContextVar[Transcript | None] = ContextVar("reference_mechanisms_recorder", default=None)


def recorder_active() -> bool:
    """Whether a :func:`recording` or :func:`replaying` block is active here (and not suspended).

    A caller may test it to skip work that only an event needs (computing the scores of a selection
    whose sampler reads fused log-weights).

    Returns
    -------
    bool

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> recorder_active()
    False
    >>> with recording():
    ...     recorder_active()
    True
    """
    return _ACTIVE.get() is not None


@contextlib.contextmanager
def recording() -> Iterator[Transcript]:
    """Record every primitive call made inside the block.

    Yields
    ------
    Transcript
        Filled as the block runs.

    Raises
    ------
    RuntimeError
        If a recorder is already active (transcripts do not nest).

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> from reference.mechanisms import laplace_mechanism
    >>> with recording() as transcript:
    ...     _ = laplace_mechanism([1.0, 2.0], sensitivity=1.0, epsilon=0.5, rng=0)
    >>> [(call.primitive, call.law["scale"]) for call in transcript.calls]
    [('laplace', 2.0)]
    """
    with _activated(Transcript()) as transcript:
        yield transcript


@contextlib.contextmanager
def replaying(transcript: Transcript) -> Iterator[Replay]:
    """Replay ``transcript``: every primitive call inside the block returns the recorded output.

    The draws are still made (the random stream stays aligned with the recorded run); the primitive name
    and the public arguments of each call are compared with the recorded call at the same position.

    Parameters
    ----------
    transcript : Transcript
        A transcript from :func:`recording`.

    Yields
    ------
    Replay
        The replayed calls (their own data, sensitivity, privacy and law; the recorded outputs) and
        ``complete``.

    Raises
    ------
    TypeError
        If ``transcript`` is not a :class:`Transcript`.
    RuntimeError
        If a recorder is already active.
    ControlFlowDivergence
        From inside the block, at the first call whose primitive or public arguments differ, or beyond the
        recorded length.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> from reference.mechanisms import laplace_mechanism
    >>> with recording() as first:
    ...     released = laplace_mechanism(1.0, sensitivity=1.0, epsilon=1.0, rng=0)
    >>> with replaying(first) as second:
    ...     forced = laplace_mechanism(2.0, sensitivity=1.0, epsilon=1.0, rng=0)
    >>> bool(forced == released), float(second.calls[0].data), second.complete
    (True, 2.0, True)
    """
    if not isinstance(transcript, Transcript):
        raise TypeError(f"transcript must be a Transcript, got {transcript!r} of type {type(transcript).__name__}")
    with _activated(Replay(transcript)) as replay:
        yield replay


@contextlib.contextmanager
def _activated(session: _Session) -> Iterator[_Session]:
    if _ACTIVE.get() is not None:
        raise RuntimeError("a recorder is already active: recording() and replaying() blocks do not nest")
    token = _ACTIVE.set(session)
    try:
        yield session
    finally:
        _ACTIVE.reset(token)


def record_call(
    primitive: str,
    *,
    data: Any,
    sensitivity: float,
    norm: str,
    privacy: Mapping[str, float],
    law: Mapping[str, Any],
    public: Mapping[str, Any],
    sample: Callable[[], T],
    site: str = "",
) -> T:
    """Run one privacy primitive's draw ``sample()`` and report it to the active recorder, if any.

    Parameters
    ----------
    primitive : str
        A registered primitive name (:func:`registered_primitives`).
    data : array_like of real numbers, or a callable returning one
        The data-dependent input whose change ``sensitivity`` bounds; recorded as a float64 copy.  A
        zero-argument callable is called only when a recorder is active (after the draw): for a caller whose
        sampler reads fused log-weights and would compute the scores for the event alone.
    sensitivity : float
        The sensitivity the caller declared for ``data``, ``>= 0`` (``inf`` allowed).
    norm : str
        One of :data:`NORMS`.
    privacy : Mapping[str, float]
        The budget the caller's accounting charges for this call (``{}`` if none).
    law : Mapping[str, Any], or a callable returning one
        Exactly what the sampler consumes (arrays are copied).  A zero-argument callable is called only when a
        recorder is active (after the draw), for a law whose parameters cost work to state.
    public : Mapping[str, Any]
        Public arguments: scalars, strings, tuples or numpy arrays (copied).
    sample : callable ``() -> T``
        The draw itself.  While it runs the recorder is suspended, so a primitive built from other
        primitives makes one event.
    site : str, default ""
        The citation tag of the caller's step.

    Returns
    -------
    T
        ``sample()``; when replaying, the recorded output instead (``sample()`` is still called).

    Raises
    ------
    ControlFlowDivergence
        When replaying, if the primitive or the public arguments differ from the recorded call at this
        position, or the transcript has no call left.
    TypeError, ValueError
        When a recorder is active and an argument is malformed (an unregistered primitive, an unknown
        norm, a negative or NaN sensitivity, ``data`` not real numbers, a mapping that is not one).  With
        no recorder active nothing is checked: the call is exactly ``sample()``.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> record_call("laplace", data=0.0, sensitivity=1.0, norm="l1", privacy={}, law={}, public={},
    ...             sample=lambda: 0.5)
    0.5
    """
    session = _ACTIVE.get()
    if session is None:
        return sample()
    token = _ACTIVE.set(None)
    try:
        output = sample()
    finally:
        _ACTIVE.reset(token)
    primitive_law(primitive)
    return session._emit(
        primitive,
        _data_copy(data() if callable(data) else data),
        _check_sensitivity(sensitivity),
        _check_norm("norm", norm),
        _frozen_mapping("privacy", privacy),
        _frozen_mapping("law", law() if callable(law) else law),
        _frozen_mapping("public", public),
        output,
        _check_site(site),
    )


# ----------------------------------------------------------------------------------------------------------
# users' primitives


def primitive(
    name: str,
    *,
    data: str | Callable[[Mapping[str, Any]], Any],
    sensitivity: str | float | Callable[[Mapping[str, Any]], float],
    law: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    norm: str | None = None,
    privacy: Callable[[Mapping[str, Any]], Mapping[str, float]] | None = None,
    public: tuple[str, ...] | Callable[[Mapping[str, Any]], Mapping[str, Any]] = (),
    site: str = "",
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Declare a function a privacy primitive: each call reports one event to the active recorder.

    Every declaration reads the call's bound arguments (a mapping from parameter names to values, defaults
    applied), and only while a recorder is active: an unrecorded call costs one context-variable lookup.

    Parameters
    ----------
    name : str
        The registered law the function samples (:func:`register_primitive`); checked when a call is
        recorded, so the law may be registered after the decoration.
    data : str or callable
        The parameter holding the data-dependent input, or ``bound -> data``.
    sensitivity : str, float or callable
        The parameter holding the declared sensitivity, a constant, or ``bound -> float``.
    law : callable
        ``bound -> mapping``: what the sampler consumes, in the registered law's keys.
    norm : str or None, default None
        The norm of the sensitivity; ``None``: the registered law's.
    privacy : callable or None, default None
        ``bound -> {"epsilon": ..., ...}``; ``None``: ``{}``.
    public : tuple of str or callable, default ()
        The parameters that are public (compared exactly on replay), or ``bound -> mapping``.
    site : str, default ""
        The tag reported as the call's site.

    Returns
    -------
    callable
        A decorator; the decorated function keeps its name, signature and docstring.

    Raises
    ------
    TypeError
        If ``name`` or ``site`` is not a string, or a declaration is neither a parameter name nor callable.
    ValueError
        If a parameter name is not one of the function's parameters (at decoration), or ``norm`` is not one
        of :data:`NORMS`.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026 (declaring a library's functions primitives).

    Examples
    --------
    >>> import numpy as np
    >>> @primitive("laplace", data="value", sensitivity="sensitivity",
    ...            law=lambda a: {"center": a["value"], "scale": a["sensitivity"] / a["epsilon"]},
    ...            privacy=lambda a: {"epsilon": a["epsilon"]}, site="my lib")
    ... def my_laplace(value, sensitivity, epsilon, rng=None):
    ...     return value + np.random.default_rng(rng).laplace(0.0, sensitivity / epsilon)
    >>> with recording() as transcript:
    ...     _ = my_laplace(3.0, 1.0, 0.5, rng=0)
    >>> call = transcript.calls[0]
    >>> call.primitive, call.law["scale"], call.privacy["epsilon"], call.site
    ('laplace', 2.0, 0.5, 'my lib')
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string, got {name!r}")
    if norm is not None:
        _check_norm("norm", norm)
    _check_site(site)

    def decorate(func: Callable[..., T]) -> Callable[..., T]:
        signature = inspect.signature(func)
        declare = _Declaration(name, signature, data, sensitivity, law, norm, privacy, public, site)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if _ACTIVE.get() is None:
                return func(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return declare.record(bound.arguments, lambda: func(*args, **kwargs))

        wrapper.__wrapped_primitive__ = name  # type: ignore[attr-defined]  # a marker attribute on the function
        return wrapper

    return decorate


@contextlib.contextmanager
def wrapped_primitive(
    owner: Any,
    attribute: str,
    name: str,
    *,
    data: str | Callable[[Mapping[str, Any]], Any],
    sensitivity: str | float | Callable[[Mapping[str, Any]], float],
    law: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    norm: str | None = None,
    privacy: Callable[[Mapping[str, Any]], Mapping[str, float]] | None = None,
    public: tuple[str, ...] | Callable[[Mapping[str, Any]], Mapping[str, Any]] = (),
    site: str = "",
) -> Iterator[Callable[..., Any]]:
    """Declare ``owner.attribute`` (a third party's function) a primitive for the length of the block.

    The attribute is replaced by its :func:`primitive`-decorated form and restored on exit, whatever
    happens inside; the library's code is not edited.

    Parameters
    ----------
    owner : object
        A module, class or instance holding the function.
    attribute : str
        The attribute's name.
    name, data, sensitivity, law, norm, privacy, public, site
        As in :func:`primitive`.

    Yields
    ------
    callable
        The wrapped function (also installed as ``owner.attribute``).

    Raises
    ------
    TypeError
        If ``attribute`` is not a string or ``owner.attribute`` is not callable; as :func:`primitive`.
    ValueError
        As :func:`primitive`.
    AttributeError
        If ``owner`` has no attribute ``attribute``.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026.

    Examples
    --------
    >>> import types
    >>> lib = types.SimpleNamespace(noisy=lambda value, scale: value + 0.0 * scale)
    >>> with wrapped_primitive(lib, "noisy", "laplace", data="value", sensitivity=1.0,
    ...                        law=lambda a: {"center": a["value"], "scale": a["scale"]}):
    ...     with recording() as transcript:
    ...         _ = lib.noisy(2.0, scale=3.0)
    >>> transcript.calls[0].law["scale"], hasattr(lib.noisy, "__wrapped_primitive__")
    (3.0, False)
    """
    if not isinstance(attribute, str):
        raise TypeError(f"attribute must be a string, got {attribute!r}")
    original = getattr(owner, attribute)
    if not callable(original):
        raise TypeError(f"{attribute!r} of {owner!r} must be callable, got {original!r}")
    in_dict = isinstance(getattr(owner, "__dict__", None), Mapping) and attribute in vars(owner)
    raw = vars(owner)[attribute] if in_dict else original
    target = raw
    wrap_kind = None
    if isinstance(raw, (staticmethod, classmethod)):
        wrap_kind, target = type(raw), raw.__func__
    wrapped = primitive(
        name, data=data, sensitivity=sensitivity, law=law, norm=norm, privacy=privacy, public=public, site=site
    )(target)
    setattr(owner, attribute, wrap_kind(wrapped) if wrap_kind is not None else wrapped)
    try:
        yield wrapped
    finally:
        if in_dict:
            setattr(owner, attribute, raw)
        else:
            delattr(owner, attribute)


class _Declaration:
    """How a decorated function's bound arguments map to an event's fields."""

    def __init__(self, name, signature, data, sensitivity, law, norm, privacy, public, site):
        parameters = signature.parameters
        self.name = name
        self.data = self._getter("data", data, parameters)
        self.sensitivity = (
            (lambda bound, value=float(sensitivity): value)
            if isinstance(sensitivity, numbers.Real) and not isinstance(sensitivity, bool)
            else self._getter("sensitivity", sensitivity, parameters)
        )
        if not callable(law):
            raise TypeError(f"law must be callable (bound arguments -> mapping), got {law!r}")
        self.law = law
        self.norm = norm
        if privacy is not None and not callable(privacy):
            raise TypeError(f"privacy must be callable or None, got {privacy!r}")
        self.privacy = privacy
        if callable(public):
            self.public = public
        elif isinstance(public, tuple) and all(isinstance(p, str) for p in public):
            for p in public:
                self._check_parameter("public", p, parameters)
            self.public = lambda bound, names=public: {p: bound[p] for p in names}
        else:
            raise TypeError(f"public must be a tuple of parameter names or callable, got {public!r}")
        self.site = site

    @classmethod
    def _getter(cls, what, spec, parameters):
        if callable(spec):
            return spec
        if isinstance(spec, str):
            cls._check_parameter(what, spec, parameters)
            return lambda bound, key=spec: bound[key]
        raise TypeError(f"{what} must be a parameter name or callable, got {spec!r}")

    @staticmethod
    def _check_parameter(what, name, parameters):
        if name not in parameters:
            raise ValueError(
                f"{what} names {name!r}, which is not a parameter of the function ({', '.join(parameters)})"
            )

    def record(self, bound, sample):
        norm = self.norm if self.norm is not None else primitive_law(self.name).norm
        return record_call(
            self.name,
            data=self.data(bound),
            sensitivity=self.sensitivity(bound),
            norm=norm,
            privacy={} if self.privacy is None else self.privacy(bound),
            law=self.law(bound),
            public=self.public(bound),
            sample=sample,
            site=self.site,
        )


# ----------------------------------------------------------------------------------------------------------
# checks and copies (only while recording)


def _check_norm(name: str, norm: Any) -> str:
    if norm not in NORMS:
        raise ValueError(f"{name} must be one of {', '.join(NORMS)}, got {norm!r}")
    return norm


def _check_site(site: Any) -> str:
    if not isinstance(site, str):
        raise TypeError(f"site must be a string, got {site!r} of type {type(site).__name__}")
    return site


def _check_sensitivity(sensitivity: Any) -> float:
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, numbers.Real):
        raise TypeError(f"sensitivity must be a real number, got {sensitivity!r} of type {type(sensitivity).__name__}")
    value = float(sensitivity)
    if math.isnan(value) or value < 0.0:
        raise ValueError(f"sensitivity must be >= 0 (inf allowed), got {sensitivity!r}")
    return value


def _data_copy(data: Any) -> np.ndarray:
    arr = np.asarray(data)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"data must be an array of real numbers, got dtype {arr.dtype}")
    if np.iscomplexobj(arr):
        raise TypeError("data must be an array of real numbers, got complex values")
    out = np.array(arr, dtype=np.float64, copy=True)
    out.flags.writeable = False
    return out


def _copied(value: Any) -> Any:
    """A copy that later changes to ``value`` cannot reach (arrays read-only), nested containers included."""
    if isinstance(value, np.ndarray):
        out = value.copy()
        out.flags.writeable = False
        return out
    if isinstance(value, tuple):
        return tuple(_copied(v) for v in value)
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, Mapping):
        return MappingProxyType({k: _copied(v) for k, v in value.items()})
    if isinstance(value, (str, bytes, numbers.Number, type(None), np.generic)):
        return value
    return copy.deepcopy(value)


def _frozen_mapping(name: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a mapping, got {value!r} of type {type(value).__name__}")
    for key in value:
        if not isinstance(key, str):
            raise TypeError(f"{name} keys must be strings, got {key!r}")
    return _copied(value)


def _check_same_public(index: int, recorded: Mapping[str, Any], replayed: Mapping[str, Any], site: str) -> None:
    if set(recorded) != set(replayed):
        raise ControlFlowDivergence(index, "public", tuple(sorted(recorded)), tuple(sorted(replayed)), site)
    for key in recorded:
        if not _same(recorded[key], replayed[key]):
            raise ControlFlowDivergence(index, f"public[{key}]", recorded[key], replayed[key], site)


def _same(a: Any, b: Any) -> bool:
    """Exact equality of public values: same type family, shape, dtype kind and entries (NaN equal to NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (
            isinstance(a, Mapping) and isinstance(b, Mapping) and set(a) == set(b) and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, numbers.Real) and isinstance(b, numbers.Real):
            fa, fb = float(a), float(b)
            return fa == fb or (math.isnan(fa) and math.isnan(fb))
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return a is b
