"""Designed neighbouring pairs for the audits of 004's algorithms, fixed before any draw (they depend on the domain).

The black-box patterns of :func:`proofs_checks.audit.neighbours.black_box_pairs` hardly move a GLM
learner: a record against its negation ``(x, y) / (-x, -y)`` leaves every squared loss
``(<w, x> - y)^2`` unchanged, and ``x = 0`` records carry no information at all.  The pairs built here
flip the label of one record at the edge of the domain, ``(X e_1, Y)`` against ``(X e_1, -Y)``, the
other records zero (:func:`label_flip_pair`): it moves the gradient of the average loss by ``4 X Y / n``
at every ``w`` (``3/4`` of the ``2 G / n`` of the sensitivity bounds at ``B = X = 1``, ``Y = 3``), so the
output of output perturbation moves by ``12 / (2 + n lam)`` exactly and each noisy-GD step's gradient by
``12 / n``.  Boosting [004 App. E] gets pairs whose validation label flips (:func:`boosting_flip_pair`,
:func:`boosting_validation_pair`) or whose models sit apart (:func:`boosting_split_pair`); noisy GD one
whose iterates keep the whole transcript (:func:`noisy_gd_violation_pair`).  Every function returns
``(D, D', description)``.
"""

from __future__ import annotations

import numpy as np

from reference.validation import check_integer, check_positive

__all__ = [
    "DESIGN_ROWS",
    "label_flip_pair",
    "boosting_flip_pair",
    "noisy_gd_violation_pair",
    "BOOSTING_CHUNK",
    "boosting_validation_pair",
    "BOOSTING_PAPER_CHUNK",
    "BOOSTING_SPLIT_CHUNK",
    "BOOSTING_SPLIT_BAD",
    "boosting_split_pair",
]

#: Records of the designed datasets (as the auditor's default datasets): 8.
DESIGN_ROWS = 8


def label_flip_pair(x_bound, y_bound, n=DESIGN_ROWS, dim=1, row=0):
    """``(D, D', description)``: row ``row`` is ``(X e_1, Y)`` in ``D`` and ``(X e_1, -Y)`` in ``D'``, others zero.

    Examples
    --------
    >>> D, Dp, _ = label_flip_pair(1.0, 3.0, n=3)
    >>> D.tolist(), Dp.tolist()
    ([[1.0, 3.0], [0.0, 0.0], [0.0, 0.0]], [[1.0, -3.0], [0.0, 0.0], [0.0, 0.0]])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    n = check_integer("n", n, minimum=1)
    dim = check_integer("dim", dim, minimum=1)
    row = check_integer("row", row, minimum=0, maximum=n - 1)
    D = np.zeros((n, dim + 1))
    D[row, 0], D[row, -1] = X, Y
    Dp = D.copy()
    Dp[row, -1] = -Y
    return D, Dp, f"row {row}: label flip of the edge record (x = {X:g} e_1, y = +-{Y:g}), other records zero"


def boosting_flip_pair(x_bound, y_bound, m):
    """``(D, D', description)`` for Boosting [004 App. E] with ``m`` models: ``2 (m + 1)`` records
    ``(X e_1, Y)`` (chunks of two), the last one (in the validation chunk ``S_{m+1}``) ``(X e_1, -Y)`` in ``D'``.

    The ``m`` models are trained on the same data, so they differ only by their noise; the flipped
    validation label reverses which of them scores best (the loss moves by ``4 X Y <w, e_1> / 2``), so
    the selected model's first coordinate moves.

    >>> D, Dp, _ = boosting_flip_pair(1.0, 3.0, 1)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, 3.0], [1.0, 3.0], [1.0, 3.0], [1.0, 3.0]], [1.0, -3.0])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    m = check_integer("m", m, minimum=1)
    D = np.tile([X, Y], (2 * (m + 1), 1))
    Dp = D.copy()
    Dp[-1, -1] = -Y
    return (
        D,
        Dp,
        (
            f"label flip of the last validation record (x = {X:g} e_1, y = +-{Y:g}); "
            f"all {2 * (m + 1)} records (x = {X:g} e_1, y = {Y:g}) otherwise"
        ),
    )


def noisy_gd_violation_pair(n=400, x_bound=1.0, y_bound=3.0):
    """``(D, D', description)`` on which noisy GD's output shows its full transcript: ``n`` records ``(X, 0)``
    (d = 1), row 0 ``(X, Y)`` in ``D`` and ``(X, -Y)`` in ``D'``.

    Every record has ``x = X``, so the average squared loss has curvature ``A = 2 X^2`` and its gradient
    ``A w - b`` pulls the iterates to ``b / A = +-Y / n``: they stay far inside the ball (no projection,
    so the output is a linear function of the Gaussian noise, see :func:`~.gaussian_reach.noisy_gd_linear_output`) and
    the average iterate weighs the steps' noises nearly equally (the mean reversion forgets the late
    start), so it keeps almost all of the transcript's ``sqrt(T) Delta / sigma``.  The flip moves
    ``b`` by ``4 X Y / n`` at every ``w``.

    >>> D, Dp, _ = noisy_gd_violation_pair(n=3)
    >>> D.tolist(), Dp[0].tolist()
    ([[1.0, 3.0], [1.0, 0.0], [1.0, 0.0]], [1.0, -3.0])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    n = check_integer("n", n, minimum=1)
    D = np.zeros((n, 2))
    D[:, 0] = X
    D[0, 1] = Y
    Dp = D.copy()
    Dp[0, 1] = -Y
    return (
        D,
        Dp,
        (
            f"{n} records (x = {X:g}, y = 0) in d = 1, row 0 (x = {X:g}, y = +-{Y:g}): the iterates "
            f"revert to +-{Y:g}/n, so the average keeps nearly the whole transcript"
        ),
    )


#: Records per chunk of :func:`boosting_validation_pair` as audited (n = 5 x 64 = 320 at m = 4).
BOOSTING_CHUNK = 64


def boosting_validation_pair(chunk=BOOSTING_CHUNK, m=4, x_bound=1.0, y_bound=3.0):
    """``(D, D', description)`` for Boosting [004 App. E] in d = 1: ``m`` training chunks of ``chunk``
    records ``(X, Y)``, a validation chunk of ``(0, 0)`` records but its last, ``(X, Y)`` in ``D`` and
    ``(X, -Y)`` in ``D'``.

    The ``m`` models are i.i.d. (equal chunks) around the minimiser near ``B``; ``(0, 0)`` records add
    nothing to the scores, so the flipped record alone moves model ``w``'s score by
    ``(min((w + Y)^2, c) - min((w - Y)^2, c)) / chunk`` (``c`` the clip level): up to the full
    sensitivity ``c / chunk`` in opposite directions for models near ``Y`` and near ``-Y``.  Larger
    chunks concentrate the models (output-perturbation noise ``~ 1/sqrt(chunk)``) so that a selected
    model far from the bulk has won against competitors whose scores moved the other way.

    >>> D, Dp, _ = boosting_validation_pair(chunk=2, m=1)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, 3.0], [1.0, 3.0], [0.0, 0.0], [1.0, 3.0]], [1.0, -3.0])
    """
    c = check_integer("chunk", chunk, minimum=1)
    m = check_integer("m", m, minimum=1)
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    D = np.zeros(((m + 1) * c, 2))
    D[: m * c] = [X, Y]
    D[-1] = [X, Y]
    Dp = D.copy()
    Dp[-1, 1] = -Y
    return (
        D,
        Dp,
        (
            f"{m} training chunks of {c} records (x = {X:g}, y = {Y:g}); validation chunk of (0, 0) records "
            f"but the last, y = +-{Y:g}"
        ),
    )


#: Records per chunk of the validation pair on which the paper's readings of Boosting are audited (n = 20 at m = 4).
BOOSTING_PAPER_CHUNK = 4


#: Records per chunk of :func:`boosting_split_pair` as audited at the full profile (n = 5 x 1024 at m = 4).
BOOSTING_SPLIT_CHUNK = 1024
#: Validation records ``(X, Y)`` of :func:`boosting_split_pair` that hold the lone model behind (the gap).
BOOSTING_SPLIT_BAD = 3


def boosting_split_pair(chunk=BOOSTING_SPLIT_CHUNK, bad=BOOSTING_SPLIT_BAD, m=4, x_bound=1.0, y_bound=3.0):
    """``(D, D', description)`` for the calibrated Boosting [004 App. E] in d = 1 whose scores move by
    nearly their full sensitivity in opposite directions: training chunk 1 of ``chunk`` records ``(X, -Y)``,
    chunks 2..m of ``(X, Y)``; the validation chunk holds ``bad`` records ``(X, Y)``, its last record is
    ``(X, -Y)`` in ``D`` and ``(X, Y)`` in ``D'``, the others are ``(0, 0)`` (no loss for any model).

    With a large chunk the models concentrate at the ball's edge, ``-B`` (the lone model) and ``+B`` (the
    others), so the flipped record moves the lone model's loss by ``(B - Y)^2 - (B + Y)^2 = -4 B Y`` and the
    others' by ``+4 B Y``: the score difference moves by ``8 B Y / chunk`` (48/chunk, 0.923 of the
    ``2 Delta / chunk = 52 / chunk`` of the calibration at ``Delta = 2 Y^2 + H B^2 X^2 = 26``).  The ``bad``
    records keep the lone model ``4 B Y (bad - 1) / chunk`` behind in ``D``, where report-noisy-max's Laplace
    tail turns the shift into a likelihood ratio near ``exp(8 B Y / (chunk b))`` on the event that the lone
    model wins: ``1.154 eps`` at the Laplace scale ``b`` of ``1.25 eps``.

    >>> D, Dp, _ = boosting_split_pair(chunk=2, bad=1, m=2)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, -3.0], [1.0, -3.0], [1.0, 3.0], [1.0, 3.0], [1.0, 3.0], [1.0, -3.0]], [1.0, 3.0])
    """
    c = check_integer("chunk", chunk, minimum=2)
    m = check_integer("m", m, minimum=2)
    k = check_integer("bad", bad, minimum=0, maximum=c - 1)
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    D = np.zeros(((m + 1) * c, 2))
    D[:c] = [X, -Y]
    D[c : m * c] = [X, Y]
    D[m * c : m * c + k] = [X, Y]
    D[-1] = [X, -Y]
    Dp = D.copy()
    Dp[-1, 1] = Y
    return (
        D,
        Dp,
        (
            f"training chunk 1 of {c} records (x = {X:g}, y = {-Y:g}), chunks 2-{m} of (x = {X:g}, y = {Y:g}); "
            f"validation: {k} records (x = {X:g}, y = {Y:g}), the last y = {-Y:g} against {Y:g}, others (0, 0)"
        ),
    )
