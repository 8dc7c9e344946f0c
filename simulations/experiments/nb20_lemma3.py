"""NB20 Lemmas 3 and 4 (A_SubSamp alone, BTT18 restated) at the workbench's explicit sizes (bounds nb20:lemma3 and
nb20:lemma4, record nb20-btt18-explicit: BTT18's own constants are not in the seed papers): on m = ``min_queries``
online queries A_SubSamp's average error is at most alpha (realizable, Lemma 3) or alpha + 3 gamma (agnostic,
Lemma 4) w.p. >= 1 - beta, at T = ``cutoff``, k = ``subsamples`` and n = ``private_samples`` = k s.

One trial, per case (``realizable``: thresholds on 16 points, x uniform, labels of the threshold at 8, gamma = 0;
``agnostic``: the same with every label flipped w.p. ``noise``, gamma = noise exactly):

1. the k sub-samples of an i.i.d. S ~ D^n, each drawn as its exact labelled histogram (k i.i.d. multinomials of s
   examples: the disjoint blocks of an i.i.d. sample are i.i.d.), h_j = ERM on each (``erm_rows``, least-index
   ties); the k s examples are all of S;
2. A_SubSamp from step 6 on (``SubSamp.from_hypotheses``) at Algorithm 5's tight lambda (bounds nb20:alg5 at
   (eps, delta, beta, m, T), the same k as bounds' ``subsamples``), answering m labelled queries ~ D^m online;
3. the lemma's event, (1/m) sum 1(y_priv_i != y~_i) <= alpha + 3 gamma (``verdict``).

Opponents in the same trials, judged by the same event: the generic private learner (``exponential_learner`` on
all of S at eps, one hypothesis for every query: no public queries needed) and the constant labels 0 and 1.

Negative control ``one_example`` (``EXPERIMENT.controls``): the same k sub-samples of one example each (the
sub-sample size computed as n // n instead of n // k): the h_j are one-example ERMs, so the majorities are wrong
or split (unstable answers are coins): must come out ``violated``.

Below the sizes (``s_factor`` < 1: sub-samples of s_factor s examples) every status is ``below-bound``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from algorithms.learning.subsamp import SubSamp, answer_online, erm_rows
from simulations import contract
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments._nb20_common import subsamp_params

CASES = {"realizable": "nb20:lemma3", "agnostic": "nb20:lemma4"}
OPPONENTS = {"em_learner": "the generic private learner on S (exponential mechanism over H, eps-DP)",
             "constant_0": "the constant label 0 (reads no data)",
             "constant_1": "the constant label 1 (reads no data)"}
NUM_POINTS, TARGET = 16, 8


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    cases: tuple = param(tuple(CASES), "comma-separated cases (realizable: Lemma 3, agnostic: Lemma 4)",
                         choices=tuple(CASES))
    alpha: float = param(0.2, "accuracy alpha", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(0.99, "privacy eps", within="(0, 1)")
    delta: float = param(1e-6, "privacy delta", within="(0, 1)")
    noise: float = param(0.02, "label-noise rate gamma of the agnostic case", within="(0, 0.5)")
    s_factor: float = param(1.0, "sub-sample size as a multiple of bounds' s (< 1: below-bound)", within="(0, inf)")


def law(kind: str, noise: float):
    """H (thresholds on 16 points), the labelled law D as (N, 2) = (P[x, 0], P[x, 1]) and gamma = min_h err."""
    from algorithms.classes import thresholds

    cls = thresholds(NUM_POINTS)
    y1 = cls.matrix[TARGET].astype(float)
    flip = noise if kind == "agnostic" else 0.0
    y1 = y1 * (1 - flip) + (1 - y1) * flip
    joint = np.stack([(1 - y1), y1], axis=1) / NUM_POINTS
    return cls, joint, flip


def sizes(kind: str, params: Params) -> dict:
    """bounds' m (``min_queries``, rounded up), T, k, s and n for the case's lemma."""
    extra = {"approx_error": params.noise} if kind == "agnostic" else {}
    q = contract.required_sizes(CASES[kind], {"m": ("min_queries", contract.ceil_int)}, alpha=params.alpha,
                                beta=params.beta, epsilon=params.eps, delta=params.delta, vc=1, num_queries=1,
                                **extra)
    c = contract.required_sizes(CASES[kind], {"T": "cutoff", "k": ("subsamples", int), "s": ("subsample_size", int),
                                              "n": ("private_samples", int), "tail": "stability_tail"},
                                alpha=params.alpha, beta=params.beta, epsilon=params.eps, delta=params.delta, vc=1,
                                num_queries=q["m"], **extra)
    return {**q, **c}


def draw_hypotheses(cls, joint: np.ndarray, k: int, s: int,
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Step 1: k i.i.d. multinomial histograms of s examples (the disjoint blocks of an i.i.d. sample), the ERM of
    each (``erm_rows``) and the labelled histogram of all k s examples (flat (x, label) layout of ``joint``)."""
    p = joint.ravel()
    hyps = np.empty(k, dtype=np.int64)
    total = np.zeros(p.size)
    for g0 in range(0, k, 4096):
        blocks = rng.multinomial(s, p, size=min(k, g0 + 4096) - g0)
        hyps[g0:g0 + blocks.shape[0]] = erm_rows(cls, blocks[:, 1::2], blocks[:, ::2] + blocks[:, 1::2])
        total += blocks.sum(axis=0)
    return hyps, total


def draw_queries(joint: np.ndarray, m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """m labelled queries ~ D: (points, labels)."""
    flat = rng.choice(joint.size, size=m, p=joint.ravel())
    return flat // 2, (flat % 2).astype(bool)


def run_case(kind: str, params: Params, rng: np.random.Generator) -> dict:
    cls, joint, gamma = law(kind, params.noise)
    sz = sizes(kind, params)
    m, k = sz["m"], sz["k"]
    P = subsamp_params(params.eps, params.delta, params.beta, m, sz["T"], "tight")
    if P.k != k:
        raise ValueError(f"A_SubSamp's k={P.k} is not bounds' subsamples={k}")
    s = 1 if params.variant == "one_example" else max(1, int(math.ceil(sz["s"] * params.s_factor)))
    hyps, total = draw_hypotheses(cls, joint, k, s, rng)
    algo = SubSamp.from_hypotheses(cls, hyps, P, rng)
    qx, qy = draw_queries(joint, m, rng)
    ans = answer_online(algo, qx)
    from algorithms.opponents import exponential_learner

    h_em = int(exponential_learner(cls, total[1::2], total[::2], params.eps, rng).value)
    errs = {"subsamp": ans.labels, "em_learner": cls.matrix[h_em, qx],
            "constant_0": np.zeros(m, dtype=bool), "constant_1": np.ones(m, dtype=bool)}
    errs = {a: float(np.mean(lab != qy)) for a, lab in errs.items()}
    bound = params.alpha + 3 * gamma
    n = k * max(1, int(math.ceil(sz["s"] * params.s_factor)))  # the examples given (the control splits them wrongly)
    return {"n": n, "k": k, "s": s, "m": m, "gamma": gamma, "avg_error": errs,
            "accurate": {a: bool(e <= bound) for a, e in errs.items()},
            "unstable": int(ans.unstable.sum()), "halted": ans.halted_at is not None}


@dataclass(frozen=True)
class Released:
    """Per release: its average error over the m queries, or whether it is <= alpha + 3 gamma."""
    subsamp: float
    em_learner: float = contract.opponent_field("em_learner", "error")
    constant_0: float = contract.opponent_field("constant_0", "error")
    constant_1: float = contract.opponent_field("constant_1", "error")


@dataclass(frozen=True)
class Accurate:
    subsamp: bool
    em_learner: bool
    constant_0: bool
    constant_1: bool


@dataclass(frozen=True)
class Case:
    """One case of one trial (``run_case``)."""
    accurate: Accurate
    avg_error: Released
    gamma: float
    halted: bool
    k: int
    m: int
    n: int
    s: int
    unstable: int


@dataclass(frozen=True)
class Outcome:
    """One trial: per case name."""
    cases: dict[str, Case]


def trial(params: Params, rng: np.random.Generator) -> dict:
    return {"cases": {kind: run_case(kind, params, rng) for kind in params.cases}}


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Per case: P[avg error <= alpha + 3 gamma] >= 1 - beta at bounds' sizes; the opponents by the same event."""
    from simulations.opponents import judge_case, strongest_text

    T, target, conf = len(records), 1 - params.beta, params.confidence
    at = params.s_factor >= 1.0  # the control is given the lemma's n and splits it wrongly: at the sizes too
    main = "A_SubSamp" if params.variant == "none" else f"A_SubSamp ({params.variant}, broken)"
    cases, claims = {}, []
    for kind in params.cases:
        rows = [r["cases"][kind] for r in records]
        gamma, sz = rows[0]["gamma"], sizes(kind, params)
        c = contract.claim(sum(r["accurate"]["subsamp"] for r in rows), T, target, conf,
                           at_bound=at,
                           label=f"{main}: avg error <= alpha + 3 gamma over m = min_queries w.p. >= 1 - beta, "
                                 f"{kind} ({CASES[kind]})")
        judged = judge_case([{a: r["avg_error"][a] for a in OPPONENTS} for r in rows], tuple(OPPONENTS),
                            params.alpha + 3 * gamma, target, conf)
        claims.append(c)
        cases[kind] = {**sz, "gamma": gamma, "n_used": rows[0]["n"], "s_used": rows[0]["s"], "claim": c, **judged,
                       "max_error": max(r["avg_error"]["subsamp"] for r in rows),
                       "unstable_max": max(r["unstable"] for r in rows),
                       "halted": sum(r["halted"] for r in rows)}
    text = ("; ".join(f"{kind} ({CASES[kind]}): {cs['claim']['successes']}/{T} within alpha + 3 gamma = "
                      f"{params.alpha + 3 * cs['gamma']:g} at m = {cs['m']}, k = {cs['k']:,}, s = {cs['s_used']:,}, "
                      f"n = {cs['n_used']:,} (worst {cs['max_error']:.3g}, unstable <= {cs['unstable_max']}, "
                      f"halted in {cs['halted']}); informative: {cs['informative']}"
                      for kind, cs in cases.items())
            + "; strongest opponent: " + strongest_text(cases))
    return contract.Judgement(
        claims=claims, text=text, opponents={k: cs["baselines"] for k, cs in cases.items()},
        measurements={"result_id": ", ".join(CASES[k] for k in params.cases),
                      "claim": "(1/m) sum 1(y_priv != y~) <= alpha + 3 gamma w.p. >= 1 - beta at m = min_queries",
                      "bound_source": ("bounds.compute('nb20:lemma3' | 'nb20:lemma4', alpha, beta, epsilon, delta, "
                                       "vc=1, num_queries=m[, approx_error=gamma]): min_queries, cutoff, subsamples, "
                                       "subsample_size, private_samples, stability_tail (the workbench's explicit "
                                       "form, record nb20-btt18-explicit)"),
                      "alpha": params.alpha, "beta": params.beta, "eps": params.eps, "delta": params.delta,
                      "s_factor": params.s_factor, "trials": T, "cases": cases})


EXPERIMENT = contract.Experiment(
    name="nb20_lemma3", results=("nb20:lemma3", "nb20:lemma4"),
    section="nb20-thm7",
    description=("NB20 Lemmas 3 and 4: A_SubSamp alone at the workbench's explicit n, T, k over m = min_queries "
                 "queries, average error <= alpha + 3 gamma, with a negative control"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(2, {"cases": "realizable"}),
    opponents=OPPONENTS,
    controls={"one_example": "sub-samples of one example each (n // n for n // k): one-example ERMs vote"},
)
