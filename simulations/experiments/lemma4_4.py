"""ABM19 Lemma 4.4 (Algorithms 2-4, Claims 4.5 and 4.6): the public-data reduction B built on A_SSPP,
run on realizable distributions.

Classes (``Params.classes``), both over the grid 0..N-1 with the target h* = the threshold at N/2 and the
marginal ``law``:

* ``pair``: H = {h*, not h*}. A_SSPP's cover is H itself (any public point separates the two), so A is
  the exponential mechanism over two hypotheses whose excess error on D_(p) is 0 or p; Lemma 4.4's
  premise and conclusion are both non-trivial here when alpha < p;
* ``thresholds``: the N + 1 thresholds. Here Lemma 4.4 on A_SSPP is either vacuous (100 n_pub alpha at
  least the largest error of any threshold) or its premise fails at sizes a trial can afford (A_SSPP fed
  D_(p) needs public points near the cut and on the order of (100 n_pub)^2 private examples per unit of
  resolution): the runs say which, as ``floor check`` or ``below-bound``.

What one trial does, for every class and every n_pub in ``Params.n_pubs`` (A = A_SSPP with n_priv
private and n_pub public examples, eps):

1. from ``bounds.compute("abm19:lemma4.4", alpha, private_samples=n_priv, public_samples=n_pub)``:
   p = 1/(100 n_pub), B's input size n~ (corrected: at least 4), the error bound 100 n_pub alpha,
   the TV term 1 - (1 - p)^n_pub and the Chernoff run-out bound. Never retyped;
2. B: S~ ~ D^n~, PrivSamp / PubSamp with D_0 = (uniform x, uniform label), A_SSPP on them; record
   err(B(S~); D) exactly, whether PrivSamp ran out, and whether each element of S~ was used at most
   once in S_priv (Claim 4.5's premise; a floor check);
3. the premise, in the same trial: A_SSPP on i.i.d. samples of the mixture D_(p) = p D + (1 - p) D_0
   (S_priv ~ D_(p)^n_priv, S_pub ~ D_(p)^n_pub), its excess error on D_(p), exactly. The lemma assumes A is
   an (alpha, 1/22)-learner (corrected from 1/18, docs/ERRATA.md); for A_SSPP on D_(p) this is checked
   here, not assumed: success = excess <= alpha;
4. the TV coupling of Claim 4.6: coins b_1..b_n_pub ~ Ber(p); S^_pub differs from S_pub only if some b_i = 1;
5. run-out at small sizes (``runout_cases``, pairs n_priv:n_pub): PrivSamp alone with the printed
   n~ = ceil(n_priv/(10 n_pub)) and with the corrected max(n~, 4).

``variant="dependent_dummy_labels"`` (``EXPERIMENT.controls``) is the negative control: B whose dummy labels are a
function
of x, y = 1(x >= N/2) = (not h*)(x), instead of uniform and independent of x; then
err(h; D_(p)) = p err(h; D) + (1 - p)/2 fails and not-h* wins; it must come out ``violated`` wherever the
premise holds.
Its power: the control is judged only in a cell where A's premise is established (the lower Clopper-Pearson
bound of A's rate on D_(p) >= 21/22, at the Bonferroni level over the run's verdicts), which takes at least
about 115 trials at the README's defaults (10 verdicts: ln(0.005)/ln(21/22)); there B's error is 1.0 in every
trial and the control comes out ``violated`` (200 trials, seed 44: pair:1 violated, 0/200). With fewer trials no
cell is judged and the run says ``inconclusive`` (never ``holds``: a run that judged no cell of B's claim has
shown nothing about the lemma).

Verdicts (``summarise``), per n_pub, at confidence 1 - (1 - confidence)/k over the k verdicts:

* Claim 4.6 / Lemma 4.4: P[err(B; D) <= 100 n_pub alpha] >= 15/16. A verdict only where the premise is
  established (the lower Clopper-Pearson bound of A's success rate on D_(p) is >= 21/22) and the bound is
  below the largest error of a hypothesis of H; where the premise is not established the status is ``below-bound``
  (A_SSPP at these n_priv,
  n_pub is not shown to be the (alpha, 1/22)-learner the lemma needs); where 100 n_pub alpha >= max_H err(h; D)
  it is a ``floor check`` (A_SSPP outputs a hypothesis of H, so every output meets it);
* run-out at ``runout_cases`` (``runout_reps`` PrivSamp runs per trial each): P[PrivSamp does not run
  out] >= 1 - 1/100 (the proof's "except with probability < 0.01") at the corrected n~; the printed n~ is
  reported as the erratum's demonstration (its status is computed the same way and is expected to be
  ``violated``; it is not part of the overall verdict, which is about the corrected lemma); in the cells,
  B's run-out rate against the exact tail P[Bin(n_priv - 1, p) >= n~] is a floor check;
* the TV step, the mixture identity and "each point used at most once" are floor checks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from simulations import contract, stats
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments import _abm19_common as common

CLASS_KINDS = ("pair", "thresholds")


def _parse_pair(text: str) -> tuple[int, int]:
    a, sep, b = str(text).partition(":")
    try:
        pair = int(a), int(b)
    except ValueError:
        pair = None
    if not sep or pair is None or pair[0] < 2 or pair[1] < 1:
        raise ValueError(f"runout_cases entry {text!r} must be n_priv:n_pub with integers n_priv >= 2, n_pub >= 1")
    return pair


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    num_points: int = param(256, "domain size N of the thresholds", within="[4, 8192]")
    law: str = param("uniform", "marginal of D", choices=common.LAWS["thresholds"])
    alpha: float = param(0.001, "A's excess error alpha (Lemma 4.4's domain)", within="(0, 1/100]")
    eps: float = param(1.0, "A_SSPP's privacy eps", within="(0, inf)")
    n_priv: int = param(100_000, "A's private sample size n_priv", within="[10, inf)")
    n_pubs: tuple = param((1, 2, 4), "comma-separated public sample sizes n_pub of A", within="[1, inf)",
                          distinct=True)
    classes: tuple = param(CLASS_KINDS, "comma-separated classes: pair (H = {h*, not h*}), thresholds",
                           choices=CLASS_KINDS, distinct=True)
    runout_cases: tuple = param(("10:1", "20:1"), "comma-separated n_priv:n_pub pairs for the run-out check at "
                                "small sizes", nonempty=False, each=_parse_pair)
    runout_reps: int = param(50, "PrivSamp runs per trial and runout case", within="[1, inf)")


@functools.lru_cache(maxsize=256)
def lemma_values(alpha: float, n_priv: int, n_pub: int) -> dict:
    """ABM19 Lemma 4.4's p, n~ (corrected), error bound, TV term, run-out bound and beta_B, from ``bounds``."""
    import bounds

    c = bounds.compute("abm19:lemma4.4", alpha=alpha, private_samples=n_priv, public_samples=n_pub)
    return {"p": float(c["mixture_weight"]), "n_tilde": int(c["private_samples_B"]),
            "error_bound": float(c["error"]), "tv": float(c["tv_public"]),
            "runout_bound": float(c["runout_probability"]), "beta_B": float(c["failure_probability"])}


def printed_n_tilde(n_priv: int, n_pub: int) -> int:
    """ABM19 Algorithm 2 as printed: n~ = ceil(n_priv/(10 n_pub)) (no floor; the erratum's subject)."""
    from algorithms.adversaries.public_reduction import input_size

    return input_size(n_priv, n_pub, floor=1)


@functools.lru_cache(maxsize=16)
def setup(kind: str, num_points: int, law: str):
    """(class, realizable D, D_0 joint table, err(h; D) of every h) for ``pair`` or ``thresholds`` on N points."""
    from algorithms.classes import FiniteClass
    from algorithms.learning.erm import population_errors

    thr, _ = common.make_class("thresholds", num_points)
    D = common.labeled_law("thresholds", law, num_points, 0.0)
    if kind == "pair":
        target = thr.matrix[common.target_row("thresholds", thr)]
        cls = FiniteClass(np.stack([target, ~target]), name=f"pair(h*, not h*; N={num_points})")
    else:
        cls = thr
    q = np.full(num_points, 1.0 / num_points)  # B's dummy marginal: uniform (fixed, independent of D)
    D0 = np.stack([q / 2, q / 2], axis=1)
    return cls, D, D0, population_errors(cls, D.joint)


def _mixture(D, D0, p: float) -> np.ndarray:
    return p * D.joint + (1 - p) * D0


def _histogram_sample(joint: np.ndarray, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n i.i.d. labeled examples of a joint table, drawn as their histogram (A_SSPP reads S_priv only
    through its per-(x, y) counts, so this has the law of n i.i.d. draws for it)."""
    counts = rng.multinomial(n, joint.ravel())
    flat = np.repeat(np.arange(joint.size), counts)
    return flat // 2, flat % 2


def run_b(cls, D, n_priv: int, n_pub: int, n_tilde: int, eps: float, variant: str, rng) -> dict:
    """One run of B (Algorithm 2) on A_SSPP; the broken variant labels every dummy x by 1(x >= N/2)."""
    from algorithms.adversaries.public_reduction import mixture_weight, priv_samp, pub_samp, reduction_b
    from algorithms.learning.sspp import ASSPP, a_sspp

    sx, sy = D.sample(n_tilde, rng)
    if variant == contract.NO_VARIANT:
        out = reduction_b(ASSPP(cls, eps), sx, sy, n_priv=n_priv, n_pub=n_pub, num_points=cls.num_points,
                          rng=rng).value
        return {"h": int(out.hypothesis), "ran_out": out.ran_out, "source": out.private.source}
    ps = priv_samp(sx, sy, mixture_weight(n_pub), n_priv, cls.num_points, rng)
    qx, _ = pub_samp(n_pub, cls.num_points, rng)
    labels = np.where(ps.source >= 0, ps.labels, (ps.points >= cls.num_points // 2).astype(np.int64))
    h = a_sspp(cls, ps.points, labels, qx, eps, rng).value
    return {"h": int(h), "ran_out": ps.ran_out, "source": ps.source}


def cells(params: Params) -> list[tuple[str, int]]:
    """The (class, n_pub) cells of a run, keyed ``"class:n_pub"`` in records and summary."""
    return [(kind, m) for kind in params.classes for m in params.n_pubs]


def run_cell(kind: str, m: int, params: Params, rng: np.random.Generator) -> dict:
    """B, the premise and the TV coupling once for one class and one n_pub (module docstring, steps 1-4)."""
    from algorithms.learning.erm import population_errors
    from algorithms.learning.sspp import a_sspp

    cls, D, D0, err_D = setup(kind, params.num_points, params.law)
    v = lemma_values(params.alpha, params.n_priv, m)
    b = run_b(cls, D, params.n_priv, m, v["n_tilde"], params.eps, params.variant, rng)
    real = b["source"][b["source"] >= 0]
    mix = _mixture(D, D0, v["p"])
    px, py = _histogram_sample(mix, params.n_priv, rng)
    qx, _ = _histogram_sample(mix, m, rng)
    h_a = a_sspp(cls, px, py, qx, params.eps, rng).value
    err_mix = population_errors(cls, mix)
    excess_a = float(err_mix[h_a] - err_mix.min())
    return {
        "err_B": float(err_D[b["h"]]), "success_B": bool(err_D[b["h"]] <= v["error_bound"]),
        "ran_out": b["ran_out"], "num_real": int(real.size),
        "each_used_once": bool(np.array_equal(real, np.arange(real.size))),
        "excess_A": excess_a, "success_A": bool(excess_a <= params.alpha),
        "tv_coupling_differs": bool((rng.random(m) < v["p"]).any()),
    }


@dataclass(frozen=True)
class Cell:
    """One (class, n_pub) cell of one trial (``run_cell``)."""
    each_used_once: bool
    err_B: float
    excess_A: float
    num_real: int
    ran_out: bool
    success_A: bool
    success_B: bool
    tv_coupling_differs: bool


@dataclass(frozen=True)
class Runout:
    """How many of the PrivSamp runs ran out at the printed and at the corrected n~."""
    printed: int
    corrected: int


@dataclass(frozen=True)
class Outcome:
    """One trial: per cell ``class:n_pub``, per run-out case ``n_priv:n_pub``, and whether B succeeded everywhere."""
    cells: dict[str, Cell]
    runout: dict[str, Runout]
    success: bool


def trial(params: Params, rng: np.random.Generator) -> dict:
    """Every (class, n_pub) cell once; run-out at the small cases (module docstring)."""
    from algorithms.adversaries.public_reduction import input_size, priv_samp

    rows = {f"{kind}:{m}": run_cell(kind, m, params, rng) for kind, m in cells(params)}
    runout = {}
    for case in params.runout_cases:
        n, m = _parse_pair(case)
        p = 1.0 / (100 * m)
        flags = {}
        for label, n_t in (("printed", printed_n_tilde(n, m)), ("corrected", input_size(n, m))):
            zeros = np.zeros(n_t, np.int64)
            flags[label] = sum(priv_samp(zeros, zeros, p, n, 2, rng).ran_out for _ in range(params.runout_reps))
        runout[case] = flags
    return {"cells": rows, "runout": runout, "success": all(r["success_B"] for r in rows.values())}


def _floor(ok: int, trials: int, confidence: float) -> dict:
    out = common.rate(ok, trials, confidence)
    out["verdict"] = stats.FLOOR_CHECK
    out["passed"] = ok == trials
    return out


def _runout_floor(ran_out: int, trials: int, confidence: float, exact: float) -> dict:
    """B's run-out count at a cell against the exact tail P[Bin(n_priv - 1, p) >= n~]: a floor check (passed when
    the two-sided Clopper-Pearson interval of the run-out rate contains the exact value)."""
    out = common.rate(ran_out, trials, confidence)
    out.update({"verdict": stats.FLOOR_CHECK, "exact": exact, "passed": out["ci"][0] <= exact <= out["ci"][1]})
    return out


def summarise_cell(kind: str, m: int, rows: list[dict], params: Params, per_claim: float) -> dict:
    """One (class, n_pub) cell: B's claim with its status, the premise, run-out, TV and floor checks."""
    from algorithms.adversaries.public_reduction import exact_runout_probability
    from algorithms.learning.erm import population_errors

    T, conf = len(rows), params.confidence
    cls, D, D0, err_D = setup(kind, params.num_points, params.law)
    v = lemma_values(params.alpha, params.n_priv, m)
    premise = contract.claim(sum(r["success_A"] for r in rows), T, 1 - 1 / 22, conf, per_claim_confidence=per_claim,
                             kind=contract.PREMISE, label=f"{kind}, n_pub = {m}: A_SSPP is an (alpha, 1/22)-learner")
    premise_ok = premise["lower"] >= 1 - 1 / 22
    max_err = float(err_D.max())
    vacuous = v["error_bound"] >= max_err
    b_claim = contract.claim(sum(r["success_B"] for r in rows), T, 1 - 1 / 16, conf, per_claim_confidence=per_claim,
                             at_bound=premise_ok and not vacuous,
                             kind=contract.FLOOR_CHECK if vacuous else contract.VERDICT,
                             label=f"{kind}, n_pub = {m}: err(B) <= 100 n_pub alpha w.p. >= 15/16")
    if vacuous:
        b_claim["verdict"] = stats.FLOOR_CHECK
        b_claim["verdict_text"] = (f"floor check: the bound 100 n_pub alpha = {v['error_bound']:g} is at least "
                                   f"max_H err(h; D) = {max_err:g}, so every output of A_SSPP meets it")
    elif not premise_ok:
        b_claim["verdict_text"] += ("; A_SSPP is not shown to be an (alpha, 1/22)-learner on D_(p) at these "
                                    "sizes (premise below its target), so Lemma 4.4 promises nothing here")
    p = v["p"]
    mix = _mixture(D, D0, p)
    identity_dev = float(np.max(np.abs(population_errors(cls, mix) - (p * err_D + (1 - p) / 2))))
    err_b = np.array([r["err_B"] for r in rows])
    return {
        "class": kind, "class_name": cls.name, "n_pub": m, "n_priv": params.n_priv, **v,
        "max_error_in_H": max_err,
        "exact_runout": exact_runout_probability(params.n_priv, m, v["n_tilde"]),
        "claim_4_6": b_claim, "premise_A": premise, "premise_established": premise_ok,
        "premise_failure_rate": 1 - premise["rate"], "B_failure_rate": 1 - b_claim["rate"],
        "runout": _runout_floor(sum(r["ran_out"] for r in rows), T, conf,
                                exact_runout_probability(params.n_priv, m, v["n_tilde"])),
        "err_B": {"mean": float(err_b.mean()), "quantile_15_16": float(np.quantile(err_b, 15 / 16)),
                  "max": float(err_b.max()), "limit": v["error_bound"]},
        "excess_A_mean": float(np.mean([r["excess_A"] for r in rows])),
        "tv_coupling": {**common.rate(sum(r["tv_coupling_differs"] for r in rows), T, conf),
                        "exact": v["tv"], "verdict": stats.FLOOR_CHECK},
        "each_point_used_once": _floor(sum(r["each_used_once"] for r in rows), T, conf),
        "mixture_identity_max_deviation": identity_dev,
    }


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Per (class, n_pub): B's claim (a verdict where A's premise holds), run-out, TV, floor checks."""
    from algorithms.adversaries.public_reduction import exact_runout_probability, input_size

    T = len(records)
    conf = params.confidence
    k = len(cells(params)) + 2 * len(params.runout_cases)
    per_claim = 1 - (1 - conf) / k
    out_cells = {}
    statuses = []
    for kind, m in cells(params):
        key = f"{kind}:{m}"
        c = summarise_cell(kind, m, [r["cells"][key] for r in records], params, per_claim)
        out_cells[key] = c
        if c["claim_4_6"]["verdict"] in stats.VERDICTS:
            statuses.append(c["claim_4_6"]["verdict"])
    runout_small = {}
    for case in params.runout_cases:
        n, m = _parse_pair(case)
        out = {}
        for label, n_t in (("printed", printed_n_tilde(n, m)), ("corrected", input_size(n, m))):
            draws = T * params.runout_reps
            # the printed n~ is the erratum's demonstration, not a verdict: run-out is a draw of counts alone
            c = contract.claim(draws - sum(r["runout"][case][label] for r in records), draws, 1 - 0.01, conf,
                               per_claim_confidence=per_claim,
                               kind=contract.VERDICT if label == "corrected" else contract.ALGORITHM_FREE,
                               label=f"PrivSamp at n_priv:n_pub = {case}, {label} n~: runs out w.p. <= 1/100")
            c.update({"n_tilde": n_t, "exact_runout": exact_runout_probability(n, m, n_t)})
            out[label] = c
        statuses.append(out["corrected"]["verdict"])
        runout_small[case] = out
    judged = [key for key, c in out_cells.items() if c["claim_4_6"]["verdict"] in stats.VERDICTS]
    # B's claim is the lemma: with no cell judged (A's premise not established anywhere) the run cannot say it holds
    claims = statuses + ([] if judged else [stats.INCONCLUSIVE])
    error_part = (f"B's error <= 100 n_pub alpha w.p. >= 15/16 judged at {', '.join(judged)} (where A_SSPP's "
                  "premise holds and the bound is not vacuous), and PrivSamp's run-out < 1/100 at the corrected n~"
                  if judged else
                  "PrivSamp's run-out < 1/100 at the corrected n~ only: B's error bound is judged at no cell (A_SSPP's "
                  "premise fails or the bound is vacuous at every cell), so this verdict says nothing about it")
    text = (f"Lemma 4.4 / Claim 4.6 at n_priv = {params.n_priv}, alpha = {params.alpha:g}: "
            f"{error_part}; {T} trials, "
            f"{100 * conf:g}% confidence (Bonferroni over {k})")
    return contract.Judgement(claims=claims, text=text, measurements={
        "result_id": "abm19:lemma4.4",
        "claim": ("Lemma 4.4 / Claim 4.6: if A is an (alpha, 1/22)-learner (corrected from 1/18) then "
                  "err(B(S~); D) <= 100 n_pub alpha w.p. >= 15/16 on realizable D; PrivSamp runs out w.p. < 1/100 "
                  "(true only with the corrected n~ >= 4); Claim 4.5: each private point used at most once"),
        "bound_source": (f"bounds.compute('abm19:lemma4.4', alpha={params.alpha}, private_samples={params.n_priv}, "
                         "public_samples=n_pub)"),
        "alpha": params.alpha, "eps": params.eps, "n_priv": params.n_priv,
        "num_points": params.num_points, "law": params.law,
        "trials": T, "confidence": conf, "per_claim_confidence": per_claim,
        "cells": out_cells, "runout_small": runout_small})


EXPERIMENT = contract.Experiment(
    name="lemma4_4", results=("abm19:lemma4.4",),
    section="abm19-lemma4-4",
    description=("ABM19 reduction B on A_SSPP (realizable; {h*, not h*} and thresholds): err(B) <= 100 n_pub alpha "
                 "w.p. >= 15/16 where A's premise holds, PrivSamp run-out vs the erratum, TV step, each point used "
                 "once"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(80, {"classes": "pair", "n_pubs": "1", "runout_cases": "", "n_priv": 100_000,
                           "num_points": 64}),
    opponents=contract.NoOpponents("B's error is judged against 100 n_pub alpha where A's premise holds; no trivial "
                                   "learner (e.g. a hypothesis drawn ignoring the data) is run beside B: not measured"),
    controls={"dependent_dummy_labels": "B labels every dummy point by (not h*)(x), a function of x"},
    aliases={"b": "none", "broken_dependent_dummy_labels": "dependent_dummy_labels"},  # earlier spellings
)
