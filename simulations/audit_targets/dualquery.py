"""GGHRW14 Algorithm 1 (DualQuery): audit targets for :func:`algorithms.query_release.dualquery.dualquery` and a
broken twin (the sampling sharpness eta scaled up, the guarantee of the original eta declared).

The claim audited: the transcript of draws is ``PureDP(eta s T (T - 1)/n)``-DP (basic composition of the
s (T - 1) draws of rounds 2..T, each 2 eta (t - 1)/n-DP; ``algorithms.query_release.dualquery`` derives it).

Set-up (chosen for power). One attribute with 2 values, its 1-way marginal (q_0 = 1{x = 0}, q_1 = 1{x = 1}
and their negations: 4 queries), n = 2, D0 = (0, 0), D1 = (0, 1), T = 2 rounds, s = 1 draw per round,
eta = 1: declared eps = 2 eta / n = 1. Output: the two drawn query ids as one of 16 categories (the whole
transcript; x_1, x_2 and the answers are post-processing of it). Round 1 draws uniformly; round 2 draws
from Q_2(q) ~ exp(eta (q(D) - q(x_1))). Exact laws of the round-2 draw: after x_1 = 0, D0 gives the uniform
law and D1 weights e^{-1/2}, e^{1/2}, e^{1/2}, e^{-1/2} (log-ratio up to log(0.25 / 0.1345) = 0.62); after
x_1 = 1, D0 weights e, 1/e, 1/e, e and D1 e^{1/2}, e^{-1/2}, ...: log(0.1345 / 0.0596) = 0.81, the largest,
<= the declared 1. The broken twin at 4 eta: log(0.0090 / 0.000167) = 3.99 against the declared 1.
Measured (``python -m simulations audit``, 20,000 samples, 95%): correct eps_lb 0.67 (minimal detectable
eps 1.07, power stated by the auditor); broken eps_lb 3.23, caught. The broken twin's default budget is 5,000
(was 20,000): in ``audit --all``'s setting (its per-target confidence 99.93%) it gave eps_lb 2.86, 2.84, 2.46,
2.77, 2.32 (seeds 0-4) against the declared 1, a margin of at least 1.32; the real target keeps 20,000 (its power).

* ``dualquery``: must pass.
* ``dualquery_sharp_eta`` (broken): the draws at 4 eta, ``PureDP(2 eta/n)`` of eta declared.
"""

from __future__ import annotations

import numpy as np

from algorithms.query_release.dualquery import dualquery, dualquery_guarantee
from algorithms.query_release.workloads import CategoricalDomain
from simulations.audit import AuditCase, AuditTarget, with_ci_samples

DOMAIN = CategoricalDomain([2])
WORKLOADS = [(0,)]
PAIR = (np.array([[0], [0]]), np.array([[0], [1]]))
ETA, S, T = 1.0, 1, 2
BROKEN_FACTOR = 4.0


def _case(factor: float):
    def make(eps: float, delta: float) -> AuditCase:
        declared = dualquery_guarantee(ETA, S, T, PAIR[0].shape[0])

        def run(data, rng):
            drawn = dualquery(data, DOMAIN, WORKLOADS, ETA * factor, S, T, rng).value.sampled
            return int(drawn[0, 0] * 4 + drawn[1, 0])

        def mechanism(data, public, rng, size=None):
            out = np.array([run(data, rng) for _ in range(size or 1)])
            return out if size is not None else out[0]

        return AuditCase(mechanism, None, PAIR, None, float(declared.eps), 0.0, batched=True)

    return make


TARGETS = (
    AuditTarget("dualquery", "GGHRW14 Alg 1", "DualQuery, T=2, s=1, eta=1, one binary attribute, n=2; the "
                "transcript of draws (16 categories) against PureDP(eta s T (T-1)/n) = 1",
                _case(1.0), default_eps=1.0, default_samples=20_000),
    AuditTarget("dualquery_sharp_eta", "GGHRW14 Alg 1 (broken)",
                f"DualQuery drawing at {BROKEN_FACTOR:g} eta while declaring the guarantee of eta",
                _case(BROKEN_FACTOR), expect_private=False, default_eps=1.0, default_samples=5_000),
)

#: the contract test's sample counts (tests/simulations/test_contract.py)
TARGETS = with_ci_samples(TARGETS, {"dualquery": 3_000, "dualquery_sharp_eta": 10_000})
