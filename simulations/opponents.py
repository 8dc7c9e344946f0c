"""The validation contract's opponents (docs/DESIGN.md) run on an experiment's own draws and summarised.

For query release on a finite class an experiment hands :func:`answer_opponents` what one trial drew: D's answers
(``truth``), the private sample's exact answers and size, the public sample's and its size (any of them may be
absent when the experiment has none), and for thresholds or intervals the private sample on its grid. Every
opponent of ``algorithms.opponents.CATALOGUE`` that applies is run there and judged by the same rule as the
paper's algorithm (Err = max_h |G(h) - E_D h|). :func:`summarise_opponents` turns the per-trial errors into one
``contract.baseline`` record per opponent (with error mean and max), names the strongest opponent (highest
success rate, then lowest mean error) and whether it failed, the same among the private-only ones, and lists the
opponents weaker than the data-free constant on the same draws (a paired one-sided test: the mean of
err(opponent) - err(constant) is above 0 at the run's confidence), which the contract counts as a defect.
"""
from __future__ import annotations

import math

import numpy as np

from simulations import contract

#: the catalogue's opponents this module runs, in the order a summary lists them
PRIVATE_ONLY = ("gaussian", "laplace", "tree")
PUBLIC_ONLY = ("public_empirical", "public_shrunk")
DATA_FREE = ("constant_zero",)
NON_PRIVATE = ("exact_private", "exact_pooled")
ALL = PRIVATE_ONLY + PUBLIC_ONLY + DATA_FREE + NON_PRIVATE


def lacks(name: str) -> tuple:
    """What an opponent does without (public data, private data, privacy), from the catalogue; () for a release
    the catalogue does not list (an experiment's own opponent, which its module describes)."""
    from algorithms.opponents import CATALOGUE

    return next((o.lacks for o in CATALOGUE if o.name == name), ())


def _grid_answers(kind: str, mech, data, num_points: int, rng) -> np.ndarray:
    """The tree's answers in the class's hypothesis order (``algorithms.classes.constructors``): thresholds j = 0..N;
    intervals: the empty one (answer -1 exactly) then (a, b) in ``numpy.triu_indices`` order."""
    if kind == "thresholds":
        return mech.thresholds(data, np.arange(num_points + 1), rng).value
    a, b = np.triu_indices(num_points)
    return np.concatenate([[-1.0], mech.intervals(data, a, b, rng).value])


def answer_opponents(truth, *, private_answers=None, n: int | None = None, public_answers=None,
                     m: int | None = None, eps: float, delta: float, beta: float, rng: np.random.Generator,
                     grid: tuple | None = None, skip: tuple = ()) -> dict:
    """Err of every applicable opponent on one trial's draws: ``{name: error}``. ``grid`` = (kind, GridData,
    num_points) for thresholds/intervals (the tree runs on it). Private-only releases spend (eps, delta) (Laplace:
    eps, pure) and fall back to the constant where their noise swamps [-1, 1] (``fallback_beta`` = beta)."""
    from algorithms import opponents as op

    truth = np.asarray(truth, dtype=float)

    def err(g) -> float:
        return float(np.max(np.abs(np.asarray(g, dtype=float) - truth)))

    out = {}
    if "constant_zero" not in skip:
        out["constant_zero"] = err(op.constant_release(truth.size).value)
    if private_answers is not None:
        if "gaussian" not in skip:
            out["gaussian"] = err(op.gaussian_answers(private_answers, n, rng, eps=eps, delta=delta,
                                                      fallback_beta=beta).value)
        if "laplace" not in skip:
            out["laplace"] = err(op.laplace_answers(private_answers, n, eps, rng, fallback_beta=beta).value)
        if grid is not None and "tree" not in skip:
            kind, data, num_points = grid
            mech = op.TreeMechanism(data.levels, eps, delta)
            out["tree"] = err(_grid_answers(kind, mech, data, num_points, rng))
        if "exact_private" not in skip:
            out["exact_private"] = err(private_answers)
    if public_answers is not None:
        if "public_empirical" not in skip:
            out["public_empirical"] = err(public_answers)
        if "public_shrunk" not in skip:
            out["public_shrunk"] = err(op.public_shrunk(public_answers, m).value)
        if private_answers is not None and "exact_pooled" not in skip:
            out["exact_pooled"] = err(op.exact_pooled(private_answers, n, public_answers, m).value)
    return out


def _paired_worse(diff: np.ndarray, confidence: float) -> bool:
    """One-sided t-bound: is the mean of ``diff`` above 0 at ``confidence``? (Trials of one run are i.i.d.; with
    fewer than 2 trials nothing is decided.)"""
    from scipy import stats as sps

    if diff.size < 2:
        return False
    sd = float(diff.std(ddof=1))
    if sd == 0.0:
        return bool(diff.mean() > 0)
    return bool(diff.mean() - sps.t.ppf(confidence, diff.size - 1) * sd / math.sqrt(diff.size) > 0)


def summarise_opponents(errors: list[dict], alpha: float, target: float, confidence: float) -> dict:
    """``errors``: one ``answer_opponents`` dict per trial. Returns ``{"opponents": {name: baseline record +
    error_mean/max + lacks}, "strongest": name, "strongest_failed": bool, "weaker_than_constant": [names]}``."""
    order = ALL + tuple(k for k in LEARNING if k not in ALL)
    extra = sorted(set(errors[0]) - set(order)) if errors else []  # an experiment's own opponents (e.g. PMW)
    names = [k for k in (*order, *extra) if errors and all(k in e for e in errors)]
    per = {}
    for k in names:
        e = np.array([row[k] for row in errors])
        per[k] = {**contract.baseline(int(np.sum(e <= alpha)), e.size, target, confidence),
                  "error_mean": float(e.mean()), "error_max": float(e.max()), "lacks": list(lacks(k))}
    weaker = []
    if "constant_zero" in per:
        c = np.array([row["constant_zero"] for row in errors])
        weaker = [k for k in names if k != "constant_zero"
                  and _paired_worse(np.array([row[k] for row in errors]) - c, confidence)]
    def strongest(among):
        return max(among, key=lambda k: (per[k]["rate"], -per[k]["error_mean"])) if among else None

    best = strongest(names)
    private_only = strongest([k for k in names if k in PRIVATE_ONLY or k == "em_learner"])
    return {"opponents": per, "strongest": best,
            "strongest_failed": bool(best is not None and per[best]["status"] == contract.FAILS),
            "strongest_private_only": private_only,
            "strongest_private_only_failed": bool(private_only is not None
                                                  and per[private_only]["status"] == contract.FAILS),
            "weaker_than_constant": weaker}


def judge_case(per_trial: list[dict], names, limit: float, target: float, confidence: float, *,
               privacy_blind: tuple = (), audit: str | None = None) -> dict:
    """One group's opponents judged by the experiment's own rule (success: error <= ``limit``) from per-trial
    ``{name: error or None}`` dicts (None, or a key absent in some trial: that opponent was not run there, e.g. a
    record made before it was added; its record is then None). ``names``: the opponents that decide
    ``informative``; ``privacy_blind``: releases without privacy measured beside them, never opponents (an accuracy
    verdict cannot tell the algorithm from them), with ``audit``, the audit target that judges the algorithm's
    privacy. Returns ``{"baselines": {name: record | None}, "informative", "strongest", "strongest_failed",
    "weaker_than_constant", "privacy_blind": {name: record}, "audit"}``."""
    ran = [k for k in (*names, *privacy_blind) if per_trial and all(r.get(k) is not None for r in per_trial)]
    s = summarise_opponents([{k: float(r[k]) for k in ran} for r in per_trial], limit, target, confidence)
    per = s["opponents"]
    base = {k: per.get(k) for k in names}
    known = {k: v for k, v in base.items() if v is not None}
    strongest = max(known, key=lambda k: (known[k]["rate"], -known[k]["error_mean"])) if known else None
    return {"baselines": base, "informative": contract.informative(known),
            "strongest": strongest,
            "strongest_failed": bool(strongest is not None and known[strongest]["status"] == contract.FAILS),
            "weaker_than_constant": [k for k in s["weaker_than_constant"] if k in known],
            "privacy_blind": {k: per[k] for k in privacy_blind if k in per}, "audit": audit}


def strongest_text(cases: dict) -> str:
    """Per case, the strongest opponent run and whether it failed (``judge_case``'s ``strongest``)."""
    return "; ".join(f"{k}: {c['strongest']} ({'failed' if c['strongest_failed'] else 'did not fail'})"
                     for k, c in cases.items())


def privacy_blind_text(cases: dict, what: str, audit: str) -> str:
    """What an accuracy verdict cannot see: in how many cases a release without privacy is not shown to fail, and the
    audit target that judges ``what``'s privacy (the report pairs them)."""
    ok = [k for k, c in cases.items() if any(b["status"] != contract.FAILS for b in c["privacy_blind"].values())]
    return (f"accuracy cannot see privacy: the non-private release is not shown to fail in {len(ok)}/{len(cases)} "
            f"case(s); {what}'s privacy is judged by the audit `simulations audit {audit}`")


def finite_class_inputs(cls, kind: str, private_counts, public_points) -> dict:
    """What :func:`answer_opponents` reads, from a dense class's draws: the private sample as its histogram
    (``PointCounts`` or counts), the public sample as point indices. ``kind`` "thresholds" or "intervals" adds the
    tree's grid (the class's points are the grid 0..N-1, ``algorithms.classes.constructors``)."""
    from algorithms.evaluation import true_answers
    from algorithms.opponents import GridData

    counts = np.asarray(getattr(private_counts, "counts", private_counts))
    n = int(counts.sum())
    out = {"private_answers": true_answers(cls, counts / n), "n": n}
    if public_points is not None and len(public_points):
        w = np.asarray(public_points)
        out["public_answers"] = true_answers(cls, np.bincount(w, minlength=cls.num_points) / w.size)
        out["m"] = int(w.size)
    if kind in ("thresholds", "intervals"):
        out["grid"] = (kind, GridData.from_histogram(counts), cls.num_points)
    return out


#: the learning opponents (``algorithms.opponents`` catalogue), in the order a summary lists them
LEARNING = ("em_learner", "erm_private", "erm_public", "constant_zero")


def learning_opponents(cls, *, pos=None, neg=None, public_pos=None, public_neg=None, queries, labels, eps: float,
                       rng: np.random.Generator) -> dict:
    """Average error over the labelled ``queries`` (point indices, boolean labels) of every learning opponent that
    applies, each answering with one hypothesis: the generic private learner (exponential mechanism over H on the
    private labelled histogram (pos, neg), PureDP(eps)), non-private ERM on it, ERM on the public histogram, and the
    constant label 0 (the negative label)."""
    from algorithms.opponents import exponential_learner, histogram_error_counts

    q = np.asarray(queries)
    y = np.asarray(labels, dtype=bool)

    def avg(h) -> float:
        return float(np.mean(cls.matrix[h, q] != y))

    out = {"constant_zero": float(np.mean(y))}
    if pos is not None:
        out["em_learner"] = avg(exponential_learner(cls, pos, neg, eps, rng).value)
        out["erm_private"] = avg(int(np.argmin(histogram_error_counts(cls, pos, neg))))
    if public_pos is not None:
        out["erm_public"] = avg(int(np.argmin(histogram_error_counts(cls, public_pos, public_neg))))
    return out


def least_succeeding(table: dict) -> dict:
    """From ``{size: summarise_opponents(...)}`` over a grid of sizes: per release, the least grid size from which
    it ``succeeds`` at every larger grid size, and the grid size just below it (its interval (below, least]); None
    where it never does (or succeeds already at the smallest size: ``below`` None)."""
    sizes = sorted(table)
    out = {}
    for name in table[sizes[0]]["opponents"] if sizes else ():
        ok = [table[s]["opponents"][name]["status"] == contract.SUCCEEDS for s in sizes]
        i = next((i for i in range(len(sizes)) if all(ok[i:])), None)
        out[name] = {"least": None if i is None else sizes[i], "below": sizes[i - 1] if i else None}
    return out


def size_text(v) -> str:
    """A least size as printed: thousands separated, "None" where there is none."""
    return "None" if v is None else f"{v:,}"
