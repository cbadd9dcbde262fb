"""Injected faults: a module attribute replaced by a broken version for the length of a ``with`` block.

The power of a gray-box check is measured on mutants *inside* the algorithm: the noise scale, the declared
sensitivity, the per-step budget or the selection weight of one primitive call site off by a factor.  Rather
than copy the reference implementation, a check factory replaces the function the algorithm looks up at run
time (``reference.hu.sparse.peeling``, the function computing a sensitivity, a per-step budget) by a wrapper of
the original, and the original is always put back, whatever the block raises.

References
----------
.. [1] R. A. DeMillo, R. J. Lipton and F. G. Sayward, "Hints on test data selection: help for the practicing
   programmer", Computer 11 (1978) (mutation testing: a check's power is the faults it detects).
.. [2] T. Cebere et al., "Re:cord-play", PETS 2026 (faults planted in privacy libraries).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["injected_fault"]

_MISSING = object()


@contextlib.contextmanager
def injected_fault(owner: Any, attribute: str, replacement_factory: Callable[[Any], Any]) -> Iterator[Any]:
    """Replace ``owner.attribute`` by ``replacement_factory(original)`` inside the block; always restore it.

    Parameters
    ----------
    owner : object
        A module, class or instance holding the attribute (the namespace the algorithm reads it from: a name
        imported with ``from ... import`` lives in the importing module too).
    attribute : str
        The attribute's name; it must exist.
    replacement_factory : callable
        ``original -> replacement``: builds the broken version from the original (for example
        ``lambda f: lambda *a, **k: 0.5 * f(*a, **k)``).

    Yields
    ------
    object
        The replacement (also installed as ``owner.attribute``).

    Raises
    ------
    TypeError
        If ``attribute`` is not a string or ``replacement_factory`` not callable.
    AttributeError
        If ``owner`` has no attribute ``attribute``.

    Notes
    -----
    Faults nest: an inner fault on the same attribute wraps the outer replacement and restores it on exit.  An
    attribute found on ``owner`` through its class (not in its own ``__dict__``) is deleted again on exit rather
    than set, so the owner ends exactly as it started.

    References
    ----------
    .. [1] R. A. DeMillo, R. J. Lipton and F. G. Sayward, Computer 11 (1978).

    Examples
    --------
    >>> import types
    >>> lib = types.SimpleNamespace(scale=lambda x: 2.0 * x)
    >>> with injected_fault(lib, "scale", lambda original: lambda x: 0.5 * original(x)):
    ...     lib.scale(1.0)
    1.0
    >>> lib.scale(1.0)
    2.0
    """
    if not isinstance(attribute, str):
        raise TypeError(f"attribute must be a string, got {attribute!r} of type {type(attribute).__name__}")
    if not callable(replacement_factory):
        raise TypeError(f"replacement_factory must be callable, got {replacement_factory!r}")
    original = getattr(owner, attribute)
    own = getattr(owner, "__dict__", None)
    stored = own.get(attribute, _MISSING) if isinstance(own, dict) else original
    replacement = replacement_factory(original)
    setattr(owner, attribute, replacement)
    try:
        yield replacement
    finally:
        if stored is _MISSING:
            delattr(owner, attribute)
        else:
            setattr(owner, attribute, stored)
