"""BCMNUW20 Algorithm 1 / Lemma 7: offline private multiplicative weights (Hardt-Rothblum 2010) with
the parameter settings of Dwork & Roth (2014), Algorithm 5 and Theorem 4.15 (online MW via
NumericSparse), run over every query of a finite class H~ on a finite domain X~.

Scales. BCMNUW20 answers live in [-1, 1]: G(h) estimates E_{x~D}[h(x)]. Dwork-Roth's linear
queries live in [0, 1] on normalised histograms. PMW works with the counting queries
q_h(x) = 1{h(x) = +1} in [0, 1] and releases G(h) = 2 a_h - 1, so an error alpha in BCMNUW20's
scale is alpha/2 in Dwork-Roth's. The data set s in X~^n enters only as its normalised
histogram, so every query has sensitivity 1/n.

The algorithm (Dwork-Roth Algorithm 5 over the queries of H~ in the given order):
  x^0 = uniform over X~; NumericSparse (Dwork-Roth Algorithm 3) with threshold T, cut-off c,
  (eps, delta) and sensitivity 1/n; for each query q_i, ask NumericSparse
  f'_{2i-1} = q_i(s) - q_i(x^t) and then f'_{2i} = q_i(x^t) - q_i(s);
  if both are bottom, a_i = q_i(x^t); else a_i = q_i(x^t) + a_{2i-1} (if the first fired) or
  q_i(x^t) - a_{2i} (the second), and x^{t+1} = MW(x^t, q_i, a_i) (Algorithm 4:
  x^{t+1} proportional to x^t exp(eta * sign(a_i - q_i(x^t)) * q_i)).
  After c above-threshold answers NumericSparse halts; the remaining queries are answered by
  q_i(x^t) (post-processing of what was released; Theorem 4.15's event excludes this case).

Parameters (derivation; all logarithms natural). Let alpha, beta be BCMNUW20 Algorithm 1's
targets: Err_{D~,H~}(G~) <= alpha with probability >= 1 - beta when s ~ D~^n.
  * MW accuracy (Dwork-Roth scale): alpha_mw = alpha / 8, eta = alpha_mw / 2,
    c = floor(4 ln|X~| / alpha_mw^2) + 1. Dwork-Roth Theorem 4.10: every update on a query with
    |q(s) - q(x^t)| >= alpha_mw lowers the potential KL(s || x^t) <= ln|X~| by at least
    eta alpha_mw - eta^2 = alpha_mw^2 / 4, so at most c - 1 such updates can happen
    (the "+1" makes the count strict; Dwork-Roth write c = 4 ln|X| / alpha^2).
  * Threshold T = 2 alpha_mw. This is the T = 2 alpha of Dwork-Roth's proof of Theorem 4.15
    (Algorithm 5 writes T as 2 alpha_NS(n), which equals 2 alpha exactly at the smallest
    admissible n; for larger n, T = 2 alpha_NS < 2 alpha would let updates with gap below alpha
    through and void the update count, so the proof's value is used).
  * NumericSparse: k = 2|H~| queries, cut-off c, (eps, delta), the privacy split and noise scales
    exactly as ``algorithms.privacy.NumericSparse`` (Dwork-Roth Algorithm 3 / Theorem 3.28):
    threshold noise Lap(sigma_1), comparison noise Lap(2 sigma_1), answer noise Lap(sigma_2).
  * NumericSparse accuracy, by a union bound written out here (not Theorem 3.28's printed
    alpha: for delta > 0 its answer noise sigma_2 = 2 sqrt(2) * 4 sigma_1 is not covered by the
    printed value): with probability >= 1 - beta/2 every comparison noise is within alpha_NS/2,
    every threshold noise within alpha_NS/2 and every answer noise within alpha_NS, where
        alpha_NS = max(4 sigma_1 ln(6k/beta), 2 sigma_1 ln(6(c+1)/beta), sigma_2 ln(6c/beta)).
    On that event, and if alpha_NS <= alpha_mw: unflagged queries have |q(s) - q(x^t)| < T +
    alpha_NS <= 3 alpha_mw; flagged ones have gap >= T - alpha_NS >= alpha_mw (so Theorem 4.10's
    count applies and NumericSparse never halts) and answer error <= alpha_NS. Hence
    max_h |a_h - q_h(s)| <= 3 alpha_mw = 3 alpha / 8 (Dwork-Roth's "3 alpha").
  * Uniform convergence (Hoeffding + union bound over H~, the step Lemma 7 calls "standard"):
    max_h |q_h(s) - q_h(D~)| <= alpha / 8 with probability >= 1 - beta/2 once
    n >= 32 ln(4|H~|/beta) / alpha^2.
  Together: Err_{D~,H~}(G~) <= 2 (3 alpha/8 + alpha/8) = alpha w.p. >= 1 - beta once
  n >= n_required = max(8 alpha_NS(1) / alpha, 32 ln(4|H~|/beta) / alpha^2), alpha_NS(1) being
  alpha_NS at n = 1 (alpha_NS is proportional to 1/n). ``pmw_sample_size`` returns it.

Where BCMNUW20 Lemma 7's constants come from (erratum). Lemma 7 prints
n >= 200 sqrt(log|X~| log(2/delta)) (log|H~| + log(128 log|X~|/(alpha^2 beta))) / (eps alpha^2).
This is Dwork-Roth Theorem 4.15's (delta > 0) condition
alpha' >= (2 + 32 sqrt 2) sqrt(log|X| log(2/delta)) (log|Q| + log(32 log|X|/(alpha'^2 beta))) / (eps alpha' n)
read at alpha' = alpha/2: 4 (2 + 32 sqrt 2) = 189.0 (rounded up to 200) and 32 * 4 = 128. That reading
drops Theorem 4.15's factor 3 (its error is 3 alpha'), the [0,1] -> [-1,1] factor 2, the
uniform-convergence step and the beta split, and inherits Theorem 3.28's delta > 0 accuracy, which
does not cover the answer noise. (It does not drop NumericSparse's k = 2|Q| queries: Dwork-Roth's
32 = 2 x 16 already counts them; proofs_checks bcmnuw20:lemma7.numericsparse-queries.) The asymptotic form
O(sqrt(log|X~| log(1/delta)) (log|H~| + log(1/beta)) / (eps alpha^2)) (up to the log log|X~|/alpha
term) stands; the explicit constant does not follow from the cited results. The corrected
sufficient n is ``pmw_sample_size`` (leading constant about 8.5e3 instead of 200), at the fixed 3:1
split of the error budget (alpha_mw = alpha/8).

Tight split (``mw_accuracy`` given, as bounds' lemma7 / thm10 ``mw_accuracy``). The same algorithm with
alpha_mw = mw_accuracy in (0, alpha/4) and a sharper reading of the same proof: MW reads only the sign of
a_i - q(x^t), so an update's answer noise only has to stay below the gap the threshold guarantees,
T - t_cmp - t_thr, not below alpha_mw. With tolerances t_cmp (comparison noise), t_thr (threshold
noise), t_ans (answer noise) and a_uc (Hoeffding), all set by failure shares beta_i summing to beta
(t = scale log(count/beta_i)/n): the direction step t_cmp + t_thr + t_ans <= 2 alpha_mw, the update
step t_cmp + t_thr <= alpha_mw (every update has gap >= alpha_mw, so Theorem 4.10's count holds) and the
error step 2 alpha_mw + t_cmp + t_thr + a_uc <= alpha/2 (queries that do not fire err by < T + t_cmp +
t_thr, those that fire by t_ans < T - t_cmp - t_thr). ``n_required`` is the least n meeting the three
(``_tight_n``, the twin of bounds.papers.bcmnuw20_lemma7.lemma7_tight_n with its failure shares,
held equal by tests/bounds/test_bcmnuw20.py); about half the fixed split's n at Theorem 10's sizes.

Privacy: the released answers are a post-processing of NumericSparse's outputs (Dwork-Roth
Theorem 4.14), so PMW spends exactly NumericSparse's declared guarantee: PureDP(eps) for
delta = 0, ApproxDP(eps, delta) for delta > 0 in the range Theorem 3.28 is meant for (roughly
eps <= 4 ln(1/delta); outside it NumericSparse declares the larger proven epsilon and so does PMW).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass, as_counts, validate_indices
from ..privacy import NumericSparse, Release
from ..privacy.accounting import _check_delta, _check_positive_finite
from ..privacy.mechanisms import _check_rng
from ..classes.implicit import CoordinateCounts, Stumps
from . import _kernels
from .mw import MatrixQueries
from .mw_counts import SignedCountMW, step_table
from .mw_product import CoordinateQueries, ProductMWDistribution
from ..validate import check_int as _check_count
from ..validate import check_unit_open as _check_unit_open

# the results this module's algorithm realises (bounds show lists it)
REALISES = ("bcmnuw20:lemma7", "baselines:pmw")

__all__ = ["PMWParameters", "PMWResult", "pmw", "pmw_parameters", "pmw_sample_size"]

_BLOCK = 64
_MAX_BLOCK_ENTRIES = 1 << 22
_PRODUCT_BLOCK = 4096


@dataclass(frozen=True)
class PMWParameters:
    """Dwork-Roth Theorem 4.15 settings used by ``pmw`` (see the module docstring for each formula).

    alpha, beta, eps, delta: BCMNUW20 Algorithm 1's inputs ([-1, 1] answer scale).
    n, domain_size (|X~|), num_queries (|H~|).
    alpha_mw, eta, c: the MW accuracy alpha/8 (Dwork-Roth [0,1] scale), step alpha_mw/2, cut-off.
    threshold: T = 2 alpha_mw. eps1, eps2, threshold_scale, query_scale, answer_scale:
    NumericSparse's split and Laplace scales (sensitivity 1/n included).
    alpha_ns: NumericSparse's accuracy at confidence beta/2 (union bound, module docstring); with
    ``mw_accuracy`` given (tight split), the total noise tolerance t_cmp + t_thr + t_ans at n.
    n_required: the corrected Lemma 7 sample size; ``accurate`` = (n >= n_required).
    tight: whether alpha_mw came from the caller (tight split) or is alpha/8 (fixed split).
    """

    alpha: float
    beta: float
    eps: float
    delta: float
    n: int
    domain_size: int
    num_queries: int
    alpha_mw: float
    eta: float
    c: int
    threshold: float
    eps1: float
    eps2: float
    threshold_scale: float
    query_scale: float
    answer_scale: float
    alpha_ns: float
    n_required: int
    tight: bool = False

    @property
    def accurate(self) -> bool:
        """Whether n meets the corrected Lemma 7 condition (so Err <= alpha w.p. >= 1 - beta)."""
        return self.n >= self.n_required


def _numeric_sparse(threshold: float, c: int, eps: float, delta: float, n: int) -> NumericSparse:
    # For pmw_parameters' noise scales only (its threshold draw comes from a throw-away generator);
    # pmw itself runs a NumericSparse built on the caller's generator.
    return NumericSparse(threshold, c, eps, np.random.default_rng(0), delta=delta, sensitivity=1.0 / n)


def _alpha_ns(sigma1: float, sigma2: float, k: int, c: int, beta_ns: float) -> float:
    """Union bound (module docstring): each of the three noise families fails w.p. <= beta_ns / 3."""
    b = beta_ns / 3.0
    return max(4.0 * sigma1 * math.log(k / b), 2.0 * sigma1 * math.log((c + 1) / b),
               sigma2 * math.log(c / b))


def _tight_logs(log_h: float, c: int, shares) -> tuple:
    """log(count/beta_i) of the four families: 2|H~| comparisons, c + 1 thresholds, c answers, 2|H~| Hoeffding."""
    log_2h = math.log(2) + log_h
    b_cmp, b_thr, b_ans, b_uc = shares
    return (log_2h - math.log(b_cmp), math.log(c + 1) - math.log(b_thr), math.log(c) - math.log(b_ans),
            log_2h - math.log(b_uc))


def _tight_shares(alpha: float, beta: float, sigma1: float, sigma2: float, log_h: float, a: float,
                  c: int) -> tuple:
    """Tight split: the failure shares at alpha_mw = a, one pass from beta/4 each of beta_i proportional
    to n's sensitivity to log(1/beta_i) (twin of bounds' ``lemma7_tight_shares``, sigma_i at sensitivity 1)."""
    L1, L2, L3, L4 = _tight_logs(log_h, c, (beta / 4,) * 4)
    a12 = sigma1 * a * (2 * L1 + L2)
    a3 = sigma2 * a * L3
    B = max((a12 + a3) / 2, a12)
    k = 1 - a12 / (2 * B)
    up = 1 / (1 + (a12 / a3) ** 16)
    g12 = 1 + k * (1 - up / 2)
    g3 = k * up / 2
    w1, w2, w4 = 2 * sigma1 * a * g12, sigma1 * a * g12, math.sqrt(B) / (2 * math.sqrt(2 * L4))
    w3 = max(sigma2 * a * g3, 1e-6 * (w1 + w2 + w4))
    total = w1 + w2 + w3 + w4
    return beta * w1 / total, beta * w2 / total, beta * w3 / total, beta * w4 / total


def _tight_n(alpha: float, sigma1: float, sigma2: float, log_h: float, a: float, c: int, shares) -> tuple:
    """Tight split (module docstring): (the least real n meeting the direction, update and error steps,
    the total noise tolerance t_cmp + t_thr + t_ans at it); twin of bounds' ``lemma7_tight_n``."""
    L1, L2, L3, L4 = _tight_logs(log_h, c, shares)
    a12, a3 = sigma1 * (2 * L1 + L2), sigma2 * L3
    r = alpha / 2 - 2 * a
    q = math.sqrt(L4 / 2)
    x = 2 * r / (q + math.sqrt(q**2 + 4 * a12 * r))
    n = max(max((a12 + a3) / (2 * a), a12 / a), 1 / x**2)
    return n, (a12 + a3) / n


def pmw_parameters(alpha: float, beta: float, eps: float, delta: float, *, n: int,
                   domain_size: int, num_queries: int, mw_accuracy: float | None = None) -> PMWParameters:
    """Dwork-Roth (2014) Theorem 4.15 / BCMNUW20 Lemma 7: PMW's internal parameters (module docstring).

    mw_accuracy: alpha_mw on the [0, 1] scale, in (0, alpha/4) (the tight split, e.g. bounds'
    ``mw_accuracy``); None: alpha/8 and the fixed split's n_required."""
    alpha = _check_unit_open("alpha", alpha)
    beta = _check_unit_open("beta", beta)
    eps = _check_positive_finite("eps", eps)
    delta = _check_delta("delta", delta)
    n = _check_count("n", n)
    domain_size = _check_count("domain_size", domain_size)
    num_queries = _check_count("num_queries", num_queries)
    return _pmw_parameters(alpha, beta, eps, delta, n, domain_size, num_queries, mw_accuracy)


@functools.lru_cache(maxsize=256)
def _pmw_parameters(alpha: float, beta: float, eps: float, delta: float, n: int, domain_size: int,
                    num_queries: int, mw_accuracy: float | None) -> PMWParameters:
    """``pmw_parameters`` on checked inputs, derived once per inputs (a frozen result: a run of PMW on a small
    instance spent a quarter of its time re-deriving them)."""
    if mw_accuracy is None:
        alpha_mw = alpha / 8.0
    else:
        alpha_mw = _check_positive_finite("mw_accuracy", mw_accuracy)
        if not alpha_mw < alpha / 4.0:
            raise ValueError(f"mw_accuracy={mw_accuracy!r} out of range: allowed (0, alpha/4) = "
                             f"(0, {alpha / 4.0!r}) (the error step needs 2 alpha_mw < alpha/2)")
    c = int(math.floor(4.0 * math.log(domain_size) / alpha_mw**2)) + 1
    threshold = 2.0 * alpha_mw
    ns = _numeric_sparse(threshold, c, eps, delta, n)
    if mw_accuracy is None:
        k = 2 * num_queries
        alpha_ns = _alpha_ns(ns.sigma1, ns.sigma2, k, c, beta / 2.0)
        n_pmw = math.ceil(8.0 * alpha_ns * n / alpha)           # alpha_ns * n = alpha_NS(1)
        n_uc = math.ceil(32.0 * math.log(4.0 * num_queries / beta) / alpha**2)
        n_required = max(n_pmw, n_uc)
    else:
        sigma1, sigma2 = ns.sigma1 * n, ns.sigma2 * n          # scales at sensitivity 1
        log_h = math.log(num_queries)
        shares = _tight_shares(alpha, beta, sigma1, sigma2, log_h, alpha_mw, c)
        n_real, tolerance = _tight_n(alpha, sigma1, sigma2, log_h, alpha_mw, c, shares)
        n_required = math.ceil(n_real)
        alpha_ns = tolerance * n_real / n                       # t_cmp + t_thr + t_ans at n
    return PMWParameters(
        alpha=alpha, beta=beta, eps=eps, delta=delta, n=n, domain_size=domain_size,
        num_queries=num_queries, alpha_mw=alpha_mw, eta=alpha_mw / 2.0, c=c, threshold=threshold,
        eps1=ns.eps1, eps2=ns.eps2, threshold_scale=ns.threshold_scale, query_scale=ns.query_scale,
        answer_scale=ns.answer_scale, alpha_ns=alpha_ns, n_required=n_required,
        tight=mw_accuracy is not None)


def pmw_sample_size(alpha: float, beta: float, eps: float, delta: float, *, domain_size: int,
                    num_queries: int, mw_accuracy: float | None = None) -> int:
    """BCMNUW20 Lemma 7 (corrected constants, module docstring): the least n for which ``pmw``'s
    parameter derivation proves Err_{D~,H~}(G~) <= alpha with probability >= 1 - beta (fixed split, or
    the tight split at alpha_mw = ``mw_accuracy``)."""
    return pmw_parameters(alpha, beta, eps, delta, n=1, domain_size=domain_size,
                          num_queries=num_queries, mw_accuracy=mw_accuracy).n_required


@dataclass(frozen=True, eq=False)
class PMWResult:
    """BCMNUW20 Algorithm 1's output G~ and what PMW released along the way.

    answers: (|H~|,) G~(h) in [-1, 1] for every hypothesis (row order of the class).
    synthetic: the final MW distribution x^t over X~.
    halted: NumericSparse reached its c above-threshold answers.
    update_queries: hypotheses (row indices) that triggered an MW update, in order;
    update_before / update_answers / update_after: q(x^t), the released a_i and q(x^{t+1})
    for those queries ([0, 1] scale), so the update direction can be audited.
    num_tops: above-threshold answers NumericSparse gave (>= number of updates).
    parameters: the ``PMWParameters`` used.
    """

    answers: np.ndarray
    synthetic: np.ndarray
    halted: bool
    update_queries: np.ndarray
    update_before: np.ndarray
    update_answers: np.ndarray
    update_after: np.ndarray
    num_tops: int
    parameters: PMWParameters

    @property
    def num_updates(self) -> int:
        return int(self.update_queries.size)


def _true_answers(matrix: np.ndarray, counts: np.ndarray, n: int) -> np.ndarray:
    """q_h(s) = |{i : h(s_i) = +1}| / n for every row, exactly, from the histogram ``counts`` of s (size n).

    The counts are integers <= n; for n < 2^24 every partial sum of a float32 product of the 0/1
    matrix with the integer histogram is an integer below 2^24, hence exact, and twice as fast as
    float64. (The synthetic answers q(x^t) are float64 pairwise sums, ``mw_counts.masked_sums``: they depend
    only on what was already released, so their rounding is post-processing and touches neither privacy nor
    the sensitivity 1/n of the true answers.)
    """
    dtype = np.float32 if n < (1 << 24) else np.float64
    return MatrixQueries(matrix, dtype=dtype).answer(counts.astype(dtype)) / n


def _validate_order(order, k: int) -> np.ndarray:
    if order is None:
        return np.arange(k)
    o = validate_indices(order, k, "order")
    if o.size != k or np.unique(o).size != k:
        raise ValueError(f"order must be a permutation of 0..{k - 1} (every query once), got {o.size} "
                         f"indices with {np.unique(o).size} distinct")
    return o



def _scan(true: np.ndarray, queries, dist, ns: NumericSparse, eta: float, order: np.ndarray, max_block: int):
    """BCMNUW20 Algorithm 1's pass over the queries in ``order`` (the body of :func:`pmw`): NumericSparse on
    the pairs f'_{2i-1}, f'_{2i} of every query's gap between the true answer and the synthetic one, an MW
    step on ``dist`` (a ``SignedCountMW`` or a ``ProductMWDistribution``) after every top. Returns the
    answers ([0, 1] scale) and the update record (queries, q(x^t) before, released a_i, q(x^{t+1}) after)."""
    k = order.size
    a = np.empty(k)
    pos = 0
    block = min(_BLOCK, max_block)
    upd_q, upd_before, upd_a, upd_after = [], [], [], []
    while pos < k:
        if ns.halted:                                # after c tops: post-processing only
            rest = order[pos:]
            a[rest] = dist.answer(queries, rest)
            break
        idx = order[pos:min(k, pos + block)]
        syn = dist.answer(queries, idx)
        gap = true[idx] - syn
        v = np.empty(2 * idx.size)
        v[0::2], v[1::2] = gap, -gap                 # f'_{2i-1}, f'_{2i}
        first, released = ns.first_above(v)
        if first is None:
            a[idx] = syn
            pos += idx.size
            block = min(2 * block, max_block)
            continue
        j = first // 2
        block = min(max(2 * (j + 1), 4), max_block)  # next block: about twice the last gap between tops
        a[idx[:j]] = syn[:j]
        i = int(idx[j])
        if first % 2 == 0:                           # a_{2i-1} in R: a_i = q(x^t) + a_{2i-1}
            a_i = syn[j] + released
            if not ns.halted:                        # f'_{2i} is still asked (its answer is unused)
                ns.query(float(-gap[j]))
        else:                                        # a_{2i} in R: a_i = q(x^t) - a_{2i}
            a_i = syn[j] - released
        a[i] = a_i
        direction = 1.0 if a_i > syn[j] else -1.0
        dist.update_query(queries, i, eta * direction)
        upd_q.append(i)
        upd_before.append(syn[j])
        upd_a.append(a_i)
        upd_after.append(float(dist.answer(queries, np.array([i]))[0]))
        pos += j + 1
    return a, upd_q, upd_before, upd_a, upd_after


def _scan_compiled(kernel, true, matrix, ns: NumericSparse, eta: float, order: np.ndarray, max_block: int):
    """:func:`_scan` on a ``SignedCountMW`` with NumericSparse's own scan, as one compiled pass
    (``_kernels_nb.pmw_scan``, the same floating-point operations in the same order; tests/algorithms/test_kernels.py).

    The noise stays numpy's: NumericSparse draws Lap(b) as 0.0 + b * log(...) from one uniform each, which is
    0.0 + b * Lap(1) with the same uniform, so the pass reads standard Laplace draws made here in the order
    NumericSparse would make them (threshold, block comparisons, answer, ...; a block's comparisons drawn at
    once as ``first_above`` does). The generator is then set back and advanced by exactly the draws the pass
    used, so it continues where the numpy pass leaves it. Returns ``_scan``'s record and the final x^t."""
    k, N = matrix.shape
    mat = np.ascontiguousarray(matrix, dtype=np.bool_)
    cap = min(ns.c, k)                              # updates <= tops <= c, and <= one per query
    table = step_table(eta, 2 * cap + 1)            # |M - m(x)| <= 2 x updates
    counts = np.zeros(N, dtype=np.int64)
    p = np.array(SignedCountMW(N, eta).probabilities())
    a = np.empty(k)
    upd_q = np.empty(cap, dtype=np.int64)
    upd_f = np.empty((3, cap))
    rng, count, noisy_threshold = ns.scan_state()
    state = np.array([0, min(_BLOCK, max_block), max_block, count, ns.c, 0, 0], dtype=np.int64)
    scales = np.array([ns.threshold, ns.threshold_scale, ns.query_scale, ns.answer_scale, noisy_threshold])
    z = np.empty(0)
    batches = []                                    # (generator state before, draws before) per batch in z
    while True:
        batches.append((rng.bit_generator.state, z.size))
        z = np.concatenate((z, rng.laplace(0.0, 1.0, size=max(2 * k + 64, z.size))))
        if not kernel(mat, true, order, table, z, state, counts, p, a, upd_q, upd_f, scales):
            break
    used = int(state[5])
    saved, base = next(b for b in reversed(batches) if b[1] <= used)
    rng.bit_generator.state = saved                 # back before the batch of the last draw used, then
    rng.laplace(0.0, 1.0, size=used - base)         # exactly the draws the pass used from it: no more
    ns.resume(int(state[3]), float(scales[4]))
    nu = int(state[6])
    return a, upd_q[:nu].tolist(), upd_f[0, :nu].tolist(), upd_f[1, :nu].tolist(), upd_f[2, :nu].tolist(), p


def pmw(data, cls, alpha: float, beta: float, eps: float, delta: float,
        rng: np.random.Generator, *, order=None, sparse: type = NumericSparse,
        mw_accuracy: float | None = None) -> Release:
    """BCMNUW20 Algorithm 1 (PMW) with Dwork-Roth (2014) Algorithm 5 / Theorem 4.15's settings.

    data: the private data set s as point indices into the class's domain X~ = {0..N-1}, or as its
    histogram (``algorithms.classes.PointCounts``: the same data set, PMW reads it only through its counts);
    for ``cls`` a :class:`~algorithms.classes.implicit.Stumps`, the points themselves, an (n, p) array of +-1, or
    their per-coordinate counts (:class:`~algorithms.classes.implicit.CoordinateCounts`: the same bits).
    cls: the query class H~: a FiniteClass (hypotheses x points, True = +1), or ``Stumps(p)`` for decision
    stumps on {+-1}^p at any p (X~ = {+-1}^p never materialised: the MW distribution is kept as a product,
    ``mw_product``; the same algorithm and, where 2^p fits, the same decisions as the dense class).
    alpha, beta in (0, 1); eps > 0; delta in [0, 1); rng: numpy Generator.
    order: the order in which the queries are run (a permutation of the hypotheses; default 0..|H~|-1).
    sparse: the NumericSparse class PMW runs (default ``algorithms.privacy.NumericSparse``; the
    privacy audit passes deliberately broken subclasses, see ``simulations/audit_targets/pmw.py``).
    mw_accuracy: PMW's MW accuracy alpha_mw in (0, alpha/4) from the caller (tight split, e.g. bounds'
    lemma7 / thm10 ``mw_accuracy``); None: alpha/8 (fixed split). Privacy does not depend on it.

    Returns ``Release(PMWResult, guarantee)``; ``guarantee`` is NumericSparse's (PureDP(eps) or
    ApproxDP(eps, delta)). Every comparison, threshold (re)draw, released answer and the halting
    after c tops are NumericSparse's own code (``first_above`` on a block, ``query`` for the
    second query of a pair): one implementation. Scans the queries in blocks (one pass of answers
    per block, no Python loop over queries): a block ends at NumericSparse's first
    above-threshold answer, the MW update is applied, and the scan resumes after that query.
    On a FiniteClass with NumericSparse itself (not a subclass) and numba present, the whole pass runs as
    one compiled kernel (``_scan_compiled``), releasing the same bits as that numpy pass: the MW state
    is ``mw_counts.SignedCountMW`` on both, the noise numpy's draws in NumericSparse's order.
    """
    if not (isinstance(sparse, type) and issubclass(sparse, NumericSparse)):
        raise ValueError(f"sparse={sparse!r} must be NumericSparse or a subclass of it")
    rng = _check_rng(rng)
    if isinstance(cls, Stumps):                      # no domain: X~ = {+-1}^p, MW as a product (mw_product)
        if isinstance(data, CoordinateCounts):       # the data set as its per-coordinate counts (same bits)
            if data.dim != cls.p:
                raise ValueError(f"data counts cover {data.dim} coordinates, the class has p={cls.p}")
            n, ones = data.n, data.ones
        else:
            pts = cls.validate_points(data, "data")
            n, ones = int(pts.shape[0]), np.count_nonzero(pts == 1, axis=0)
        N, k = 2 ** cls.p, cls.num_hypotheses
        true = ones / n                                  # q_h(s), exactly as the histogram path computes it
        queries = CoordinateQueries(np.arange(k), cls.p)
        dist = ProductMWDistribution(cls.p)
    elif isinstance(cls, FiniteClass):
        s = as_counts(data, cls.num_points, "data")
        n, N, k = s.n, cls.num_points, cls.num_hypotheses
        queries = MatrixQueries(cls.matrix)                # its boolean rows: SignedCountMW answers them
        true = _true_answers(cls.matrix, s.counts, s.n)  # q_h(s), [0, 1] scale; read only through noise
        dist = None                                  # SignedCountMW once eta is known
    else:
        raise ValueError(f"cls must be a FiniteClass or Stumps, got {type(cls).__name__}")
    params = pmw_parameters(alpha, beta, eps, delta, n=n, domain_size=N, num_queries=k,
                            mw_accuracy=mw_accuracy)
    order = _validate_order(order, k)
    if dist is None:
        dist = SignedCountMW(N, params.eta)
    ns = sparse(params.threshold, params.c, params.eps, rng, delta=params.delta, sensitivity=1.0 / params.n)
    # A block's noise is drawn at once (NumericSparse.first_above), so the block sizes fix the bits: the product
    # engine uses the dense engine's blocks wherever the dense one could run (2^p <= 2^22), larger ones beyond.
    max_block = max(1, _MAX_BLOCK_ENTRIES // N) if N <= _MAX_BLOCK_ENTRIES else _PRODUCT_BLOCK
    kernels = _kernels.compiled()
    if isinstance(dist, SignedCountMW) and kernels is not None and type(ns) is NumericSparse:
        a, upd_q, upd_before, upd_a, upd_after, synthetic = _scan_compiled(
            kernels["pmw_scan"], true, cls.matrix, ns, params.eta, order, max_block)
    else:
        a, upd_q, upd_before, upd_a, upd_after = _scan(true, queries, dist, ns, params.eta, order, max_block)
        synthetic = np.array(dist.probabilities())
    answers = np.clip(2.0 * a - 1.0, -1.0, 1.0)
    result = PMWResult(
        answers=answers, synthetic=synthetic, halted=ns.halted,
        update_queries=np.array(upd_q, dtype=np.intp), update_before=np.array(upd_before),
        update_answers=np.array(upd_a), update_after=np.array(upd_after), num_tops=int(ns.count),
        parameters=params)
    return Release(result, ns.guarantee)
