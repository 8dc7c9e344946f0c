"""MWEM (Hardt, Ligett, McSherry 2012, Algorithm 1) over a finite support, with its pure-DP accounting,
and the zCDP variant of LVSUW21 Algorithm 1 (Gaussian measurement, permute-and-flip or exponential
selection) that PMW^Pub reuses with the public data's support and histogram.

Both run T rounds on the shared engine (``mw.MWDistribution``):
  select q_t with probability ~ exp(eps_sel * |q(A_{t-1}) - q(D)| / (2 * (1/n)))  (score sensitivity 1/n),
  measure a_t = q_t(D) + noise,
  update A_t(x) ~ A_{t-1}(x) exp(q_t(x) (a_t - q_t(A_{t-1})) / 2),
and output an average of the iterates. Queries take values in [0, 1]; answers are normalised
(q(D) = fraction of the data), so every query has sensitivity 1/n.

Pure variant (HLM12 Algorithm 1): eps_sel = eps/(2T), a_t = q_t(D) + Lap(2T/(eps n)); output the
mean of A_1..A_T. Each round is eps/T-DP; basic composition gives PureDP(eps). Options keep
PureDP(eps): another split of each round's eps/T between selection and measurement, no reselection of a
measured query or marginal, and add/remove adjacency (a noisy n released first; see ``mwem_from_answers``).
zCDP variant (LVSUW21 Algorithm 1): eps_0 = eps~/sqrt(2T); selection eps_0-DP (counted as
eps_0^2/2-zCDP, Bun-Steinke Prop. 1.4, as LVSUW21 Theorem 4.5 does); a_t = q_t(D) +
N(0, 1/(n eps_0)^2) clipped to [0, 1] (eps_0^2/2-zCDP); output the mean of A_0..A_{T-1}.
Total ZCDP(T eps_0^2) = ZCDP(eps~^2/2) for every T (LVSUW21 Theorem 4.5).

Replaying past measurements (HLM12 Section 3.3's empirical improvement, off by default):
``replay_passes`` > 0 re-applies the update for every measurement taken so far, that many times
after each round; it is post-processing (no privacy cost) and voids the averaged-iterate analysis.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import validate_indices
from ..privacy import (
    Accountant,
    ExponentialMechanism,
    GaussianMechanism,
    LaplaceMechanism,
    PermuteAndFlip,
    PureDP,
    Release,
    pure_to_zcdp,
)
from ..validate import check_positive_finite as _check_positive_finite
from ..validate import check_rng as _check_rng
from .mw import IncrementalMWDistribution, LinearQueries, MWDistribution, as_queries
from ..validate import check_int

__all__ = ["MWEMResult", "mw_rounds", "mwem", "mwem_from_answers", "mwem_zcdp", "mwem_zcdp_from_answers",
           "true_answers_of"]

_SELECTIONS = ("exponential", "permute_and_flip")
_OUTPUTS = ("average", "last")
_SELECTION_ACCOUNTING = ("pure", "bounded_range")
_MEASURE_UNITS = ("query", "marginal")
_ADJACENCIES = ("replace_one", "add_remove")


@dataclass(frozen=True, eq=False)
class MWEMResult:
    """Output of MWEM / LVSUW21 Algorithm 1.

    synthetic: the averaged distribution A over the support.
    answers: q(A) for every query ([0, 1], the queries' scale).
    selected: q_t of every round (a query id; a workload id with whole-marginal rounds).
    measurements: the a_t (after clipping, if any), flat over rounds, of the queries
    ``measured_queries`` (with one query per round: a_t of round t, and measured_queries = selected).
    final: the last iterate A_T (equal to synthetic with ``output="last"``).
    n_released: under add/remove adjacency, the released noisy count n~ the measurements are
    fractions of (None otherwise: n is public).
    """

    synthetic: np.ndarray
    answers: np.ndarray
    selected: np.ndarray
    measurements: np.ndarray
    final: np.ndarray
    measured_queries: np.ndarray | None = None
    n_released: float | None = None


def _check_selection(selection: str) -> str:
    if selection not in _SELECTIONS:
        raise ValueError(f"selection={selection!r} out of range: allowed {_SELECTIONS}")
    return selection


def _check_true_answers(true_answers, num_queries: int) -> np.ndarray:
    t = np.asarray(true_answers, dtype=np.float64)
    if t.shape != (num_queries,):
        raise ValueError(f"true_answers must have one value per query, shape ({num_queries},), got {t.shape}")
    if not np.all(np.isfinite(t)) or t.min() < 0.0 or t.max() > 1.0:
        raise ValueError("true_answers must be finite and in [0, 1] (normalised counting-query answers)")
    return t


def _initial(initial, support_size: int) -> MWDistribution:
    if initial is None:
        return MWDistribution.uniform(support_size)
    if isinstance(initial, (MWDistribution, IncrementalMWDistribution)):
        if initial.support_size != support_size:
            raise ValueError(f"initial has support size {initial.support_size}, queries have {support_size}")
        return initial.copy()
    dist = MWDistribution.from_histogram(initial)
    if dist.support_size != support_size:
        raise ValueError(f"initial has length {dist.support_size}, queries have support size {support_size}")
    return dist


def true_answers_of(data, queries) -> tuple[np.ndarray, int]:
    """q(D) = (1/n) sum_i q(x_i) for every query, and n, for data given as support point indices."""
    q = as_queries(queries)
    x = validate_indices(data, q.support_size, "data")
    hist = np.bincount(x, minlength=q.support_size) / x.size
    return np.clip(q.answer(hist), 0.0, 1.0), int(x.size)


def select_index(scores: np.ndarray, eps: float, sensitivity: float, selection: str,
                 rng: np.random.Generator) -> int:
    """One eps-DP selection by score, sampled with a single vectorised draw (the MW loop's hot path).

    "exponential": McSherry-Talwar, Pr[r] ~ exp(eps u(r) / (2 Delta)), by the Gumbel-max trick
    (the law of ``privacy.ExponentialMechanism``). "permute_and_flip": McKenna-Sheldon (2020)
    Algorithm 1, sampled as report-noisy-max with exponential noise, argmax_r eps u(r)/(2 Delta) +
    Exp(1), which has exactly permute-and-flip's law (Ding, Kifer, Wang, Zhang 2021, "The
    permute-and-flip mechanism is identical to report-noisy-max with exponential noise"); checked
    against ``privacy.permute_and_flip_probabilities`` in tests. Both are eps-DP.
    """
    factor = eps / (2.0 * sensitivity)
    if selection == "exponential":
        noise = rng.gumbel(size=scores.size)
    else:
        noise = rng.exponential(size=scores.size)
    return int((factor * (scores - scores.max()) + noise).argmax())


def _unit_offsets(queries, measure_unit: str, num_queries: int) -> np.ndarray | None:
    """None for one query per round; the workloads' cell offsets for whole-marginal rounds."""
    if measure_unit == "query":
        return None
    offsets = getattr(queries, "offsets", None)
    if offsets is None:
        raise ValueError(f"measure_unit={measure_unit!r} needs queries grouped by workload "
                         "(workloads.MarginalQueries / DomainMarginalQueries); allowed here: 'query'")
    offsets = np.asarray(offsets, dtype=np.intp)
    if offsets[0] != 0 or offsets[-1] != num_queries or np.any(np.diff(offsets) < 1):
        raise ValueError("queries.offsets must run from 0 to num_queries in increasing steps")
    return offsets


def mw_rounds(initial, queries: LinearQueries, true_answers: np.ndarray, n: int, T: int,
              rng: np.random.Generator, *, select_eps: float, selection: str, measure, clip: bool,
              average_previous: bool, replay_passes: int = 0, replay_threshold: bool = False,
              replay_limit: int | None = None, output: str = "average", unit_offsets=None,
              select_sensitivity: float | None = None, fit_passes: int = 0,
              exclude_selected: bool = False) -> MWEMResult:
    """HLM12 Algorithm 1 / LVSUW21 Algorithm 1's loop, privacy-agnostic (the callers account).

    ``initial``: an ``MWDistribution`` or an ``IncrementalMWDistribution`` (mutated).
    ``measure(value, rng)`` returns the noisy measurement of one true answer (or, with
    ``unit_offsets``, of one unit's vector of true answers). With ``average_previous`` the output
    averages A_0..A_{T-1} (LVSUW21), else A_1..A_T (HLM12); ``output="last"`` releases A_T instead
    (post-processing: the same (q_t, a_t) are released either way; the averaged-iterate analysis
    of HLM12 Thm 2.2 / LVSUW21 Thm 4.4 is about ``"average"``).

    ``unit_offsets`` (None: every query is its own unit, as the papers): the queries are grouped in
    contiguous units [offsets[u], offsets[u+1]) (a workload's marginal cells); a round selects a
    unit by its L1 error sum_{i in u} |q_i(A) - q_i(D)| (sensitivity ``select_sensitivity``,
    default 1/n), measures all its answers at once and applies the MW update of each of its cells
    (cells of one marginal are disjoint, so the order does not matter).

    ``replay_threshold`` (LVSUW21 Section 5.3, post-processing): round t's own update is replaced
    by one pass, in random order, over round t's measurements and every past measurement whose
    current error c_i = |q_i(A) - a_i| is at least c_t / 2 (c_t = the largest error among round t's
    own measurements), each update using q_i(A) at the time it is applied. The paper does not say
    whether c_i is taken before or after round t's update; here it is before (on the distribution
    q_t was selected on). ``replay_limit`` (None: the paper's, unbounded) keeps only the
    ``replay_limit`` past measurements of largest error, so a round costs O(replay_limit) updates
    and a run O(T replay_limit) instead of O(T^2). ``replay_passes`` (HLM12 Section 3.3) re-applies
    every measurement so far that many times after each round (O(T^2) per pass). ``fit_passes``
    (post-processing, the peers' "passes until fitted" done once): after round T, up to that many
    passes in random order over all measurements, stopping as soon as a pass no longer lowers the
    largest residual max_i |q_i(A) - a_i| by 0.1% (O(T) updates per pass); it changes A_T, so it is
    meant with ``output="last"`` (with "average" it only changes ``final``).

    ``exclude_selected``: a round selects only among the units not selected before (the candidate
    set is a function of the released q_1..q_{t-1}, so each selection keeps its eps; HLM12's
    practice and smartnoise-synth's); needs T at most the number of units.
    """
    if output not in _OUTPUTS:
        raise ValueError(f"output={output!r} out of range: allowed {_OUTPUTS}")
    if replay_limit is not None and (isinstance(replay_limit, bool) or not isinstance(replay_limit, (int, np.integer))
                                     or replay_limit < 0):
        raise ValueError(f"replay_limit={replay_limit!r} out of range: allowed None or integers >= 0")
    dist = initial
    averaging = output == "average"
    if unit_offsets is None:
        sizes_max = 1
    else:
        unit_offsets = np.asarray(unit_offsets, dtype=np.intp)
        sizes_max = int(np.max(np.diff(unit_offsets)))
    sens = 1.0 / n if select_sensitivity is None else float(select_sensitivity)
    selected = np.empty(T, dtype=np.intp)
    mq = np.empty(T * sizes_max, dtype=np.intp)     # measured query ids, flat over rounds
    ma = np.empty(T * sizes_max)                     # their (clipped) measurements
    ustart = np.zeros(T + 1, dtype=np.intp)          # round t's measurements are [ustart[t], ustart[t+1])
    k1 = 0
    unit_errors = getattr(dist, "answer_unit_errors", None) if unit_offsets is not None else None
    units = queries.num_queries if unit_offsets is None else unit_offsets.size - 1
    if exclude_selected and T > units:
        raise ValueError(f"exclude_selected needs T <= the number of units ({units}), got T={T}")
    for t in range(T):
        if unit_errors is not None:     # answers and every unit's L1 error in one pass (the same bits)
            syn, scores = unit_errors(queries, true_answers, unit_offsets)
        else:
            syn = dist.answer(queries)
            err = np.abs(syn - true_answers)
            scores = err if unit_offsets is None else np.add.reduceat(err, unit_offsets[:-1])
        if average_previous and averaging:
            dist.accumulate()
        if exclude_selected and t:
            scores = scores.copy()
            scores[selected[:t]] = -np.inf
        i = select_index(scores, select_eps, sens, selection, rng)
        if unit_offsets is None:
            cells = np.array([i])
            a = np.array([float(measure(true_answers[i], rng))])
        else:
            cells = np.arange(unit_offsets[i], unit_offsets[i + 1])
            a = np.asarray(measure(true_answers[cells], rng), dtype=np.float64).reshape(cells.size)
        if clip:
            a = np.minimum(np.maximum(a, 0.0), 1.0)     # np.clip's values, without its wrappers
        k0, k1 = k1, k1 + cells.size
        selected[t] = i
        mq[k0:k1], ma[k0:k1] = cells, a
        ustart[t + 1] = k1
        if unit_offsets is not None:     # whole marginals: every update is one workload's (O(support))
            _marginal_round(dist, queries, syn, selected[: t + 1], mq[:k1], ma[:k1], ustart[: t + 2],
                            replay_threshold, replay_limit, replay_passes, rng)
        elif replay_threshold:
            c = np.abs(syn[mq[:k1]] - ma[:k1])
            past = np.flatnonzero(c[:k0] >= c[k0:k1].max() / 2.0)
            if replay_limit is not None and past.size > replay_limit:
                past = np.sort(past[np.argsort(-c[past], kind="stable")[:replay_limit]])
            for k in rng.permutation(np.concatenate([past, np.arange(k0, k1)])):
                j = int(mq[k])
                qj = float(dist.answer(queries, np.array([j]))[0])
                dist.update_query(queries, j, (ma[k] - qj) / 2.0)
        else:
            for j, aj in zip(cells, a):
                dist.update_query(queries, int(j), (aj - syn[j]) / 2.0)
        for _ in range(replay_passes if unit_offsets is None else 0):
            for j, aj in zip(mq[:k1], ma[:k1]):
                qj = float(dist.answer(queries, np.array([j]))[0])
                dist.update_query(queries, int(j), (aj - qj) / 2.0)
        if averaging and not average_previous:
            dist.accumulate()
    _fit(dist, queries, mq[:k1], ma[:k1], check_int("fit_passes", fit_passes, 0), rng,
         None if unit_offsets is None else (selected, ustart))
    final = np.array(dist.probabilities())
    synthetic = dist.average() if averaging else final
    cached = getattr(dist, "current_answers", None)
    answers = cached(synthetic) if cached is not None else None
    return MWEMResult(synthetic=synthetic, answers=queries.answer(synthetic) if answers is None else answers,
                      selected=selected,
                      measurements=ma[:k1].copy(), final=final, measured_queries=mq[:k1].copy())


def _fit(dist, queries, mq: np.ndarray, ma: np.ndarray, passes: int, rng: np.random.Generator,
         units=None) -> None:
    """Up to ``passes`` MW passes over the measurements (mq, ma), each in random order, until a pass
    lowers the largest residual by less than 0.1% (``mw_rounds``' ``fit_passes``). ``units``
    (workloads, starts): whole-marginal measurements, replayed one workload at a time."""
    if passes == 0 or mq.size == 0:
        return
    best = float(np.max(np.abs(dist.answer(queries)[mq] - ma)))
    for _ in range(passes):
        if units is None:
            for k in rng.permutation(mq.size):
                j = int(mq[k])
                qj = float(dist.answer(queries, np.array([j]))[0])
                dist.update_query(queries, j, (ma[k] - qj) / 2.0)
        else:
            workloads, starts = units
            dist.update_workloads(queries, workloads, ma, starts, rng.permutation(workloads.size))
        resid = float(np.max(np.abs(dist.answer(queries)[mq] - ma)))
        if resid > best * (1.0 - 1e-3):
            break
        best = resid


def _marginal_round(dist, queries, syn, workloads, mq, ma, starts, replay_threshold, replay_limit,
                    replay_passes, rng) -> None:
    """Round t's update with whole-marginal measurements (``mw_rounds``, ``unit_offsets``): the
    workload's update, or LVSUW21 Sec 5.3's replay at the level of measured marginals (a past
    marginal's error = its largest cell error on the distribution round t selected on), at most
    ``replay_limit`` past ones of largest error; then ``replay_passes`` passes over all of them."""
    t = workloads.size - 1
    if replay_threshold:
        c = np.maximum.reduceat(np.abs(syn[mq] - ma), starts[:-1])
        past = np.flatnonzero(c[:t] >= c[t] / 2.0)
        if replay_limit is not None and past.size > replay_limit:
            past = np.sort(past[np.argsort(-c[past], kind="stable")[:replay_limit]])
        order = rng.permutation(np.concatenate([past, [t]]))
    else:
        order = np.array([t])
    for _ in range(1 + replay_passes):
        dist.update_workloads(queries, workloads, ma, starts, order)
        order = np.arange(t + 1)


def _check_replay(replay_passes) -> int:
    if isinstance(replay_passes, bool) or not isinstance(replay_passes, (int, np.integer)) or replay_passes < 0:
        raise ValueError(f"replay_passes={replay_passes!r} out of range: allowed integers >= 0")
    return int(replay_passes)


def _check_inputs(queries, true_answers, n, T, rng, selection, replay_passes):
    """The validation both MWEM variants share; returns the checked values."""
    q = as_queries(queries)
    rng = _check_rng(rng)
    T = check_int("T", T)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n={n!r} out of range: allowed integers >= 1")
    true = _check_true_answers(true_answers, q.num_queries)
    return q, true, int(n), T, rng, _check_selection(selection), _check_replay(replay_passes)


def _check_choice(name: str, value, allowed) -> str:
    if value not in allowed:
        raise ValueError(f"{name}={value!r} out of range: allowed {allowed}")
    return value


def mwem_from_answers(true_answers, n: int, queries, eps: float, T: int, rng: np.random.Generator, *,
                      selection: str = "exponential", initial=None, replay_passes: int = 0,
                      output: str = "average", measure_unit: str = "query", replay_threshold: bool = False,
                      replay_limit: int | None = None, fit_passes: int = 0, select_share: float = 0.5,
                      exclude_selected: bool = False, adjacency: str = "replace_one",
                      count_share: float = 0.05) -> Release:
    """HLM12 Algorithm 1 (MWEM), given q(D) for every query (each of sensitivity 1/n on the private data).

    queries: a FiniteClass (its counting queries 1{h = +1}), a [0, 1] matrix (queries x support) or a
    ``LinearQueries``; initial: None (uniform), a histogram or an ``MWDistribution`` over the support.
    Returns ``Release(MWEMResult, PureDP(eps))``: T rounds of eps/(2T) selection + eps/(2T) Laplace.
    The defaults are HLM12's algorithm; the practical variants keep PureDP(eps):
    output "last" (A_T; post-processing); measure_unit "marginal" (queries grouped by workload: a
    round selects a whole marginal by its L1 error, sensitivity 2/n, and measures its cells with
    one Laplace of L1 sensitivity 2/n, as HLM12's practice and smartnoise-synth's MWEM);
    replay_threshold / replay_limit / replay_passes / fit_passes (post-processing, see ``mw_rounds``);
    ``select_share`` in (0, 1): the share of each round's eps/T spent on selection (HLM12: 1/2), the
    rest on the Laplace measurement; ``exclude_selected``: never reselect a unit (see ``mw_rounds``).
    ``adjacency``: "replace_one" (default; n public, answers are fractions of n): a query moves by
    1/n, a whole marginal by 2/n in L1. "add_remove" (add or remove one record; n is private): first
    n~ = n + Lap(1/(count_share eps)) (clamped to >= 1), then the rounds share the rest of eps and
    work on counts divided by n~: one record moves one count by 1, so a query and a whole marginal
    both move by 1/n~ in L1 (scores |q(A) n~ - count| and measurements (count + Lap) / n~), and the
    target answers become q(D) n / n~ (post-processing of the released n~ aside, the exact n is
    never used).
    """
    q, true, n, T, rng, selection, replay_passes = _check_inputs(
        queries, true_answers, n, T, rng, selection, replay_passes)
    eps = _check_positive_finite("eps", eps)
    share = _check_positive_finite("select_share", select_share)
    if share >= 1.0:
        raise ValueError(f"select_share={select_share!r} out of range: allowed (0, 1)")
    _check_choice("adjacency", adjacency, _ADJACENCIES)
    _check_choice("output", output, _OUTPUTS)
    _check_choice("measure_unit", measure_unit, _MEASURE_UNITS)
    offsets = _unit_offsets(q, measure_unit, q.num_queries)
    acct = Accountant()
    if adjacency == "add_remove":
        c_share = _check_positive_finite("count_share", count_share)
        if c_share >= 1.0:
            raise ValueError(f"count_share={count_share!r} out of range: allowed (0, 1)")
        count = LaplaceMechanism(sensitivity=1.0, eps=c_share * eps)
        acct.spend("count n", count.guarantee)
        n_noisy = max(1.0, float(count.release(float(n), rng).value))
        true = true * (n / n_noisy)         # count / n~: the rounds' targets, scale 1/n~ per record
        sens = 1.0 / n_noisy
        eps = eps * (1.0 - c_share)
    else:
        n_noisy = None
        sens = (1.0 if offsets is None else 2.0) / n
    sel_eps = share * eps / T
    lap = LaplaceMechanism(sensitivity=sens, eps=(1.0 - share) * eps / T)
    for t in range(T):
        acct.spend(f"select t={t + 1}", PureDP(sel_eps))
        acct.spend(f"measure t={t + 1}", lap.guarantee)
    scale = lap.scale

    def measure(v, r):     # lap.release(v, r).value without re-checking q(D) every round: the same draw
        return v + r.laplace(0.0, scale, size=np.shape(v))

    result = mw_rounds(_initial(initial, q.support_size), q, true, int(n), T, rng, select_eps=sel_eps,
                       selection=selection, measure=measure, clip=False,
                       average_previous=False, replay_passes=replay_passes, output=output,
                       replay_threshold=bool(replay_threshold), replay_limit=replay_limit,
                       unit_offsets=offsets, select_sensitivity=sens, fit_passes=fit_passes,
                       exclude_selected=bool(exclude_selected))
    if n_noisy is not None:
        result = dataclasses.replace(result, n_released=n_noisy)
    return Release(result, acct.total())


def mwem(data, queries, eps: float, T: int, rng: np.random.Generator, *, selection: str = "exponential",
         initial=None, replay_passes: int = 0, **variants) -> Release:
    """HLM12 Algorithm 1 (MWEM) on a data set of support point indices: ``mwem_from_answers`` on q(D)
    (``variants``: its keyword options ``output``, ``measure_unit``, ``replay_threshold``, ``replay_limit``,
    ``fit_passes``)."""
    true, n = true_answers_of(data, queries)
    return mwem_from_answers(true, n, queries, eps, T, rng, selection=selection, initial=initial,
                             replay_passes=replay_passes, **variants)


def mwem_zcdp_from_answers(true_answers, n: int, queries, eps_tilde: float, T: int, rng: np.random.Generator,
                           *, selection: str = "permute_and_flip", initial=None,
                           replay_passes: int = 0, replay_threshold: bool = False, replay_limit: int | None = None,
                           output: str = "average", selection_accounting: str = "pure",
                           measure_unit: str = "query", fit_passes: int = 0) -> Release:
    """LVSUW21 Algorithm 1's loop (PMW^Pub when ``queries``/``initial`` live on the public support).

    true_answers: q(D~) for every query, computed on the private data (sensitivity 1/n each).
    queries: the queries' values on the support (FiniteClass, [0, 1] matrix or ``LinearQueries``).
    initial: None (uniform over the support; plain MWEM), the public histogram (LVSUW21 A_0), or an
    ``MWDistribution`` / ``IncrementalMWDistribution`` (copied; the latter for workload queries).

    The paper's algorithm is the default: eps_0 = eps~ / sqrt(2T); per round an eps_0-DP selection
    (permute-and-flip or exponential) counted as eps_0^2/2-zCDP (Bun-Steinke Prop. 1.4, as LVSUW21
    Thm 4.5), a Gaussian measurement sigma = 1/(n eps_0) (eps_0^2/2-zCDP) clipped to [0, 1], the
    averaged output. Total ``ZCDP(T eps_0^2) = ZCDP(eps~^2/2)`` for every T, composed round by round
    by the accountant. The practical variants, each with the same total rho:

    * ``selection_accounting="bounded_range"`` (exponential selection only): the exponential
      mechanism is eps-bounded-range, hence eps^2/8-zCDP (Cesar-Rogers 2021,
      ``privacy.bounded_range_to_zcdp``), so the same per-round rho eps_0^2/2 buys selection at
      eps = 2 eps_0. Permute-and-flip is not bounded-range (ValueError).
    * ``measure_unit="marginal"`` (queries grouped by workload, e.g. ``workloads.MarginalQueries``):
      a round selects a whole marginal by its L1 error (sensitivity 2/n: one changed record moves
      1/n of mass between two cells) and measures all its cells with one Gaussian of L2
      sensitivity sqrt(2)/n at the same rho (HLM12's practice, as smartnoise and AIM do).
    * ``output="last"``: release A_T instead of the average (post-processing).
    * ``replay_threshold`` (LVSUW21 Sec 5.3), ``replay_limit`` (at most that many past
      measurements replayed per round: O(T replay_limit) updates in place of O(T^2)) and
      ``replay_passes`` (HLM12 Sec 3.3), ``fit_passes`` (passes over all measurements after round
      T until the fit stops improving): post-processing of the released (q_t, a_t); see ``mw_rounds``.
    """
    q, true, n, T, rng, selection, replay_passes = _check_inputs(
        queries, true_answers, n, T, rng, selection, replay_passes)
    eps_tilde = _check_positive_finite("eps_tilde", eps_tilde)
    _check_choice("output", output, _OUTPUTS)
    _check_choice("selection_accounting", selection_accounting, _SELECTION_ACCOUNTING)
    _check_choice("measure_unit", measure_unit, _MEASURE_UNITS)
    if selection_accounting == "bounded_range" and selection != "exponential":
        raise ValueError(f"selection_accounting='bounded_range' needs selection='exponential', got "
                         f"selection={selection!r}: permute-and-flip is not bounded-range")
    offsets = _unit_offsets(q, measure_unit, q.num_queries)
    eps0 = eps_tilde / math.sqrt(2.0 * T)
    marginal = offsets is not None
    gauss = GaussianMechanism.zcdp(sensitivity=(math.sqrt(2.0) if marginal else 1.0) / n, rho=eps0**2 / 2.0)
    select_sens = (2.0 if marginal else 1.0) / n
    if selection_accounting == "bounded_range":
        sel = ExponentialMechanism(2.0 * eps0, select_sens)
        select_guarantee = sel.zcdp_guarantee          # (2 eps_0)^2 / 8 = eps_0^2 / 2
    else:
        sel = (ExponentialMechanism if selection == "exponential" else PermuteAndFlip)(eps0, select_sens)
        select_guarantee = pure_to_zcdp(sel.guarantee)
    acct = Accountant()
    for t in range(T):
        acct.spend(f"select t={t + 1}", select_guarantee)
        acct.spend(f"measure t={t + 1}", gauss.guarantee)
    sigma = gauss.noise_sigma

    def measure(v, r):     # gauss.release(v, r).value without re-checking q(D) every round: the same draw
        return v + r.normal(0.0, sigma, size=np.shape(v))

    result = mw_rounds(_initial(initial, q.support_size), q, true, int(n), T, rng, select_eps=sel.eps,
                       selection=selection, measure=measure, clip=True,
                       average_previous=True, replay_passes=replay_passes,
                       replay_threshold=bool(replay_threshold), replay_limit=replay_limit, output=output,
                       unit_offsets=offsets, select_sensitivity=select_sens, fit_passes=fit_passes)
    return Release(result, acct.total())


def mwem_zcdp(data, queries, eps_tilde: float, T: int, rng: np.random.Generator, *,
              selection: str = "permute_and_flip", initial=None, replay_passes: int = 0, **variants) -> Release:
    """LVSUW21 Algorithm 1 with the support = the data's domain: ``mwem_zcdp_from_answers`` on q(D)
    (``variants``: its keyword options ``replay_threshold``, ``replay_limit``, ``output``,
    ``selection_accounting``, ``measure_unit``, ``fit_passes``)."""
    true, n = true_answers_of(data, queries)
    return mwem_zcdp_from_answers(true, n, queries, eps_tilde, T, rng, selection=selection,
                                  initial=initial, replay_passes=replay_passes, **variants)
