"""LVSUW21 Algorithm 1 (PMW^Pub): MWEM over the support of a public dataset, started from the
public histogram, on marginal workloads; with the full-domain MWEM and public-only baselines of
LVSUW21 Section 5 run on the same engine.

PMW^Pub(D~, D^, Q, eps~, T):
  X^ = supp(D^) (the distinct public rows), A_0 = D^'s histogram on X^, eps_0 = eps~/sqrt(2T);
  for t = 1..T: select q_t by permute-and-flip (or the exponential mechanism) with score
  |q(A_{t-1}) - q(D~)| (sensitivity 1/n, eps_0-DP); measure a_t = q_t(D~) + N(0, 1/(n eps_0)^2)
  clipped to [0, 1]; update A_t(x) ~ A_{t-1}(x) exp(q_t(x) (a_t - q_t(A_{t-1}))/2);
  output A = mean of A_0..A_{T-1}.
The loop is ``mwem.mw_rounds`` (the engine shared with MWEM and PMW) on an
``mw.IncrementalMWDistribution`` over ``workloads.MarginalQueries`` (answers by weighted
bincount, refreshed incrementally after each update).

Privacy (LVSUW21 Theorem 4.5): 2T mechanisms of eps_0^2/2-zCDP each compose to eps~^2/2-zCDP for
every T; ``pmw_pub_epsilon`` converts to (eps, delta)-DP with the infimum of Canonne-Kamath-Steinke
(``privacy.zcdp_epsilon_infimum``), not only its closed upper bound. The guarantee is about the
private rows only: the public rows are public.

Replay of past measurements (LVSUW21 Section 5.3, off by default): ``replay=True`` replaces each
round's update by one pass, in random order, over the past measurements whose current error is at
least half of this round's (see ``mwem.mw_rounds``); ``replay_limit=K`` replays at most the K of
largest error (a run then costs O(T K) updates, not O(T^2)). It is post-processing of the released
(q_t, a_t), so the privacy guarantee is unchanged; the averaged-iterate analysis of Theorem 4.4
no longer applies to it.

Practical variants (issues 14 and 19), options with the same total eps~^2/2-zCDP, the paper's
algorithm staying the default: ``output="last"`` (the last iterate), ``measure_unit="marginal"``
(a whole marginal per round), ``selection_accounting="bounded_range"`` (exponential selection at
2 eps_0, eps-bounded-range => eps^2/8-zCDP per Cesar-Rogers 2021). See
``mwem.mwem_zcdp_from_answers``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..privacy import ZCDP, Release, zcdp_epsilon_infimum
from .mw import IncrementalMWDistribution
from .mwem import mwem_zcdp_from_answers
from .workloads import CategoricalDomain, DomainMarginalQueries, MarginalQueries
from ..validate import check_int

REALISES = ("lvsuw21:thm4.4", "lvsuw21:thm4.5")  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["PMWPubResult", "distinct_rows", "marginal_answers", "max_error", "mwem_marginals",
           "pmw_pub", "pmw_pub_epsilon", "public_only"]


@dataclass(frozen=True, eq=False)
class PMWPubResult:
    """Output of PMW^Pub / full-domain MWEM on marginal workloads.

    support: the (S, d) rows the distribution lives on; synthetic: the averaged distribution A on
    them; answers: q(A) for every query of the workloads (ids as in ``MarginalQueries``);
    selected, measurements: q_t and the clipped a_t of every round.
    """

    support: np.ndarray
    synthetic: np.ndarray
    answers: np.ndarray
    selected: np.ndarray
    measurements: np.ndarray


def distinct_rows(rows) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a dataset and their counts (its histogram on its support)."""
    r = np.asarray(rows)
    uniq, counts = np.unique(r, axis=0, return_counts=True)
    return uniq, counts


def marginal_answers(domain: CategoricalDomain, workloads, rows) -> np.ndarray:
    """q(D) = (1/|D|) sum_{x in D} q(x) for every marginal query of ``workloads``: one bincount."""
    uniq, counts = distinct_rows(domain.check_rows(rows))
    q = MarginalQueries(domain, workloads, uniq)
    return q.answer(counts / counts.sum())


def max_error(answers, true_answers) -> float:
    """LVSUW21 Section 5: max_q |q(A) - q(D~)|."""
    return float(np.max(np.abs(np.asarray(answers) - np.asarray(true_answers))))


def _run(private_rows, support, counts, domain, workloads, eps_tilde, T, rng, selection, replay, variants):
    """Algorithm 1's loop on ``support`` (rows) from ``counts``; support None = the whole domain
    (``DomainMarginalQueries``, the two-block matrix representation)."""
    priv = domain.check_rows(private_rows, "private_rows")
    T = check_int("T", T)
    if support is None:
        queries = DomainMarginalQueries(domain, workloads)
        support_rows = domain.all_rows()
    else:
        queries = MarginalQueries(domain, workloads, support)
        support_rows = queries.support_rows
    true = marginal_answers(domain, queries.workloads, priv)
    initial = IncrementalMWDistribution.from_histogram(queries, counts)
    release = mwem_zcdp_from_answers(true, priv.shape[0], queries, eps_tilde, T, rng, selection=selection,
                                     initial=initial, replay_threshold=replay, **variants)
    r = release.value
    return Release(PMWPubResult(support=support_rows, synthetic=r.synthetic, answers=r.answers,
                                selected=r.selected, measurements=r.measurements), release.guarantee)


def pmw_pub(private_rows, public_rows, domain: CategoricalDomain, workloads, eps_tilde: float, T: int,
            rng: np.random.Generator, *, selection: str = "permute_and_flip", replay: bool = False,
            replay_limit: int | None = None, output: str = "average", selection_accounting: str = "pure",
            measure_unit: str = "query") -> Release:
    """LVSUW21 Algorithm 1 (PMW^Pub) on the marginal queries of ``workloads``.

    private_rows: D~ as (n, d) value indices; public_rows: D^ as (m, d) value indices of the same
    ``domain``; eps_tilde > 0; T >= 1 rounds; selection: "permute_and_flip" (default, as the paper
    runs it) or "exponential"; replay: LVSUW21 Section 5.3's empirical optimisation (off by
    default). The defaults are the paper's algorithm (Theorems 4.4 and 4.5 refer to it); the
    practical variants ``replay_limit``, ``output``, ``selection_accounting`` and ``measure_unit``
    are those of ``mwem.mwem_zcdp_from_answers``, all at the same total.
    Returns ``Release(PMWPubResult, ZCDP(eps_tilde^2 / 2))``.
    """
    pub = domain.check_rows(public_rows, "public_rows")
    support, counts = distinct_rows(pub)
    variants = dict(replay_limit=replay_limit, output=output, selection_accounting=selection_accounting,
                    measure_unit=measure_unit)
    return _run(private_rows, support, counts, domain, workloads, eps_tilde, T, rng, selection, replay, variants)


def mwem_marginals(private_rows, domain: CategoricalDomain, workloads, eps_tilde: float, T: int,
                   rng: np.random.Generator, *, selection: str = "permute_and_flip",
                   replay: bool = False, replay_limit: int | None = None, output: str = "average",
                   selection_accounting: str = "pure", measure_unit: str = "query") -> Release:
    """LVSUW21 Section 5's MWEM baseline: Algorithm 1's loop (permute-and-flip, Gaussian, zCDP) over
    the whole domain from the uniform distribution, with the variants of ``pmw_pub``.
    Returns ``Release(PMWPubResult, ZCDP(eps~^2/2))``."""
    variants = dict(replay_limit=replay_limit, output=output, selection_accounting=selection_accounting,
                    measure_unit=measure_unit)
    return _run(private_rows, None, np.ones(domain.size), domain, workloads, eps_tilde, T, rng,
                selection, replay, variants)


def public_only(public_rows, domain: CategoricalDomain, workloads) -> np.ndarray:
    """LVSUW21 Section 5's public-data-only baseline: the public histogram's answers (no privacy cost)."""
    return marginal_answers(domain, workloads, public_rows)


def pmw_pub_epsilon(eps_tilde: float, delta: float) -> float:
    """LVSUW21 Theorem 4.5: eps(delta) of the (eps~^2/2)-zCDP run, the CKS infimum (not the closed bound)."""
    if not (isinstance(eps_tilde, (int, float)) and math.isfinite(eps_tilde) and eps_tilde > 0):
        raise ValueError(f"eps_tilde={eps_tilde!r} out of range: allowed finite numbers > 0")
    return zcdp_epsilon_infimum(ZCDP(eps_tilde**2 / 2.0).rho, delta)[0]


def eps_tilde_for(eps: float, delta: float) -> float:
    """The eps~ whose (eps~^2/2)-zCDP converts (CKS infimum, Theorem 4.5) to exactly (eps, delta)-DP:
    LVSUW21 Section 5 states budgets as (eps, delta = 1/n^2). Found by bracketing (eps(.) increases)."""
    from scipy import optimize

    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"eps={eps!r} out of range: allowed finite numbers > 0")
    if not 0 < delta < 1:
        raise ValueError(f"delta={delta!r} out of range: allowed (0, 1)")
    hi = 1.0
    while pmw_pub_epsilon(hi, delta) < eps:
        hi *= 2.0
    return float(optimize.brentq(lambda e: pmw_pub_epsilon(e, delta) - eps, 1e-9, hi, xtol=1e-12))
