"""BCMNUW20/ABM19/LVSUW21/NB20 bounds drawn: n and m of several results on one log-log figure as one parameter
varies (``python -m bounds plot IDS --vary PARAM``, and the report's bound figures).

Every curve is a quantity :func:`bounds.api.sweep_arrays` evaluates (the explicit form where the proof pins the
constants, as ``compute`` prints it), in log10 so that values beyond floating point are drawn too. Where a
result declares a departure from a printed constant (``Result.departures`` whose label says "printed"), the
printed value is drawn dashed beside the corrected one. Where two results' curves of the same quantity cross,
the crossing is marked and named with the value there (:func:`crossings`; the same bisection as ``crossover``).
matplotlib is imported only here, when a figure is asked for.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .errors import DomainError

#: the quantities drawn by default: private and public sample sizes
QUANTITIES = ("private_samples", "public_samples")
SUFFIXES = (".png", ".svg", ".pdf")
_LETTER = {"private_samples": "n", "public_samples": "m"}


@dataclass
class Curve:
    result: str          # short id
    quantity: str
    label: str
    log10: np.ndarray
    printed: bool = False  # the printed constants' value beside a corrected one


@dataclass
class Plot:
    vary: str
    grid: np.ndarray
    curves: list[Curve] = field(default_factory=list)
    crossings: list[dict] = field(default_factory=list)


def _grid(vary: str, low, high, points: int) -> np.ndarray:
    from .params import PARAMS

    if vary not in PARAMS:
        raise DomainError(f"--vary {vary}: unknown parameter (python -m bounds show ID lists a result's parameters)")
    p = PARAMS[vary]
    lo = low if low is not None else (1e-3 if p.domain.high == 1 else 1)
    hi = high if high is not None else (0.5 if p.domain.high == 1 else 1e6)
    if not (0 < lo < hi):
        raise DomainError(f"--vary {vary} over [{lo}, {hi}]: need 0 < low < high")
    grid = np.geomspace(float(lo), float(hi), points)
    return np.unique(np.round(grid)) if p.domain.integer else grid


def curves(ids, *, vary: str, low=None, high=None, points: int = 200, quantities=QUANTITIES, form="explicit",
           constants=None, **params) -> Plot:
    """The curves of ``ids`` over ``vary``, each result at the parameters it takes (as ``compare``)."""
    from .api import _consts_for, sweep_arrays
    from .registry import get

    grid = _grid(vary, low, high, points)
    out = Plot(vary, grid)
    results = [get(i) for i in ids]
    if not any(vary in r.params for r in results):
        raise DomainError(f"--vary {vary}: none of {', '.join(r.short_id for r in results)} takes it")
    for r in results:
        names = {q.name for q in r.quantities}
        wanted = [q for q in quantities if q in names]
        if not wanted:
            raise DomainError(f"{r.short_id} bounds none of {', '.join(quantities)}; choose with --quantity")
        mine = {k: v for k, v in params.items() if k in r.params}
        if vary in r.params:
            mine[vary] = list(grid)
        _, _, evs = sweep_arrays(r.id, form=form, constants=_consts_for(r, constants), **mine)
        printed = {d.quantity: d.reference for d in r.departures if "printed" in d.label}
        for q in wanted:
            log10 = np.broadcast_to(evs[q].log10.ravel(), grid.shape).astype(float)
            out.curves.append(Curve(r.short_id, q, f"{r.short_id}: {_LETTER.get(q, q)}", log10))
            ref = printed.get(q)
            if ref and ref in evs:
                out.curves.append(Curve(r.short_id, q, f"{r.short_id}: {_LETTER.get(q, q)} as printed",
                                        np.broadcast_to(evs[ref].log10.ravel(), grid.shape).astype(float), True))
    out.crossings = crossings(out)
    return out


def crossings(plot: Plot) -> list[dict]:
    """Where two results' (corrected) curves of the same quantity cross on the grid: the parameter value
    (log-linear interpolation between the grid points around the sign change) and the quantity's value there."""
    out = []
    main = [c for c in plot.curves if not c.printed]
    for i, a in enumerate(main):
        for b in main[i + 1:]:
            if a.quantity != b.quantity or a.result == b.result:
                continue
            d = a.log10 - b.log10
            ok = np.isfinite(d)
            for k in np.nonzero(ok[:-1] & ok[1:] & (np.sign(d[:-1]) * np.sign(d[1:]) < 0))[0]:
                x0, x1 = math.log(plot.grid[k]), math.log(plot.grid[k + 1])
                t = d[k] / (d[k] - d[k + 1])
                at = math.exp(x0 + t * (x1 - x0))
                value = a.log10[k] + t * (a.log10[k + 1] - a.log10[k])
                out.append({"quantity": a.quantity, "first": a.result, "second": b.result, "at": at,
                            "log10_value": float(value),
                            "larger_below": a.result if d[k] > 0 else b.result})
    return out


def figure(plot: Plot, title: str = ""):
    """A matplotlib figure of ``plot``: x on a log scale, y as log10 of the sample size (so values beyond
    floating point are drawn), n solid, m dash-dotted, printed constants dashed, crossings marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    colours = {}
    for c in plot.curves:
        colour = colours.setdefault(c.result, f"C{len(colours)}")
        style = "--" if c.printed else ("-" if c.quantity == "private_samples" else "-.")
        ax.plot(plot.grid, c.log10, style, color=colour, lw=1.2 if c.printed else 1.8, label=c.label)
    for x in plot.crossings:
        ax.axvline(x["at"], color="grey", lw=0.8, ls=":")
        ax.plot([x["at"]], [x["log10_value"]], "o", color="black", ms=4)
        ax.annotate(f"{_LETTER.get(x['quantity'], x['quantity'])}: {x['first']} = {x['second']}\n"
                    f"at {plot.vary} = {x['at']:.3g}, {_power(x['log10_value'])}",
                    (x["at"], x["log10_value"]), textcoords="offset points", xytext=(6, 8), fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel(plot.vary)
    ax.set_ylabel("log10 of the sample size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


def _power(log10: float) -> str:
    return f"{10 ** log10:,.0f}" if log10 < 9 else f"10^{log10:.2f}"


def check_out(path: str) -> str:
    from pathlib import Path

    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise DomainError(f"--out {path!r}: the suffix says the format; use one of {', '.join(SUFFIXES)}")
    parent = Path(path).parent
    if not parent.is_dir():
        raise DomainError(f"--out {path!r}: no directory {str(parent)!r}")
    return path


def cmd(ns, params: dict, constants: dict) -> int:
    """``python -m bounds plot IDS --vary PARAM --out FILE``: writes the figure (format by suffix) and prints
    each crossing."""
    import os
    import tempfile
    from pathlib import Path

    out = check_out(ns.out)
    quantities = tuple(q.strip() for q in ns.quantity.split(",")) if ns.quantity else QUANTITIES
    if ns.vary in params:
        raise DomainError(f"--{ns.vary.replace('_', '-')} is the parameter --vary draws along the x axis: set its "
                          "range with --low and --high instead")
    plot = curves(ns.ids, vary=ns.vary, low=ns.low, high=ns.high, points=ns.points, quantities=quantities,
                  form=ns.form, constants=constants, **params)
    fig = figure(plot, title=f"{', '.join(ns.ids)} as {ns.vary} varies")
    suffix = Path(out).suffix
    fd, tmp = tempfile.mkstemp(suffix=suffix, dir=str(Path(out).parent), prefix=".plot-")
    os.close(fd)
    try:  # the file appears whole or not at all
        fig.savefig(tmp, dpi=150, format=suffix[1:])
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
        import matplotlib.pyplot as plt

        plt.close(fig)
    for x in plot.crossings:
        print(f"crossover of {_LETTER.get(x['quantity'], x['quantity'])}: {x['first']} = {x['second']} at "
              f"{plot.vary} = {x['at']:.6g}, where it is {_power(x['log10_value'])}; below it "
              f"{x['larger_below']} is larger")
    print(f"wrote {out} ({len(plot.curves)} curves, {len(plot.crossings)} crossings)")
    return 0
