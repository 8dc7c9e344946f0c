"""NB20 Lemma 9 (A_AgPrivCl's accuracy) at its corrected query count: on m = bounds' ``min_queries`` online
queries (the least the corrected eq. (3) allows, errata nb20-lemma9-chernoff and nb20-lemma9-union), A_AgPrivCl's
average error is at most alpha + gamma w.p. >= 1 - beta, at the n Lemma 9's proof needs (Theorem 7's corrected
chain, nb20:thm7 at the same m), with the proof's three steps measured in the same trials.

Why a run of its own: ``thm7`` runs at a fixed m = 1400 above the corrected count and carries BTT18's k_B
sub-samples of all of S; here m is each case's own ``min_queries`` (1,390 at gamma = 0.1, 918 in boundary_noise
at the defaults) and a trial is A_AgPrivCl and its control on the same draws (about 4 s of CPU per case at the
defaults), so the lemma is checked where its query count is tightest, cheaply.

One trial, per case (thm7's cases: thresholds, intervals, halfspaces with label noise, boundary_noise; gamma
exact):

1. S' ~ D^{n'} (step 2's output for an i.i.d. S: one multinomial over the 2N labelled cells on the count path,
   n' examples on ``path = "examples"``); A_AgPrivCl from step 3 on (``AgPrivCl.after_step2_counts``);
2. Q = m labelled queries ~ D^m, answered online;
3. the lemma's event, (1/m) sum 1(y_priv_i != y~_i) <= alpha + gamma (``verdict``), and its proof's steps on the
   same draws (``premise`` claims: what the proof takes from each step, at the share the union bound gives it):
   (1) (1/m) sum 1(y_priv_i != h^(x_i)) <= alpha/4 w.p. >= 1 - beta/4; (2) the queries' average error of h^
   exceeds h_ERM(S')'s by at most alpha/2 w.p. >= 1 - beta/2; (3) h_ERM(S')'s average error <= alpha/4 + gamma w.p.
   >= 1 - beta/4 (the step the corrected count is for); the largest value of each over the trials is shown;
4. the opponents in the same trials (:data:`OPPONENTS`, judged by the same rule): the generic private learner
   without public data (``algorithms.opponents.exponential_learner`` on all of S, S' completed by the n - n'
   other examples of an i.i.d. S, at the full eps: one hypothesis answering every query) and the constant answers
   0 and 1, which read no data; non-private ERM on S' beside them, never an opponent (accuracy cannot see
   privacy: the audit :data:`PRIVACY_AUDIT` judges A_AgPrivCl's).

Negative control (``EXPERIMENT.controls``): ``no_relabel``, A_AgPrivCl whose S^ is drawn from S' itself (step 3's
relabelling skipped: the sub-samples are not realizable, against step (1)'s premise), run in every trial on the
same S' and Q and judged at the same n and m; in boundary_noise (a fair-coin point at the threshold) its
sub-samples split there, it halts after floor(T) unstable queries and answers coins: violated.

Below the lemma's sizes (``per_subsample`` > 0: n' = s k) every status is ``below-bound``. Family-wise: the
summary states the trials that ``holds`` needs over its verdicts (the lemma and its control per case).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.learning.agprivcl import AgPrivCl
from algorithms.learning.erm import erm
from algorithms.opponents import exponential_learner
from algorithms.learning.subsamp import SubSamp, answer_online, resample_hypotheses_counts
from simulations import contract, stats
from simulations.experiments import param
from simulations.experiments._nb20_common import Setting, agprivcl_params, claim, sample_labeled, trials_for_holds
from simulations.experiments.thm7 import make_case, theorem_sizes

CASES = ("thresholds", "intervals", "halfspaces", "boundary_noise")
#: the opponents (``algorithms.opponents``'s names; the record keeps ``constant_0`` for the constant label 0, so that
#: runs recorded before read back, and lacks ``em_learner`` before it was added): informative where all fail
OPPONENTS = {"em_learner": "the generic private learner on S (exponential mechanism over H, eps-DP, no public data)",
             "constant_zero": "the constant label 0 (reads no data)",
             "constant_1": "the constant label 1 (reads no data)"}
TRIVIAL_ALGORITHMS = OPPONENTS
RECORD_KEY = {"constant_zero": "constant_0", "erm_private": "erm"}
#: the audit target that judges A_AgPrivCl's privacy (what the accuracy verdict cannot see)
PRIVACY_AUDIT = "nb20_agprivcl"
#: the proof's steps: (key, share of beta the union bound gives it, the bound in alpha and gamma, words)
STEPS = (("eq1", 1 / 4, lambda a, g: a / 4, "(1/m) sum 1(y_priv != h^(x)) <= alpha/4"),
         ("eq2", 1 / 2, lambda a, g: a / 2, "avg error of h^ - avg error of h_ERM(S') <= alpha/2"),
         ("eq3", 1 / 4, lambda a, g: a / 4 + g, "avg error of h_ERM(S') <= alpha/4 + gamma"))


@dataclass(frozen=True)
class Params(Setting):
    cases: tuple = param(CASES, "comma-separated classes", choices=CASES)
    alpha: float = param(0.2, "accuracy alpha", within="(0, 1)")


@functools.lru_cache(maxsize=64)
def lemma_sizes(kind: str, alpha: float, beta: float, eps: float, delta: float, noise: float, boundary_mass: float,
                lam: str) -> dict:
    """The case's corrected query count m (bounds nb20:lemma9 ``min_queries`` at its gamma), the printed one, and
    the proof's n (Theorem 7's chain at that m, ``thm7.theorem_sizes``)."""
    c = make_case(kind, noise, boundary_mass)
    q = contract.required_sizes("nb20:lemma9", {"m": ("min_queries", contract.ceil_int),
                                                "m_printed": ("min_queries_as_printed", contract.ceil_int)},
                                alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=c["d"], num_queries=10**6,
                                approx_error=c["gamma"])
    return {**q, "n_bound": theorem_sizes(alpha, beta, eps, delta, c["d"], q["m"], c["gamma"], lam)["n_bound"]}


def run_case(kind: str, params: Params, rng: np.random.Generator) -> dict:
    c = make_case(kind, params.noise, params.boundary_mass)
    cls, joint, gamma = c["cls"], c["joint"], c["gamma"]
    N = cls.num_points
    sz = lemma_sizes(kind, params.alpha, params.beta, params.eps, params.delta, params.noise, params.boundary_mass,
                     params.lam)
    m = sz["m"]
    P = agprivcl_params(params.alpha, params.beta, params.eps, params.delta, m, params.lam)
    if params.per_subsample:
        n = int(math.ceil(params.per_subsample * P.subsamp.k / P.rate))
    else:
        n = max(int(math.ceil(sz["n_bound"])), P.min_private_samples())
    n_prime = P.n_prime(n)
    if params.path == "counts":
        sprime = rng.multinomial(n_prime, joint.ravel()).reshape(N, 2)
        algo = AgPrivCl.after_step2_counts(cls, sprime, n, P, rng)
    else:
        sx, sy = sample_labeled(joint, n_prime, rng)
        algo = AgPrivCl.after_step2(cls, sx, sy, n, P, rng)
        sprime = np.stack([np.bincount(sx[~sy], minlength=N), np.bincount(sx[sy], minlength=N)], axis=1)
    qx, qy = sample_labeled(joint, m, rng)
    ans = answer_online(algo, qx).labels
    no_rel = SubSamp.from_hypotheses(cls, resample_hypotheses_counts(cls, sprime, P.subsamp.k, rng), P.subsamp, rng)
    no_rel_ans = answer_online(no_rel, qx).labels
    main = {"none": ans, "no_relabel": no_rel_ans}[params.variant]
    S = sprime + rng.multinomial(n - n_prime, joint.ravel()).reshape(N, 2)  # S' and the rest of an i.i.d. S
    h_em = exponential_learner(cls, S[:, 1], S[:, 0], params.eps, rng).value
    pts = np.concatenate([np.arange(N)] * 2)
    h_erm = erm(cls, pts, np.repeat([True, False], N), np.concatenate([sprime[:, 1], sprime[:, 0]])).hypothesis
    h_hat = algo.relabeled.hypothesis
    erm_q, hat_q = cls.matrix[h_erm, qx], cls.matrix[h_hat, qx]

    def avg(labels):
        return float(np.mean(labels != qy))

    errs = {"agprivcl": avg(main), "no_relabel": avg(no_rel_ans), "erm": avg(erm_q),
            "constant_0": avg(np.zeros(m, dtype=bool)), "constant_1": avg(np.ones(m, dtype=bool)),
            "em_learner": avg(cls.matrix[h_em, qx])}
    steps = {"eq1": float(np.mean(main != hat_q)), "eq2": avg(hat_q) - avg(erm_q), "eq3": avg(erm_q)}
    return {"n": n, "n_prime": n_prime, "k": P.subsamp.k, "m": m, "gamma": gamma, "avg_error": errs,
            "accurate": {a: bool(e <= params.alpha + gamma) for a, e in errs.items()}, "steps": steps,
            "steps_ok": {key: bool(steps[key] <= bound(params.alpha, gamma)) for key, _, bound, _ in STEPS},
            "unstable": int(algo.subsamp.unstable_count), "no_relabel_unstable": int(no_rel.unstable_count),
            "spent_eps": float(algo.guarantee.eps), "spent_delta": float(algo.guarantee.delta)}


@dataclass(frozen=True)
class Accurate:
    """Per release: its average error <= alpha + gamma over the m queries (the opponents are judged by their errors,
    :class:`AvgError`)."""
    agprivcl: bool
    no_relabel: bool
    erm: bool
    constant_0: bool
    constant_1: bool
    em_learner: bool | None = None


@dataclass(frozen=True)
class AvgError:
    """Per release: its average error over the m queries."""
    agprivcl: float
    no_relabel: float
    erm: float
    constant_0: float = contract.opponent_field("constant_zero", "error")
    constant_1: float = contract.opponent_field("constant_1", "error")
    em_learner: float | None = contract.opponent_field("em_learner", "error", None)


@dataclass(frozen=True)
class Steps:
    """The proof's three steps (:data:`STEPS`): measured values, or whether each is within its bound."""
    eq1: float
    eq2: float
    eq3: float


@dataclass(frozen=True)
class StepsOk:
    eq1: bool
    eq2: bool
    eq3: bool


@dataclass(frozen=True)
class Case:
    """One case of one trial (``run_case``)."""
    accurate: Accurate
    avg_error: AvgError
    gamma: float
    k: int
    m: int
    n: int
    n_prime: int
    no_relabel_unstable: int
    spent_delta: float
    spent_eps: float
    steps: Steps
    steps_ok: StepsOk
    unstable: int


@dataclass(frozen=True)
class Outcome:
    """One trial: per case name."""
    cases: dict[str, Case]


def trial(params: Params, rng: np.random.Generator) -> dict:
    return {"cases": {kind: run_case(kind, params, rng) for kind in params.cases}}


def _case_summary(kind: str, records: list[dict], params: Params, main: str) -> dict:
    """One case's part of the summary: Lemma 9's claim and its control, its steps, its opponents."""
    from simulations.opponents import judge_case

    T, target, conf = len(records), 1 - params.beta, params.confidence
    rows = [r["cases"][kind] for r in records]
    sz = lemma_sizes(kind, params.alpha, params.beta, params.eps, params.delta, params.noise,
                     params.boundary_mass, params.lam)
    n = rows[0]["n"]
    at_bound = n >= sz["n_bound"]

    def count(a, rows=rows):
        return sum(r["accurate"][a] for r in rows)

    judged = judge_case([{k: r["avg_error"].get(RECORD_KEY.get(k, k)) for k in (*OPPONENTS, "erm_private")}
                         for r in rows], tuple(OPPONENTS), params.alpha + rows[0]["gamma"], target, conf,
                        privacy_blind=("erm_private",), audit=PRIVACY_AUDIT)
    steps = {key: {**claim(sum(r["steps_ok"][key] for r in rows), T, 1 - share * params.beta, conf, at_bound,
                            kind=contract.PREMISE,
                            label=f"Lemma 9 step {key[-1]}: {words} w.p. >= 1 - {share:g} beta, {kind}"),
                   "max": max(r["steps"][key] for r in rows)}
             for key, share, _, words in STEPS}
    return {
        "d": make_case(kind, params.noise, params.boundary_mass)["d"], "gamma": rows[0]["gamma"], **sz,
        "n_used": n, "n_prime": rows[0]["n_prime"], "k": rows[0]["k"], "n_fraction_of_bound": n / sz["n_bound"],
        "at_bound": at_bound,
        "lemma9": claim(count("agprivcl"), T, target, conf, at_bound,
                        label=f"{main}: avg error <= alpha + gamma over m = min_queries w.p. >= 1 - beta, {kind}"),
        "negative_control": claim(count("no_relabel"), T, target, conf, at_bound,
                                  label=f"control no_relabel: avg error <= alpha + gamma, {kind}"),
        "steps": steps, **judged,
        "avg_error_max": {a: max(r["avg_error"][a] for r in rows) for a in rows[0]["avg_error"]
                          if all(r["avg_error"].get(a) is not None for r in rows)},
        "unstable_max": max(r["unstable"] for r in rows),
        "no_relabel_unstable_max": max(r["no_relabel_unstable"] for r in rows),
        "privacy_as_requested": all(r["spent_eps"] <= params.eps and r["spent_delta"] <= params.delta
                                    for r in rows),
    }


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    from simulations.opponents import privacy_blind_text, strongest_text

    T, target, conf = len(records), 1 - params.beta, params.confidence
    main = "A_AgPrivCl" if params.variant == "none" else f"A_AgPrivCl ({params.variant}, broken)"
    cases = {kind: _case_summary(kind, records, params, main) for kind in params.cases}
    control = any(cs["negative_control"]["status"] == stats.VIOLATED for cs in cases.values())
    n_verdicts = 2 * len(cases)
    need = trials_for_holds(target, conf, n_verdicts)
    informative = {k: cs["informative"] for k, cs in cases.items()}
    weak = sorted({o for cs in cases.values() for o in cs["weaker_than_constant"]})
    text = ("informative (the generic private learner and both constant answers fail): "
            + ", ".join(f"{k}: {v}" for k, v in informative.items())
            + "; strongest opponent: " + strongest_text(cases) + "; "
            + privacy_blind_text(cases, "A_AgPrivCl", PRIVACY_AUDIT)
            + (f"; DEFECT: weaker than the constant on the same draws: {', '.join(weak)}" if weak else "")
            + f"; Lemma 9 for {main} at m = min_queries ("
            + ", ".join(f"{k}: m = {cs['m']} (printed {cs['m_printed']}), n / n_bound = {cs['n_fraction_of_bound']:.2g}"
                        for k, cs in cases.items())
            + f"), {T} trials ({need} needed for holds at the family-wise level over {n_verdicts} verdicts); "
            f"negative control no_relabel {'caught' if control else 'NOT caught'}")
    return contract.Judgement(
        claims=[cs["lemma9"] for cs in cases.values()], text=text,
        opponents={k: cs["baselines"] for k, cs in cases.items()},
        measurements={"result_id": "nb20:lemma9",
            "claim": "(1/m) sum_j 1(y_priv_j != y~_j) <= alpha + gamma w.p. >= 1 - beta at m = min_queries",
            "bound_source": ("bounds.compute('nb20:lemma9', ..., approx_error=gamma)['min_queries'] for m; "
                             "bounds.compute('nb20:thm7', ..., num_queries=m)['private_samples"
                             f"{'_tight_lambda' if params.lam == 'tight' else ''}'] for n"),
            "alpha": params.alpha, "beta": params.beta, "eps": params.eps, "delta": params.delta,
            "per_subsample": params.per_subsample, "path": params.path, "lam": params.lam,
            "trials": T, "confidence": conf, "trials_for_holds": need, "verdicts_in_family": n_verdicts,
            "negative_controls": {"no_relabel": control}, "negative_controls_caught": control,
            "cases": cases})


EXPERIMENT = contract.Experiment(
    name="nb20_lemma9", results=("nb20:lemma9",),
    section="nb20-thm7",
    description=("NB20 Lemma 9 at its corrected query count: A_AgPrivCl's average error <= alpha + gamma over "
                 "m = min_queries queries at the proof's n, its three steps measured, with a negative control"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    # the lemma's own n and m, in the case where the control is caught (boundary_noise), with the fewest trials at
    # which 0 successes give violated
    ci=contract.CiRun(2, {"cases": "boundary_noise"}),
    opponents=OPPONENTS,
    controls={"no_relabel": "A_AgPrivCl whose S^ is drawn from S' itself (step 3's relabelling skipped)"},
)
