"""ABM19 Theorem 3.1 (with Lemma 3.3): A_SSPP (Algorithm 1) is an (alpha, beta, eps) semi-supervised
semi-private agnostic learner at the explicit n_priv and n_pub of ``bounds``.

What one trial does, for every case "class:distribution" of ``Params.cases`` (``_abm19_common``):

1. the labeled law D = agnostic(marginal, target, noise) over the class's points and the exact excess
   error err(h; D) - min_H err of every hypothesis;
2. the sizes from ``bounds.compute("abm19:thm3.1", alpha, beta, epsilon, vc=d)``: m = ``public_samples``
   (Lemma 3.3 at alpha/2, beta/2), n = ``private_samples``; and Lemma 3.3 on its own,
   m_3.3 = ``bounds.compute("abm19:lemma3.3", alpha, beta, vc=d)["public_samples"]``. Never retyped;
3. one unlabeled public sample T ~ D_X^m and one private sample S ~ D^n, drawn once; every run uses a
   prefix of them (the same draws for A_SSPP and its baselines):
   - A_SSPP at (n, m): success = excess error <= alpha (Theorem 3.1, w.p. >= 1 - beta);
   - the cover of Algorithm 1 from T: its radius max_h Pr_D[h != Project(h)] (the event Bad of
     Lemma 3.3's proof) <= alpha/2 (Theorem 3.1's use, w.p. >= 1 - beta/2), and from the first m_3.3
     points <= alpha (Lemma 3.3, w.p. >= 1 - beta);
   - looseness: A_SSPP at (f n, m) and at (n, f m) for every f in ``fractions`` below 1
     (``below-bound`` measurements, never verdicts);
   - the opponents on the same S and T (:data:`OPPONENTS`, the catalogue ``algorithms.opponents``; each needs
     nothing Theorem 3.1 offers, and ``informative`` holds in a case only where every one fails): the private
     learner without public data ``em_learner``, the exponential mechanism over all of H (KLN+08's generic
     learner, score -err_hat, sensitivity 1/n, the same eps; recorded as ``em_all_of_H``); public-only: T
     carries no labels, so a learner that sees only T cannot depend on the labels (ERM on the public sample
     does not exist here) and is a data-free choice of hypothesis: the data-free constant label
     ``constant_zero``. Beside them, never opponents: a uniformly random member of H~ (the exponential mechanism
     at eps = 0, ``public_only_label_blind``), dropped as an opponent because it is weaker than the constant on
     the same draws (halfspaces at the CI run: excess 0.38 against the constant's 0.15), and non-private ERM on S
     (``erm_private``, recorded as ``erm_nonprivate``): an accuracy verdict cannot tell A_SSPP from it; the audit
     target :data:`PRIVACY_AUDIT` judges A_SSPP's privacy.

``variant="flipped_score"`` (:data:`NEGATIVE_CONTROLS`) is the negative control: step 6 with score +err_hat (the
exponential mechanism then favours the worst hypothesis); it must come out ``violated`` at the
theorem's sizes. A noise break is absorbed by Theorem 3.1's n far longer: the probes ``eps_div_K``
(:data:`PROBES`: step 6 at eps/K, eps declared), at the README's 150 trials (default cases, seed 31), hold at
K = 100 and 300, are inconclusive at K = 1000 (129-145 of 150 accurate) and violated at K = 3000 (40-80 of 150):
the smallest noise break this run catches is between 1000x and 3000x the declared scale (benchmarks/RESULTS.md).

Verdict rule (``summarise``): per case, ``simulations.stats.verdict`` on the accuracy event (target
1 - beta), the Theorem 3.1 cover event (1 - beta/2) and the Lemma 3.3 cover event (1 - beta), each at
confidence 1 - (1 - confidence)/(3k) for k cases (Bonferroni). Overall: ``violated`` if any is,
``holds`` if all hold, else ``inconclusive``. Runs below the sizes are ``below-bound``; the least
fraction at which the success rate's lower Clopper-Pearson bound still reaches 1 - beta is reported as
the empirical looseness of each size.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments import _abm19_common as common

DEFAULT_CASES = ("thresholds:uniform", "thresholds:near_threshold", "intervals:uniform", "halfspaces:uniform")
#: the opponents judged by A_SSPP's rule (excess <= alpha) on the same draws; the verdict is ``informative`` in a case
#: only where all of them fail there. Named as the catalogue names them (``algorithms.opponents``); the record keeps
#: its first key where it had one (:data:`RECORD_KEY`), so that runs recorded before read back
OPPONENTS = {
    "em_learner": "private learner without public data: exponential mechanism over all of H (same eps)",
    "constant_zero": ("the constant negative label (ignores all data; with T unlabeled, a public-only learner is a "
                      "data-free choice of hypothesis too)"),
}
#: measured beside the opponents, not one: weaker than the constant on the same draws (a defect as an opponent)
LABEL_BLIND = {"public_only_label_blind": ("public data only: T is unlabeled, so nothing can depend on the labels; "
                                           "a uniformly random member of H~ (eps = 0); not an opponent: weaker than "
                                           "the constant on the same draws")}
TRIVIAL_ALGORITHMS = OPPONENTS  # the name the other experiments and the report read
#: the record's key of an opponent named otherwise in the catalogue
RECORD_KEY = {"em_learner": "em_all_of_H", "erm_private": "erm_nonprivate"}
#: measured beside the opponents, never one: non-private ERM on S (accuracy cannot see privacy); the audit target
#: that judges A_SSPP's privacy
PRIVACY_BLIND = {"erm_private": "non-private ERM on the private sample (no privacy at all)"}
PRIVACY_AUDIT = "a_sspp"
#: A_SSPP's exponential mechanism run at eps/K while eps is declared (its noise K times what eps allows): runnable
#: measurements of the slack Theorem 3.1's n leaves (module docstring: the smallest K caught), not controls
PROBES = {f"eps_div_{k}": f"step 6's exponential mechanism at eps/{k} (eps declared)"
          for k in (100, 300, 1000, 3000, 10000)}


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    cases: tuple = param(DEFAULT_CASES, "comma-separated class:distribution pairs (" + "; ".join(
        f"{k}:{{{','.join(v)}}}" for k, v in common.LAWS.items()) + ")", distinct=True, each=common.check_case)
    num_points: int = param(1024, "domain size N of thresholds", within="[4, 8192]")
    interval_points: int = param(64, "domain size N of intervals", within="[4, 256]")
    grid_side: int = param(8, "side k of the k x k grid of halfspaces in R^2", within="[2, 10]")
    stump_dim: int = param(8, "dimension p of decision stumps on {+-1}^p", within="[2, 12]")
    noise: float = param(0.1, "label noise rate (agnostic; 0 is realizable)", within="[0, 0.5)")
    alpha: float = param(0.1, "excess error alpha", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(1.0, "privacy eps", within="(0, inf)")
    fractions: tuple = param(tuple(2.0 ** -k for k in range(1, 11)),
                             "comma-separated fractions f of n and of m for the looseness runs", within="(0, 1)",
                             nonempty=False)

    def check(self):
        stumps = [c for c in self.cases if c.startswith("stumps:")]
        if stumps:  # the target is stump 0 and the cover keeps the first stump of every pattern: always kept
            raise ValueError(f"cases entry {stumps[0]!r}: the stumps case cannot fail through the cover (its target "
                             "is the first row, which the cover keeps whatever the public sample); use thresholds, "
                             "intervals or halfspaces")


def case_size(kind: str, params: Params) -> int:
    return {"thresholds": params.num_points, "intervals": params.interval_points,
            "halfspaces": params.grid_side, "stumps": params.stump_dim}[kind]


#: what this experiment reads from ``bounds`` (``contract.required_sizes``): {summary key: (quantity, type)}
SIZES = {"abm19:thm3.1": {"m_bound": ("public_samples", int), "n_bound": ("private_samples", int),
                          "log_cover_size_bound": "log_cover_size"},
         "abm19:lemma3.3": {"m_lemma3_3": ("public_samples", int)}}


@functools.lru_cache(maxsize=256)
def theorem_sizes(alpha: float, beta: float, eps: float, d: int) -> dict:
    """ABM19 Theorem 3.1's n_priv, n_pub and Lemma 3.3's n_pub at (alpha, beta), from ``bounds``."""
    return {**contract.required_sizes("abm19:thm3.1", SIZES["abm19:thm3.1"], alpha=alpha, beta=beta, epsilon=eps, vc=d),
            **contract.required_sizes("abm19:lemma3.3", SIZES["abm19:lemma3.3"], alpha=alpha, beta=beta, vc=d)}


def case_setup(case: str, params: Params) -> dict:
    kind, law = common.check_case(case)
    size = case_size(kind, params)
    cls, d = common.make_class(kind, size)
    D = common.labeled_law(kind, law, size, params.noise)
    return {"case": case, "kind": kind, "law": law, "size": size, "cls": cls, "d": d, "D": D,
            "excess": common.excess_errors(kind, law, size, params.noise),
            "constant_excess": common.constant_excess(kind, law, size, params.noise),
            **theorem_sizes(params.alpha, params.beta, params.eps, d)}


def _select(cls, cover, px, py, eps, variant, rng) -> int:
    """Algorithm 1, step 6 (or the negative control's flipped score) on the private prefix (px, py)."""
    from algorithms.learning.sspp import a_sspp, sspp_scores
    from algorithms.privacy.mechanisms import ExponentialMechanism

    if variant == contract.NO_VARIANT:
        return a_sspp(cls, px, py, cover.public_points, eps, rng).value
    if variant.startswith("eps_div_"):
        return a_sspp(cls, px, py, cover.public_points, eps / float(variant.rsplit("_", 1)[1]), rng).value
    scores = -sspp_scores(cover, px, py)  # broken: +err_hat
    return int(cover.members[ExponentialMechanism(eps, 1.0 / px.size).release(scores, rng).value])


def run_case(s: dict, params: Params, rng: np.random.Generator) -> dict:
    """Every run of one case on one public and one private draw (module docstring, step 3)."""
    from algorithms.evaluation import cover_radius
    from algorithms.learning.erm import erm, error_counts
    from algorithms.learning.sspp import sspp_cover
    from algorithms.privacy.mechanisms import ExponentialMechanism

    cls, excess, n, m = s["cls"], s["excess"], s["n_bound"], s["m_bound"]
    T = s["D"].marginal.sample(m, rng)
    X, Y = s["D"].sample(n, rng)
    marg = s["D"].marginal.probs
    cover = sspp_cover(cls, T)
    h = _select(cls, cover, X, Y, params.eps, params.variant, rng)
    radius = cover_radius(cover, marg)
    radius_33 = cover_radius(sspp_cover(cls, T[: s["m_lemma3_3"]]), marg)
    out = {
        "n": n, "m": m, "cover_size": cover.size, "excess": float(excess[h]),
        "accurate": bool(excess[h] <= params.alpha),
        "cover_radius": radius, "cover_ok": bool(radius <= params.alpha / 2),
        "cover_radius_lemma3_3": radius_33, "cover_ok_lemma3_3": bool(radius_33 <= params.alpha),
    }
    loose = {}
    for f in params.fractions:
        nf, mf = max(1, math.ceil(f * n)), max(1, math.ceil(f * m))
        h_n = _select(cls, cover, X[:nf], Y[:nf], params.eps, params.variant, rng)
        h_m = _select(cls, sspp_cover(cls, T[:mf]), X, Y, params.eps, params.variant, rng)
        loose[repr(f)] = {"n": nf, "m": mf, "excess_n": float(excess[h_n]), "excess_m": float(excess[h_m]),
                          "accurate_n": bool(excess[h_n] <= params.alpha),
                          "accurate_m": bool(excess[h_m] <= params.alpha)}
    out["looseness"] = loose
    h_erm = erm(cls, X, Y).hypothesis
    h_nopub = ExponentialMechanism(params.eps, 1.0 / n).release(-error_counts(cls, X, Y) / n, rng).value
    h_blind = int(cover.members[rng.integers(cover.size)])
    ex = {"erm_nonprivate": float(excess[h_erm]), "em_all_of_H": float(excess[h_nopub]),
          "public_only_label_blind": float(excess[h_blind]), "constant_zero": s["constant_excess"]}
    out["baselines"] = {name: {"excess": e, "accurate": bool(e <= params.alpha)} for name, e in ex.items()}
    return out


@dataclass(frozen=True)
class Learner:
    """A learner beside A_SSPP on the same draws: its excess error, and whether it is <= alpha."""
    excess: float
    accurate: bool


@dataclass(frozen=True)
class Baselines:
    """The learners judged beside A_SSPP: the opponents (:data:`OPPONENTS`) decide ``informative``; ERM is
    privacy-blind (:data:`PRIVACY_BLIND`), the label-blind draw measured beside (:data:`LABEL_BLIND`).
    ``constant_zero`` is absent from runs recorded before it was added."""
    erm_nonprivate: Learner
    em_all_of_H: Learner = contract.opponent_field("em_learner", "outcome")
    public_only_label_blind: Learner
    constant_zero: Learner | None = contract.opponent_field("constant_zero", "outcome", None)


@dataclass(frozen=True)
class Looseness:
    """A_SSPP at a fraction of n_priv (``_n``) and of n_pub (``_m``)."""
    n: int
    m: int
    excess_n: float
    excess_m: float
    accurate_n: bool
    accurate_m: bool


@dataclass(frozen=True)
class Case:
    """One case of one trial (``run_case``)."""
    n: int
    m: int
    cover_size: int
    excess: float
    accurate: bool
    cover_radius: float
    cover_ok: bool
    cover_radius_lemma3_3: float
    cover_ok_lemma3_3: bool
    looseness: dict[str, Looseness]
    baselines: Baselines


@dataclass(frozen=True)
class Outcome:
    """One trial: per case name, and whether A_SSPP was accurate in every case."""
    cases: dict[str, Case]
    success: bool


def trial(params: Params, rng: np.random.Generator) -> dict:
    """Every case once (module docstring); ``success`` = A_SSPP accurate in every case."""
    cases = {case: run_case(case_setup(case, params), params, rng) for case in params.cases}
    return {"cases": cases, "success": all(c["accurate"] for c in cases.values())}


def _least_fraction(successes: dict, trials: int, target: float, confidence: float) -> float | None:
    """Least fraction f of the bound (``successes`` maps fractions, 1.0 included, to success counts) such
    that at f and at every larger fraction the success rate's lower Clopper-Pearson bound is >= target:
    the empirical looseness of the size. None if not even f = 1 qualifies."""
    from simulations import stats

    best = None
    for f in sorted(successes, reverse=True):
        if stats.clopper_pearson(successes[f], trials, confidence, "lower")[0] < target:
            break
        best = f
    return best


def _opponents(rows: list[dict], params: Params) -> dict:
    """The case's opponents and ERM on the same draws (``simulations.opponents.judge_case``, by excess error), each
    record with its text and its excess error's mean."""
    from simulations.opponents import judge_case

    names = (*OPPONENTS, *PRIVACY_BLIND)
    per_trial = [{k: (r["baselines"].get(RECORD_KEY.get(k, k)) or {}).get("excess") for k in names} for r in rows]
    j = judge_case(per_trial, tuple(OPPONENTS), params.alpha, 1 - params.beta, params.confidence,
                   privacy_blind=tuple(PRIVACY_BLIND), audit=PRIVACY_AUDIT)
    blind = np.array([r["baselines"]["public_only_label_blind"]["excess"] for r in rows])
    j["beside"] = {"public_only_label_blind": {
        **contract.baseline(int(np.sum(blind <= params.alpha)), blind.size, 1 - params.beta, params.confidence),
        "error_mean": float(blind.mean())}}
    text = {**OPPONENTS, **PRIVACY_BLIND, **LABEL_BLIND}
    for group in (j["baselines"], j["privacy_blind"], j["beside"]):
        for k, b in group.items():
            if b is not None:
                b.update(text=text[k], excess_mean=b["error_mean"])
    return j


def summarise_case(case: str, rows: list[dict], params: Params, per_claim: float) -> dict:
    """One case: the accuracy and cover claims, the below-bound looseness runs and the baselines."""
    T, conf, target = len(rows), params.confidence, 1 - params.beta
    s = case_setup(case, params)
    ex = np.array([r["excess"] for r in rows])
    loose = {}
    for f in params.fractions:
        lr = [r["looseness"][repr(f)] for r in rows]
        loose[repr(f)] = {
            "fraction": f, "n": lr[0]["n"], "m": lr[0]["m"],
            "n_reduced": contract.claim(sum(x["accurate_n"] for x in lr), T, target, conf,
                                        per_claim_confidence=per_claim, at_bound=False,
                                        label=f"{case}: excess <= alpha at {f:g} n_priv"),
            "m_reduced": contract.claim(sum(x["accurate_m"] for x in lr), T, target, conf,
                                        per_claim_confidence=per_claim, at_bound=False,
                                        label=f"{case}: excess <= alpha at {f:g} n_pub"),
        }
    k_at_bound = sum(r["accurate"] for r in rows)
    k_n = {1.0: k_at_bound, **{f: loose[repr(f)]["n_reduced"]["successes"] for f in params.fractions}}
    k_m = {1.0: k_at_bound, **{f: loose[repr(f)]["m_reduced"]["successes"] for f in params.fractions}}
    out = {
        "class": s["cls"].name, "distribution": s["D"].name, "num_points": s["cls"].num_points,
        "num_hypotheses": s["cls"].num_hypotheses, "d": s["d"], "noise": params.noise,
        "n_bound": s["n_bound"], "m_bound": s["m_bound"], "m_lemma3_3": s["m_lemma3_3"],
        "log_cover_size_bound": s["log_cover_size_bound"],
        "log_cover_size_used_max": float(np.log(max(r["cover_size"] for r in rows))),
        "accuracy": contract.claim(k_at_bound, T, target, conf, per_claim_confidence=per_claim,
                                   label=f"{case}: A_SSPP excess <= alpha w.p. >= 1 - beta"),
        "cover": contract.claim(sum(r["cover_ok"] for r in rows), T, 1 - params.beta / 2, conf,
                                per_claim_confidence=per_claim,
                                label=f"{case}: the public sample's cover is an alpha/2-cover w.p. >= 1 - beta/2"),
        "cover_lemma3_3": contract.claim(sum(r["cover_ok_lemma3_3"] for r in rows), T, target, conf,
                                         per_claim_confidence=per_claim,
                                         label=f"{case}: Lemma 3.3's cover at its own n_pub"),
        "excess": {"mean": float(ex.mean()), "quantile_1_minus_beta": float(np.quantile(ex, target)),
                   "max": float(ex.max()), "limit": params.alpha},
        "cover_radius": {"max": max(r["cover_radius"] for r in rows), "limit": params.alpha / 2,
                         "max_lemma3_3": max(r["cover_radius_lemma3_3"] for r in rows)},
        "looseness": loose,
        "least_fraction_n": _least_fraction(k_n, T, target, conf),
        "least_fraction_m": _least_fraction(k_m, T, target, conf),
        **_opponents(rows, params),
    }
    algo = contract.baseline(k_at_bound, T, target, conf)
    out["separation"] = {"algorithm": algo,
                         "separated": bool(algo["status"] == contract.SUCCEEDS and out["informative"]),
                         "trivial_not_failing": [k for k, b in out["baselines"].items()
                                                 if b is not None and b["status"] != contract.FAILS]}
    return out


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Per case: accuracy and cover verdicts, below-bound looseness runs, baselines (module docstring)."""
    T = len(records)
    conf = params.confidence
    per_claim = 1 - (1 - conf) / (3 * len(params.cases))
    target = 1 - params.beta
    cases = {case: summarise_case(case, [r["cases"][case] for r in records], params, per_claim)
             for case in params.cases}
    statuses = [c[k]["verdict"] for c in cases.values() for k in ("accuracy", "cover", "cover_lemma3_3")]
    from simulations.opponents import privacy_blind_text, strongest_text

    informative = {k: c["informative"] for k, c in cases.items()}
    weak = sorted({o for c in cases.values() for o in c["weaker_than_constant"]})
    lead = (f"informative in {sum(informative.values())}/{len(cases)} case(s)"
            + ("" if all(informative.values()) else " (an opponent also meets alpha in: " + "; ".join(
                f"{k}: {', '.join(c['separation']['trivial_not_failing'])}" for k, c in cases.items()
                if not c["informative"]) + ")") + "; strongest opponent: " + strongest_text(cases) + "; "
            + privacy_blind_text(cases, "A_SSPP", PRIVACY_AUDIT)
            + (f"; DEFECT: weaker than the constant on the same draws: {', '.join(weak)}" if weak else "") + ". ")
    text = lead + (f"Theorem 3.1 accuracy (target 1 - beta = {target:g}), its alpha/2-cover (target "
            f"{1 - params.beta / 2:g}) and Lemma 3.3's alpha-cover (target {target:g}) over {len(cases)} cases, "
            f"{T} trials each, {100 * conf:g}% confidence (Bonferroni over {len(statuses)} claims)")
    return contract.Judgement(
        claims=statuses, text=text,
        opponents={k: c["baselines"] for k, c in cases.items()}, measurements={
        "result_id": "abm19:thm3.1",
        "claim": ("err(h_priv; D) <= min_H err + alpha w.p. >= 1 - beta (Theorem 3.1); H~ an alpha/2-cover w.p. "
                  ">= 1 - beta/2 (its proof) and, at Lemma 3.3's own n_pub, an alpha-cover w.p. >= 1 - beta"),
        "bound_source": (f"bounds.compute('abm19:thm3.1', alpha={params.alpha}, beta={params.beta}, "
                         f"epsilon={params.eps}, vc=d): public_samples, private_samples; "
                         f"bounds.compute('abm19:lemma3.3', alpha={params.alpha}, beta={params.beta}, vc=d)"),
        "alpha": params.alpha, "beta": params.beta, "eps": params.eps, "noise": params.noise,
        "trials": T, "confidence": conf, "per_claim_confidence": per_claim, "cases": cases})


EXPERIMENT = contract.Experiment(
    name="thm3_1", results=("abm19:thm3.1", "abm19:lemma3.3"),
    section="abm19-thm3-1",
    description=("A_SSPP (ABM19 Alg 1): excess error <= alpha w.p. >= 1 - beta at Theorem 3.1's n_priv, n_pub; "
                 "the Lemma 3.3 cover; ERM / no-public / public-only baselines; looseness of both sizes"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(20, {"cases": "thresholds:uniform,halfspaces:uniform", "num_points": 64, "grid_side": 4,
                           "alpha": 0.2, "fractions": "0.5,0.01"}),
    opponents=OPPONENTS,
    controls={"flipped_score": "step 6 scores +err_hat: the exponential mechanism prefers bad hypotheses"},
    probes=PROBES,
    aliases={"a_sspp": "none", "broken_flipped_score": "flipped_score"},  # earlier spellings
)
