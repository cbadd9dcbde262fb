"""Figures of error against the rate variable on log axes, with the stated rate as a reference line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["plot_rate", "save_figure"]


def save_figure(fig, path):
    """Write ``fig`` to ``path`` (parents created), close it, and return the path."""
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def plot_rate(path, x, errors, stated_exponent, *, quantile=None, xlabel="n * epsilon", title=""):
    """Write a PNG: mean (and quantile) error against ``x`` with the line ``C x^(-a)`` through the smallest x."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.asarray(x, dtype=float)
    err = np.asarray(errors, dtype=float)
    order = np.argsort(x, kind="stable")  # grids may mix n and eps: draw in increasing x
    x, err = x[order], err[order]
    mean = err.mean(axis=1)
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=110)
    ax.loglog(x, mean, "o-", label="mean error")
    if quantile is not None:
        ax.loglog(x, np.quantile(err, quantile, axis=1), "s--", label=f"{quantile:g} quantile")
    ref = mean[0] * (x / x[0]) ** (-stated_exponent)
    ax.loglog(x, ref, "k:", label=f"stated rate x^({-stated_exponent:g})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("excess risk")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save_figure(fig, path)
