"""LVSUW21 Algorithm 1 (PMW^Pub) / Theorem 4.5: audit targets on a pair whose selection is not uniform, so that
the selection's share of the budget is seen (the ``pmw_pub`` targets' pair makes the selection uniform under
both neighbours, which hides a selection run without its share of the split).

The code's split (``mwem.mwem_zcdp_from_answers``): eps_0 = eps~/sqrt(2T); per round an eps_0-DP selection
(permute-and-flip, score sensitivity 1/n) charged eps_0^2/2 (pure-to-zCDP) and a Gaussian measurement
sigma = 1/(n eps_0) charged eps_0^2/2; total eps~^2/2 for every T.

Set-up. Two binary attributes, workloads {A} and {B} (queries A=0, A=1, B=0, B=1), n = 8, T = 1,
eps~ = sqrt 2 (eps_0 = 1, rho = 1). Public data (8 rows) with q_{A=1} = 3/8, q_{B=1} = 4/8. D0 has
q_{A=1} = q_{B=1} = 4/8; D1 replaces one row (1, 0) by (0, 1): q_{A=1} = 3/8, q_{B=1} = 5/8. The selection's
scores |q(A_0) - q(D)| are (1/8, 1/8, 0, 0) under D0 and (0, 0, 1/8, 1/8) under D1: the row moves the
exponential-mechanism-style scores of both attributes, one up and one down (a two-way margin of one unit of
sensitivity, where permute-and-flip's log-ratio is largest for a tie broken one way), and whichever query is
selected, its answer moves by 1/n (mu = 1 for the real measurement). The transcript (selected query, clipped
measurement) is released by ``pmw_pub`` (``PMWPubResult.selected``/``measurements``); the audited statistic is
the transcript's exact log-likelihood ratio between the pair under the audited algorithm's own law (the
threshold events are then the Neyman-Pearson tests), a fixed function of the output.

The pair's exact loss (``transcript_law``): the selection law is permute-and-flip's exact law
(``permute_and_flip_probabilities``), the measurement a Gaussian clipped to [0, 1] (two atoms and a density),
so the Renyi divergences (closed form: a Gaussian tilt) and the hockey-stick curve (the log-likelihood ratio is
linear in the measurement) are computed exactly; ``pair_rho`` is sup over alpha of D_alpha / alpha, both
directions. Printed by ``python -m simulations.audit_targets.pmw_pub_selection``. The same eps at delta(2), for any
pair (``pair_eps``), ranks the auditor's exact-loss search (``loss_neighbours``: 64 random pairs of 1-8 records on the
2 x 2 domain): it finds eps 0.7929 (two records, or six) against the audited pair's 0.7889, the largest of every pair
of 1-8 records (an enumeration); the audit keeps its pair and the line states the worst found.

* ``pmw_pub_selection``: the real ``pmw_pub``; must pass. Exact on its pair: rho 0.704 (the measurement's 1/2
  plus 0.204 from the selection; the ``pmw_pub`` pair's is 1/2), delta(2) 0.0498 against the declared 0.245.

* ``pmw_pub_selection_sqrt2_sigma`` (broken): the Gaussian measurement at sigma / sqrt 2: exact rho 1.204 > 1 on this
  pair (KL 1.204, the largest D_alpha / alpha at alpha -> 1), which no event reaches (below) but the "divergence"
  objective does: the case releases the whole transcript (``transcript``) and offers the declared law's exact
  log-ratio (``declared_log_ratio``) beside the learned witness; Donsker-Varadhan with empirical Bernstein at 99%
  gives rho_lb 1.04-1.07 at 40,000 transcripts per neighbour (3 of 3 seeds, benchmarks/RESULTS.md).

* ``pmw_pub_selection_argmax`` (broken): the selection at 40 eps_0, in effect the argmax of the errors (the
  selection's noise left out); on this pair the selected attribute then names the neighbour (the ``pmw_pub``
  pair, whose selection is uniform, cannot see this break).

Broken twins for the budget split: computed, not registered, because no event test of this auditor can see them at a
sane budget
(``main`` prints the numbers; the benchmarks/RESULTS.md section on the papers' algorithms records them):

* selection not halved (the selection at eps~/sqrt(T) = sqrt(2) eps_0, charged 1.5x the declared rho by the
  accountant): the pair's exact rho is 0.883 < 1, so no event on this pair refutes the claim (data processing).
  Permute-and-flip's real Renyi loss is far below the pure-to-zCDP charge eps^2/2: the largest rho of a
  permute-and-flip pair found by a search over 2-6 candidates (scores within one sensitivity unit) is
  0.330 eps^2 at eps = 1 and 0.288 eps^2 at eps = sqrt 2, both at two candidates (``two_candidate_rho``;
  a Nelder-Mead search, not a proof), so on a one-round pair the twin's rho is at most about 0.576 + 1/2 =
  1.076 of the declared 1 (zCDP composes; over T rounds the same per round): a 7.6% excess on a claim whose
  Gaussian half binary events see only in part (below), too small to see at any sane budget.
* sigma/sqrt(2) (registered, above, for the divergence objective): exact rho 1.204 > 1 on this pair (the
  measurement alone reaches the declared rho, the selection adds), but the best threshold event of the exact
  log-likelihood ratio (``best_event_rho``, exact
  rates, events of probability >= 1e-9) gives rho 1.011 in the limit of infinite samples (binary events see
  only part of a Gaussian's mu^2/2), and delta(eps') stays under the CKS curve at every eps'.
* the round's budget not halved (eps_0 = eps~/sqrt(T): both), exact rho 1.383, delta(2) 0.200 below the
  declared 0.245; best event 1.072 in the limit; the "renyi" objective's bound (Clopper-Pearson at 99.375% per
  rate, rates at their expectation) is 0.894, 0.937 and 0.958 at 50,000, 200,000 and 500,000 samples per
  neighbour (measured: rho_lb 0.758 at 20,000, seed 0, not caught).
"""

from __future__ import annotations

import functools
import importlib
import math

import numpy as np
from scipy import special, stats

from algorithms.privacy import PermuteAndFlip
from algorithms.privacy.mechanisms import permute_and_flip_probabilities
from algorithms.query_release.mw import IncrementalMWDistribution
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers, pmw_pub
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries
from simulations._audit_bounds import _bernoulli_renyi
from simulations._audit_pairs import replace_one_pair
from simulations.audit import AuditCase, AuditTarget, with_ci_samples
from simulations.audit_targets.pmw_pub import hockey as _hockey
from simulations.audit_targets.pmw_pub import law_eps, round_law, transcript_sampler, zcdp_delta_at
from simulations.audit_targets.pmw_pub import log_clipped_atoms as _log_clipped_atoms


mwem_mod = importlib.import_module("algorithms.query_release.mwem")

DOMAIN = CategoricalDomain([2, 2])
WORKLOADS = [(0,), (1,)]
PUBLIC = np.array([[1, 1], [1, 1], [1, 0], [0, 1], [0, 1], [0, 0], [0, 0], [0, 0]])
PAIR = (np.array([[1, 0], [1, 0], [1, 1], [1, 1], [0, 1], [0, 1], [0, 0], [0, 0]]),
        np.array([[0, 1], [1, 0], [1, 1], [1, 1], [0, 1], [0, 1], [0, 0], [0, 0]]))
T = 1
EPS_TILDE = math.sqrt(2.0)
RHO = EPS_TILDE ** 2 / 2
AUDIT_EPS = 2.0
ORDERS = np.geomspace(1.0 + 1e-4, 64.0, 400)
SEARCH_MAX_N = 8  # the exact-loss search's data sets: 1..8 records


def _params(select_factor: float = 1.0, sigma_factor: float = 1.0):
    """(selection eps, measurement sigma) of the audited run: the code's eps_0 and 1/(n eps_0), times the twin's
    factors."""
    n = PAIR[0].shape[0]
    eps0 = EPS_TILDE / math.sqrt(2.0 * T)
    return select_factor * eps0, sigma_factor / (n * eps0)


@functools.lru_cache(maxsize=1)
def _queries():
    """The marginal queries over the public support and its counts (fixed by the public data: built once)."""
    support, counts = distinct_rows(PUBLIC)
    return MarginalQueries(DOMAIN, WORKLOADS, support), counts


def transcript_law(data, select_factor: float = 1.0, sigma_factor: float = 1.0):
    """LVSUW21 Algorithm 1, one round: (selection probabilities of every query, true answers, sigma) of the
    transcript on ``data`` (the measurement of query j is N(q_j(data), sigma^2) clipped to [0, 1]):
    ``pmw_pub.round_law`` of this module's set-up, the law its ``make_exact`` draws from."""
    return round_law(*_queries(), data, EPS_TILDE, T, select_factor, sigma_factor)


def renyi(law_p, law_q, alpha):
    """D_alpha(P || Q) of two transcript laws, exactly: per selected query the clipped Gaussians' atoms and the
    density on (0, 1), int phi_p^alpha phi_q^(1-alpha) = exp(alpha(alpha-1) d^2 / (2 sigma^2)) times the mass of
    N(alpha m_p + (1-alpha) m_q, sigma^2) on (0, 1)."""
    (pp, mp, s), (pq, mq, _) = law_p, law_q
    alpha = np.asarray(alpha, dtype=float)[..., None]
    lp0, lp1 = _log_clipped_atoms(mp, s)
    lq0, lq1 = _log_clipped_atoms(mq, s)
    ma = alpha * mp + (1 - alpha) * mq
    inner = np.log(np.clip(stats.norm.cdf((1 - ma) / s) - stats.norm.cdf(-ma / s), 1e-300, None))
    cont = alpha * (alpha - 1) * (mp - mq) ** 2 / (2 * s * s) + inner
    per_query = np.logaddexp(np.logaddexp(alpha * lp0 + (1 - alpha) * lq0, alpha * lp1 + (1 - alpha) * lq1), cont)
    total = special.logsumexp(alpha * np.log(pp) + (1 - alpha) * np.log(pq) + per_query, axis=-1)
    return total / (alpha[..., 0] - 1)


def pair_rho(select_factor: float = 1.0, sigma_factor: float = 1.0) -> float:
    """The pair's exact zCDP rho: max over alpha (``ORDERS``) and both directions of D_alpha / alpha."""
    l0, l1 = (transcript_law(d, select_factor, sigma_factor) for d in PAIR)
    return float(max(np.max(renyi(l0, l1, ORDERS) / ORDERS), np.max(renyi(l1, l0, ORDERS) / ORDERS)))


def pair_delta(eps: float, select_factor: float = 1.0, sigma_factor: float = 1.0, pair=PAIR) -> float:
    """The pair's exact delta(eps), both directions."""
    l0, l1 = (transcript_law(d, select_factor, sigma_factor) for d in pair)
    return max(_hockey(l0, l1, eps), _hockey(l1, l0, eps))


def pair_eps(delta: float, select_factor: float = 1.0, sigma_factor: float = 1.0, pair=PAIR) -> float:
    """The pair's exact eps at ``delta``: the least eps with pair_delta(eps) <= delta (``pmw_pub.law_eps``)."""
    return law_eps(*(transcript_law(np.asarray(d), select_factor, sigma_factor) for d in pair), delta)


def loss_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random neighbouring pair for the auditor's exact-loss search: n uniform on 1..``SEARCH_MAX_N`` records of
    the 2 x 2 domain drawn from a random (Dirichlet) law on its cells, one record replaced by another cell."""
    cells, moved = replace_one_pair(rng, 4, 1, SEARCH_MAX_N)
    return tuple(np.column_stack([c // 2, c % 2]).astype(np.int64) for c in (cells, moved))


def log_likelihood_ratio(selected, y, select_factor: float = 1.0, sigma_factor: float = 1.0):
    """log P_D0(o) / P_D1(o) of transcripts o = (selected query, clipped measurement y), vectorised: the atoms'
    masses at y = 0 or 1, the densities inside."""
    (p0, m0, s), (p1, m1, _) = (transcript_law(d, select_factor, sigma_factor) for d in PAIR)
    j = np.asarray(selected, dtype=int)
    y = np.asarray(y, dtype=float)
    a00, a01 = _log_clipped_atoms(m0[j], s)
    a10, a11 = _log_clipped_atoms(m1[j], s)
    dens = stats.norm.logpdf((y - m0[j]) / s) - stats.norm.logpdf((y - m1[j]) / s)
    out = np.log(p0[j]) - np.log(p1[j]) + np.where(y <= 0, a00 - a10, np.where(y >= 1, a01 - a11, dens))
    return out


def declared_log_ratio(transcripts):
    """log P_D1(o) / P_D0(o) of transcript rows o = (selected query, clipped measurement) under the declared
    algorithm's law (the real PMW^Pub's, whatever the twin audited): the "divergence" objective's exact witness."""
    t = np.asarray(transcripts, dtype=float)
    return -log_likelihood_ratio(t[:, 0], t[:, 1])


@functools.lru_cache(maxsize=8)
def _cached_answers(rows_key: bytes, shape: tuple):
    rows = np.frombuffer(rows_key, dtype=np.int64).reshape(shape)
    return marginal_answers(DOMAIN, _queries()[0].workloads, rows)


def _true_answers(rows: np.ndarray):
    """The private data set's marginal answers, computed once per data set (not once per draw)."""
    return _cached_answers(rows.tobytes(), rows.shape)


def _broken_run(private_rows, rng, select_factor, sigma_factor):
    """LVSUW21 Algorithm 1's loop (as ``mwem_zcdp_from_answers`` runs it) with the selection at ``select_factor``
    eps_0 and the Gaussian measurement at ``sigma_factor`` sigma."""
    queries, counts = _queries()
    true = _true_answers(np.ascontiguousarray(private_rows, dtype=np.int64))
    eps, sigma = _params(select_factor, sigma_factor)
    sel = PermuteAndFlip(eps, 1.0 / private_rows.shape[0])
    return mwem_mod.mw_rounds(IncrementalMWDistribution.from_histogram(queries, counts), queries, true,
                              private_rows.shape[0], T, rng, select_eps=sel.eps, selection="permute_and_flip",
                              measure=lambda v, r: v + r.normal(0.0, sigma, size=np.shape(v)), clip=True,
                              average_previous=True)


def _case(select_factor: float = 1.0, sigma_factor: float = 1.0, *, exact: bool = False):
    """The case of the twin at these factors (both 1: the real PMW^Pub); ``exact``: its draws from its exact
    law (``transcript_sampler`` of ``transcript_law``)."""
    real = select_factor == 1.0 and sigma_factor == 1.0

    def make(eps: float, delta: float) -> AuditCase:
        declared = pmw_pub(PAIR[0], PUBLIC, DOMAIN, WORKLOADS, EPS_TILDE, T, np.random.default_rng(0)).guarantee
        rho = float(declared.rho)

        def run(data, rng):
            r = (pmw_pub(data, PUBLIC, DOMAIN, WORKLOADS, EPS_TILDE, T, rng).value if real
                 else _broken_run(data, rng, select_factor, sigma_factor))
            return int(r.selected[0]), float(r.measurements[0])

        def mechanism(data, public, rng, size=None):
            out = np.array([run(data, rng) for _ in range(size or 1)], dtype=float)
            return out if size is not None else out[0]

        def statistic(out):
            return log_likelihood_ratio(out[:, 0], out[:, 1], select_factor, sigma_factor)

        if exact:
            mechanism = transcript_sampler(lambda data: transcript_law(data, select_factor, sigma_factor))
        return AuditCase(mechanism, statistic, PAIR, PUBLIC, float(eps), zcdp_delta_at(rho, eps), batched=True,
                         profile=lambda e: zcdp_delta_at(rho, e), profile_name=f"CKS20 curve of {rho:g}-zCDP",
                         rho=rho, pair_loss=lambda pair: pair_eps(zcdp_delta_at(rho, eps), select_factor,
                                                                  sigma_factor, pair),
                         loss_neighbours=loss_neighbours if real else None,
                         transcript=lambda out: out, log_ratio=declared_log_ratio)

    return make


NOT_HALVED = math.sqrt(2.0)
SQRT2_SIGMA = 1.0 / math.sqrt(2.0)
SQRT2_SAMPLES = 40_000  # the divergence objective's bound clears rho 1 by 0.04-0.07 here (3 of 3 seeds)
ARGMAX = 40.0     # selection factor of the argmax twin: the runner-up is picked with probability e^-20 / 2
ARGMAX_SAMPLES = 5_000  # caught by every objective at 3,000 in audit --all (eps_lb 4.8)

TARGETS = (
    AuditTarget("pmw_pub_selection", "LVSUW21 Thm 4.5",
                "PMW^Pub, T=1, two binary attributes, n=8, a pair whose private row moves the selection's scores; "
                "transcript log-likelihood ratio; zCDP claim by its (eps=2, delta(eps)) point, curve and rho",
                _case(), default_eps=AUDIT_EPS, default_samples=20_000, results=("lvsuw21:thm4.5",),
                make_exact=_case(exact=True)),
    AuditTarget("pmw_pub_selection_sqrt2_sigma", "LVSUW21 Thm 4.5 (broken)",
                "PMW^Pub with its Gaussian measurement at sigma / sqrt 2 (exact rho 1.204 on this pair), same zCDP "
                "declared; caught by the transcript divergence objective", _case(sigma_factor=SQRT2_SIGMA),
                expect_private=False, default_eps=AUDIT_EPS, default_samples=SQRT2_SAMPLES,
                results=("lvsuw21:thm4.5",)),
    AuditTarget("pmw_pub_selection_argmax", "LVSUW21 Thm 4.5 (broken)",
                f"PMW^Pub with its selection at {ARGMAX:g} eps_0 (in effect the argmax of the errors, no selection "
                "noise), same zCDP declared", _case(select_factor=ARGMAX), expect_private=False,
                default_eps=AUDIT_EPS, default_samples=ARGMAX_SAMPLES, results=("lvsuw21:thm4.5",)),
)

#: the contract test's sample count (tests/simulations/test_contract.py)
TARGETS = with_ci_samples(TARGETS, {"pmw_pub_selection": 1_000, "pmw_pub_selection_argmax": 1_000,
                                    "pmw_pub_selection_sqrt2_sigma": SQRT2_SAMPLES})


def two_candidate_rho(eps: float, gaps=np.linspace(0.0, 3.0, 601)) -> tuple[float, float]:
    """McKenna-Sheldon permute-and-flip on two candidates, scores (g, 0) under D0 and (g - 1, 1) under D1 (one
    sensitivity unit each way): (the largest rho = sup_alpha D_alpha / alpha over g in ``gaps``, its g)."""
    best = (0.0, 0.0)
    for g in gaps:
        p = permute_and_flip_probabilities(np.array([g, 0.0]), eps=eps, sensitivity=1.0)
        q = permute_and_flip_probabilities(np.array([g - 1.0, 1.0]), eps=eps, sensitivity=1.0)
        r = float(max(np.max(_bernoulli_renyi(p[0], q[0], ORDERS) / ORDERS),
                      np.max(_bernoulli_renyi(q[0], p[0], ORDERS) / ORDERS)))
        best = max(best, (r, float(g)))
    return best


def _event_rates(t, select_factor: float = 1.0, sigma_factor: float = 1.0):
    """Exact (P_D0(llr < t), P_D1(llr >= t)) for thresholds ``t`` of the transcript log-likelihood ratio llr =
    log P_D0 / P_D1 (``log_likelihood_ratio``; the auditor's events "guess D1 iff s < t"): per selected query the
    two atoms and, on (0, 1), a half-line of the measurement (llr is linear in it there)."""
    laws = [transcript_law(d, select_factor, sigma_factor) for d in PAIR]
    (p0, m0, s), (p1, m1, _) = laws
    t = np.asarray(t, dtype=float)[:, None]
    below = []
    for p, m in ((p0, m0), (p1, m1)):
        out = np.zeros(t.shape)
        for j in range(p.size):
            at0, at1 = log_likelihood_ratio([j, j], [0.0, 1.0], select_factor, sigma_factor)
            out += p[j] * ((at0 < t) * stats.norm.cdf(-m[j] / s) + (at1 < t) * stats.norm.sf((1 - m[j]) / s))
            b = (m0[j] - m1[j]) / s ** 2
            a = math.log(p0[j] / p1[j]) + (m1[j] ** 2 - m0[j] ** 2) / (2 * s * s)
            lo, hi = (np.zeros(t.shape), np.clip((t - a) / b, 0, 1)) if b > 0 else \
                (np.clip((t - a) / b, 0, 1), np.ones(t.shape))
            out += p[j] * np.clip(stats.norm.cdf((hi - m[j]) / s) - stats.norm.cdf((lo - m[j]) / s), 0, None)
        below.append(out[:, 0])
    return below[0], 1.0 - below[1]


def best_event_rho(select_factor: float = 1.0, sigma_factor: float = 1.0, samples=(None,),
                   level: float = 0.99375) -> list[float]:
    """The "renyi" objective's reach on this pair: the largest ``renyi_rho_lower_bound`` over threshold events of the
    exact log-likelihood ratio (exact rates, ``_event_rates``, on a grid of thresholds), for each entry of
    ``samples`` with Clopper-Pearson upper bounds at ``level`` for rates observed at exactly their expectation in
    that many samples per neighbour (None: the rates themselves, the limit of infinite samples)."""
    from simulations._audit_bounds import renyi_rho_lower_bound

    fpr, fnr = _event_rates(np.linspace(-12.0, 12.0, 4001), select_factor, sigma_factor)
    out = []
    for n in samples:
        if n is None:     # rates below 1e-9 are left out (float cancellation there; no sane budget sees them)
            ok = np.minimum(np.minimum(fpr, 1 - fpr), np.minimum(fnr, 1 - fnr)) >= 1e-9
            fu, fnu = fpr[ok], fnr[ok]
        else:
            fu = np.nan_to_num(stats.beta.ppf(level, fpr * n + 1, n - fpr * n), nan=1.0)
            fnu = np.nan_to_num(stats.beta.ppf(level, fnr * n + 1, n - fnr * n), nan=1.0)
        out.append(float(np.max(renyi_rho_lower_bound(fu, fnu))))
    return out


def main() -> None:
    """Print the pair's exact rho and delta(AUDIT_EPS) for the real algorithm and the twins, and the largest
    two-candidate permute-and-flip rho at eps_0 and sqrt(2) eps_0."""
    for name, sf, gf in (("real", 1.0, 1.0), ("selection not halved", NOT_HALVED, 1.0),
                         ("sigma/sqrt2", 1.0, SQRT2_SIGMA), ("round not halved", NOT_HALVED, SQRT2_SIGMA)):
        reach = best_event_rho(sf, gf, samples=(None, 50_000, 200_000, 500_000))
        print(f"{name:22s} rho {pair_rho(sf, gf):.4f} (declared {RHO:g})  delta({AUDIT_EPS:g}) "
              f"{pair_delta(AUDIT_EPS, sf, gf):.4f} (declared {zcdp_delta_at(RHO, AUDIT_EPS):.4f})  "
              f"best event rho: limit {reach[0]:.3f}, at 50k/200k/500k samples "
              + "/".join(f"{r:.3f}" for r in reach[1:]))
    for eps in (1.0, NOT_HALVED):
        r, g = two_candidate_rho(eps)
        print(f"permute-and-flip at eps {eps:.4f}: largest two-candidate rho {r:.4f} = {r / eps ** 2:.4f} eps^2 "
              f"(gap {g:.3f} units)")


if __name__ == "__main__":
    main()
