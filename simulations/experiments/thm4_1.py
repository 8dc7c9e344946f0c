"""ABM19 Theorem 4.1: the public-sample trade-off on thresholds over growing grids, for A_SSPP and for the
reduction B built on it, with the lower bound's boundary n_pub = 1/(1600 alpha).

What a finite grid can and cannot show. Theorem 4.1 is about classes of *infinite* Littlestone
dimension (thresholds over R): every semi-private learner needs n_pub > 1/(1600 alpha) there. Thresholds
on a grid of N points have Littlestone dimension floor(log2(N + 1)), finite, and are privately learnable
with no public data at all (e.g. the exponential mechanism over all N + 1 thresholds with about
log(N)/(eps alpha) private examples), so no finite grid can exhibit the impossibility. What a grid can
show: (i) where A_SSPP (and B on it) succeed and fail in the (n_pub, alpha) plane, against the boundary
1/(1600 alpha) (``bounds.compute("abm19:thm4.1", alpha)``) and A_SSPP's own requirement
(``bounds.compute("abm19:thm3.1", ...)["public_samples"]``); (ii) the private learner without public
data (the exponential mechanism over all N + 1 thresholds) at the same n_priv on each grid: its guarantee
pays log(N + 1), unbounded on R; on the uniform marginal its measured excess hardly moves with N (the
log N is a worst case), one more thing a finite grid does not show.

One trial, for every grid size N in ``grids`` (realizable D: uniform marginal, target the threshold
at N/2) and every n_pub in ``n_pubs``:

1. A_SSPP with n_pub unlabeled public points and n_priv private examples (drawn as a histogram:
   A_SSPP reads S_priv only through its counts), eps = 0.1 (Theorem 4.1's); its exact excess error;
2. B (Algorithm 2) on A_SSPP with B's corrected input size n~ from ``bounds.compute("abm19:lemma4.4",
   ...)``; its exact error on D and whether PrivSamp ran out;
3. once per N: the exponential mechanism over all of H on the same kind of private sample (no public data), and
   non-private ERM on that sample (no privacy: ``erm_excess``).

A_SSPP has no alpha parameter, so one run serves every alpha of ``alphas``; per (N, alpha, n_pub) the
summary gives A's success rate (excess <= alpha), B's rate of err <= 100 n_pub alpha and of err <= 1/16
(Theorem 4.3's threshold), with Clopper-Pearson intervals.

Verdicts (``summarise``): the claim is stated for the regime Theorem 4.1 covers (erratum
abm19-thm4.1-regime): learners at eps <= 0.1 and delta <= 1/(100 n_priv^2 log n_priv) (A_SSPP is pure), at
confidence 1/22 (erratum abm19-claim4.6-probabilities), 0 < alpha <= 1/100, on a class that private learning
alone cannot handle. A finite grid is such a class only at sizes where the private learner without public
data fails: per (N, alpha) its record ``no_public_learns`` (a ``contract.baseline``: excess <= alpha w.p. >=
1 - 1/22) must come out ``fails`` for the grid to stand in for the infinite class, and the non-private release
``nonprivate`` (ERM on the same kind of private sample, no privacy: excess <= alpha w.p. >= 1 - 1/22) must come
out ``succeeds``, so that a failure there is attributable to privacy or to the public sample, never to n_priv
(``informative``, computed from the records; runs recorded before ERM was measured have no such cell). In
every such cell strictly below the boundary (n_pub < the least n_pub Theorem 4.1 allows), the lower bound's
prediction: the learner fails (excess > alpha) w.p. >= 1/22, ``simulations.stats.verdict`` on the failure
rate at confidence 1 - (1 - confidence)/k for k such cells.
Below the boundary on a grid the no-public learner learns (or does not provably fail), or at eps > 0.1, the
cell is outside what the theorem covers: ``below-bound``, said so, never ``violated`` (at the default
n_priv = 10,000 the 64-point grid is learnt without public data and the 512- and 4096-point grids are not at
alpha <= 1e-4, but on the 4096-point grid non-private ERM fails there too, 136/150 at alpha <= 1e-4, so only the
512-point grid's cells are judged; at n_priv = 200,000 every grid is learnt). A ``violated`` would not refute
Theorem 4.1 (the distribution is one of many); it would mean this instance does not exhibit the trade-off.
``variant="oracle"`` (``EXPERIMENT.controls``) is the negative control: a "learner" that outputs the
target itself (impossible for an infinite-Littlestone class); it must come out ``violated`` (at the README's
150 trials: 0 failures of T < 1/22 needs T >= 100 at Bonferroni over the 5 covered cells). Cells at or above
the boundary are measurements only (the theorem says nothing there): their status is ``below-bound``,
as for every lower bound outside its region (docs/DESIGN.md).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments import _abm19_common as common

RESULT_ID = "abm19:thm4.1"


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    grids: tuple = param((64, 512, 4096), "comma-separated grid sizes N of the thresholds", within="[4, 4096]",
                         distinct=True)
    n_pubs: tuple = param((1, 4, 16, 64, 256), "comma-separated public sample sizes", within="[1, inf)",
                          distinct=True)
    alphas: tuple = param((0.01, 0.001, 0.0001, 0.00001), "comma-separated excess errors alpha (Theorem 4.1's "
                          "domain)", within="(0, 1/100]")
    n_priv: int = param(10_000, "private sample size n_priv of A_SSPP (at 200,000 the no-public learner learns "
                        "every grid: outside Theorem 4.1's regime)", within="[10, inf)")
    eps: float = param(0.1, "privacy eps (Theorem 4.1 uses 0.1)", within="(0, inf)")


@functools.lru_cache(maxsize=64)
def boundary(alpha: float) -> dict:
    """Theorem 4.1's least allowed n_pub (> 1/(1600 alpha)) and A_SSPP's own n_pub (Theorem 3.1 at
    beta = 1/22, eps = 0.1, d = 1), both from ``bounds``."""
    import bounds

    lower = bounds.compute("abm19:thm4.1", alpha=alpha)
    upper = bounds.compute("abm19:thm3.1", alpha=alpha, beta=1 / 22, epsilon=0.1, vc=1)
    return {"n_pub_min": int(lower["public_samples"]), "boundary": 1 / (1600 * alpha),
            "n_pub_a_sspp": int(upper["public_samples"]), "n_priv_a_sspp": int(upper["private_samples"])}


@functools.lru_cache(maxsize=256)
def b_size(n_priv: int, n_pub: int) -> int:
    """B's corrected input size n~ = max(ceil(n_priv/(10 n_pub)), 4), from ``bounds``."""
    import bounds

    return int(bounds.compute("abm19:lemma4.4", alpha=0.01, private_samples=n_priv,
                              public_samples=n_pub)["private_samples_B"])


def _histogram(D, n: int, rng: np.random.Generator):
    """S_priv ~ D^n as a histogram over the (x, y) cells: (points, labels, counts)."""
    counts = rng.multinomial(n, D.joint.ravel())
    cells = np.arange(D.joint.size)
    return cells // 2, cells % 2, counts


def run_grid(N: int, params: Params, rng: np.random.Generator) -> dict:
    """Every n_pub on the grid of N points, and the no-public learner (module docstring, steps 1-3)."""
    from algorithms.adversaries.public_reduction import reduction_b
    from algorithms.learning.erm import erm
    from algorithms.learning.sspp import ASSPP, a_sspp

    cls, _ = common.make_class("thresholds", N)
    D = common.labeled_law("thresholds", "uniform", N, 0.0)
    err = common.excess_errors("thresholds", "uniform", N, 0.0)
    target = common.target_row("thresholds", cls)
    oracle = params.variant == "oracle"

    def learner(px, py, qx, qy, rng, counts=None):
        if oracle:
            from algorithms.privacy.accounting import PureDP, Release
            return Release(target, PureDP(params.eps))
        return a_sspp(cls, px, py, qx, params.eps, rng, counts=counts)

    cells = {}
    for m in params.n_pubs:
        T = D.marginal.sample(m, rng)
        x, y, c = _histogram(D, params.n_priv, rng)
        h_a = learner(x, y, T, None, rng, counts=c).value
        sx, sy = D.sample(b_size(params.n_priv, m), rng)
        bl = learner if oracle else ASSPP(cls, params.eps)
        out = reduction_b(bl, sx, sy, n_priv=params.n_priv, n_pub=m, num_points=N, rng=rng).value
        cells[str(m)] = {"excess_A": float(err[h_a]), "err_B": float(err[out.hypothesis]), "ran_out": out.ran_out}
    x, y, c = _histogram(D, params.n_priv, rng)
    h0 = a_sspp(cls, x, y, np.arange(N), params.eps, rng, counts=c).value  # cover of all points = H
    h_erm = erm(cls, x, y == 1, c).hypothesis  # the same sample, no privacy
    return {"cells": cells, "no_public_excess": float(err[h0]), "erm_excess": float(err[h_erm])}


@dataclass(frozen=True)
class Cell:
    """One n_pub on one grid: A_SSPP's excess error, B's error and whether PrivSamp ran out."""
    err_B: float
    excess_A: float
    ran_out: bool


@dataclass(frozen=True)
class Grid:
    """One grid: its cells by n_pub, the no-public learner's and non-private ERM's excess errors (ERM's absent from
    runs recorded before it)."""
    cells: dict[str, Cell]
    no_public_excess: float
    erm_excess: float | None = None


@dataclass(frozen=True)
class Outcome:
    """One trial: per grid size N (as a string)."""
    grids: dict[str, Grid]


def trial(params: Params, rng: np.random.Generator) -> dict:
    grids = {str(N): run_grid(N, params, rng) for N in params.grids}
    return {"grids": grids}


def summarise_cell(N: int, a: float, m: int, cells: list[dict], params: Params, informative: bool,
                   per_claim: float, nonprivate: dict | None = None) -> dict:
    """One (N, alpha, n_pub) cell: A's and B's rates with intervals and the lower bound's prediction (a verdict
    below the boundary where the grid stands in for the infinite class)."""
    T, conf, b = len(cells), params.confidence, boundary(a)
    fails = sum(c["excess_A"] > a for c in cells)
    entry = {
        "n_pub": m, "below_boundary": m < b["n_pub_min"],
        "A_success": common.rate(T - fails, T, conf),
        "B_within_100_npub_alpha": common.rate(sum(c["err_B"] <= 100 * m * a for c in cells), T, conf),
        "B_within_1_16": common.rate(sum(c["err_B"] <= 1 / 16 for c in cells), T, conf),
        "B_error_mean": float(np.mean([c["err_B"] for c in cells])),
        "A_excess_mean": float(np.mean([c["excess_A"] for c in cells])),
        "B_ran_out": sum(c["ran_out"] for c in cells), "nonprivate": nonprivate,
    }
    covered = entry["below_boundary"] and informative
    entry["in_theorem_regime"] = bool(informative)
    entry["lower_bound_prediction"] = contract.claim(
        fails, T, 1 / 22, conf, per_claim_confidence=per_claim, at_bound=covered,
        label=f"N = {N}, alpha = {a:g}, n_pub = {m}: the learner fails w.p. >= 1/22")
    if entry["below_boundary"] and not informative:
        entry["outside_regime"] = (
            "eps > 0.1: outside Theorem 4.1's privacy regime" if params.eps > 0.1 else
            "the non-private release (ERM on the private sample) is not shown to succeed: a failure here would be "
            "n_priv's, not privacy's" if (nonprivate or {}).get("status") != contract.SUCCEEDS else
            "the no-public learner learns this finite grid (or is not shown to fail): outside the class Theorem 4.1 "
            "covers")
    return entry


def _regime(records: list[dict], params: Params) -> tuple[dict, dict, dict]:
    """Per (N, alpha): the no-public learner's and non-private ERM's baselines, and whether the cell is in the
    theorem's regime (informative)."""
    T, conf = len(records), params.confidence
    no_public, nonprivate, informative = {}, {}, {}
    for N in params.grids:
        nopub = np.array([r["grids"][str(N)]["no_public_excess"] for r in records])
        ermx = [r["grids"][str(N)].get("erm_excess") for r in records]
        for a in params.alphas:
            rec = contract.baseline(int((nopub <= a).sum()), T, 1 - 1 / 22, conf)
            no_public[(N, a)] = rec
            nonprivate[(N, a)] = (None if any(e is None for e in ermx) else
                                  {**contract.baseline(sum(e <= a for e in ermx), T, 1 - 1 / 22, conf),
                                   "what": "non-private ERM on the private sample (no privacy)"})
            # the grid stands in for an infinite-Littlestone class only where private learning alone fails, and a
            # failure is privacy's only where the non-private release succeeds
            informative[(N, a)] = (params.eps <= 0.1 and rec["status"] == contract.FAILS
                                   and (nonprivate[(N, a)] or {}).get("status") == contract.SUCCEEDS)
    return no_public, nonprivate, informative


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Per (N, alpha, n_pub): rates with intervals; verdicts below the boundary (module docstring)."""
    T, conf = len(records), params.confidence
    below = [(N, a, m) for N in params.grids for a in params.alphas for m in params.n_pubs
             if m < boundary(a)["n_pub_min"]]
    no_public, nonprivate, informative = _regime(records, params)
    judged = [(N, a, m) for (N, a, m) in below if informative[(N, a)]]
    per_claim = 1 - (1 - conf) / max(1, len(judged))
    grids, statuses = {}, []
    for N in params.grids:
        rows = [r["grids"][str(N)] for r in records]
        table = {}
        for a in params.alphas:
            b = boundary(a)
            per_alpha = {}
            for m in params.n_pubs:
                entry = summarise_cell(N, a, m, [r["cells"][str(m)] for r in rows], params, bool(informative[(N, a)]),
                                       per_claim, nonprivate[(N, a)])
                if entry["below_boundary"] and informative[(N, a)]:
                    statuses.append(entry["lower_bound_prediction"]["verdict"])
                per_alpha[str(m)] = entry
            table[repr(a)] = {"alpha": a, **b, "no_public_learns": no_public[(N, a)], "nonprivate": nonprivate[(N, a)],
                              "strongest_opponent": {"name": "em_learner", "status": no_public[(N, a)]["status"],
                                                     "failed": no_public[(N, a)]["status"] == contract.FAILS},
                              "informative": bool(informative[(N, a)]), "cells": per_alpha}
        nopub = np.array([r["no_public_excess"] for r in rows])
        grids[str(N)] = {
            "N": N, "littlestone_dimension": int(math.floor(math.log2(N + 1))), "alphas": table,
            "no_public": {"excess_mean": float(nopub.mean()),
                          "success": {repr(a): common.rate(int((nopub <= a).sum()), T, conf) for a in params.alphas}},
        }
    outside = len(below) - len(statuses)
    text = (f"below Theorem 4.1's boundary n_pub = 1/(1600 alpha), in the {len(statuses)} (N, alpha, "
            f"n_pub) cells the theorem covers (eps <= 0.1, the no-public learner shown to fail and non-private ERM "
            f"shown to succeed), the learner fails "
            f"(excess > alpha) w.p. >= 1/22; {T} trials, {100 * conf:g}% confidence (Bonferroni over "
            f"{max(1, len(statuses))}); {outside} cells below the boundary are outside the theorem's regime (a finite "
            "class private learning alone handles at these sizes, n_priv too small for even non-private ERM, or "
            "eps > 0.1): below-bound")
    return contract.Judgement(claims=statuses, text=text, regime={f"N={N},alpha={a:g}": bool(v)
                                                                  for (N, a), v in informative.items()},
                              measurements={
        "result_id": RESULT_ID,
        "claim": ("Theorem 4.1: any semi-private learner for a class of infinite Littlestone dimension needs "
                  "n_pub > 1/(1600 alpha); checked here as its prediction on finite grids (see the module docstring)"),
        "bound_source": "bounds.compute('abm19:thm4.1', alpha); bounds.compute('abm19:thm3.1', alpha, beta=1/22, "
                        "epsilon=0.1, vc=1); bounds.compute('abm19:lemma4.4', ...)['private_samples_B']",
        "n_priv": params.n_priv, "eps": params.eps, "alphas": list(params.alphas),
        "n_pubs": list(params.n_pubs), "trials": T, "confidence": conf, "per_claim_confidence": per_claim,
        "grids": grids})


EXPERIMENT = contract.Experiment(
    name="thm4_1", results=("abm19:thm4.1",),
    section="abm19-thm4-1",
    description=("ABM19 Thm 4.1 trade-off on thresholds over growing grids: A_SSPP and B errors on a (n_pub, "
                 "alpha) grid against the boundary n_pub = 1/(1600 alpha); no-public learner vs grid size"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(100, {"grids": "512", "n_pubs": "1,4,512", "alphas": "0.00001,0.01", "n_priv": 10_000}),
    # a lower bound's regime flag: a cell is informative where the no-public learner is shown to fail on the grid
    opponents=contract.LowerBoundRegime("tests/simulations/test_abm19_experiments.py::"
                                        "test_thm4_1_regime_follows_from_the_records_and_the_oracle_is_violated"),
    controls={"oracle": "a 'learner' that outputs the target itself (impossible on an infinite-Littlestone class)"},
    aliases={"a_sspp": "none", "broken_oracle": "oracle"},  # earlier spellings
)
