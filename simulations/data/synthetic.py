"""Seeded synthetic data for LVSUW21 experiments at sizes the real data cannot reach.

``random_network``: a random Bayesian network over categorical attributes (attribute j's parents
are up to ``max_parents`` of the attributes before it, chosen uniformly; each conditional
probability table row is Dirichlet(concentration)). ``shifted``: the public network, the same graph
with every table row moved toward a fresh Dirichlet draw, row <- (1 - shift) row + shift fresh.
``sample`` draws rows by ancestral sampling (vectorised: one inverse-CDF lookup per attribute);
``joint`` gives the exact probability of every cell of the domain (for exact D_2 and D_inf, via
``simulations.distributions.renyi_d2`` / ``renyi_dinf``; small domains only).

``reference_workload``: the speed benchmark's problem (LVSUW21 Table 1 scale; issue 6): 15 binary
attributes and one ternary (98,304 cells) with 64 random 3-way marginal workloads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from algorithms.query_release.workloads import CategoricalDomain, random_k_way

__all__ = ["BayesNet", "random_network", "reference_workload", "shifted"]


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

    def joint(self) -> np.ndarray:
        """Exact probability of every domain cell, in ``domain.index`` order (O(|X| d) memory)."""
        rows = self.domain.all_rows()
        logp = np.zeros(rows.shape[0])
        for j in range(self.domain.num_attributes):
            logp += np.log(self.tables[j][self._config(rows, j), rows[:, j]])
        p = np.exp(logp)
        return p / p.sum()


def random_network(domain: CategoricalDomain, rng: np.random.Generator, *, max_parents: int = 2,
                   concentration: float = 1.0) -> BayesNet:
    """A random Bayesian network over ``domain`` (module docstring)."""
    if max_parents < 0:
        raise ValueError(f"max_parents={max_parents!r} out of range: allowed integers >= 0")
    if not concentration > 0:
        raise ValueError(f"concentration={concentration!r} out of range: allowed > 0")
    parents, tables = [], []
    for j, k in enumerate(domain.sizes):
        num = min(j, int(rng.integers(0, max_parents + 1)))
        par = tuple(sorted(int(a) for a in rng.choice(j, size=num, replace=False))) if num else ()
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


def reference_workload(seed: int = 0):
    """Issue 6's speed reference: (domain of 15 binary + 1 ternary attributes = 98,304 cells,
    64 random 3-way marginal workloads, private network, public network shifted by 0.2),
    all from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    domain = CategoricalDomain([2] * 15 + [3])
    workloads = random_k_way(domain, 3, 64, rng)
    private = random_network(domain, rng, max_parents=2)
    public = shifted(private, 0.2, rng)
    return domain, workloads, private, public
