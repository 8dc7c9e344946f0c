"""BCMNUW20 Remark 9 (after Beimel, Nissim & Stemmer 2013, Remark 2.18): a PAP release G: H -> [-1, 1] turned into a
synthetic data set of n' rows, ignoring computation. Post-processing of G only (no data is read), so it keeps G's
privacy guarantee.

The Remark proves that a data set within 2 alpha of G exists when Err_{D,H}(G) <= alpha and n' > VC(H)/alpha^2; it
gives no construction. This one, for a finite class over a domain small enough to enumerate:

1. the law mu on the domain closest to G: minimise t subject to |sum_x mu(x) h(x) - G(h)| <= t for every h in H,
   mu >= 0, sum mu = 1 (a linear program, HiGHS); t <= Err_{D,H}(G), since D is such a law;
2. n' rows from mu: the largest-remainder rounding of n' mu and ``draws`` samples of mu^n' (the Remark's own
   existence argument, a sample of a law within alpha of G), keeping the one closest to G.
"""
from __future__ import annotations

import numpy as np

from ..classes.finite import FiniteClass
from ..validate import check_int, check_rng

__all__ = ["closest_law", "synthetic_rows", "synthetic_answers"]


def _signs(cls: FiniteClass) -> np.ndarray:
    return np.where(cls.matrix, 1.0, -1.0)


def synthetic_answers(cls: FiniteClass, counts) -> np.ndarray:
    """(1/n') sum_i h(v_i) for every h of H, for a data set given by its counts over the domain."""
    c = np.asarray(counts, dtype=float)
    return _signs(cls) @ c / c.sum()


def closest_law(cls: FiniteClass, G) -> tuple[np.ndarray, float]:
    """Step 1: (mu, t), the law on the domain whose answers are closest to G in the largest error over H, and t."""
    from scipy.optimize import linprog

    g = np.asarray(G, dtype=float)
    if g.shape != (cls.num_hypotheses,):
        raise ValueError(f"G must have one answer per hypothesis, length {cls.num_hypotheses}, got shape {g.shape}")
    A, N = _signs(cls), cls.num_points
    ones = np.ones((A.shape[0], 1))
    a_ub = np.vstack([np.hstack([A, -ones]), np.hstack([-A, -ones])])
    b_ub = np.concatenate([g, -g])
    cost = np.zeros(N + 1)
    cost[-1] = 1.0
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=np.hstack([np.ones((1, N)), [[0.0]]]), b_eq=[1.0],
                  bounds=[(0, None)] * (N + 1), method="highs")
    if res.status != 0:
        raise RuntimeError(f"the closest-law linear program did not solve: {res.message}")
    mu = np.clip(res.x[:N], 0.0, None)
    return mu / mu.sum(), float(res.x[-1])


def synthetic_rows(cls: FiniteClass, G, rows: int, rng: np.random.Generator, *, draws: int = 50) -> np.ndarray:
    """Step 2: the counts over the domain of an n' = ``rows`` row data set close to G (module docstring)."""
    rows = check_int("rows", rows)
    rng = check_rng(rng)
    g = np.asarray(G, dtype=float)
    mu, _ = closest_law(cls, g)
    floor = np.floor(rows * mu).astype(np.int64)
    rest = rows - int(floor.sum())
    floor[np.argsort(-(rows * mu - floor), kind="stable")[:rest]] += 1
    candidates = [floor] + [rng.multinomial(rows, mu) for _ in range(int(draws))]
    dist = [float(np.abs(synthetic_answers(cls, c) - g).max()) for c in candidates]
    return candidates[int(np.argmin(dist))]
