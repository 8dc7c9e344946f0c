"""LVSUW21 Lemma 4.2 (the Laplace release of a 1/n-sensitive statistic): docs/DESIGN.md's worked example of an
experiment, complete. One trial releases the mean of n private bits (mean ``p``) with the Laplace mechanism at eps;
the claim is that its error is at most bounds' ``release_error`` = b log(1/beta), b = 1/(n eps), w.p. >= 1 - beta.
The opponent ``public_only`` answers 1/2 without reading the data (it fails when |p - 1/2| is above the bound); the
negative control ``noise_x3`` adds three times the declared noise (violated: it fails w.p. beta^(1/3))."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from algorithms.privacy.mechanisms import LaplaceMechanism
from simulations import contract
from simulations.experiments import Confidence, Controlled, param


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    n: int = param(1000, "private samples n (the mean is 1/n-sensitive)", within="[1, inf)")
    eps: float = param(1.0, "privacy parameter eps", within="(0, inf)")
    beta: float = param(0.05, "failure probability beta", within="(0, 1)")
    p: float = param(0.9, "mean of the private bits", within="[0, 1]")


@dataclass(frozen=True)
class Outcome:
    """One trial: the release's error and whether it is within the bound; the opponent's on the same data."""
    error: float
    accurate: bool
    public_only_error: float = contract.opponent_field("public_only", "error")
    public_only_accurate: bool = contract.opponent_field("public_only", "success")


def _bound(params: Params) -> float:
    return contract.required_sizes("lvsuw21:lemma4.2", {"bound": "release_error"}, private_samples=params.n,
                                   epsilon=params.eps, beta=params.beta)["bound"]


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    bound = _bound(params)
    mean = float(rng.binomial(params.n, params.p) / params.n)
    factor = 3.0 if params.variant == "noise_x3" else 1.0
    released = LaplaceMechanism(1.0 / params.n, params.eps / factor).release(np.array([mean]), rng).value[0]
    error, opponent = abs(float(released) - mean), abs(0.5 - mean)
    return Outcome(error=error, accurate=error <= bound, public_only_error=opponent,
                   public_only_accurate=opponent <= bound)


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    T, target = len(records), 1 - params.beta
    c = contract.claim(sum(r["accurate"] for r in records), T, target, params.confidence,
                       label="the Laplace release's error <= b log(1/beta) w.p. >= 1 - beta")
    base = {"public_only": contract.baseline(sum(r["public_only_accurate"] for r in records), T, target,
                                             params.confidence)}
    return contract.Judgement(claims=[c], text=f"{c['label']}: {c['successes']}/{T} within", opponents=base,
                              measurements={"accuracy": c, "baselines": base, "bound": _bound(params)})


EXPERIMENT = contract.Experiment(
    name="laplace_release", results=("lvsuw21:lemma4.2",),
    description="the worked example: a Laplace release's error <= b log(1/beta) w.p. >= 1 - beta (LVSUW21 Lemma 4.2)",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(60, {"n": 200}), opponents=("public_only",), section="lvsuw21",
    controls={"noise_x3": "the Laplace noise at three times its declared scale"},
)
