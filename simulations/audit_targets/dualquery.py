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

Exact loss (``transcript_law``: the 16 outputs' probabilities, round 1 enumerated and x_1 from the algorithm's own
best response). Each target's line states its pair's loss (0.814 = 0.81 of the declared 1; 3.98 for the broken
twin) and the worst of 64 random pairs of two-row data sets (``neighbours``, ranked by exact loss only: the audit
keeps its pair and its draws), 0.814 again: all 8 neighbouring pairs of two rows have that loss (the values' and
the rows' symmetries). ``dualquery`` at its
default 20,000 (seed 0): eps_lb 0.673, 0.83 of the pair's loss.

* ``dualquery``: must pass.
* ``dualquery_sharp_eta`` (broken): the draws at 4 eta, ``PureDP(2 eta/n)`` of eta declared.
"""

from __future__ import annotations

import numpy as np

from algorithms.query_release.dualquery import best_response, dualquery, dualquery_guarantee
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

        return AuditCase(mechanism, None, PAIR, None, float(declared.eps), 0.0, batched=True,
                         pair_loss=lambda pair: transcript_pair_loss(pair, factor), loss_neighbours=neighbours)

    return make


def transcript_law(data, factor: float = 1.0) -> np.ndarray:
    """The exact law of the target's output (the two drawn query ids as ``4 q_1 + q_2``, 16 categories) on
    ``data`` (n rows of the one binary attribute), DualQuery's rounds at ``ETA * factor`` (T = 2, s = 1).

    GGHRW14 Algorithm 1, enumerated: round 1 draws q_1 uniformly from Q' (the 2 cell queries, then their
    negations); x_1 is the data player's best response to it (``best_response``, the algorithm's own solver:
    deterministic, ties to the first row); round 2 draws q_2 from Q_2(q) ~ exp(eta u(q)) over Q', u(q) = q(D) -
    q(x_1) for the cell queries and its negative for their negations."""
    rows = np.asarray(data, dtype=np.int64)
    m = DOMAIN.sizes[0]
    truth = np.bincount(rows[:, 0], minlength=m) / rows.shape[0]    # q_v(D) = the share of rows with x = v
    law = np.zeros((2 * m, 2 * m))
    for q1 in range(2 * m):
        weights = np.zeros(m)
        weights[q1 % m] = 1.0 if q1 < m else -1.0
        x1 = best_response(DOMAIN, WORKLOADS, weights)
        u = truth - (np.arange(m) == x1[0])
        logits = ETA * factor * np.r_[u, -u]
        law[q1] = np.exp(logits - logits.max()) / np.sum(np.exp(logits - logits.max())) / (2 * m)
    return law.reshape(-1)


def transcript_pair_loss(pair, factor: float = 1.0) -> float:
    """The exact privacy loss of the transcript on a pair: max over the 16 outputs of |log P_D0 / P_D1|."""
    p0, p1 = (transcript_law(d, factor) for d in pair)
    return float(np.max(np.abs(np.log(p0) - np.log(p1))))


def neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random data set of the target's n = 2 rows and its neighbour with one row replaced (by the other value)."""
    d0 = rng.integers(0, DOMAIN.sizes[0], size=(PAIR[0].shape[0], 1))
    d1 = d0.copy()
    i = int(rng.integers(0, d0.shape[0]))
    d1[i, 0] = 1 - d1[i, 0]
    return d0, d1


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
