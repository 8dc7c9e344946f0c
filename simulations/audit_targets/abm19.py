"""ABM19 Lemma 3.2 and Claim 4.5: audit targets for A_SSPP (Algorithm 1) and for the reduction B
(Algorithms 2-4) on A_SSPP, each with a deliberately broken variant.

A_SSPP (Lemma 3.2: eps-DP in S_priv for every fixed T_pub). Class: the 2 thresholds on one point
(h_0 = -1, h_1 = +1 at x = 0); T_pub = (0,), so H~ = H. Neighbours (n = 4 records, one label changed):
D0 = ((0,1), (0,1), (0,0), (0,0)), D1 = ((0,0), (0,1), (0,0), (0,0)). The score gap moves by 2/n, the
most one record can move it, so Pr[h_1] goes from 1/2 to 1/(1 + e^eps). Statistic: the selected row.

* ``a_sspp``: the algorithm (batched draws of ``a_sspp_sample``); eps_lb must stay <= eps. Its line states the
  pair's exact loss (``label_pair_loss``, from ``a_sspp_law``): log((1 + e)/2) = 0.620 at eps = 1, and the worst of
  64 random label pairs (``label_neighbours``, ranked by exact loss only, so the audit keeps its pair and draws):
  0.814 = 0.81 of eps, four equal labels against one flipped (the score gap at its extreme). eps_lb 0.60 at its
  default 200,000 (seed 0), 0.97 of the pair's loss.
* ``a_sspp_wrong_sensitivity`` (broken): the exponential mechanism declared with sensitivity 1/n but fed
  the unnormalised score -n err_hat (sensitivity 1): the loss is n eps = 4 eps; the auditor must catch it.

A pair that moves a point (the label pair above cannot see a data-dependent cover: its domain has one point).
Class thresholds(4) on points 0..3, T_pub = {1}, n = 4 records as (points; labels); the hand-built pair
``POINT_PAIR`` moves the first record's point from 0 to 3. The case gives the exact law (``a_sspp_law``), so the
auditor ranks random pairs and local moves (``point_neighbours``, ``point_mutate``: a record's point, label or both)
by their exact loss (``point_pair_loss``) before its sampled search.

* ``a_sspp_point_pair``: the algorithm; worst exact loss found 0.81 of eps = 1 (the hand-built pair's 0.28), eps_lb
  0.71 at 20,000 (seed 0), 0.87 of the pair's loss.
* ``a_sspp_private_cover`` (broken): the cover built on T_pub and the first private point (a private point leaking
  into H~): D0's outputs are {h_0, h_1, h_2}, D1's {h_0, h_2, h_4}, an output one side cannot produce; eps_lb 6.9
  at 20,000 (seed 0).

B (Claim 4.5: B is as private as A, since S_pub ignores S~ and each element of S~ appears at most once
in S_priv). Same class; n_priv = 2 10^4, n_pub = 1 (p = 1/100), B's input n~ = 2000 from
``algorithms.adversaries.public_reduction.input_size``. Neighbours: S~ = n~ copies of (0, 1), and the
same with the first element replaced by (0, 0). Statistic: the selected row.

* ``reduction_b``: B on A_SSPP; the one changed element enters S_priv at most once, among 2 10^4 records
  whose dummies move the score by ~140, so eps_lb stays near 0 (<= eps). B's law is exact here (``b_law``): the
  first K ~ Bin(n_priv, p) elements of S~ enter S_priv (PrivSamp cannot run out on K's kept range), A_SSPP sees
  only the number C of ones, the real ones of those K plus Bin(n_priv - K, 1/2) dummies, and its law given C is
  logistic in C; K and the dummies are summed over their 1e-30 quantiles (mass left out < 1e-29, which moves a
  loss by < 1e-25). The line states the pair's exact loss 0.0263 = 0.03 of eps (``b_pair_loss``: the changed
  element shifts C by one with probability 1 - 0.99^20000, against C's spread of ~70) and the worst of 64
  random S~ pairs (``b_loss_neighbours``: labels Bernoulli(f), one of the first 400 flipped), which is the
  target's own pair (all ones puts C furthest into the logistic's tail); eps_lb 0 at 1,000 (seed 0): the gap
  is the pair's.
* ``reduction_b_reuses_point`` (broken): PrivSamp places z~_1 at every position where b_i = 1 (the
  private point reused ~10^3 times): the changed element flips ~10^3 labels, A's output flips with it,
  and eps_lb ~ log(samples) > eps.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy import special, stats

from algorithms.adversaries.public_reduction import input_size, mixture_weight, priv_samp, pub_samp, reduction_b
from algorithms.classes import constructors
from algorithms.learning.sspp import ASSPP, a_sspp, a_sspp_law, a_sspp_sample, sspp_cover, sspp_scores
from algorithms.privacy.mechanisms import ExponentialMechanism
from simulations.audit import AuditCase, AuditTarget, with_ci_samples

SSPP_LABELS = (np.array([1, 1, 0, 0]), np.array([0, 1, 0, 0]))
PUBLIC = np.array([0], dtype=np.int64)
B_N_PRIV, B_N_PUB = 20_000, 1


def _class():
    return constructors.thresholds(1)


def _row(outputs):
    return np.asarray(outputs, dtype=float)


def _sspp_case(eps: float, delta: float, *, broken: bool) -> AuditCase:
    cls = _class()

    def mechanism(labels, public, rng, size=None):
        points = np.zeros(labels.size, dtype=np.int64)
        if not broken:
            if size is None:
                return a_sspp(cls, points, labels, public, eps, rng).value
            return a_sspp_sample(cls, points, labels, public, eps, rng, size)
        cover = sspp_cover(cls, public)
        scores = sspp_scores(cover, points, labels) * labels.size  # -n err_hat: sensitivity 1, declared 1/n
        draws = cover.members[ExponentialMechanism(eps, 1.0 / labels.size).sample(scores, rng, size or 1)]
        return draws if size is not None else int(draws[0])

    if broken:
        return AuditCase(mechanism, _row, SSPP_LABELS, PUBLIC, eps, 0.0, batched=True)
    return AuditCase(mechanism, _row, SSPP_LABELS, PUBLIC, eps, 0.0, batched=True,
                     pair_loss=lambda pair: label_pair_loss(pair, eps), loss_neighbours=label_neighbours)


def law_loss(p0: np.ndarray, p1: np.ndarray) -> float:
    """The exact privacy loss of two output laws on the same outputs: max over outputs either side can produce of
    |log p0 / p1| (inf for an output one side cannot produce)."""
    seen = (p0 > 0) | (p1 > 0)
    with np.errstate(divide="ignore"):
        return float(np.max(np.abs(np.log(p0[seen]) - np.log(p1[seen]))))


def label_pair_loss(pair, eps: float) -> float:
    """The exact privacy loss of a pair of label vectors for ``a_sspp`` (every point 0, T_pub = (0,)), from ABM19
    Algorithm 1's exact law (``a_sspp_law``)."""
    laws = [a_sspp_law(_class(), np.zeros(len(d), dtype=np.int64), np.asarray(d, dtype=np.int64), PUBLIC, eps)
            for d in pair]
    return law_loss(*(law.hypothesis_probabilities() for law in laws))


def label_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random label vector of ``a_sspp``'s size and its neighbour with one label flipped (the points are all 0)."""
    d0 = rng.integers(0, 2, SSPP_LABELS[0].size)
    d1 = d0.copy()
    i = int(rng.integers(0, d0.size))
    d1[i] = 1 - d1[i]
    return d0, d1


POINT_CLASS_SIZE = 4                 # thresholds on the points 0..3 (hypotheses j = 0..4)
POINT_PUBLIC = np.array([1], dtype=np.int64)
POINT_PAIR = (np.array([[0, 2, 2, 3], [1, 0, 0, 0]]), np.array([[3, 2, 2, 3], [1, 0, 0, 0]]))


def _point_law(data, eps: float, leak: bool):
    """(members, probabilities) of A_SSPP on S_priv = ``data`` (row 0 the points, row 1 the labels) with T_pub =
    POINT_PUBLIC, or, with ``leak``, with the first private point added to T_pub before the cover is built (the
    broken twin): ABM19 Algorithm 1's exact law (``a_sspp_law``)."""
    points, labels = np.asarray(data[0], dtype=np.int64), np.asarray(data[1], dtype=np.int64)
    public = np.r_[POINT_PUBLIC, points[:1]] if leak else POINT_PUBLIC
    law = a_sspp_law(constructors.thresholds(POINT_CLASS_SIZE), points, labels, public, eps)
    return law.members, law.probabilities


def point_pair_loss(pair, eps: float, leak: bool = False) -> float:
    """The exact privacy loss of a pair: max over outputs of |log Pr[h | D0] / Pr[h | D1]| (inf for an output one
    side cannot produce)."""
    p = [np.zeros(POINT_CLASS_SIZE + 1) for _ in pair]
    for out, d in zip(p, pair):
        members, probs = _point_law(d, eps, leak)
        out[members] = probs
    return law_loss(*p)


def point_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random S_priv of 4 labelled points and a neighbour that replaces one record (its point, its label or both)."""
    d0 = np.vstack([rng.integers(0, POINT_CLASS_SIZE, 4), rng.integers(0, 2, 4)])
    d1 = d0.copy()
    i = int(rng.integers(0, 4))
    d1[:, i] = rng.integers(0, POINT_CLASS_SIZE), rng.integers(0, 2)
    return d0, d1


def point_mutate(pair, rng) -> tuple[np.ndarray, np.ndarray]:
    """A local move: a record both sides share is redrawn in both, or the changed record is redrawn in D1."""
    d0, d1 = pair[0].copy(), pair[1].copy()
    differ = np.flatnonzero(np.any(d0 != d1, axis=0))
    i = int(differ[0]) if differ.size else 0
    j = int(rng.integers(0, 4))
    new = rng.integers(0, POINT_CLASS_SIZE), rng.integers(0, 2)
    if j == i:
        d1[:, i] = new
    else:
        d0[:, j] = new
        d1[:, j] = new
    return d0, d1


def _sspp_point_case(eps: float, delta: float, *, leak: bool) -> AuditCase:
    def mechanism(data, public, rng, size=None):
        members, probs = _point_law(data, eps, leak)
        draws = members[rng.choice(members.size, size=size or 1, p=probs)]
        return draws if size is not None else int(draws[0])

    def real(data, public, rng, size=None):
        points, labels = np.asarray(data[0], dtype=np.int64), np.asarray(data[1], dtype=np.int64)
        cls = constructors.thresholds(POINT_CLASS_SIZE)
        if size is None:
            return a_sspp(cls, points, labels, POINT_PUBLIC, eps, rng).value
        return a_sspp_sample(cls, points, labels, POINT_PUBLIC, eps, rng, size)

    return AuditCase(mechanism if leak else real, _row, POINT_PAIR, POINT_PUBLIC, eps, 0.0, batched=True,
                     pair_loss=lambda p: point_pair_loss(p, eps, leak), neighbours=point_neighbours,
                     mutate=point_mutate)


def b_neighbours() -> tuple[np.ndarray, np.ndarray]:
    """Labels of S~ (all at point 0): n~ ones, and the same with the first replaced by 0."""
    d0 = np.ones(input_size(B_N_PRIV, B_N_PUB), dtype=np.int64)
    d1 = d0.copy()
    d1[0] = 0
    return d0, d1


B_TAIL = 1e-30       # B's law keeps K and each dummy count within their 1e-30 quantiles (the rest: ``b_law``'s mass)


@functools.lru_cache(maxsize=4)
def _b_tables(n_priv: int, n_pub: int):
    """K ~ Bin(n_priv, p), the number of real elements in S_priv, on its kept range, its weights, and for each kept
    K the law Bin(n_priv - K, 1/2) of the dummies' ones on a window j0(K) + d, |d| <= R; with the mass they leave
    out (the tails of K, and each K's weight times its dummies' tails)."""
    p = mixture_weight(n_pub)
    k = np.arange(n_priv + 1)     # the quantiles by search: scipy's binom.isf is wrong this far in the tail
    k = k[(stats.binom.cdf(k, n_priv, p) >= B_TAIL) & (stats.binom.sf(k - 1, n_priv, p) >= B_TAIL)]
    if k[-1] >= input_size(n_priv, n_pub):      # PrivSamp could run out inside the kept range: not this law
        raise ValueError("B's exact law here needs K < n~ on its kept range (PrivSamp never runs out there)")
    w = stats.binom.pmf(k, n_priv, p)
    m = n_priv - k
    d = np.arange(m[0] // 2 + 1)
    r = int(np.argmax(stats.binom.sf(m[0] // 2 + d, m[0], 0.5) < B_TAIL)) + 1   # the widest dummies' law: K's least
    j = (m // 2)[:, None] + np.arange(-r, r + 1)[None, :]
    dummies = stats.binom.pmf(j, m[:, None], 0.5)
    left = stats.binom.cdf(k[0] - 1, n_priv, p) + stats.binom.sf(k[-1], n_priv, p) + float(
        w @ (stats.binom.cdf(j[:, 0] - 1, m, 0.5) + stats.binom.sf(j[:, -1], m, 0.5)))
    return k, w, j, dummies, left


def b_law(labels, eps: float, n_priv: int = B_N_PRIV, n_pub: int = B_N_PUB) -> tuple[np.ndarray, float]:
    """(Pr[B outputs row 0], Pr[B outputs row 1]) for S~ = ``labels`` (every point 0), and the mass left out.

    ABM19 Algorithms 2-4 on this one-point class: PrivSamp places the first K elements of S~ (K ~ Bin(n_priv, p),
    p = 1/(100 n_pub); it never runs out on the kept range, so K's law there is exactly the binomial) among
    n_priv - K dummies of uniform label; S_pub is one dummy at the point 0, so H~ = H; A_SSPP sees only the
    number C = m(K) + Bin(n_priv - K, 1/2) of ones in S_priv (m(K): the ones among S~'s first K), and its law
    given C is the exponential mechanism's (``a_sspp_law`` with counts), logistic in C: the log-odds of row 1 is
    affine in C, read from ``a_sspp_law`` at C = n_priv/2 and n_priv/2 + 1. The probabilities are exact up to
    the mass left out (< 1e-29, ``B_TAIL``): each true probability lies in [p, p + left]."""
    k, w, j, dummies, left = _b_tables(n_priv, n_pub)
    ones = np.r_[0, np.cumsum(np.asarray(labels, dtype=np.int64) == 1)]
    logit = []
    for c in (n_priv // 2, n_priv // 2 + 1):
        law = a_sspp_law(_class(), np.zeros(2, dtype=np.int64), np.array([0, 1]), PUBLIC, eps,
                         counts=np.array([n_priv - c, c])).hypothesis_probabilities()
        logit.append(np.log(law[1]) - np.log(law[0]))
    z = logit[0] + (logit[1] - logit[0]) * (np.arange(n_priv + 1) - n_priv // 2)   # the log-odds at C = 0..n_priv
    start = ones[k] + j[:, 0]               # K's window of C: start + 0..2R
    law = [float(w @ np.einsum("kd,kd->k", dummies, sliding_window_view(special.expit(sign * z), j.shape[1])[start]))
           for sign in (-1.0, 1.0)]
    return np.array(law), float(left)


def b_pair_loss(pair, eps: float) -> float:
    """The exact privacy loss of a pair of S~ label vectors for ``reduction_b`` (``b_law``; the mass left out moves
    it by at most left / min probability, below 1e-25 on every pair drawn here)."""
    return law_loss(*(b_law(d, eps)[0] for d in pair))


def b_loss_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random S~ (labels Bernoulli(f), f uniform on [0, 1]) and its neighbour with one label flipped, among the
    first 2 n_priv p = 400 elements: a later element enters S_priv only when K > 400, of probability 2.0e-36, so
    its pair's laws differ by at most that and its loss is below 1e-34."""
    n = input_size(B_N_PRIV, B_N_PUB)
    d0 = (rng.random(n) < rng.random()).astype(np.int64)
    d1 = d0.copy()
    i = int(rng.integers(0, round(2 * B_N_PRIV * mixture_weight(B_N_PUB))))
    d1[i] = 1 - d1[i]
    return d0, d1


def _b_case(eps: float, delta: float, *, reuse: bool) -> AuditCase:
    cls = _class()
    learner = ASSPP(cls, eps)

    def mechanism(labels, public, rng):
        points = np.zeros(labels.size, dtype=np.int64)
        if not reuse:
            return reduction_b(learner, points, labels, n_priv=B_N_PRIV, n_pub=B_N_PUB, num_points=1,
                               rng=rng).value.hypothesis
        ps = priv_samp(points, labels, mixture_weight(B_N_PUB), B_N_PRIV, 1, rng)
        qx, qy = pub_samp(B_N_PUB, 1, rng)
        y = np.where(ps.source >= 0, labels[0], ps.labels)  # broken: z~_1 at every real position
        return learner(ps.points, y, qx, qy, rng).value

    if reuse:
        return AuditCase(mechanism, _row, b_neighbours(), None, eps, 0.0)
    return AuditCase(mechanism, _row, b_neighbours(), None, eps, 0.0, pair_loss=lambda pair: b_pair_loss(pair, eps),
                     loss_neighbours=b_loss_neighbours)


TARGETS = (
    AuditTarget("a_sspp", "ABM19 Lemma 3.2", "A_SSPP (Alg 1) on 2 thresholds, T_pub fixed, one label changed, eps-DP",
                lambda e, d: _sspp_case(e, d, broken=False), results=("abm19:lemma3.2",)),
    AuditTarget("a_sspp_wrong_sensitivity", "ABM19 Lemma 3.2 (broken)",
                "A_SSPP with score -n err_hat (sensitivity 1) declared with sensitivity 1/n, eps-DP",
                lambda e, d: _sspp_case(e, d, broken=True), expect_private=False, results=("abm19:lemma3.2",)),
    AuditTarget("a_sspp_point_pair", "ABM19 Lemma 3.2",
                "A_SSPP on thresholds(4), T_pub = {1}, a pair that moves one private point (not only a label), pairs "
                "searched by exact loss", lambda e, d: _sspp_point_case(e, d, leak=False), default_samples=20_000,
                results=("abm19:lemma3.2",)),
    AuditTarget("a_sspp_private_cover", "ABM19 Lemma 3.2 (broken)",
                "A_SSPP whose cover is built on T_pub and the first private point (a private point leaking into H~)",
                lambda e, d: _sspp_point_case(e, d, leak=True), expect_private=False, default_samples=20_000,
                results=("abm19:lemma3.2",)),
    AuditTarget("reduction_b", "ABM19 Claim 4.5", "B (Alg 2-4) on A_SSPP, one element of S~ changed, eps-DP",
                lambda e, d: _b_case(e, d, reuse=False), default_samples=1000, results=("abm19:claim4.5",)),
    AuditTarget("reduction_b_reuses_point", "ABM19 Claim 4.5 (broken)",
                "B whose PrivSamp reuses the first private point at every real position, declared eps-DP",
                lambda e, d: _b_case(e, d, reuse=True), expect_private=False, default_samples=1000,
                results=("abm19:claim4.5",)),
)

#: the contract test's sample counts (tests/simulations/test_contract.py), the least of 1,000 / 3,000 /
#: 10,000 / 30,000 at which the outcome was as expected in a measured run (seed 5)
TARGETS = with_ci_samples(TARGETS, {
    "a_sspp": 3_000, "a_sspp_wrong_sensitivity": 1_000, "reduction_b": 1_000, "reduction_b_reuses_point": 1_000,
    "a_sspp_point_pair": 3_000, "a_sspp_private_cover": 1_000,
})
