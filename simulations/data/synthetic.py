"""Seeded synthetic data for LVSUW21 experiments at sizes the real data cannot reach.

``random_network``: a random Bayesian network over categorical attributes (attribute j's parents
are up to ``max_parents`` of the attributes before it, chosen uniformly; each conditional
probability table row is Dirichlet(concentration)). ``shifted``: the public network, the same graph
with every table row moved toward a fresh Dirichlet draw, row <- (1 - shift) row + shift fresh.
``sample`` draws rows by ancestral sampling (vectorised: one inverse-CDF lookup per attribute);
``joint`` gives the exact probability of every cell of the domain (for exact D_2 and D_inf, via
``simulations.distributions.renyi_d2`` / ``renyi_dinf``; small domains only); ``log_prob`` the
exact log-probability of given rows (any domain size). ``network_divergences``: exact D_2 and D_inf
of two networks on one graph by variable elimination along the attribute order, never forming the
joint (LVSUW21 Prop 4.3 at |X| = 2^25 and more); its cost is the largest frontier (attributes still
needed by a later table), which ``random_network(..., window=w)`` keeps <= prod of w sizes by
choosing parents among the w attributes just before.

``reference_workload``: the speed benchmark's problem (LVSUW21 Table 1 scale): 15 binary
attributes and one ternary (98,304 cells) with 64 random 3-way marginal workloads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from algorithms.query_release.workloads import CategoricalDomain, random_k_way

__all__ = ["BayesNet", "network_divergences", "random_network", "reference_workload", "shifted"]


@dataclass(frozen=True, eq=False)
class BayesNet:
    """A Bayesian network over ``domain``: parents[j] (attributes < j) and tables[j] of shape
    (number of parent configurations, sizes[j]); parent configurations little-endian in parents[j]."""

    domain: CategoricalDomain
    parents: tuple[tuple[int, ...], ...]
    tables: tuple[np.ndarray, ...]

    def _config(self, rows: np.ndarray, j: int) -> np.ndarray:
        idx = np.zeros(rows.shape[0], dtype=np.int64)
        stride = 1
        for a in self.parents[j]:
            idx += rows[:, a] * stride
            stride *= self.domain.sizes[a]
        return idx

    def sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` rows by ancestral sampling."""
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise ValueError(f"size={size!r} out of range: allowed integers >= 1")
        rows = np.zeros((int(size), self.domain.num_attributes), dtype=np.int64)
        for j in range(self.domain.num_attributes):
            cdf = np.cumsum(self.tables[j], axis=1)[self._config(rows, j)]
            u = rng.random(int(size))[:, None]
            rows[:, j] = np.minimum((u >= cdf).sum(axis=1), self.domain.sizes[j] - 1)
        return rows

    def log_prob(self, rows) -> np.ndarray:
        """Exact natural log-probability of each row (product of its table entries); any domain size."""
        rows = self.domain.check_rows(rows)
        logp = np.zeros(rows.shape[0])
        for j in range(self.domain.num_attributes):
            logp += np.log(self.tables[j][self._config(rows, j), rows[:, j]])
        return logp

    def joint(self) -> np.ndarray:
        """Exact probability of every domain cell, in ``domain.index`` order (O(|X| d) memory)."""
        p = np.exp(self.log_prob(self.domain.all_rows()))
        return p / p.sum()

    def log_factor(self, j: int) -> np.ndarray:
        """log tables[j] as an array with one axis per parent (in ``parents[j]`` order), then x_j."""
        par = self.parents[j]
        t = np.log(self.tables[j]).reshape(tuple(self.domain.sizes[a] for a in reversed(par)) + (-1,))
        return np.transpose(t, tuple(range(len(par) - 1, -1, -1)) + (len(par),))


def random_network(domain: CategoricalDomain, rng: np.random.Generator, *, max_parents: int = 2,
                   concentration: float = 1.0, window: int | None = None) -> BayesNet:
    """A random Bayesian network over ``domain`` (module docstring); with ``window`` = w the parents of
    attribute j are chosen among attributes j - w, ..., j - 1 only (None: among all earlier ones)."""
    if max_parents < 0:
        raise ValueError(f"max_parents={max_parents!r} out of range: allowed integers >= 0")
    if window is not None and (isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1):
        raise ValueError(f"window={window!r} out of range: allowed None or integers >= 1")
    if not concentration > 0:
        raise ValueError(f"concentration={concentration!r} out of range: allowed > 0")
    parents, tables = [], []
    for j, k in enumerate(domain.sizes):
        lo = 0 if window is None else max(0, j - int(window))
        num = min(j - lo, int(rng.integers(0, max_parents + 1)))
        par = tuple(sorted(lo + int(a) for a in rng.choice(j - lo, size=num, replace=False))) if num else ()
        configs = int(np.prod([domain.sizes[a] for a in par])) if par else 1
        parents.append(par)
        tables.append(rng.dirichlet(np.full(k, concentration), size=configs))
    return BayesNet(domain, tuple(parents), tuple(tables))


def shifted(net: BayesNet, shift: float, rng: np.random.Generator, *, concentration: float = 1.0) -> BayesNet:
    """The public network: same graph, each table row (1 - shift) row + shift Dirichlet(concentration)."""
    if not 0 <= shift <= 1:
        raise ValueError(f"shift={shift!r} out of range: allowed [0, 1]")
    tables = tuple((1 - shift) * t + shift * rng.dirichlet(np.full(t.shape[1], concentration), size=t.shape[0])
                   for t in net.tables)
    return BayesNet(net.domain, net.parents, tables)


def _aligned(factor: np.ndarray, factor_axes, axes) -> np.ndarray:
    """``factor`` (one axis per attribute in ``factor_axes``) transposed and padded with unit axes so that
    it broadcasts against an array whose axes are the attributes ``axes`` (a superset, in that order)."""
    order = sorted(range(len(factor_axes)), key=lambda i: axes.index(factor_axes[i]))
    f = np.transpose(factor, order)
    shape = [1] * len(axes)
    for i in order:
        shape[axes.index(factor_axes[i])] = factor.shape[i]
    return f.reshape(shape)


def network_divergences(mu: BayesNet, nu: BayesNet, *, max_frontier: int = 1 << 16) -> tuple[float, float]:
    """Renyi (1961) orders 2 and inf of two networks on one graph, exactly, without the joint:
    (D_2(mu || nu), D_inf(mu || nu)) with D_2 = log sum_x prod_j mu_j^2 / nu_j and
    D_inf = max_x sum_j log(mu_j / nu_j) (mu_j, nu_j: attribute j's table entries at x).

    Variable elimination along the attribute order: after attribute j's factor is multiplied in, every
    attribute no later table uses is summed out (log-sum-exp; D_2) or maximised out (D_inf). ValueError
    when the graphs differ or a frontier would exceed ``max_frontier`` cells."""
    from scipy.special import logsumexp

    if mu.domain.sizes != nu.domain.sizes or mu.parents != nu.parents:
        raise ValueError("mu and nu must be networks on one domain and one graph (same parents)")
    d = mu.domain.num_attributes
    last = [max([j for j in range(d) if a in mu.parents[j]] + [a]) for a in range(d)]
    out = []
    for order in (2, np.inf):
        m, axes = np.zeros(()), []
        for j in range(d):
            lf = mu.log_factor(j) - nu.log_factor(j)
            if order == 2:
                lf = lf + mu.log_factor(j)           # log(mu_j^2 / nu_j)
            axes = axes + [j]
            m = m[..., None] + _aligned(lf, list(mu.parents[j]) + [j], axes)
            if m.size > max_frontier:
                raise ValueError(f"network frontier of {m.size} cells at attribute {j} exceeds "
                                 f"max_frontier={max_frontier}: use random_network(..., window=w) with small w")
            drop = tuple(i for i, a in enumerate(axes) if last[a] <= j)
            if drop:
                m = logsumexp(m, axis=drop) if order == 2 else m.max(axis=drop)
                axes = [a for a in axes if last[a] > j]
        out.append(float(m))
    return out[0], out[1]


def reference_workload(seed: int = 0):
    """The PMW^Pub speed benchmark's reference workload: (domain of 15 binary + 1 ternary attributes = 98,304 cells,
    64 random 3-way marginal workloads, private network, public network shifted by 0.2),
    all from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    domain = CategoricalDomain([2] * 15 + [3])
    workloads = random_k_way(domain, 3, 64, rng)
    private = random_network(domain, rng, max_parents=2)
    public = shifted(private, 0.2, rng)
    return domain, workloads, private, public
