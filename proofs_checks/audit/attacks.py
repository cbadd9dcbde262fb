"""The attacks of the statistical audit by name: the registry that ``attack=`` and ``--attack`` choose from.

An *attack* turns the fitting rows of the selection split into candidate statistics ``s(o)``; all candidates
of the chosen attacks compete on the scoring rows for the one event the estimation split tests
(:mod:`~proofs_checks.audit.statistical`).  ``attack="auto"`` runs every attack registered with
``in_auto=True``; any other value runs that attack alone.  The auditor's own attacks (``logistic``,
``histogram``, ``per-coordinate``, ``joint-logistic``) register in :mod:`~proofs_checks.audit.classifiers`;
:func:`~proofs_checks.audit.classifiers.attack_names` lists every attack and
:func:`~proofs_checks.audit.classifiers.check_attack` checks a value of ``attack``.

Adding an attack is one call, :func:`register_attack`, with its name, a one-line description (shown by
``--help``) and its *fits*: ``fits(a, b)`` receives the fitting rows (2-D float arrays, outputs on the
numerator dataset ``a`` and on the other ``b``) and returns zero-argument callables, the independent fits
(run on :data:`~proofs_checks.audit.classifiers.FIT_THREADS` threads, their results kept in order), each
returning a list of statistics: callables ``s(outputs) -> (samples,)`` floats, with a ``name`` for the
report.  The statistics are fitted on the fitting rows only, so the confidence of the audit holds
whatever they are (the proof note of :mod:`~proofs_checks.audit.classifiers`).

This module imports nothing else of the project (no numpy): the command line reads the names to build
its parser.

Examples
--------
>>> class Largest:
...     name = "largest coordinate"
...     def __call__(self, outputs):
...         return outputs.max(axis=1)
>>> def largest_fits(a, b):
...     return [lambda: [Largest()]]
>>> entry = register_attack("largest", "the largest coordinate of the output", largest_fits, in_auto=False)
>>> "largest" in [attack.name for attack in registered_attacks()]
True
>>> unregister_attack("largest") is entry
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional, TypeVar, Union, overload

__all__ = ["AUTO", "Attack", "register_attack", "unregister_attack", "registered_attacks", "check_attack_name"]

#: The ``attack`` value that runs every attack registered with ``in_auto=True``.
AUTO = "auto"
_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")


@dataclass(frozen=True)
class Attack:
    """One registered attack: what :func:`register_attack` makes and returns.

    Parameters
    ----------
    name : str
        The value of ``attack=`` / ``--attack`` that selects it (lower case, digits and hyphens).
    description : str
        One line on what it fits, shown by ``python -m proofs_checks audit --help``.
    fits : callable
        ``fits(a, b) -> [fit, ...]``: zero-argument callables, each returning a list of statistics
        (see the module notes).
    in_auto : bool
        Whether ``attack="auto"`` runs it.
    builtin : bool
        One of the auditor's own attacks: they come first, in their order of registration, so that an attack
        a user registers cannot change which of two equal scores wins.

    Examples
    --------
    >>> from proofs_checks.audit.classifiers import attack_names
    >>> attack = Attack("constant", "a constant statistic", lambda a, b: [], in_auto=False)
    >>> attack.name, attack.in_auto, attack.builtin, "logistic" in attack_names()
    ('constant', False, False, True)
    """

    name: str
    description: str
    fits: Callable
    in_auto: bool = True
    builtin: bool = False


_REGISTRY: dict[str, Attack] = {}


def check_attack_name(name: str) -> str:
    """``name`` is a str of lower-case letters, digits and hyphens starting with a letter, other than ``"auto"``.

    >>> check_attack_name("my-attack")
    'my-attack'
    """
    if not isinstance(name, str):
        raise TypeError(f"attack name must be a str, got {name!r}")
    if name == AUTO or not _NAME.match(name):
        raise ValueError(
            f"attack name must be lower-case letters, digits and hyphens starting with a letter, and "
            f"not {AUTO!r}; got {name!r}"
        )
    return name


_Fits = TypeVar("_Fits", bound=Callable)


@overload
def register_attack(
    name: str, description: str, fits: None = None, *, in_auto: bool = True, builtin: bool = False
) -> Callable[[_Fits], _Fits]: ...


@overload
def register_attack(
    name: str, description: str, fits: Callable, *, in_auto: bool = True, builtin: bool = False
) -> Attack: ...


def register_attack(
    name: str, description: str, fits: Optional[Callable] = None, *, in_auto: bool = True, builtin: bool = False
) -> Union[Attack, Callable]:
    """Register an attack; with ``fits`` omitted, a decorator registering the function it decorates.

    Parameters
    ----------
    name : str
        Its ``attack=`` value (:func:`check_attack_name`); not registered already.
    description : str
        One non-empty line.
    fits : callable, optional
        ``fits(a, b) -> [fit, ...]`` (module notes).
    in_auto : bool, default True
        Run by ``attack="auto"`` too.
    builtin : bool, default False
        The auditor's own attacks only (:attr:`Attack.builtin`).

    Returns
    -------
    Attack
        The registered entry (the decorator returns the function itself).

    Raises
    ------
    TypeError
        ``fits`` is not callable, or ``description`` / ``in_auto`` / ``builtin`` have the wrong type.
    ValueError
        A bad or already registered name, or an empty description.

    Examples
    --------
    As a decorator (the module's notes show the direct call):

    >>> @register_attack("first-coordinate", "the output's first coordinate", in_auto=False)
    ... def first_coordinate_fits(a, b):
    ...     return [lambda: [lambda outputs: outputs[:, 0]]]
    >>> unregister_attack("first-coordinate").fits is first_coordinate_fits
    True
    """
    check_attack_name(name)
    if name in _REGISTRY:
        raise ValueError(f"attack {name!r} is registered already (unregister_attack({name!r}) first)")
    if not isinstance(description, str):
        raise TypeError(f"description must be a str, got {description!r}")
    if not description.strip() or "\n" in description:
        raise ValueError(f"description must be one non-empty line, got {description!r}")
    for flag, value in (("in_auto", in_auto), ("builtin", builtin)):
        if not isinstance(value, bool):
            raise TypeError(f"{flag} must be a bool, got {value!r}")
    if fits is None:

        def decorate(function):
            register_attack(name, description, function, in_auto=in_auto, builtin=builtin)
            return function

        return decorate
    if not callable(fits):
        raise TypeError(f"fits of attack {name!r} must be callable, got {fits!r}")
    entry = Attack(name, description, fits, in_auto, builtin)
    _REGISTRY[name] = entry
    return entry


def unregister_attack(name: str) -> Attack:
    """Remove the attack ``name`` and return its entry.

    Parameters
    ----------
    name : str
        A registered attack's name.

    Returns
    -------
    Attack
        The entry removed.

    Raises
    ------
    KeyError
        ``name`` is not registered (the message names the registered attacks).

    Examples
    --------
    >>> entry = register_attack("sum", "the sum of the output's coordinates", lambda a, b: [], in_auto=False)
    >>> unregister_attack("sum") is entry
    True
    >>> unregister_attack("sum")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "no attack 'sum' is registered; registered: ..."
    """
    if name not in _REGISTRY:
        raise KeyError(f"no attack {name!r} is registered; registered: {', '.join(_REGISTRY) or 'none'}")
    return _REGISTRY.pop(name)


def registered_attacks() -> tuple[Attack, ...]:
    """The registered attacks: the auditor's own first, then the others, each group in order of registration.

    Only the attacks registered so far: the auditor's own register when
    :mod:`~proofs_checks.audit.classifiers` is imported (its
    :func:`~proofs_checks.audit.classifiers.attack_names` lists them all).
    """
    entries = list(_REGISTRY.values())
    return tuple([e for e in entries if e.builtin] + [e for e in entries if not e.builtin])
