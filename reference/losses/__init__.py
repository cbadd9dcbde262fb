"""Loss functions with vectorised per-example values and gradients, one module per family.

A loss maps a parameter ``w`` (d,) and records ``X`` (n, d), ``y`` (n,) (see
:func:`reference.records.split_records`) to per-example values ``(n,)`` and gradients
``(n, d)``, computed for all records at once and safe for heavy-tailed records
(:mod:`.base`).

Modules
-------
base
    The :class:`Loss` interface and the per-record scaling that keeps extreme records finite.
squared
    ``(<w, x> - y)^2`` of [002 Alg. 2] and [002 Alg. 3].
logistic
    ``log(1 + exp(-y <w, x>))`` of [002 Sec. 6.1] and its l2-regularised form of [002 Sec. 5.2].
biweight
    Tukey's biweight of the footnote to [002 Thm. 3].

The elementwise functions :func:`squared_of_residual` and :func:`logistic_of_margin` are
the one place of each formula; the GLM losses of 004 (:func:`reference.arora.data.glm_loss`)
use them directly.
"""

from __future__ import annotations

from .base import Loss
from .biweight import BiweightLoss
from .logistic import LogisticLoss, RegularizedLogisticLoss, logistic_of_margin
from .squared import SquaredLoss, squared_of_residual

__all__ = [
    "Loss",
    "SquaredLoss",
    "BiweightLoss",
    "LogisticLoss",
    "RegularizedLogisticLoss",
    "squared_of_residual",
    "logistic_of_margin",
    "get_loss",
    "LOSS_NAMES",
]

_LOSSES = {
    "squared": SquaredLoss,
    "biweight": BiweightLoss,
    "logistic": LogisticLoss,
    "logistic_l2": RegularizedLogisticLoss,
}

#: Names accepted by :func:`get_loss`.
LOSS_NAMES = tuple(_LOSSES)


def get_loss(loss: Loss | str, **params: float) -> Loss:
    """A :class:`Loss` from its name (one of :data:`LOSS_NAMES`) and parameters, or ``loss`` itself.

    Parameters
    ----------
    loss : Loss or str
        A loss (returned as it is) or one of :data:`LOSS_NAMES`.
    **params : float
        The named loss's constructor arguments (``lam`` for ``"logistic_l2"``, ``c`` for ``"biweight"``).

    Returns
    -------
    Loss
        The loss.

    Raises
    ------
    ValueError
        If ``loss`` is neither a :class:`Loss` nor one of :data:`LOSS_NAMES`; or from the constructor, if a
        parameter is out of range.
    TypeError
        From the constructor, if ``params`` has a name it does not take or a value that is not a real number.

    References
    ----------
    .. [1] [002 Sec. 6.1] (squared and logistic losses), [002 Thm. 3] (biweight), [002 Sec. 5.2] (l2-regularised).

    Examples
    --------
    >>> get_loss("logistic_l2", lam=0.1).lam
    0.1
    >>> get_loss("hinge")
    Traceback (most recent call last):
    ValueError: loss must be one of ('squared', 'biweight', 'logistic', 'logistic_l2') or a Loss, got 'hinge'
    """
    if isinstance(loss, Loss):
        return loss
    if not isinstance(loss, str) or loss not in _LOSSES:
        raise ValueError(f"loss must be one of {LOSS_NAMES} or a Loss, got {loss!r}")
    return _LOSSES[loss](**params)
