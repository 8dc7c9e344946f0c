"""Dwork-Roth (2014) Algorithm 4 for 0/1 queries and steps +-eta (PMW's update, Algorithm 5): the MW
distribution kept as integer net counts, so that numpy and the compiled PMW kernel compute it with the same bits.

PMW (``pmw``) updates x^{t+1} proportional to x^t exp(eta * sign * q_i) with q_i(x) in {0, 1} and sign = +-1,
from the uniform x^1. After any sequence of updates, x^t(x) is proportional to exp(eta * m(x)), where m(x) is
the integer sum of the signs of the updates whose query contains x. This class keeps m exactly and forms

    x^t(x) = E[M - m(x)] / S,   E[j] = exp(-eta * j) (numpy's exp, tabulated once),   S = sum_x E[M - m(x)],

with M = max_x m(x) (so the largest term is E[0] = 1: no overflow; what underflows is below 1e-308 of the
largest weight, as in log space). It is the same distribution as ``mw.MWDistribution`` (log-weights and softmax)
in real arithmetic, without the rounding the log-weights accumulate over thousands of updates.

Every floating-point operation is one the compiled kernel (``_kernels_nb.pmw_scan``) repeats in the same order:
the table lookup, S as numpy's pairwise sum, one division per point, and a query's answer
q(x^t) = sum_x q(x) x^t(x) as numpy's pairwise sum of the row ``where(q, x^t, 0.0)`` (zeros included, so
the additions' order does not depend on the query). exp is only ever numpy's, and only in the table.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SignedCountMW", "masked_sums", "step_table"]


def step_table(eta: float, size: int) -> np.ndarray:
    """E[j] = exp(-eta * j) for j = 0..size-1, by numpy's exp (the only exp PMW's MW step uses)."""
    return np.exp(np.arange(int(size), dtype=np.float64) * -float(eta))


def masked_sums(matrix_rows: np.ndarray, p: np.ndarray) -> np.ndarray:
    """sum_x q(x) p(x) for every boolean row q: numpy's pairwise sum of ``where(q, p, 0.0)`` per row."""
    return np.where(matrix_rows, p, 0.0).sum(axis=-1)


class SignedCountMW:
    """PMW's MW distribution over ``support_size`` points, from uniform, for 0/1 queries given as a boolean
    matrix (``queries.matrix``, e.g. ``mw.MatrixQueries``) and steps +-``eta`` (module docstring).

    ``update_query(queries, i, step)`` takes step = +-eta (Dwork-Roth Algorithm 4's eta * sign; anything else:
    ValueError); ``answer(queries, rows)`` and ``probabilities()`` as ``mw.MWDistribution``'s. ``counts`` is m.
    """

    def __init__(self, support_size: int, eta: float, table_size: int = 64):
        if isinstance(support_size, bool) or not isinstance(support_size, (int, np.integer)) or support_size < 1:
            raise ValueError(f"support_size={support_size!r} out of range: allowed integers >= 1")
        eta = float(eta)
        if not (np.isfinite(eta) and eta > 0):
            raise ValueError(f"eta={eta!r} out of range: allowed finite > 0")
        self.eta = eta
        self.counts = np.zeros(int(support_size), dtype=np.int64)
        self._table = step_table(eta, max(2, int(table_size)))
        self._p: np.ndarray | None = None
        self.num_updates = 0

    @property
    def support_size(self) -> int:
        return int(self.counts.size)

    @property
    def table(self) -> np.ndarray:
        """E[0..] as far as it has been tabulated."""
        return self._table

    def _entries(self, needed: int) -> np.ndarray:
        if needed > self._table.size:              # extend: exp of the same products, so the same values
            size = max(needed, 2 * self._table.size)
            extra = np.exp(np.arange(self._table.size, size, dtype=np.float64) * -self.eta)
            self._table = np.concatenate((self._table, extra))
        return self._table

    def probabilities(self) -> np.ndarray:
        """x^t: E[M - m] / sum(E[M - m]) (a read-only float64 vector)."""
        if self._p is None:
            j = self.counts.max() - self.counts
            e = self._entries(int(j.max()) + 1)[j]
            p = e / e.sum()
            p.flags.writeable = False
            self._p = p
        return self._p

    def answer(self, queries, rows=None) -> np.ndarray:
        """q(x^t) for every query (or ``rows``), as ``masked_sums``."""
        mat = queries.matrix if rows is None else queries.matrix[rows]
        return masked_sums(mat, self.probabilities())

    def update_query(self, queries, i: int, step: float) -> None:
        """x^{t+1} proportional to x^t exp(step q_i): m(x) += sign(step) on the points of query ``i``."""
        if step == self.eta:
            sign = 1
        elif step == -self.eta:
            sign = -1
        else:
            raise ValueError(f"step={step!r} out of range: allowed +-eta = +-{self.eta!r}")
        self.counts[queries.matrix[int(i)]] += sign
        self._p = None
        self.num_updates += 1
