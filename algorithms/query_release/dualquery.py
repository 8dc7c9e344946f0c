"""GGHRW14 (Gaboardi, Gallego Arias, Hsu, Roth, Wu, "Dual query: practical private query release for high
dimensional data", ICML 2014) Algorithm 1, DualQuery, on marginal workloads: LVSUW21 Section 5's third baseline.

DualQuery(D, Q, eta, s, T): the query player runs multiplicative weights over Q and its negations
(Q' = {q} u {1 - q}, 2m queries), the data player best-responds:

  Q_1 = uniform on Q';
  for t = 1..T: draw s queries q_1..q_s from Q_t (independently, with replacement);
               x_t = argmax over the whole domain of sum_i q_i(x)  (the data player's best response);
               Q_{t+1}(q) ~ exp(-eta sum_{j<=t} (q(x_j) - q(D))) (the query player's MW update);
  output the synthetic multiset {x_1, .., x_T} (answers: q(synthetic) = mean_t q(x_t)).

Best response. For marginal queries each q_i is a cell indicator 1{x_A = v} (its negation 1 - 1{x_A = v}), so
the objective is a constant plus sum over distinct cells of (#positive - #negative draws) 1{x_A = v}. Two exact
solvers: ``"enumerate"`` scores every cell of the domain (used when the domain has at most ``ENUMERATE_LIMIT``
cells) and ``"milp"`` solves the integer program with ``scipy.optimize.milp`` (HiGHS): one-hot binaries z per
attribute value, a y_c in [0, 1] per distinct drawn cell with y_c <= z_{a, v_a} (positive weight) or
y_c >= sum_a z_{a, v_a} - (|A| - 1) (negative weight); at the optimum y_c = 1{x_A = v} exactly, so the MILP's
optimum is the exact best response (HiGHS at its default optimality gap, 1e-4 relative). GGHRW14 solve the
same program with CPLEX; ADULT (LVSUW21 Section 5.5.2, 7.3e11 cells) needs the MILP.

Privacy (checked here, not only cited). The draws of round t are made from the law
Q_t(q) ~ exp(eta u_t(q)), u_t(q) = sum_{j<t} (q(D) - q(x_j)); replacing one of the n rows of D moves each
q(D) by at most 1/n, so u_t moves by at most (t - 1)/n for every q at once, and each draw is an
exponential-mechanism draw whose log-weight has sensitivity eta (t - 1)/n: it is 2 eta (t - 1)/n-DP (the
factor 2 from the normaliser), given x_1..x_{t-1} (the x_j are post-processing of earlier draws). Round 1
draws from the uniform law (no privacy cost). The accountant records the s (T - 1) draws of rounds 2..T, each
``PureDP(2 eta (t - 1)/n)``; their basic composition is ``PureDP(eta s T (T - 1)/n)``. GGHRW14's privacy
theorem bounds the same s (T - 1) draws, each at most eps_0 = 2 eta (T - 1)/n, by advanced composition
(Dwork-Rothblum-Vadhan; Dwork-Roth Theorem 3.20): (eps_0 sqrt(2 s (T - 1) ln(1/delta)) + s (T - 1) eps_0
(e^eps_0 - 1), delta)-DP. The ICML paper's text was not retrievable in this workbench's sources; the
statement used is that composition as restated (with the factor 2 above) by private-pgm's DualQuery example
(McKenna), and checked against the per-draw bound derived above. ``dualquery_guarantee`` returns the smaller
eps of the two valid routes at a given delta (basic composition of the accountant, or the theorem).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..privacy import Accountant, ApproxDP, PureDP, Release, advanced_composition
from ..validate import check_int, check_rng
from .workloads import CategoricalDomain, MarginalQueries, _check_workloads

REALISES = ()  # a baseline of LVSUW21 Section 5, no theorem of the workbench's papers

__all__ = ["DualQueryResult", "ENUMERATE_LIMIT", "best_response", "dualquery", "dualquery_epsilon",
           "dualquery_guarantee", "max_rounds"]

#: domains with at most this many cells are solved by enumeration, larger ones by the MILP
ENUMERATE_LIMIT = 1 << 20


@dataclass(frozen=True, eq=False)
class DualQueryResult:
    """rows: x_1..x_T (T, d); answers: q(synthetic) for every query of the workloads; sampled: the (T, s)
    drawn query ids of Q' (ids >= m are negations of id - m); solver: which exact best response ran."""

    rows: np.ndarray
    answers: np.ndarray
    sampled: np.ndarray
    solver: str


class _Cells:
    """Query ids of marginal workloads (as ``MarginalQueries`` numbers them) without a support: the cell
    ids of any rows, and the (attributes, values) of any query id."""

    def __init__(self, domain: CategoricalDomain, workloads):
        self.domain = domain
        self.workloads = _check_workloads(workloads, domain.num_attributes)
        sizes = np.asarray(domain.sizes, dtype=np.int64)
        self.sizes = sizes
        per = np.array([int(np.prod(sizes[list(w)])) for w in self.workloads], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(per)]).astype(np.int64)
        self.m = int(self.offsets[-1])
        self.strides = [np.concatenate([[1], np.cumprod(sizes[list(w)][:-1])]).astype(np.int64)
                        for w in self.workloads]

    def of_rows(self, rows: np.ndarray) -> np.ndarray:
        """(k, W) query ids q with q(x) = 1, one per workload, for each of k rows."""
        return np.stack([self.offsets[w] + rows[:, list(a)] @ self.strides[w]
                         for w, a in enumerate(self.workloads)], axis=1)

    def decode(self, qid: int) -> tuple[list[int], np.ndarray]:
        w = int(np.searchsorted(self.offsets, qid, side="right") - 1)
        attrs = list(self.workloads[w])
        local = int(qid - self.offsets[w])
        return attrs, (local // self.strides[w]) % self.sizes[attrs]


def _enumerate(cells: _Cells, weights: np.ndarray) -> np.ndarray:
    rows = cells.domain.all_rows()
    score = weights[cells.of_rows(rows)].sum(axis=1)
    return rows[int(np.argmax(score))]


def _milp(cells: _Cells, weights: np.ndarray) -> np.ndarray:
    from scipy import optimize, sparse

    sizes = cells.sizes
    zoff = np.concatenate([[0], np.cumsum(sizes)])
    nz = int(zoff[-1])
    ids = np.flatnonzero(weights)
    ny = ids.size
    r, c, v, lo, hi = [], [], [], [], []
    row = 0
    for a in range(sizes.size):                                   # one value per attribute
        r += [row] * int(sizes[a])
        c += list(range(int(zoff[a]), int(zoff[a + 1])))
        v += [1.0] * int(sizes[a])
        lo.append(1.0)
        hi.append(1.0)
        row += 1
    for k, q in enumerate(ids):
        attrs, vals = cells.decode(int(q))
        zi = [int(zoff[a] + vals[j]) for j, a in enumerate(attrs)]
        if weights[q] > 0:                                        # y <= z for each attribute of the cell
            for z in zi:
                r += [row, row]
                c += [nz + k, z]
                v += [1.0, -1.0]
                lo.append(-np.inf)
                hi.append(0.0)
                row += 1
        else:                                                     # y >= sum z - (|A| - 1)
            r += [row] * (len(zi) + 1)
            c += [nz + k] + zi
            v += [1.0] + [-1.0] * len(zi)
            lo.append(-(len(zi) - 1.0))
            hi.append(np.inf)
            row += 1
    A = sparse.csr_array((v, (r, c)), shape=(row, nz + ny))
    cost = np.concatenate([np.zeros(nz), -weights[ids].astype(float)])
    integrality = np.concatenate([np.ones(nz), np.zeros(ny)])
    res = optimize.milp(cost, constraints=optimize.LinearConstraint(A, lo, hi), integrality=integrality,
                        bounds=optimize.Bounds(0.0, 1.0))
    if res.x is None:
        raise RuntimeError(f"DualQuery best response: HiGHS returned no solution ({res.message})")
    z = res.x[:nz]
    return np.array([int(np.argmax(z[zoff[a]:zoff[a + 1]])) for a in range(sizes.size)], dtype=np.int64)


def best_response(domain: CategoricalDomain, workloads, weights, solver: str = "auto") -> np.ndarray:
    """GGHRW14 Algorithm 1's data player: a row x maximising sum_q weights[q] q(x) over the whole domain
    (weights over the m marginal queries: #positive - #negative draws), exactly; ``solver`` "enumerate",
    "milp" or "auto" (enumerate up to ``ENUMERATE_LIMIT`` cells)."""
    cells = _Cells(domain, workloads)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (cells.m,):
        raise ValueError(f"weights must have shape ({cells.m},), got {w.shape}")
    if solver == "auto":
        solver = "enumerate" if domain.size <= ENUMERATE_LIMIT else "milp"
    return _best_response(cells, w, solver)


def _best_response(cells: _Cells, w: np.ndarray, solver: str) -> np.ndarray:
    """``best_response`` on checked weights and a built ``_Cells`` (DualQuery's rounds reuse theirs)."""
    if solver == "enumerate":
        return _enumerate(cells, w)
    if solver == "milp":
        return _milp(cells, w)
    raise ValueError(f"solver={solver!r} out of range: allowed auto, enumerate, milp")


def dualquery_epsilon(eta: float, s: int, T: int, n: int, delta: float) -> float:
    """GGHRW14's privacy theorem (module docstring): advanced composition of the s (T - 1) draws of rounds
    2..T, each at most 2 eta (T - 1)/n-DP, at ``delta``; 0 for T = 1."""
    if T <= 1:
        return 0.0
    return advanced_composition(PureDP(2.0 * eta * (T - 1) / n), s * (T - 1), delta).eps


def dualquery_guarantee(eta: float, s: int, T: int, n: int, delta: float | None = None):
    """The declared guarantee: ``PureDP(eta s T (T - 1)/n)`` (basic composition of the draws) and, with
    ``delta``, the ``ApproxDP`` of GGHRW14's theorem when its eps is smaller."""
    pure = PureDP(eta * s * T * (T - 1) / n)
    if delta is None or T <= 1:
        return pure
    adv = dualquery_epsilon(eta, s, T, n, delta)
    return ApproxDP(adv, delta) if adv < pure.eps else pure


def max_rounds(eps: float, delta: float, eta: float, s: int, n: int, limit: int = 100_000) -> int:
    """The largest T whose declared guarantee at ``delta`` has eps <= ``eps`` (>= 1: round 1 is free)."""
    lo, hi = 1, 2
    while hi < limit and dualquery_guarantee(eta, s, hi, n, delta).eps <= eps:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if dualquery_guarantee(eta, s, mid, n, delta).eps <= eps:
            lo = mid
        else:
            hi = mid
    return lo


def dualquery(private_rows, domain: CategoricalDomain, workloads, eta: float, s: int, T: int,
              rng: np.random.Generator, *, delta: float | None = None, solver: str = "auto") -> Release:
    """GGHRW14 Algorithm 1 on the marginal queries of ``workloads`` (module docstring).

    private_rows: D as (n, d) value indices; eta > 0 the query player's learning rate; s >= 1 draws per
    round; T >= 1 rounds; delta: the delta at which GGHRW14's theorem is read (None: pure DP by basic
    composition). Returns ``Release(DualQueryResult, guarantee)``; the accountant records every draw."""
    priv = domain.check_rows(private_rows, "private_rows")
    s, T = check_int("s", s), check_int("T", T)
    if not (isinstance(eta, (int, float)) and math.isfinite(eta) and eta > 0):
        raise ValueError(f"eta={eta!r} out of range: allowed finite numbers > 0")
    rng = check_rng(rng)
    n = priv.shape[0]
    cells = _Cells(domain, workloads)
    m = cells.m
    distinct, counts = np.unique(priv, axis=0, return_counts=True)
    truth = MarginalQueries(domain, cells.workloads, distinct)
    a = truth.answer(counts / n)
    acct = Accountant()
    cum = np.zeros(m)                                  # sum_{j<t} (q(D) - q(x_j)) for each q in Q
    xs = np.empty((T, domain.num_attributes), dtype=np.int64)
    sampled = np.empty((T, s), dtype=np.int64)
    used = "enumerate" if solver == "auto" and domain.size <= ENUMERATE_LIMIT else (
        "milp" if solver == "auto" else solver)
    for t in range(T):
        logits = eta * np.concatenate([cum, -cum])     # Q' = Q, then the negations
        p = np.exp(logits - logits.max())
        p /= p.sum()
        draw = rng.choice(2 * m, size=s, p=p)
        if t > 0:
            for _ in range(s):
                acct.spend(f"draw round {t + 1}", PureDP(2.0 * eta * t / n))
        sampled[t] = draw
        w = np.bincount(draw % m, weights=np.where(draw < m, 1.0, -1.0), minlength=m)
        xs[t] = _best_response(cells, w, used)     # best_response's, without rebuilding the cells each round
        cum += a
        np.subtract.at(cum, cells.of_rows(xs[t][None, :])[0], 1.0)
    hits = cells.of_rows(xs)
    answers = np.bincount(hits.ravel(), minlength=m) / T
    total = acct.total()
    if delta is not None and T > 1:
        adv = dualquery_epsilon(eta, s, T, n, delta)
        if adv < total.eps:
            total = ApproxDP(adv, delta)
    return Release(DualQueryResult(rows=xs, answers=answers, sampled=sampled, solver=used), total)
