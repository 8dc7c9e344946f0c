"""BCMNUW20 Lemma 7 (PMW's private sample bound), printed and corrected; used by Theorem 10's n.

Four values of n are kept side by side (``LEMMA7_DEPARTURES``):

- ``private_samples``: the tightest n the PMW that runs (algorithms.query_release.pmw, Dwork-Roth
  Algorithm 5 over NumericSparse, Algorithm 3, delta > 0) and its analysis support. The derivation
  (``LEMMA7_DERIVATION``) splits the noise tolerances by what each step of the proof needs; the answer
  noise of an update only has to leave the update's direction right, so it may use what the
  threshold leaves over the comparison and threshold noise (2 alpha_mw - t_cmp - t_thr), not only
  alpha_mw. Its free budgets (alpha_mw and the four failure shares) are chosen in closed form
  (``lemma7_tight_accuracy``, ``lemma7_tight_shares``): any choice gives a sound n.
- ``private_samples_previous``: the previous correction (answer noise within alpha_mw, comparison and
  threshold noise within alpha_mw/2 each, empirical error 3 alpha_mw), its split chosen in closed form
  and its union bound solved by Newton's method (``lemma7_previous_n``).
- ``private_samples_fixed_split``: the previous correction at the fixed 3:1 split and fixed failure
  shares that ``pmw_sample_size`` computes when PMW is not given its MW accuracy.
- ``private_samples_as_printed``: the paper's formula (erratum bcmnuw20-lemma7-constants).
"""
from __future__ import annotations

import inspect
import math

from ..core import Departure, Quantity
from ..params import Interval

_ROOT512 = math.sqrt(512)
#: the error share of PMW's multiplicative weights at the fixed split (alpha_mw = alpha/8)
LEMMA7_FIXED_SHARE = 0.75
#: passes of the closed-form choice of alpha_mw (search) and of the failure shares at a given alpha_mw
_ACCURACY_PASSES = 2
_SHARE_PASSES = 1
#: Newton steps on the previous correction's union bound (monotone from below; a last step makes it sound)
_NEWTON_STEPS = 2
_PREVIOUS_PASSES = 2
_KINK_STEEPNESS = 16


#: points per pass of the iterative Lemma 7 formulas on numpy arrays: their chains of elementwise
#: operations run on blocks that stay in cache (about 3x faster on 10^6 points than whole arrays)
_CHUNK = 16384


def _chunked(fn):
    """Evaluate ``fn(o, *args)`` block by block when o is numpy and an argument is a large array (same
    values; only the memory traffic changes). Tuples of results are reassembled element by element."""
    import functools

    names = list(inspect.signature(fn).parameters)[1:]

    @functools.wraps(fn)
    def wrapper(o, *args, **kwargs):
        args = args + tuple(kwargs[k] for k in names[len(args):])
        if o.name != "numpy":
            return fn(o, *args)
        import numpy as np

        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
        size = int(np.prod(shape)) if shape else 1
        if size <= _CHUNK:
            return fn(o, *args)
        flat = [np.broadcast_to(a, shape).ravel() if np.ndim(a) else a for a in args]
        parts = [fn(o, *(f[i:i + _CHUNK] if np.ndim(f) else f for f in flat))
                 for i in range(0, size, _CHUNK)]
        if isinstance(parts[0], tuple):
            return tuple(np.concatenate([p[j] for p in parts]).reshape(shape) for j in range(len(parts[0])))
        return np.concatenate(parts).reshape(shape)
    return wrapper


# --- the fixed split (pmw_sample_size without mw_accuracy) and the printed formula ----------------
def lemma7_cutoff(o, alpha, log_x):
    """BCMNUW20 Lemma 7 (corrected): PMW's update cut-off c = floor(4 log|X~|/alpha_mw^2) + 1,
    alpha_mw = alpha/8 (Dwork-Roth Thm 4.10 with step alpha_mw/2; algorithms.query_release.pmw)."""
    return o.floor(256 * log_x / alpha**2) + 1


def lemma7_n_logs(o, alpha, beta, eps, delta, log_h, log_x):
    """BCMNUW20 Lemma 7, corrected at the fixed split: private samples for PMW error <= alpha (on
    [-1, 1]) w.p. 1 - beta (``algorithms.query_release.pmw.pmw_sample_size``).

    alpha_mw = alpha/8, threshold 2 alpha_mw, cut-off c = floor(256 log|X~|/alpha^2) + 1;
    NumericSparse's split eps_1 = sqrt512 eps/(sqrt512 + 1), eps_2 = 2 eps/(sqrt512 + 1) and scales
    sigma(e) = sqrt(32 c log(2/delta))/e at sensitivity 1; a union bound at beta/2 (beta/6 per noise
    family) over k = 2|H~| comparisons, c + 1 thresholds and c answers gives alpha_NS(1) =
    max(4 sigma_1 log(6k/beta), 2 sigma_1 log(6(c+1)/beta), sigma_2 log(6c/beta)); alpha_NS(1)/n <=
    alpha_mw gives n >= 8 alpha_NS(1)/alpha (empirical error 3 alpha_mw on [0, 1]); Hoeffding over
    H~ at beta/2 for the remaining alpha/8 gives n >= 32 log(4|H~|/beta)/alpha^2.
    """
    c = lemma7_cutoff(o, alpha, log_x)
    root512 = o.sqrt(512)
    sigma = o.sqrt(32 * c * o.log(2 / delta))
    sigma1 = sigma * (root512 + 1) / (root512 * eps)
    sigma2 = sigma * (root512 + 1) / (2 * eps)
    log_6_over_beta = o.log(6 / beta)
    alpha_ns = o.max(o.max(4 * sigma1 * (o.log(2) + log_h + log_6_over_beta),
                           2 * sigma1 * (o.log(c + 1) + log_6_over_beta)),
                     sigma2 * (o.log(c) + log_6_over_beta))
    uniform_convergence = 32 * (o.log(4) + log_h - o.log(beta)) / alpha**2
    return o.max(8 * alpha_ns / alpha, uniform_convergence)


def lemma7_n(o, alpha, beta, eps, delta, num_hypotheses, domain_size):
    """BCMNUW20 Lemma 7 (corrected, fixed split, see ``lemma7_n_logs``) over a finite domain and class."""
    return lemma7_n_logs(o, alpha, beta, eps, delta, o.log(num_hypotheses), o.log(domain_size))


def lemma7_n_printed_logs(o, alpha, beta, eps, delta, log_h, log_x):
    """BCMNUW20 Lemma 7 as printed (both versions): Dwork-Roth Thm 4.15 at a = alpha/2, beta' = beta."""
    return (200 / (eps * alpha**2) * o.sqrt(log_x * o.log(2 / delta))
            * (log_h + o.log(128 * log_x / (alpha**2 * beta))))


def lemma7_n_printed(o, alpha, beta, eps, delta, num_hypotheses, domain_size):
    return lemma7_n_printed_logs(o, alpha, beta, eps, delta, o.log(num_hypotheses),
                                 o.log(domain_size))


def lemma7_n_asymptotic(o, alpha, beta, eps, delta, num_hypotheses, domain_size, C_7):
    log_x = o.log(domain_size)
    return C_7 * o.sqrt(log_x * o.log(1 / delta)) * (
        o.log(num_hypotheses) + o.log(1 + log_x / (alpha**2 * beta))) / (eps * alpha**2)


# --- the tight derivation ---------------------------------------------------------------------------
def lemma7_cutoff_at(o, log_x, a_mw):
    """PMW's update cut-off c = floor(4 log|X~|/alpha_mw^2) + 1 (Dwork-Roth Thm 4.10)."""
    return o.floor(4 * log_x / a_mw**2) + 1


def _lemma7_sigmas(o, eps, delta, c):
    """NumericSparse's scales at sensitivity 1: (sigma_1, sigma_2), sigma_1 = sigma/eps_1, sigma_2 = sigma/eps_2."""
    sigma = o.sqrt(32 * c * o.log(2 / delta))
    root512 = o.sqrt(512)
    return sigma * (root512 + 1) / (root512 * eps), sigma * (root512 + 1) / (2 * eps)


def _tight_logs(o, log_h, c, b_cmp, b_thr, b_ans, b_uc):
    """log(N_i/beta_i) of the four families: 2|H~| comparisons, c + 1 thresholds, c answers, 2|H~| Hoeffding."""
    log_2h = o.log(2) + log_h
    return (log_2h - o.log(b_cmp), o.log(c + 1) - o.log(b_thr), o.log(c) - o.log(b_ans),
            log_2h - o.log(b_uc))


def _tight_step(o, h, beta, eps, delta, log_h, a, c, shares):
    """One pass of the closed-form choice at alpha_mw = a: returns (the alpha_mw at which the
    direction/update requirement B/a^2 meets the error requirement, the failure shares in proportion
    to d n/d log(1/beta_i) there). Sigma_i a is taken as constant in a (c ~ 4 log|X~|/a^2)."""
    s1, s2 = _lemma7_sigmas(o, eps, delta, c)
    L1, L2, L3, L4 = _tight_logs(o, log_h, c, *shares)
    a12 = s1 * a * (2 * L1 + L2)              # n (t_cmp + t_thr) a
    a3 = s2 * a * L3                          # n t_ans a
    half = (a12 + a3) / 2
    B = o.max(half, a12)                      # n >= B/a^2 (direction step, update step)
    a_next = h / (2 + a12 / B + o.sqrt(L4 / (2 * B)))
    k = 1 - a12 / (2 * B)                     # sqrt(n) h = 2 sqrt B + a12/sqrt B + sqrt(L4/2): gradients
    # dB/da3 is 1/2 where the direction step binds (a3 > a12), 0 where the update step does; a steep
    # smooth switch between the two lets the passes settle on the kink a3 = a12 instead of jumping
    up = 1 / (1 + (a12 / a3) ** _KINK_STEEPNESS)
    g12 = 1 + k * (1 - up / 2)
    g3 = k * up / 2
    w1, w2, w4 = 2 * s1 * a * g12, s1 * a * g12, o.sqrt(B) / (2 * o.sqrt(2 * L4))
    w3 = o.max(s2 * a * g3, 1e-6 * (w1 + w2 + w4))   # never a zero share (log 1/0)
    total = w1 + w2 + w3 + w4
    return a_next, (beta * w1 / total, beta * w2 / total, beta * w3 / total, beta * w4 / total)


@_chunked
def lemma7_tight_shares(o, alpha_pmw, beta_pmw, eps, delta, log_h, a_mw, c):
    """BCMNUW20 Lemma 7 (tight): the failure shares (beta_cmp, beta_thr, beta_ans, beta_uc), summing to
    beta, at PMW's MW accuracy a_mw: from beta/4 each, ``_SHARE_PASSES`` passes of beta_i proportional
    to the sensitivity of n to log(1/beta_i) (the first-order condition of the best split). Shared with
    algorithms.query_release.pmw (its twin is held equal by tests)."""
    shares = (beta_pmw / 4,) * 4
    for _ in range(_SHARE_PASSES):
        _, shares = _tight_step(o, alpha_pmw / 2, beta_pmw, eps, delta, log_h, a_mw, c, shares)
    return shares


#: the last (inputs, shares) of ``lemma7_tight_shares``: the four share quantities are evaluated one
#: after another on the same arrays, so a sweep computes the shares once (inputs compared by identity
#: and held, so that an id is never reused while it is the key)
_LAST_SHARES: list = [None, None]


def _share_fn(i, symbol):
    def f(o, alpha_pmw, beta_pmw, eps, delta, log_h, a_mw, c):
        if o.name == "sympy":
            import sympy as sp

            return sp.Symbol(symbol, positive=True)
        key = (o.name, alpha_pmw, beta_pmw, eps, delta, log_h, a_mw, c)
        last = _LAST_SHARES[0]
        if last is None or len(last) != len(key) or any(x is not y for x, y in zip(last, key)):
            _LAST_SHARES[:] = [key, lemma7_tight_shares(o, alpha_pmw, beta_pmw, eps, delta, log_h, a_mw, c)]
        return _LAST_SHARES[1][i]
    f.__name__ = f"lemma7_tight_share_{i}"
    f.__doc__ = f"BCMNUW20 Lemma 7 (tight): failure share {symbol} (``lemma7_tight_shares``)."
    return f


@_chunked
def lemma7_tight_accuracy(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x):
    """BCMNUW20 Lemma 7 (tight): PMW's MW accuracy alpha_mw ([0, 1] scale), chosen in closed form:
    ``_ACCURACY_PASSES`` passes from alpha/6 of alpha_mw = (alpha/2)/(2 + A12/B + sqrt(L4/(2B))), the
    alpha_mw where n >= B/alpha_mw^2 (direction and update steps) meets the error step
    2 alpha_mw + t_cmp + t_thr + a_uc <= alpha/2, with the failure shares updated on the way. Any
    alpha_mw in (0, alpha/4) gives a sound n; this one makes it small. Shown symbolically as a^*."""
    if o.name == "sympy":
        import sympy as sp

        return sp.Symbol("a^*", positive=True)
    h = alpha_pmw / 2
    a = h / 2.3
    shares = (beta_pmw / 4,) * 4
    for _ in range(_ACCURACY_PASSES):
        a, shares = _tight_step(o, h, beta_pmw, eps, delta, log_h, a, lemma7_cutoff_at(o, log_x, a),
                                shares)
    return a


@_chunked
def lemma7_tight_n(o, alpha_pmw, eps, delta, log_h, a_mw, c, beta_cmp, beta_thr, beta_ans, beta_uc):
    """BCMNUW20 Lemma 7 (tight): the least real n with, at tolerances t_cmp = 2 sigma_1 L_cmp/n,
    t_thr = sigma_1 L_thr/n, t_ans = sigma_2 L_ans/n, a_uc = sqrt(L_uc/(2n)) (L_i = log(N_i/beta_i)):
    t_cmp + t_thr + t_ans <= 2 a_mw (direction: an update's answer noise stays below the gap
    T - t_cmp - t_thr), t_cmp + t_thr <= a_mw (update: every update's gap >= a_mw), and
    2 a_mw + t_cmp + t_thr + a_uc <= alpha/2 (error, [0, 1] scale; a quadratic in 1/sqrt n)."""
    L1, L2, L3, L4 = _tight_logs(o, log_h, c, beta_cmp, beta_thr, beta_ans, beta_uc)
    if o.name == "sympy":  # shown with A_12 = n (t_cmp + t_thr), A_3 = n t_ans (the derivation spells them)
        import sympy as sp

        a12, a3 = sp.Symbol("A_12", positive=True), sp.Symbol("A_3", positive=True)
    else:
        s1, s2 = _lemma7_sigmas(o, eps, delta, c)
        a12, a3 = s1 * (2 * L1 + L2), s2 * L3
    r = alpha_pmw / 2 - 2 * a_mw
    q = o.sqrt(L4 / 2)
    x = 2 * r / (q + o.sqrt(q**2 + 4 * a12 * r))   # 1/sqrt(n) at equality of the error step
    return o.max(o.max((a12 + a3) / (2 * a_mw), a12 / a_mw), 1 / x**2)


@_chunked
def lemma7_tol_comparisons(o, eps, delta, log_h, c, beta_cmp, n):
    """t_cmp: every comparison noise Lap(2 sigma_1/n) within 2 sigma_1 log(2|H~|/beta_cmp)/n."""
    s1, _ = _lemma7_sigmas(o, eps, delta, c)
    return 2 * s1 * (o.log(2) + log_h - o.log(beta_cmp)) / n


@_chunked
def lemma7_tol_thresholds(o, eps, delta, c, beta_thr, n):
    """t_thr: every threshold noise Lap(sigma_1/n) within sigma_1 log((c + 1)/beta_thr)/n."""
    s1, _ = _lemma7_sigmas(o, eps, delta, c)
    return s1 * (o.log(c + 1) - o.log(beta_thr)) / n


@_chunked
def lemma7_tol_answers(o, eps, delta, c, beta_ans, n):
    """t_ans: every answer noise Lap(sigma_2/n) within sigma_2 log(c/beta_ans)/n."""
    _, s2 = _lemma7_sigmas(o, eps, delta, c)
    return s2 * (o.log(c) - o.log(beta_ans)) / n


def lemma7_uc_accuracy(o, log_h, beta_uc, n):
    """a_uc: Hoeffding over H~, max_h |q_h(s) - q_h(D~)| <= sqrt(log(2|H~|/beta_uc)/(2n))."""
    return o.sqrt((o.log(2) + log_h - o.log(beta_uc)) / (2 * n))


def lemma7_error_share(o, alpha_pmw, a_mw, t_cmp, t_thr):
    """The share of the [0, 1] error budget alpha/2 that PMW's empirical error 2 alpha_mw + t_cmp + t_thr uses."""
    return (2 * a_mw + t_cmp + t_thr) / (alpha_pmw / 2)


# --- the previous correction (answer noise within alpha_mw) -----------------------------------------
def _union_newton(o, logs, rates, lb, steps):
    """The least n with sum_i e^{logs_i - n rates_i} <= e^lb, from below: Newton's method on the log
    of the sum (convex and decreasing in n, so each step stays below the root) from the largest
    single-family size. Returns (n, log-sum at n minus lb, the rate sum_i p_i rates_i at n)."""
    n = (logs[0] - lb) / rates[0]
    for lg, r in zip(logs[1:], rates[1:]):
        n = o.max(n, (lg - lb) / r)
    for i in range(steps + 1):
        t = [lg - n * r for lg, r in zip(logs, rates)]
        mx = t[0]
        for ti in t[1:]:
            mx = o.max(mx, ti)
        e = [o.exp(ti - mx) for ti in t]
        tot, slope = e[0], e[0] * rates[0]
        for ei, r in zip(e[1:], rates[1:]):
            tot, slope = tot + ei, slope + ei * r
        g = mx + o.log(tot) - lb
        if i < steps:
            n = n + g * tot / slope
    return n, g, slope / tot


@_chunked
def lemma7_previous_n(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x):
    """BCMNUW20 Lemma 7, the previous correction: comparison and threshold noise within alpha_mw/2,
    answer noise within alpha_mw, empirical error 3 alpha_mw, Hoeffding for the rest of alpha/2; the
    least n with 2|H~| e^{-n a/(4 sigma_1)} + (c+1) e^{-n a/(2 sigma_1)} + c e^{-n a/sigma_2} +
    2|H~| e^{-2 n (alpha/2 - 3a)^2} <= beta, a = alpha_mw. a: ``_PREVIOUS_PASSES`` closed-form passes
    (where NumericSparse's union bound at beta_NS, n_NS ~ B/a^2, meets Hoeffding's at beta - beta_NS,
    the split in proportion to n's sensitivity to each log(1/beta)); n: ``_union_newton`` over the four
    families, then one step at the slowest rate beyond it, which makes it sound."""
    if o.name == "sympy":
        import sympy as sp

        return sp.Symbol("n_prev", positive=True)
    h = alpha_pmw / 2
    log_2h = o.log(2) + log_h
    a, a_uc, b_ns, b_uc = h / 4, h / 4, beta_pmw * 0.99, beta_pmw * 0.01

    def ns_family(a):
        c = lemma7_cutoff_at(o, log_x, a)
        s1, s2 = _lemma7_sigmas(o, eps, delta, c)
        return (log_2h, o.log(c + 1), o.log(c)), (a / (4 * s1), a / (2 * s1), a / s2)

    for _ in range(_PREVIOUS_PASSES):
        logs, rates = ns_family(a)
        n_ns, _, rate = _union_newton(o, logs, rates, o.log(b_ns), 0)
        big_b, l4 = n_ns * a**2, log_2h - o.log(b_uc)
        w_ns, w_uc = 3 * a**2 / (2 * o.sqrt(big_b) * rate), 1 / (2 * o.sqrt(2 * l4))
        x = o.sqrt(l4 / (2 * big_b))
        a, a_uc = h / (3 + x), h * x / (3 + x)   # a_uc = h - 3a without cancellation (x may be 1e-300)
        b_ns, b_uc = beta_pmw * w_ns / (w_ns + w_uc), beta_pmw * w_uc / (w_ns + w_uc)
    logs, rates = ns_family(a)
    rates = rates + (2 * a_uc**2,)
    n, g, _ = _union_newton(o, logs + (log_2h,), rates, o.log(beta_pmw), _NEWTON_STEPS)
    r_min = o.min(o.min(rates[0], rates[1]), o.min(rates[2], rates[3]))
    return n + o.max(g, 0) / r_min   # every term decays at rate >= r_min: the union bound is <= beta here

LEMMA7_DERIVATION = (
    "Corrected Lemma 7 (the printed constants do not give the claim: erratum bcmnuw20-lemma7-constants), the "
    "tightest n the PMW of algorithms.query_release.pmw (Dwork-Roth Alg. 5 over NumericSparse, "
    "delta > 0; threshold T = 2 alpha_mw, step eta = alpha_mw/2, cut-off c = floor(4 log|X~|/"
    "alpha_mw^2) + 1, sigma(e) = sqrt(32 c log(2/delta))/e, eps_1 = sqrt512 eps/(sqrt512 + 1), "
    "eps_2 = 2 eps/(sqrt512 + 1)) and its analysis support, on the [0, 1] scale: on the event that "
    "every comparison noise Lap(2 sigma_1/n) is within t_cmp, every threshold noise Lap(sigma_1/n) "
    "within t_thr, every answer noise Lap(sigma_2/n) within t_ans and Hoeffding over H~ within a_uc, "
    "(i) a query that fires has gap >= T - t_cmp - t_thr >= alpha_mw if t_cmp + t_thr <= alpha_mw "
    "[update step], (ii) its update moves toward q(s) if t_ans < T - t_cmp - t_thr, i.e. "
    "t_cmp + t_thr + t_ans <= 2 alpha_mw [direction step; MW reads only the sign of a_i - q(x^t)], "
    "so each update lowers KL(s||x^t) <= log|X~| by >= alpha_mw^2/4, at most c - 1 updates occur and "
    "NumericSparse never halts, (iii) queries that do not fire have error < T + t_cmp + t_thr and "
    "those that fire error t_ans < T - t_cmp - t_thr, so PMW's empirical error is <= 2 alpha_mw + "
    "t_cmp + t_thr and the error step is 2 alpha_mw + t_cmp + t_thr + a_uc <= alpha/2. With failure "
    "shares beta_i summing to beta and L_i = log(N_i/beta_i) (N = 2|H~|, c + 1, c, 2|H~|), t_cmp = "
    "2 sigma_1 L_cmp/n, t_thr = sigma_1 L_thr/n, t_ans = sigma_2 L_ans/n, a_uc = sqrt(L_uc/(2n)); "
    "n = the least real meeting the three steps (closed form: the error step is a quadratic in "
    "1/sqrt n), rounded up; A_12 = n (t_cmp + t_thr) = sigma_1 (2 L_cmp + L_thr), A_3 = n t_ans = "
    "sigma_2 L_ans. alpha_mw and the shares are chosen in closed form (a^*: where the "
    "direction/update requirement meets the error requirement; beta_i: proportional to n's "
    "sensitivity to log(1/beta_i)); any choice is sound. The previous correction asked t_ans <= "
    "alpha_mw (and t_cmp, t_thr <= alpha_mw/2), about twice the n.")

LEMMA7_PREVIOUS_DERIVATION = (
    "The previous correction: t_cmp = t_thr = alpha_mw/2, t_ans = alpha_mw, empirical error "
    "3 alpha_mw, a_uc = alpha/2 - 3 alpha_mw; n = least with 2|H~| e^{-n alpha_mw/(4 sigma_1)} + "
    "(c + 1) e^{-n alpha_mw/(2 sigma_1)} + c e^{-n alpha_mw/sigma_2} + 2|H~| e^{-2 n a_uc^2} <= beta "
    "(Newton's method from below, then a sound step), alpha_mw where the largest NumericSparse "
    "family at beta/4 meets Hoeffding's.")

LEMMA7_FIXED_DERIVATION = (
    "Lemma 7 at the fixed split algorithms.query_release.pmw runs when not given its MW accuracy "
    "(pmw_sample_size): alpha_mw = alpha/8, T = 2 alpha_mw, c = floor(256 log|X~|/alpha^2) + 1, "
    "answer noise within alpha_mw, beta/2 for NumericSparse (beta/6 per noise family) and beta/2 for "
    "Hoeffding: n = max(8 alpha_NS(1)/alpha, 32 log(4|H~|/beta)/alpha^2), alpha_NS(1) = max(4 sigma_1 "
    "log(12|H~|/beta), 2 sigma_1 log(6(c+1)/beta), sigma_2 log(6c/beta)).")

LEMMA7_ERRATUM = (
    "Lemma 7 as printed (both versions) does not give its claim: erratum bcmnuw20-lemma7-constants says why "
    "(Dwork-Roth Thm 4.15's constants read at alpha/2), erratum bcmnuw20-lemma7-tight the derivation encoded as "
    "private_samples, erratum bcmnuw20-lemma7-in-bounds the fixed split (private_samples_fixed_split, "
    "algorithms.query_release.pmw.pmw_sample_size) and the previous correction (private_samples_previous) shown "
    "beside it with the printed value (private_samples_as_printed).")


@_chunked
def lemma7_fixed_n(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x):
    return lemma7_n_logs(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x)


def lemma7_printed_at(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x):
    return lemma7_n_printed_logs(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x)


def lemma7_asymptotic_logs(o, alpha_pmw, beta_pmw, eps, delta, log_h, log_x, C_7):
    return C_7 * o.sqrt(log_x * o.log(1 / delta)) * (
        log_h + o.log(1 + log_x / (alpha_pmw**2 * beta_pmw))) / (eps * alpha_pmw**2)


def lemma7_block(*, n_description: str, n_asymptotic, n_constants, n_monotone, n_scaling,
                 dominates: bool, n_derivation_prefix: str = "", n_intermediate: bool = False,
                 n_name: str = "private_samples") -> tuple:
    """The corrected Lemma 7 as quantities over (alpha_pmw, beta_pmw, eps, delta, log_h, log_x):
    PMW's MW accuracy and the failure shares chosen, the tight n, the tolerances and error share at it,
    and beside it the previous correction, the fixed-split n (algorithms.query_release.pmw) and the
    printed n."""
    step = dict(intermediate=True)
    mono_up = dict(n_monotone)
    shares = (("failure_comparisons", "beta_cmp", "2|H~| comparison noises beyond t_cmp"),
              ("failure_thresholds", "beta_thr", "c + 1 threshold noises beyond t_thr"),
              ("failure_answers", "beta_ans", "c answer noises beyond t_ans"),
              ("failure_uniform", "beta_uc", "Hoeffding over H~ beyond a_uc"))
    return (
        Quantity("mw_accuracy", "a_mw", "alpha_mw ([0,1] scale): PMW's MW accuracy, threshold "
                 "2 alpha_mw, step alpha_mw/2 (the caller's mw_accuracy)", explicit=lemma7_tight_accuracy,
                 derivation="closed-form passes: alpha/2 / (2 + A12/B + sqrt(L_uc/(2B))), B = "
                            "max((A12 + A3)/2, A12), A12 = n a (t_cmp + t_thr), A3 = n a t_ans", **step),
        Quantity("update_cutoff", "c", "PMW's cut-off c = floor(4 log|X~|/alpha_mw^2) + 1",
                 explicit=lemma7_cutoff_at, derivation="Dwork-Roth Thm 4.10 with step alpha_mw/2",
                 **step),
    ) + tuple(
        Quantity(name, sym, f"failure share: {what}", explicit=_share_fn(i, sym + "_star"),
                 derivation="proportional to n's sensitivity to log(1/beta_i); the four sum to beta",
                 tiny=True, **step)
        for i, (name, sym, what) in enumerate(shares)
    ) + (
        Quantity(n_name, "n", n_description, asymptotic=n_asymptotic, order="O",
                 constants=n_constants, explicit=lemma7_tight_n, integer=True,
                 derivation=n_derivation_prefix + LEMMA7_DERIVATION,
                 monotone=mono_up, dominates_asymptotic=dominates, scaling=n_scaling,
                 intermediate=n_intermediate),
        Quantity("tolerance_comparisons", "t_cmp", "comparison noise tolerance at n",
                 explicit=lemma7_tol_comparisons, derivation="2 sigma_1 log(2|H~|/beta_cmp)/n", **step),
        Quantity("tolerance_thresholds", "t_thr", "threshold noise tolerance at n",
                 explicit=lemma7_tol_thresholds, derivation="sigma_1 log((c + 1)/beta_thr)/n", **step),
        Quantity("tolerance_answers", "t_ans", "answer noise tolerance at n (<= 2 alpha_mw - t_cmp - "
                 "t_thr: the update's direction)", explicit=lemma7_tol_answers,
                 derivation="sigma_2 log(c/beta_ans)/n", **step),
        Quantity("uniform_convergence_accuracy", "a_uc", "Hoeffding's accuracy at n ([0,1] scale)",
                 explicit=lemma7_uc_accuracy, derivation="sqrt(log(2|H~|/beta_uc)/(2n))", **step),
        Quantity("mw_error_share", "s", "share of the [0,1] error budget alpha/2 used by PMW's "
                 "empirical error 2 alpha_mw + t_cmp + t_thr", explicit=lemma7_error_share,
                 derivation="(2 alpha_mw + t_cmp + t_thr)/(alpha/2); a_uc takes the rest", **step),
        Quantity("private_samples_previous", "n_prev", "the previous correction (answer noise within "
                 "alpha_mw, empirical error 3 alpha_mw)", explicit=lemma7_previous_n, integer=True,
                 derivation=LEMMA7_PREVIOUS_DERIVATION, monotone=mono_up, **step),
        Quantity("private_samples_fixed_split", "n_fixed", "the previous correction at the fixed split "
                 "of algorithms.query_release.pmw (alpha_mw = alpha/8, beta/2 + 3 x beta/6)",
                 explicit=lemma7_fixed_n, integer=True, derivation=LEMMA7_FIXED_DERIVATION,
                 monotone=mono_up, **step),
        Quantity("private_samples_as_printed", "n_printed", "Lemma 7's printed formula (guarantees "
                 "only empirical error 3 alpha; not used downstream, see the erratum)",
                 explicit=lemma7_printed_at, integer=True,
                 derivation=("as printed: 200/(eps alpha^2) sqrt(log|X~| log(2/delta)) (log|H~| + "
                             "log(128 log|X~|/(alpha^2 beta)))"),
                 monotone=mono_up, **step),
    )


def _lemma7_inputs(scale_alpha_beta: bool) -> tuple:
    half = dict(explicit=lambda o, alpha: alpha / 2), dict(explicit=lambda o, beta: beta / 2)
    same = dict(explicit=lambda o, alpha: alpha), dict(explicit=lambda o, beta: beta)
    a, b = half if scale_alpha_beta else same
    return (
        Quantity("pmw_alpha", "alpha_pmw", "PMW's target error ([-1,1] scale)" +
                 (": alpha/2 (Theorem 10's split)" if scale_alpha_beta else ""), intermediate=True,
                 order="exact", derivation="Theorem 10: cover alpha/2 + PMW alpha/2" if
                 scale_alpha_beta else "Lemma 7's alpha", **a),
        Quantity("pmw_beta", "beta_pmw", "PMW's failure probability" +
                 (": beta/2 (Theorem 10's split)" if scale_alpha_beta else ""), intermediate=True,
                 order="exact", derivation="Theorem 10: cover beta/2 + PMW beta/2" if
                 scale_alpha_beta else "Lemma 7's beta", **b),
    )


def _log_of(name):
    def f(o, **kw):
        return o.log(kw[name])
    f.__signature__ = inspect.Signature(
        [inspect.Parameter("o", inspect.Parameter.POSITIONAL_OR_KEYWORD),
         inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY)])
    return f


def lemma7_quantities(description: str) -> tuple:
    """Lemma 7 over a finite class and domain (lemma7, baselines:pmw): log|H~|, log|X~|, then the
    corrected block."""
    mono = {"alpha": -1, "beta": -1, "eps": -1, "delta": -1, "num_hypotheses": +1,
            "domain_size": +1}
    return (
        Quantity("log_hypotheses", "log_h", "log|H~| (nats)", explicit=_log_of("num_hypotheses"),
                 order="exact", intermediate=True, derivation="log of --num-hypotheses"),
        Quantity("log_domain", "log_x", "log|X~| (nats)", explicit=_log_of("domain_size"),
                 order="exact", intermediate=True, derivation="log of --domain-size"),
    ) + _lemma7_inputs(False) + lemma7_block(
        n_description=description, n_asymptotic=lemma7_n_asymptotic, n_constants=("C_7",),
        n_monotone=mono, dominates=True,
        # domain_size -> inf: the ratio converges only like 1/log log|X| (additive constants inside
        # the log factor), too slowly to check; not declared
        n_scaling=(("alpha", "0"), ("beta", "0"), ("eps", "0"), ("delta", "0"),
                   ("num_hypotheses", "inf")))


#: printed vs corrected for every result built on Lemma 7: the correction (tight / printed), the
#: previous correction and the fixed split beside it, and what the tight steps remove
LEMMA7_DEPARTURES = (
    Departure("private_samples", "private_samples_as_printed",
              "n: corrected (tight) / printed constants"),
    Departure("private_samples_previous", "private_samples_as_printed",
              "n: previous correction (answer noise <= alpha_mw) / printed"),
    Departure("private_samples_fixed_split", "private_samples_as_printed",
              "n: fixed 3:1 split (algorithms.pmw default) / printed"),
    Departure("private_samples_previous", "private_samples",
              "n: previous / tight (slack the direction step removes)"),
    Departure("private_samples_fixed_split", "private_samples",
              "n: fixed split / tight"),
)

#: Lemma 7's quantities; baselines:pmw reuses them over the full domain
LEMMA7_QUANTITIES = lemma7_quantities("private samples PMW needs for error <= alpha w.p. >= 1 - beta")

#: Lemma 7's parameter domain (0 < eps, delta < 1; |X~| >= 2 so that log|X~| > 0)
LEMMA7_DOMAIN = {"epsilon": Interval(0.0, 1.0), "delta": Interval(0.0, 1.0),
                 "domain_size": Interval(2, float("inf"), False, True, integer=True)}
