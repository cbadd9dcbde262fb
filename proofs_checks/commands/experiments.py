"""``python -m proofs_checks experiments``: the synthetic experiments of Section 6 of 002 (Figures 1, 2, 5-11)."""

from __future__ import annotations

import json
import math
import sys
import time
from typing import TYPE_CHECKING

from . import UsageError
from ._common import add_backend_arguments, non_negative_int, positive_int, usable_out_dir

__all__ = ["NAME", "HELP", "EPILOG", "USAGE_ERRORS", "add_arguments", "plot_figure", "saved_panels", "run"]

NAME = "experiments"
HELP = "reproduce the synthetic experiments of Section 6 of 002 (Hu et al.): tables and figures"
EPILOG = """\
examples:
  python -m proofs_checks experiments --figure 1            # quick profile, a few seconds
  python -m proofs_checks experiments --profile full --jobs 2 --out s6 --resume
"""
USAGE_ERRORS = ()

_LAZY = (
    "FIGURE_ALGORITHM",
    "PAPER_NUMBERS",
    "REAL_DATA_FIGURES",
    "panels_for",
    "run_panel",
    "to_jsonable",
    "save_figure",
)


if TYPE_CHECKING:  # the lazily loaded names, for linters and type checkers
    from ..experiments.section6 import FIGURE_ALGORITHM, PAPER_NUMBERS, REAL_DATA_FIGURES, panels_for, run_panel
    from ..jsonable import to_jsonable
    from ..rates.plot import save_figure


def _load():
    """Import the experiment modules on first use, not when ``--help`` builds the parser.

    Names already set (by a test's monkeypatch) are kept.
    """
    from ..experiments import section6
    from ..jsonable import to_jsonable
    from ..rates.plot import save_figure

    g = globals()
    for name in _LAZY[:5]:
        g.setdefault(name, getattr(section6, name))
    g.setdefault("to_jsonable", to_jsonable)
    g.setdefault("save_figure", save_figure)


def __getattr__(name):  # PEP 562: ``experiments.run_panel`` and friends load on first access
    if name in _LAZY:
        _load()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def add_arguments(parser):
    parser.add_argument("--figure", type=int, metavar="N", help="only this figure (1, 2, 5-11; 3 and 4 need UCI data)")
    parser.add_argument(
        "--profile",
        choices=("quick", "full"),
        default="quick",
        help="quick (small sizes, CI) or full (the paper's sizes, 20 repetitions; hours)",
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=1, help="worker processes; results do not depend on it (default: 1)"
    )
    add_backend_arguments(parser)
    parser.add_argument("--seed", type=non_negative_int, default=20261121, help="run seed (default: %(default)s)")
    parser.add_argument(
        "--out",
        default="experiments-report",
        metavar="DIR",
        help="folder for the figures and section6_<profile>[_figureN].json, rewritten after "
        "each panel (default: %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="reuse the panels already saved in --out by an interrupted run with the same "
        "profile, seed and figure selection (the JSON is rewritten after every panel)",
    )


def _label(panel):
    return {"epsilon": "epsilon", "n": "n", "s_star": "s*", "n_private": "n"}[panel.vary]


def plot_figure(path, figure, results):
    """Write one PNG with the figure's three panels: mean excess risk with error bars of one s.e., the
    blind-walk level (dotted, where it applies) and the numbers the text of 002 gives (black stars)."""
    _load()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.4), dpi=100)
    axes = list(axes) if len(results) > 1 else [axes]
    for ax, (panel, rows) in zip(axes, results):
        key = "n" if panel.vary == "n_private" else panel.vary
        for d in panel.dims:
            for priv in (True, False) if panel.vary == "n_private" else (None,):
                sel = [r for r in rows if r["d"] == d and (priv is None or r["private"] == priv)]
                lab = f"d={d}" + ("" if priv is None else (" private" if priv else " non-private"))
                line = ax.errorbar(
                    [r[key] for r in sel],
                    [r["mean"] for r in sel],
                    yerr=[0 if math.isnan(r["se"]) else r["se"] for r in sel],
                    marker="o",
                    label=lab,
                )
                blind = [(r[key], r["blind_walk_level"]) for r in sel if r.get("blind_walk_level") is not None]
                if blind:
                    ax.plot(*zip(*blind), linestyle=":", color=line[0].get_color(), label=f"d={d} blind walk")
        paper = [
            (item[key], item["excess_risk"])
            for item in PAPER_NUMBERS.get(figure, [])
            if item.get("panel") == panel.panel and key in item and "excess_risk" in item
        ]
        if paper:
            ax.plot(*zip(*paper), linestyle="none", marker="*", markersize=11, color="black", label="paper (text)")
        ax.set_xlabel(_label(panel))
        ax.set_ylabel("excess population risk")
        ax.set_title(f"Figure {figure}({panel.panel})", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return save_figure(fig, path)


def _write_json(path, report, *, finished):
    _load()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(to_jsonable(dict(report, finished=finished)), indent=2) + "\n")
    tmp.replace(path)  # an interrupted write never leaves a truncated report behind


_NUMERIC_ROW_FIELDS = ("mean", "se", "q90")
_PANEL_SPEC_FIELDS = ("panel", "vary", "fixed", "repetitions")


def _panel_key(panel):
    _load()
    return {k: to_jsonable(getattr(panel, k)) for k in _PANEL_SPEC_FIELDS}


def saved_panels(path, profile, seed):
    """Rows of the panels an earlier run saved in ``path``: ``{(figure, panel): (spec, rows)}``.

    Raises ``ValueError`` when the saved run used another profile or seed (its rows would not be
    those of this run).
    """
    saved = json.loads(path.read_text())
    if saved.get("profile") != profile or saved.get("seed") != seed:
        raise ValueError(
            f"--resume: {path} holds profile={saved.get('profile')!r}, seed={saved.get('seed')!r}, "
            f"this run has profile={profile!r}, seed={seed!r}"
        )
    out = {}
    for fig in saved.get("figures", []):
        for p in fig["panels"]:
            # JSON keeps non-finite floats as strings ("nan"); float() restores them
            rows = [dict(r, **{k: float(r[k]) for k in _NUMERIC_ROW_FIELDS}) for r in p["rows"]]
            spec = {k: p[k] for k in _PANEL_SPEC_FIELDS}
            out[(fig["figure"], p["panel"])] = (spec, rows)
    return out


def run(args):
    _load()
    try:
        panels = panels_for(args.profile, args.figure)
    except ValueError as exc:
        raise UsageError(f"--figure: {exc}") from None
    figures = sorted({p.figure for p in panels})
    out = usable_out_dir(args.out)
    report = {"profile": args.profile, "seed": args.seed, "figures": []}
    suffix = "" if args.figure is None else f"_figure{args.figure}"
    report_path = out / f"section6_{args.profile}{suffix}.json"
    try:
        done = saved_panels(report_path, args.profile, args.seed) if args.resume and report_path.exists() else {}
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    start = time.perf_counter()
    for f in figures:
        results = []
        t0 = time.perf_counter()
        entry = {
            "figure": f,
            "algorithm": FIGURE_ALGORITHM[f][0],
            "loss": FIGURE_ALGORITHM[f][1],
            "paper": PAPER_NUMBERS.get(f, []),
            "panels": [],
            "resumed_panels": [],
        }
        report["figures"].append(entry)
        for panel in [p for p in panels if p.figure == f]:
            spec, rows = done.get((f, panel.panel), (None, None))
            print(f"figure {f}({panel.panel}) ...", file=sys.stderr, end=" ", flush=True)
            if rows is not None and spec == _panel_key(panel):
                entry["resumed_panels"].append(panel.panel)
                print(f"saved in {report_path}", file=sys.stderr, flush=True)
            else:
                t1 = time.perf_counter()
                rows = run_panel(panel, seed=args.seed, jobs=args.jobs)
                print(f"{time.perf_counter() - t1:.1f} s", file=sys.stderr, flush=True)
            results.append((panel, rows))
            entry["panels"].append(dict(_panel_key(panel), rows=rows))
            # a full run takes hours: keep every finished panel on disk (see --resume)
            _write_json(report_path, report, finished=False)
        entry["png"] = str(plot_figure(out / "figures" / f"section6_figure{f}.png", f, results))
        entry["seconds"] = round(time.perf_counter() - t0, 2)
        _write_json(report_path, report, finished=False)
    report["seconds"] = round(time.perf_counter() - start, 2)
    report["not_run"] = {str(k): v + " (UCI data, not available offline)" for k, v in REAL_DATA_FIGURES.items()}
    _write_json(report_path, report, finished=True)
    print(f"results written to {report_path}", file=sys.stderr)
    if args.json:
        print(json.dumps(to_jsonable(report), indent=2))
        return 0
    for fig in report["figures"]:
        print(
            f"Figure {fig['figure']} (Algorithm {fig['algorithm']}, {fig['loss']} loss), {fig['seconds']} s, "
            f"{fig['png']}"
        )
        for p in fig["panels"]:
            for r in p["rows"]:
                tag = "" if "private" not in r else ("  private" if r["private"] else "  non-private")
                if r.get("blind_walk_level") is not None:
                    tag += f"  (blind walk {r['blind_walk_level']:.3g})"
                var = {"n_private": "n"}.get(p["vary"], p["vary"])
                print(
                    f"  ({p['panel']}) d={r['d']:<4} {var}={r[var]:<8g} excess risk {r['mean']:.4g} "
                    f"(s.e. {r['se']:.2g}, q90 {r['q90']:.4g}, {r['repetitions']} runs){tag}"
                )
        for item in fig["paper"]:
            print(f"  paper: {item}")
    print(f"total {report['seconds']} s; figures 3, 4 not run (UCI data)")
    return 0
