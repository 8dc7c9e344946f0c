"""The sparse vector technique: AboveThreshold, Sparse and NumericSparse (Dwork-Roth 2014 Section 3.6).

Each is an online object: build it with the threshold and budget and a ``rng`` (the noisy
threshold is drawn at construction), then feed it query answers f_i(D) one at a time with
``query`` (adaptive use, as PMW does), or a whole known sequence at once with ``run``
(vectorised: one noise draw per query, one pass per above-threshold answer).
``guarantee`` is the privacy the whole interaction spends, however many queries are asked.

The queries' sensitivity is ``sensitivity`` (Dwork-Roth state the algorithms for
sensitivity 1; all noise scales are multiplied by Delta, which is the same algorithm run on
f_i / Delta with threshold T / Delta).

Theorem numbers follow the book's numbering (AboveThreshold 3.23, Sparse 3.25, NumericSparse
3.27 for privacy; 3.24/3.26/3.28 for accuracy). The book is not among the project's papers:
the algorithms' constants here are as the book states them, and every declared guarantee is
recomputed from the noise scales actually used (basic composition for delta = 0, Theorem 3.20
for delta > 0), so it does not rest on the printed theorem.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .accounting import (
    ApproxDP,
    Guarantee,
    PureDP,
    Release,
    _check_delta,
    _check_positive_finite,
    _check_positive_int,
    _check_real,
)
from .mechanisms import _check_rng, _check_values

__all__ = [
    "AboveThreshold",
    "SparseVector",
    "NumericSparse",
    "sparse_round_composition_epsilon",
]


def sparse_round_composition_epsilon(eps_round: float, c: int, delta: float) -> float:
    """Dwork-Roth (2014) Theorem 3.20 applied to c rounds, each eps_round-DP (pure):

    eps' = sqrt(2 c ln(1/delta)) eps_round + c eps_round (e^eps_round - 1), at total delta.
    This is the step by which Theorems 3.25 and 3.27 (privacy of Sparse and NumericSparse)
    turn c AboveThreshold rounds into (eps, delta).
    """
    eps_round = _check_positive_finite("eps_round", eps_round)
    c = _check_positive_int("c", c)
    delta = _check_delta("delta", delta, allow_zero=False)
    return math.sqrt(2.0 * c * math.log(1.0 / delta)) * eps_round + c * eps_round * math.expm1(eps_round)


class AboveThreshold:
    """Dwork-Roth (2014) Algorithm 1 (AboveThreshold), Theorem 3.23: eps-DP.

    T^ = T + Lap(2 Delta / eps); for each query, nu_i = Lap(4 Delta / eps); answer True (top)
    and halt at the first i with f_i(D) + nu_i >= T^, else False (bottom).
    """

    def __init__(self, threshold: float, eps: float, rng: np.random.Generator, *, sensitivity: float = 1.0):
        self.threshold = _check_real("threshold", threshold)
        self.eps = _check_positive_finite("eps", eps)
        self.sensitivity = _check_positive_finite("sensitivity", sensitivity)
        self._rng = _check_rng(rng)
        self._noisy_threshold = self.threshold + self._rng.laplace(0.0, self.threshold_scale)
        self.halted = False

    @property
    def threshold_scale(self) -> float:
        """Laplace scale of the threshold noise, 2 Delta / eps."""
        return 2.0 * self.sensitivity / self.eps

    @property
    def query_scale(self) -> float:
        """Laplace scale of each query's noise, 4 Delta / eps."""
        return 4.0 * self.sensitivity / self.eps

    @property
    def guarantee(self) -> PureDP:
        return PureDP(self.eps)

    def query(self, value: float) -> bool:
        """One query answer f_i(D); True means above threshold (and the object halts)."""
        if self.halted:
            raise RuntimeError("AboveThreshold has halted after its above-threshold answer")
        v = _check_real("value", value)
        above = v + self._rng.laplace(0.0, self.query_scale) >= self._noisy_threshold
        self.halted = bool(above)
        return bool(above)

    def run(self, values: Any) -> Release:
        """Feed a known sequence; Release(index of the first above-threshold answer or None, PureDP(eps))."""
        if self.halted:
            raise RuntimeError("AboveThreshold has halted after its above-threshold answer")
        x = _check_values("values", values).ravel()
        nu = self._rng.laplace(0.0, self.query_scale, size=x.size)
        hits = np.flatnonzero(x + nu >= self._noisy_threshold)
        if hits.size == 0:
            return Release(None, self.guarantee)
        self.halted = True
        return Release(int(hits[0]), self.guarantee)


def _sigma_sparse(c: int, eps: float, delta: float, log_arg: float) -> float:
    # Dwork-Roth Alg. 2/3: sigma = 2c/eps if delta = 0, else sqrt(32 c ln(log_arg/delta))/eps.
    if delta == 0.0:
        return 2.0 * c / eps
    return math.sqrt(32.0 * c * math.log(log_arg / delta)) / eps


class _SparseRounds:
    """What Sparse and NumericSparse share: c rounds of AboveThreshold with a threshold redrawn after
    each top, halting after c tops, and the guarantee composed over the rounds (see the subclasses)."""

    name = "SparseVector"

    def _setup(self, threshold, c, eps, rng, delta, sensitivity) -> None:
        self.threshold = _check_real("threshold", threshold)
        self.c = _check_positive_int("c", c)
        self.eps = _check_positive_finite("eps", eps)
        self.delta = _check_delta("delta", delta)
        self.sensitivity = _check_positive_finite("sensitivity", sensitivity)
        self._rng = _check_rng(rng)
        self.count = 0

    def _draw_threshold(self) -> float:
        return self.threshold + self._rng.laplace(0.0, self.threshold_scale)

    @property
    def halted(self) -> bool:
        return self.count >= self.c

    @property
    def guarantee(self) -> Guarantee:
        if self.delta == 0.0:
            return PureDP(self.eps)
        eps_adv = sparse_round_composition_epsilon(self.eps_round, self.c, self.delta)
        return ApproxDP(max(self.eps, eps_adv), self.delta)

    def scan_state(self) -> tuple[np.random.Generator, int, float]:
        """(generator, tops so far, current noisy threshold): where a compiled twin of this object's scan starts
        (PMW's compiled pass, ``query_release.pmw._scan_compiled``, which draws on this same generator)."""
        return self._rng, self.count, float(self._noisy_threshold)

    def resume(self, count: int, noisy_threshold: float) -> None:
        """Take over the state such a compiled twin reached (its draws were made on this object's generator)."""
        if isinstance(count, bool) or not isinstance(count, int) or not self.count <= count <= self.c:
            raise ValueError(f"count={count!r} out of range: allowed integers in [{self.count}, {self.c}]")
        self.count = count
        self._noisy_threshold = _check_real("noisy_threshold", noisy_threshold)

    def _check_running(self) -> None:
        if self.halted:
            raise RuntimeError(f"{self.name} has halted after c={self.c} above-threshold answers")

    def _above(self, v: float) -> bool:
        """One comparison; on a top, count it and redraw the threshold."""
        if v + self._rng.laplace(0.0, self.query_scale) >= self._noisy_threshold:
            self.count += 1
            self._noisy_threshold = self._draw_threshold()
            return True
        return False

    def _scan(self, values: Any, on_top, max_tops: int | None = None) -> tuple[np.ndarray, int]:
        """Vectorised run over a known sequence: all comparison noise drawn at once, then for each
        top (in order) count it, redraw the threshold and call ``on_top(i, x_i)``. Returns the values
        and the number of queries asked (the run stops at the c-th top, or after ``max_tops`` tops of
        this scan). The noise drawn for queries after the stop is never looked at: each query's
        comparison noise is independent of the threshold, so the law is that of ``query`` asked one
        at a time."""
        self._check_running()
        x = _check_values("values", values).ravel()
        noisy = x + self._rng.laplace(0.0, self.query_scale, size=x.size)
        start, found = 0, 0
        while start < x.size and not self.halted and (max_tops is None or found < max_tops):
            hits = np.flatnonzero(noisy[start:] >= self._noisy_threshold)
            if hits.size == 0:
                return x, x.size
            i = start + int(hits[0])
            self.count += 1
            found += 1
            self._noisy_threshold = self._draw_threshold()
            on_top(i, x[i])
            start = i + 1
        return x, start


class SparseVector(_SparseRounds):
    """Dwork-Roth (2014) Algorithm 2 (Sparse), Theorem 3.25 (privacy): answers up to c above-threshold queries.

    sigma = 2c/eps (delta = 0) or sqrt(32 c ln(1/delta))/eps (delta > 0), times Delta;
    T^ = T + Lap(sigma), nu_i = Lap(2 sigma); on top, the threshold is redrawn; halt after c tops.

    Guarantee: delta = 0: c rounds of AboveThreshold at eps/c each, eps-DP exactly (basic
    composition). delta > 0: each round is AboveThreshold at eps' = 2 Delta / sigma
    = eps / sqrt(8 c ln(1/delta)); advanced composition (Theorem 3.20) gives
    eps/2 + c eps' (e^eps' - 1) at delta. That is <= eps (Theorem 3.25's claim) when
    c eps' (e^eps' - 1) <= eps/2, roughly eps <= 4 ln(1/delta); outside that range Theorem
    3.25 as printed does not follow from its proof, and the declared guarantee is the larger,
    proven value (eps_adv, delta).
    """

    def __init__(self, threshold: float, c: int, eps: float, rng: np.random.Generator, *,
                 delta: float = 0.0, sensitivity: float = 1.0):
        self._setup(threshold, c, eps, rng, delta, sensitivity)
        self.sigma = self.sensitivity * _sigma_sparse(self.c, self.eps, self.delta, 1.0)
        self._noisy_threshold = self._draw_threshold()

    @property
    def threshold_scale(self) -> float:
        """Laplace scale of each (re)drawn threshold, sigma."""
        return self.sigma

    @property
    def query_scale(self) -> float:
        """Laplace scale of each query's noise, 2 sigma."""
        return 2.0 * self.sigma

    @property
    def eps_round(self) -> float:
        """Each round is AboveThreshold with threshold noise Lap(sigma) = Lap(2 Delta / eps_round)."""
        return 2.0 * self.sensitivity / self.sigma

    def query(self, value: float) -> bool:
        self._check_running()
        return self._above(_check_real("value", value))

    def run(self, values: Any) -> Release:
        """Feed a known sequence; Release(bool array of tops for the queries asked, guarantee).

        The array stops at the query where the c-th top occurred (the algorithm halts there).
        """
        top_indices: list[int] = []
        _, stop = self._scan(values, lambda i, xi: top_indices.append(i))
        tops = np.zeros(stop, dtype=bool)
        tops[top_indices] = True
        return Release(tops, self.guarantee)


class NumericSparse(_SparseRounds):
    """Dwork-Roth (2014) Algorithm 3 (NumericSparse), Theorem 3.27 (privacy; 3.28 is its accuracy):

    Sparse that also releases f_i(D) + Lap(sigma(eps_2)) at each above-threshold query; halts
    after c of them.

    The split, exactly as Dwork-Roth: delta = 0: eps_1 = 8 eps/9, eps_2 = 2 eps/9,
    sigma(e) = 2c/e; delta > 0: eps_1 = sqrt(512) eps/(sqrt(512)+1), eps_2 = 2 eps/(sqrt(512)+1),
    sigma(e) = sqrt(32 c ln(2/delta))/e (the book's ln(2/delta): its proof runs Sparse at delta/2).
    Noise: threshold Lap(sigma(eps_1)), comparison Lap(2 sigma(eps_1)), answer Lap(sigma(eps_2)),
    all times Delta.

    Guarantee: delta = 0: c rounds of AboveThreshold at eps_1/c plus c Laplace answers at
    eps_2/(2c): eps_1 + eps_2/2 = eps exactly. delta > 0: each round (AboveThreshold followed by
    one Laplace answer) is pure eps_round = 2 Delta/sigma(eps_1) + Delta/sigma(eps_2) -DP, and
    Theorem 3.20 over the c rounds at delta gives
    sqrt(ln(1/delta)/ln(2/delta)) eps/2 + c eps_round (e^eps_round - 1) <= eps in the range
    Theorem 3.27 is meant for; the declared guarantee is (max(eps, that), delta).
    """

    SQRT512 = math.sqrt(512.0)
    name = "NumericSparse"

    def __init__(self, threshold: float, c: int, eps: float, rng: np.random.Generator, *,
                 delta: float = 0.0, sensitivity: float = 1.0):
        self._setup(threshold, c, eps, rng, delta, sensitivity)
        if self.delta == 0.0:
            self.eps1, self.eps2 = 8.0 * self.eps / 9.0, 2.0 * self.eps / 9.0
        else:
            self.eps1 = self.SQRT512 * self.eps / (self.SQRT512 + 1.0)
            self.eps2 = 2.0 * self.eps / (self.SQRT512 + 1.0)
        self.sigma1 = self.sensitivity * _sigma_sparse(self.c, self.eps1, self.delta, 2.0)
        self.sigma2 = self.sensitivity * _sigma_sparse(self.c, self.eps2, self.delta, 2.0)
        self._noisy_threshold = self._draw_threshold()

    @property
    def threshold_scale(self) -> float:
        """Laplace scale of each (re)drawn threshold, sigma(eps_1)."""
        return self.sigma1

    @property
    def query_scale(self) -> float:
        """Laplace scale of each query's comparison noise, 2 sigma(eps_1)."""
        return 2.0 * self.sigma1

    @property
    def answer_scale(self) -> float:
        """Laplace scale of each released answer, sigma(eps_2)."""
        return self.sigma2

    @property
    def eps_round(self) -> float:
        """One round: AboveThreshold (2 Delta/sigma_1) then one Laplace answer (Delta/sigma_2)."""
        return 2.0 * self.sensitivity / self.sigma1 + self.sensitivity / self.sigma2

    def _release(self, v: float) -> float:
        """The answer released at a top: f_i(D) + Lap(sigma_2)."""
        return v + float(self._rng.laplace(0.0, self.answer_scale))

    def query(self, value: float) -> float | None:
        """One query answer f_i(D): None (bottom) or the noisy answer f_i(D) + Lap(sigma_2)."""
        self._check_running()
        v = _check_real("value", value)
        if self._above(v):
            return self._release(v)
        return None

    def first_above(self, values: Any) -> tuple[int | None, float | None]:
        """Dwork-Roth Algorithm 3 over ``values`` up to its first above-threshold answer, vectorised:
        ``(index, noisy answer)`` of that query (the threshold redrawn, the count raised), or
        ``(None, None)`` when every value is below. Same law as ``query`` on each value in turn until
        a top; the queries after the top are not asked. This is how PMW (Dwork-Roth Algorithm 5)
        runs NumericSparse adaptively: a block of queries whose values are known until the next
        update."""
        found: list[tuple[int, float]] = []
        self._scan(values, lambda i, xi: found.append((int(i), self._release(float(xi)))), max_tops=1)
        return found[0] if found else (None, None)

    def run(self, values: Any) -> Release:
        """Feed a known sequence; Release(float array, nan = bottom, for the queries asked, guarantee).

        The array stops at the query of the c-th above-threshold answer (the algorithm halts there).
        """
        answers: dict[int, float] = {}

        def answer(i, xi):
            answers[i] = self._release(float(xi))

        _, stop = self._scan(values, answer)
        out = np.full(stop, np.nan)
        for i, a in answers.items():
            out[i] = a
        return Release(out, self.guarantee)
