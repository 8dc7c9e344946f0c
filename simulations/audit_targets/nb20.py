"""NB20 Algorithms 5/6 and 4 (privacy parts): audit targets for A_stab on A_SubSamp's vote margin and for
A_UnvPrivCl's A_SSPP phase, with the broken variants the issue names.

Neighbouring private sets differ in one record (replacement).

* ``nb20_a_stab``: NB20 Algorithm 5's steps 3-9 on a real private set: k = 6 sub-samples of the
  thresholds class on 16 points, each (5, 1), (9, 0), (12, 0), so every ERM is h_6 and all six vote 1 at
  the query x = 3 (margin 6); the neighbour relabels the first record (5, 1) -> (5, 0), whose sub-sample's
  ERM becomes the all-negative h_0: one vote moves and the margin drops to 4 (the vote margin's
  sensitivity 2, erratum nb20-alg5-margin). A_stab (Algorithm 6) at eps with Gamma = 5 treats the margin
  as a distance of sensitivity 2 (noise Lap(2/eps), threshold 2 Gamma), declared (eps, Pr[Lap(1/eps) >
  Gamma]). Statistic: released (1) or bottom (0). Pr[release] = (1/2) e^{-eps (10 - M)/2}: the ratio
  between M = 6 and M = 4 is e^eps exactly, so the audit is tight (lower bound just below eps).
* ``nb20_a_stab_margin_sensitivity_1`` (broken): the printed calibration, the margin read as a distance of
  sensitivity 1 (noise Lap(1/eps), threshold Gamma = 5): the ratio is e^{2 eps} and the bottom event
  (0.18 against 0.82 at eps = 1) gives a lower bound well above eps.
* ``nb20_unvprivcl_sspp``: Algorithm 4's second phase, h_priv = A_SSPP(S, T_pub, H, eps/2) with T_pub
  the first m_o query points (public, fixed here: both points of a 2-point domain, so H~ = H = the 3
  thresholds (0,0), (1,0), (1,1)), private S = r examples at point 0 labelled 1 against the neighbour with
  one label 0: the all-negative h_0 is the only hypothesis wrong on those records, so the changed record
  moves its error count down by one and every other's up by one, and Pr[h_0] / e^{-eps' r/2} carries the
  whole ratio e^{eps'} in the limit of a rare h_0 (eps' the budget spent). Declared eps/2 (the budget
  split); r = 10 (exact loss of the pair at eps' = eps/2 = 0.495: 0.469, near the declared 0.495).
  Statistic: the index of h_priv. Both targets give the pair's exact loss (``pair_loss``, from A_SSPP's
  law ``a_sspp_law``); the real one ranks random 10-record pairs by it (``sspp_neighbours``). Every 10-record pair
  on the 2-point domain (each histogram and each one-record move, enumerated by the tests) has loss at most the
  audited pair's.

Exact losses (every real target below gives ``pair_loss``, and ``loss_neighbours`` for the auditor's exact-loss
search, so its line states its pair's exact loss and the worst pair found; the laws are in ``_nb20_laws``, each held
to the mechanism's own draws by tests/simulations/test_nb20_pair_loss.py). A loss is the eps at the declared delta
(``eps_at_delta``; the pure loss where delta = 0), as the sibling targets give it.

* ``nb20_a_stab``: Pr[release] = (1/2) e^{-eps (10 - M)/2} at margin M (``stab_release_probability``); the pair's
  loss at the declared delta (1/2) e^{-5 eps} is log(e^eps - e^{-2 eps}) = 0.949 at eps = 1 (pure: 1). The search
  draws random S of 3K records over the 16 points (labels of a random threshold, a random share flipped) and
  replaces one record; none exceeds the pair: the release ratio is e^eps between margins M and M - 2 at every M <=
  10, and the delta subtracted weighs least at the largest margin K = 6.
* ``nb20_unvprivcl_double_spend`` (broken): the printed Algorithm 4, A_SSPP at the full eps while the
  split declares eps/2, on the pair with r = 3: Pr[h_0] = 0.102 against 0.234 at eps = 0.99 (exact loss
  0.831 > 0.495). The sharper trade-off: at r = 10 the loss is 0.984 but h_0 has probability 0.0035 and
  the audit needed about 200,000 samples; at r = 3 about 3,000 suffice (r = 2 or 3 is the best: an
  event of probability p0 bounded at 1.96 standard errors, modelled in RESULTS.md).

End to end (below): A_Relabel under Lemma 5, A_SubSamp with its split, A_AgPrivCl under Lemma 8 and
A_UnvPrivCl's two phases, each with a broken twin the auditor catches. What stays out of reach, said plainly:
the sensitivity-1 margin and the double spend cannot be caught end to end, because the declared totals
(SparseVector's closed form, twice the first term of the rounds' composition; Lemma 8's relabelling and
amplification terms) sit above what the broken algorithms leak (or, for the double spend, below it only on
events too rare for a run of the whole algorithm: below); they are caught on A_stab and on A_SSPP's phase alone
(the targets above, both at the contract test's size).
"""

from __future__ import annotations

import numpy as np

from algorithms.classes import constructors
from algorithms.learning.agprivcl import AgPrivCl, lemma8_chain
from algorithms.learning.relabel import EPS_TILDE, a_relabel_counts, lemma5_guarantee
from algorithms.learning.sspp import _mechanism, a_sspp_law, a_sspp_sample, sspp_cover, sspp_scores
from algorithms.learning.subsamp import SubSamp, answer_online, erm_rows, subsample_hypotheses, vote_margins
from algorithms.learning.unvprivcl import UnvPrivCl
from algorithms.privacy.accounting import ApproxDP, PureDP
from algorithms.privacy.mechanisms import LaplaceMechanism
from algorithms.privacy.stability import DistanceToInstability
from simulations.audit import AuditCase, AuditTarget, with_ci_samples
from simulations.audit_targets._nb20_bounds import (THREE_POINT_PAIRS, THREE_POINT_WORST_SHIFT,
                                                    agprivcl_one_point_shift_bound, subsamp_shift_bound)
from simulations.audit_targets._nb20_laws import (agprivcl_answer_probability, agprivcl_fixed_answer_probability,
                                                  binary, eps_at_delta, laplace_mixture_loss,
                                                  sspp_one_point_probability, stab_release_probability,
                                                  subsamp_answer_table, subsamp_no_split_answer_law)
from simulations.experiments._nb20_common import agprivcl_params, subsamp_params, unvprivcl_params

K = 6
QUERY = 3
GAMMA = 5.0
_CLS16 = constructors.thresholds(16)
_CLS2 = constructors.thresholds(2)


def subsamp_pair() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """D0: K sub-samples of (5, 1), (9, 0), (12, 0); D1: the first label flipped to 0."""
    x = np.tile(np.array([5, 9, 12]), K)
    y0 = np.tile(np.array([True, False, False]), K)
    y1 = y0.copy()
    y1[0] = False
    return (x, y0), (x, y1)


def vote_margin(data) -> int:
    """Algorithm 5 steps 3-8 at the query point: the margin of the K sub-sample ERMs' votes."""
    x, y = data
    return int(vote_margins(_CLS16, subsample_hypotheses(_CLS16, x, y, K))[1][QUERY])


def stab_pair_loss(mech: DistanceToInstability, pair) -> float:
    """The exact eps at the declared delta of a pair for A_stab on the vote margin (released or bottom): the
    release probabilities ``stab_release_probability`` at each data set's margin, ``eps_at_delta``."""
    p0, p1 = (stab_release_probability(mech, vote_margin(d)) for d in pair)
    return eps_at_delta(binary(p0), binary(p1), mech.guarantee.delta)


def stab_neighbours(rng) -> tuple:
    """A random S of 3K records over the 16 points, labelled by a random threshold with a random share (up to 1/2)
    of labels flipped (so that every margin is drawn), and its neighbour with one random record replaced."""
    n = 3 * K
    x = rng.integers(0, 16, n)
    y = (x >= rng.integers(0, 17)) ^ (rng.random(n) < 0.5 * rng.random())
    x1, y1 = x.copy(), y.copy()
    i = int(rng.integers(n))
    x1[i], y1[i] = rng.integers(0, 16), rng.random() < 0.5
    return (x, y), (x1, y1)


def _stab_case(eps: float, delta: float, *, sensitivity: float) -> AuditCase:
    mech = DistanceToInstability(eps, GAMMA, sensitivity=sensitivity)

    def mechanism(private_data, public_data, rng, size=None):
        out = mech.sample(vote_margin(private_data), rng, 1 if size is None else size)
        return out[0] if size is None else out

    return AuditCase(mechanism, lambda o: np.asarray(o, dtype=float), subsamp_pair(), None,
                     mech.guarantee.eps, mech.guarantee.delta, batched=True,
                     pair_loss=lambda pair: stab_pair_loss(mech, pair), loss_neighbours=stab_neighbours)


SSPP_RECORDS = 10         # r of the real phase's pair: its exact loss (0.469 at eps/2 = 0.495) near the declared
DOUBLE_SPEND_RECORDS = 3  # r of the double spend's pair: h_0 not rare (0.102 vs 0.234), loss 0.831 > 0.495


def sspp_pair(records: int = SSPP_RECORDS) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """S = ``records`` examples at point 0 labelled 1; the neighbour has one of them labelled 0."""
    x = np.zeros(records, dtype=np.int64)
    y0 = np.ones(records, dtype=bool)
    y1 = y0.copy()
    y1[0] = False
    return (x, y0), (x, y1)


def sspp_pair_loss(spent_eps: float, pair) -> float:
    """The exact privacy loss of a pair for A_SSPP at ``spent_eps`` on T_pub = (0, 1): max over h of
    |log Pr[h | D0] / Pr[h | D1]| from A_SSPP's exact law (ABM19 Algorithm 1, ``a_sspp_law``)."""
    public = np.array([0, 1])
    p0, p1 = (a_sspp_law(_CLS2, x, y, public, spent_eps).probabilities for x, y in pair)
    return float(np.max(np.abs(np.log(p0) - np.log(p1))))


def sspp_neighbours(rng, records: int = SSPP_RECORDS) -> tuple[tuple[np.ndarray, np.ndarray], tuple]:
    """A random neighbouring pair of ``records``-record sets on the 2-point domain: points uniform, labels positive
    with a random rate, then one record replaced by a uniform (point, label)."""
    x = rng.integers(0, 2, records)
    y = rng.random(records) < rng.random()
    x1, y1 = x.copy(), y.copy()
    i = int(rng.integers(records))
    x1[i], y1[i] = rng.integers(0, 2), rng.random() < 0.5
    return (x, y), (x1, y1)


def _sspp_case(eps: float, delta: float, *, spent_factor: float, records: int) -> AuditCase:
    """A_SSPP at spent_factor * eps/2 on T_pub = (0, 1), declared eps/2."""
    public = np.array([0, 1])
    cover = sspp_cover(_CLS2, public)
    spent = spent_factor * eps / 2.0

    def mechanism(private_data, public_data, rng, size=None):
        x, y = private_data
        scores = sspp_scores(cover, x, y)
        out = _mechanism(spent, x.size).sample(scores, rng, 1 if size is None else size)
        return out[0] if size is None else out

    return AuditCase(mechanism, lambda o: np.asarray(o, dtype=float), sspp_pair(records), public, eps / 2.0, 0.0,
                     batched=True, pair_loss=lambda pair: sspp_pair_loss(spent, pair),
                     loss_neighbours=(lambda rng: sspp_neighbours(rng, records)) if spent_factor == 1.0 else None)


TARGETS = (
    AuditTarget("nb20_a_stab", "NB20 Alg 5/6 (A_stab on the vote margin, sensitivity 2)",
                "distance-to-instability test on a real A_SubSamp vote margin (6 vs 4), (eps, delta)-DP",
                lambda e, d: _stab_case(e, d, sensitivity=2.0), default_samples=400_000, results=("nb20:alg5",)),
    AuditTarget("nb20_a_stab_margin_sensitivity_1", "NB20 Alg 5/6 as printed (broken)",
                "the vote margin read as a sensitivity-1 distance (printed calibration) declared (eps, delta)",
                lambda e, d: _stab_case(e, d, sensitivity=1.0), expect_private=False, default_samples=400_000,
                results=("nb20:alg5",)),
    AuditTarget("nb20_unvprivcl_sspp", "NB20 Alg 4 (A_SSPP phase at eps/2)",
                "A_UnvPrivCl's second phase: A_SSPP on the first m_o queries at the split budget eps/2",
                lambda e, d: _sspp_case(e, d, spent_factor=1.0, records=SSPP_RECORDS), default_eps=0.99,
                results=("nb20:alg4",)),
    AuditTarget("nb20_unvprivcl_double_spend", "NB20 Alg 4 as printed (broken)",
                "A_SSPP at the full eps while the budget split declares eps/2 (eps spent twice on S)",
                lambda e, d: _sspp_case(e, d, spent_factor=2.0, records=DOUBLE_SPEND_RECORDS), expect_private=False,
                default_eps=0.99, results=("nb20:alg4",)),
)


# ------------------------------------------------------------------ end to end: Lemma 5, A_SubSamp, Lemma 8, Alg 4
#
# Neighbours differ in one record (replacement). Parameters come from bounds (``_nb20_common``) at the make
# arguments (eps, delta) and the fixed (alpha, beta, m) below; the algorithms run on the count-based path
# (labelled histograms, exact laws; tests/algorithms/test_learning_nb20_counts.py), so a sample costs one
# run of the algorithm at its own k (10^4 - 10^6 sub-samples).
#
# * ``nb20_relabel`` (Lemma 5): A o A_Relabel with A = the Laplace mechanism at eps_A = min(eps, 1) on the
#   number of positive labels of S'' (sensitivity 1 in S''), on thresholds over 3 points; S' = five (1, 1)
#   and one (2, 1), the neighbour has (0, 0) for (2, 1) (found by enumerating all S' of <= 6 records over 3
#   points: the largest log-ratio of a tail event, 1.45, at probabilities 0.13 / 0.03). Declared Lemma 5's
#   (eps_A + 3, 4 e 0). ``nb20_relabel_lemma5_skipped`` (broken) declares A's own eps_A: the relabelling
#   turns one changed record into a changed h^ (the exponential mechanism's e^1) on top of A's e^1.
#   Exact loss (pure): the output is a mixture over h^ of Laplace laws centred at the positives of S'', its density
#   ratio largest at an integer: 1.652 for the pair (at o = 1), 0.41 of the declared 4; the largest over every S' of
#   2..6 records and every move of one record is 1.777 (``relabel_worst_pair``, a start of the exact search; the
#   audit keeps its own pair, whose tail event is the easier to test). No pair of this size reaches half of 4:
#   Lemma 5's + 3 is a bound for every A, not this A's loss.
# * ``nb20_subsamp`` (Algorithm 5 end to end, the split included): A_SubSamp at bounds nb20:alg5 (m = 1,
#   T = 1, the tight lambda: k = 3093) on S = k * 3 records at the single point of thresholds(N=1), labels balanced; the
#   neighbour flips one label 0 -> 1; statistic: the answer at that point. Declared SubSampParams.guarantee.
#   ``nb20_subsamp_no_split`` (broken): the subsampling skipped, every h_j trained on all of S: the one
#   flipped label turns ERM(S) from the tie's h_0 to h_1, all k votes move, and the answer flips. Exact loss
#   (``subsamp_no_split_answer_law``): the answer is ERM(S)(0) but for the coin's u(k) / 2 = 1.8e-50, 114.5 at delta.
#   Exact loss: Pr[answer 1] for every count P of labels 1 (``subsamp_answer_table``: the law of the votes of a
#   uniformly random split by a recurrence, then one SparseVector round); the pair: 0.49966 against 0.50034, pure
#   loss 0.0014 and 0 at the declared delta 0.0257. On this one-point domain every neighbouring pair is (P, P + 1)
#   and the answer moves by at most 0.0044 < delta over all of them (the search draws P at random): every pair's
#   loss at delta is 0, so eps_lb = 0 is the pair's (one label moves the mean of 2V - k by 1, against its standard
#   deviation 28 under the random split), not the test's.
#   Every pair, any class, domain, query point or order of S (``_nb20_bounds.subsamp_shift_bound``, on the line):
#   the changed record sits in at most one sub-sample, so V moves by at most one vote and the answer by at most
#   max_v |a(v+1) - a(v)| = 0.0127 < delta (a(v) = Pr[answer 1 | v votes]); no neighbouring pair reaches a positive
#   loss at the declared delta. The bound is attained, at the stability threshold (margins 111 and 109 about w =
#   110.4: 1602 against 1601 votes, or mirrored 1491 against 1492), by an ordered S on the per-example path, whose
#   consecutive split fixes V (the count path's random split spreads V, hence its smaller 0.0044); across the vote's
#   tie the jump is s(1) = 0.0103.
#   Even with the bottom flag released the shift would stay below delta (0.0253).
# * ``nb20_agprivcl`` (Algorithm 3 end to end, Lemma 8): A_AgPrivCl at bounds nb20:alg3 / alg5 (alpha = beta
#   = 0.2, m = 1, the tight lambda: k = 105,762, n = n'/rate = 6.0e6) on S at the single point, S = S_fix (n'
#   records, 4 more labels 0 than 1, 3 when n' is odd) + a balanced rest (one more 0 if odd); the neighbour turns
#   one label 0 of S_fix into 1; statistic: the answer (h^(0): every sub-sample of S'' agrees). Declared Lemma 8's
#   total (lemma8_chain).
#   Exact loss (``agprivcl_answer_probability``: S' hypergeometric, h^ by A_Relabel's law, margin k): the pair's
#   answer 0.49989 against 0.49993, pure loss 8.8e-5 and 0 at the declared delta 0.0029; the answer moves by at most
#   4.4e-5 between any neighbours (steepest at balance: S' holds n'/n = 1/57 of S and its labels' spread, ~160,
#   swamps the one record), so every pair's loss at delta is 0 and eps_lb = 0 is the pair's: amplification by
#   subsampling at work, not a blind test. The search draws S with labels 0 minus labels 1 in +-BALANCE_WINDOW.
#   Every pair of the one point (``_nb20_bounds.agprivcl_one_point_shift_bound``, on the line): the changed record
#   joins S' with probability q = n'/n and then moves h^'s probability by g(J) = sigma(J + 1 - n'/2) - sigma(J -
#   n'/2), J the labels 1 beside it; g sums to 1 over the integers, so the shift is at most q s(k) times the
#   hypergeometric's mode probability, 4.378e-5 (the exact steps peak at 4.376e-5), over every count P (far from
#   balance a tail bound) < delta: no pair of the one point reaches a positive loss. Pairs that move a point on a
#   larger domain are not settled: coupling S' alone bounds their shift by q = 0.0177, and q times A_Relabel's
#   worst move of h^ (sigma(1/2) - sigma(-1/2) = 0.245 when H~ is unchanged) is 0.0043, still above delta = 0.0029;
#   closing the gap needs the average over S' (a tie of h^ that many relabelled records follow needs a balanced
#   region of S', whose sampling spread then swamps one record, as on one point), not proved here. An exact search on
#   thresholds(N=3) (``_nb20_bounds.three_point_search``: S = A records (0, 1), B at point 1 with Pb labels 1, the
#   rest (2, 0), so that h^'s tie at point 1 relabels E[n'_1] = 25..6400 records of S'' across the stability steps;
#   every label and point move of six kinds) finds at most THREE_POINT_WORST_SHIFT = 1.73e-4 = 0.06 of delta (a
#   label flip at the tie, E[n'_1] = 6400; point moves at most 8.7e-5): four times the one point's, still far below.
#   ``nb20_agprivcl_no_subsampling`` (broken): step 2 skipped, S' = S_fix always, while Lemma 8's amplification
#   by n'/n is still declared: h^ = h_1 has probability 1/(1 + e^2) = 0.12 against 1/(1 + e) = 0.27, log-ratio
#   0.82 above the declared 0.34; exact loss at the declared delta 0.803 (``agprivcl_fixed_answer_probability``).
# * ``nb20_unvprivcl`` (Algorithm 4, both phases): A_UnvPrivCl at bounds nb20:thm11 (alpha = beta = 0.9, d = 1,
#   m = m_o + 1: the second phase runs) on S as for A_AgPrivCl (first phase at eps/2), every query at the
#   single point; statistic: (the first answer, the last answer = h_priv(0)). Declared: the Accountant's
#   composition of both phases. ``nb20_unvprivcl_first_phase_no_subsampling`` (broken): the first phase's
#   step 2 skipped as above; with A_SSPP's own leak at eps/2 the joint event (1, 1) has probabilities
#   q(b') s(b) = 0.027 and 0.087 (b' = 4 -> 2 labels 0 minus 1 in S_fix, b = 5 -> 3 in S; q(b') = 1/(1 + e^{b'/2}),
#   s(b) = 1/(1 + e^{(eps/2) b/2})), log-ratio 1.174 above the declared 0.862: the pair's exact loss over the four
#   outputs, given that the first phase answers h^(0) (its relabelled sub-samples all agree: margin k), and 1.160 at
#   the declared delta (``unvprivcl_law`` with ``subsample=False``, on the line): at its default 20,000 samples
#   eps_lb cleared the declaration by 0.05 in an ``audit --all`` (0.913) and by 0.14 at seed 0 (0.999), at 30,000 by
#   0.23 (1.094 = 0.94 of the loss): a larger budget widens the margin, at most to 0.30. About 30,000
#   samples catch it (modelled power 0.99; a recorded run in benchmarks/RESULTS.md); no pair of this shape does
#   much better (b' = 4, b = 3: 0.52 against 0.51 at 10,000). (A_SSPP at the full eps end to end is out of reach
#   here: on the two hypotheses A_SSPP sees, the leak of an event of probability p under D0 exceeds the composed
#   0.862 only for p < 0.074, by at most 0.99 - 0.862 (0.08 at p = 0.03): about 10^5 samples at 2 ms each;
#   ``nb20_unvprivcl_double_spend`` catches it on that phase alone, at 10,000 samples.)
#   Exact loss (``unvprivcl_law``: given S the phases draw independently, the product of A_AgPrivCl's first answer
#   and A_SSPP's h_priv on S at eps/2): the pair's 0.357 at the declared delta 0.0012 (pure 0.360), 0.41 of the
#   declared 0.862, nearly all of it A_SSPP's; the worst pair, S with labels 0 minus labels 1 = 13
#   (``UNV_WORST_IMBALANCE``, a start of the exact search, from a scan of b in [-80, 80]), has 0.451 = 0.52 of
#   the declared; for |b| >= BALANCE_WINDOW the laws are within total variation delta (loss 0), and the pure loss
#   tends to A_SSPP's eps/2 = 0.495 only on outputs of vanishing probability.

_CLS1 = constructors.thresholds(1)
_CLS3 = constructors.thresholds(3)
_RELABEL_EPS_A = 1.0
RELABEL_MAX = 6    # records of S' in the relabelling pairs (the target's own pair and the exact search's)
SUBSAMP_PER_BLOCK = 3
AG_ALPHA, AG_BETA = 0.2, 0.2
UNV_ALPHA, UNV_BETA = 0.9, 0.9
IMBALANCE = 4  # labels 0 minus labels 1 in S_fix (3 when n' is odd)
UNV_WORST_IMBALANCE = 13  # labels 0 minus labels 1 of S in A_UnvPrivCl's worst pair (a scan: test_nb20_pair_loss.py)


def relabel_pair() -> tuple[np.ndarray, np.ndarray]:
    """S' histograms over thresholds(N=3): five (1, 1) + one (2, 1), and one (0, 0) in place of (2, 1)."""
    d0 = np.zeros((3, 2), dtype=np.int64)
    d0[1, 1], d0[2, 1] = 5, 1
    d1 = d0.copy()
    d1[2, 1], d1[0, 0] = 0, 1
    return d0, d1


def _relabel_case(eps: float, delta: float, *, lemma5: bool) -> AuditCase:
    eps_a = min(eps, _RELABEL_EPS_A)
    lap = LaplaceMechanism(1.0, eps_a)

    def mechanism(private_data, public_data, rng, size=None):
        if size is None:
            rel = a_relabel_counts(_CLS3, private_data, rng)
            return float(lap.sample(float(rel.counts[:, 1].sum()), rng, 1)[0])
        y = np.repeat(np.arange(6) % 2, private_data.ravel())
        x = np.repeat(np.repeat(np.arange(3), 2), private_data.ravel())
        h = a_sspp_sample(_CLS3, x, y, x, EPS_TILDE, rng, size)                # A_Relabel's h^ (its exact law)
        positives = _CLS3.matrix[h][:, x].sum(axis=1).astype(float)            # positives of S'' = S'_u by h^
        return lap.release(positives, rng).value

    g = lemma5_guarantee(PureDP(eps_a)) if lemma5 else ApproxDP(eps_a, 0.0)
    return AuditCase(mechanism, lambda o: np.asarray(o, dtype=float), relabel_pair(), None, g.eps, g.delta,
                     batched=True, pair_loss=lambda pair: relabel_pair_loss(eps_a, pair),
                     loss_neighbours=relabel_neighbours, starts=(relabel_worst_pair(),))


def relabel_worst_pair() -> tuple[np.ndarray, np.ndarray]:
    """The pair of largest exact loss among all S' of 2..RELABEL_MAX records over thresholds(N=3) and all moves of
    one record (an enumeration, tests/simulations/test_nb20_pair_loss.py): S' = (1, 0), four (1, 1) and (2, 1); the
    neighbour has (0, 0) for (2, 1). Handed to the exact search as a start (the audit keeps its own pair)."""
    d0 = np.zeros((3, 2), dtype=np.int64)
    d0[1, 0], d0[1, 1], d0[2, 1] = 1, 4, 1
    d1 = d0.copy()
    d1[2, 1], d1[0, 0] = 0, 1
    return d0, d1


def relabel_centre_weights(hist: np.ndarray) -> np.ndarray:
    """Pr[S'' has c positives], c = 0..RELABEL_MAX: A_Relabel's h^ by its exact law (``a_sspp_law`` on S' with
    T_pub = S''s points, eps~), S'''s positives the records of S' that h^ labels 1."""
    y = np.repeat(np.arange(6) % 2, hist.ravel())
    x = np.repeat(np.repeat(np.arange(3), 2), hist.ravel())
    probs = a_sspp_law(_CLS3, x, y, x, EPS_TILDE).hypothesis_probabilities()
    return np.bincount(_CLS3.matrix[:, x].sum(axis=1), weights=probs, minlength=RELABEL_MAX + 1)


def relabel_pair_loss(eps_a: float, pair) -> float:
    """The exact (pure: the declared delta is 0) loss of a pair for A o A_Relabel: the output is the mixture over
    h^ of Lap(positives of S'', 1 / eps_A) (``relabel_centre_weights``), whose sup log-ratio is at an integer or a
    tail (``laplace_mixture_loss``)."""
    return laplace_mixture_loss(*(relabel_centre_weights(d) for d in pair), eps_a)


def relabel_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random S' histogram over thresholds(N=3) of 2..RELABEL_MAX records (cells of a random Dirichlet law) and
    its neighbour with one record moved to another cell."""
    d0 = rng.multinomial(int(rng.integers(2, RELABEL_MAX + 1)), rng.dirichlet(np.ones(6))).reshape(3, 2)
    d1 = d0.copy()
    cell = int(rng.choice(np.flatnonzero(d0.ravel())))
    d1.flat[cell] -= 1
    d1.flat[(cell + int(rng.integers(1, 6))) % 6] += 1
    return d0, d1


def _single_point(neg: int, pos: int) -> np.ndarray:
    return np.array([[neg, pos]], dtype=np.int64)


def subsamp_split_pair(k: int) -> tuple[np.ndarray, np.ndarray]:
    """S at the single point: k * SUBSAMP_PER_BLOCK records, labels balanced (one more 0 if odd); one 0 -> 1."""
    n = k * SUBSAMP_PER_BLOCK
    d0 = _single_point(n - n // 2, n // 2)
    return d0, d0 + np.array([[-1, 1]])


def _subsamp_case(eps: float, delta: float, *, split: bool) -> AuditCase:
    params = subsamp_params(eps, delta, AG_BETA, 1, 1.0)

    def mechanism(private_data, public_data, rng, size=None):
        if split:
            algo = SubSamp.from_counts(_CLS1, private_data, params, rng)
        else:  # every h_j = ERM on all of S
            h = erm_rows(_CLS1, private_data[:, 1][None, :], private_data.sum(axis=1)[None, :])[0]
            algo = SubSamp.from_hypotheses(_CLS1, np.full(params.k, h), params, rng)
        return float(algo.answer(0)[0])

    g = params.guarantee()
    loss = (lambda pair: subsamp_pair_loss(params, pair)) if split else (lambda pair: eps_at_delta(*(
        subsamp_no_split_answer_law(params, _CLS1, side) for side in pair), g.delta))
    return AuditCase(mechanism, None, subsamp_split_pair(params.k), None, g.eps, g.delta, pair_loss=loss,
                     loss_neighbours=(lambda rng: subsamp_neighbours(params.k, rng)) if split else None,
                     loss_bound=subsamp_shift_bound(params).line(g.delta, SUBSAMP_SCOPE) if split else "")


SUBSAMP_SCOPE = " (any class, domain, query point or order of S)"


def subsamp_pair_loss(params, pair) -> float:
    """The exact eps at the declared delta of a pair of single-point histograms of 3k records for A_SubSamp
    (``subsamp_answer_table``: Pr[answer 1] for every count of labels 1, exact over the uniformly random split)."""
    table = subsamp_answer_table(params)
    p0, p1 = (table[int(d[0, 1])] for d in pair)
    return eps_at_delta(binary(p0), binary(p1), params.guarantee().delta)


def subsamp_neighbours(k: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """S at the single point with a uniformly random count P of labels 1 (0..3k - 1), the neighbour P + 1: on a
    one-point domain every neighbouring pair is one of these 3k."""
    n = k * SUBSAMP_PER_BLOCK
    pos = int(rng.integers(n))
    d0 = _single_point(n - pos, pos)
    return d0, d0 + np.array([[-1, 1]])


def agprivcl_pair(n: int, n_prime: int) -> tuple[np.ndarray, np.ndarray]:
    """S = S_fix (n' records, IMBALANCE more labels 0) then a balanced rest, as (S_fix, rest) histograms."""
    neg = (n_prime + IMBALANCE) // 2
    fix = _single_point(neg, n_prime - neg)
    rest = n - n_prime
    rest_h = _single_point(rest - rest // 2, rest // 2)
    moved = fix + np.array([[-1, 1]])
    return (fix, rest_h), (moved, rest_h)


def _agprivcl_setup(eps, delta):
    params = agprivcl_params(AG_ALPHA, AG_BETA, eps, delta, 1)
    n = params.min_private_samples()
    return params, n


def _agprivcl_case(eps: float, delta: float, *, subsample: bool) -> AuditCase:
    params, n = _agprivcl_setup(eps, delta)

    def mechanism(private_data, public_data, rng, size=None):
        fix, rest = private_data
        if subsample:
            algo = AgPrivCl.from_counts(_CLS1, fix + rest, params, rng)
        else:
            algo = AgPrivCl.after_step2_counts(_CLS1, fix, n, params, rng)
        return float(algo.answer(0)[0])

    g = lemma8_chain(params, n)[-1][1]

    def law(pair_side):
        if not subsample:  # S' = S_fix
            return binary(agprivcl_fixed_answer_probability(params, *(int(c) for c in pair_side[0][0])))
        return binary(agprivcl_answer_probability(params, n, _positives(pair_side)))

    extra = dict(pair_loss=lambda pair: eps_at_delta(*map(law, pair), g.delta))
    if subsample:
        extra.update(loss_neighbours=lambda rng: count_pair(n, params.n_prime(n), _near_balance(n, rng)),
                     loss_bound=agprivcl_one_point_shift_bound(params, n).line(g.delta, " of the one point")
                     + f"; pairs that move a point on a larger domain are not settled: the coupling alone bounds "
                     f"their shift by n'/n = {params.n_prime(n) / n:.4f} > delta, and an exact search of "
                     f"{THREE_POINT_PAIRS} pairs on three points (label and point moves) finds at most "
                     f"{THREE_POINT_WORST_SHIFT:.3g} = {THREE_POINT_WORST_SHIFT / g.delta:.2f} of delta (docstring)")
    return AuditCase(mechanism, None, agprivcl_pair(n, params.n_prime(n)), None, g.eps, g.delta, **extra)


BALANCE_WINDOW = 64  # the exact search's pairs: labels 0 minus labels 1 of S within +-BALANCE_WINDOW (docstring)


def _positives(side) -> int:
    fix, rest = side
    return int((fix + rest)[0, 1])


def _near_balance(n: int, rng) -> int:
    """A count of labels 1 whose S has labels 0 minus labels 1 uniform in +-BALANCE_WINDOW."""
    return (n - int(rng.integers(-BALANCE_WINDOW, BALANCE_WINDOW + 1))) // 2


def count_pair(n: int, n_prime: int, positives: int) -> tuple:
    """S at the single point with ``positives`` labels 1 as (S_fix, rest) histograms, S_fix the first n' records with
    its labels 0 first; the neighbour turns one label 0 of S_fix into 1 (the shape of ``agprivcl_pair``)."""
    neg = n - positives
    fix_neg = min(neg, n_prime)
    fix, rest = _single_point(fix_neg, n_prime - fix_neg), _single_point(neg - fix_neg, positives - n_prime + fix_neg)
    return (fix, rest), (fix + np.array([[-1, 1]]), rest)


def unvprivcl_setup(eps: float, delta: float):
    """A_UnvPrivCl's parameters at m = m_o + 1 queries (the second phase runs) and the least n of its first phase."""
    U0 = unvprivcl_params(UNV_ALPHA, UNV_BETA, eps, delta, 1, 10**6)
    U = unvprivcl_params(UNV_ALPHA, UNV_BETA, eps, delta, 1, U0.m_o + 1)
    return U, U.first.min_private_samples()


def _unvprivcl_case(eps: float, delta: float, *, subsample: bool) -> AuditCase:
    U, n = unvprivcl_setup(eps, delta)
    queries = np.zeros(U.num_queries, dtype=np.int64)

    def mechanism(private_data, public_data, rng, size=None):
        fix, rest = private_data
        s = fix + rest
        if subsample:
            algo = UnvPrivCl.from_counts(_CLS1, s, U, rng)
        else:
            algo = UnvPrivCl.after_step2_counts(_CLS1, fix, (s[:, 1], s[:, 0]), U, rng)
        labels = answer_online(algo, queries).labels
        return np.array([float(labels[0]), float(labels[-1])])

    acct_eps = lemma8_chain(U.first, n)[-1][1]
    g = ApproxDP(acct_eps.eps + U.sspp_eps, acct_eps.delta)
    extra = dict(pair_loss=lambda pair: unvprivcl_pair_loss(U, n, g.delta, pair, subsample=subsample))
    if subsample:
        extra.update(loss_neighbours=lambda rng: count_pair(n, U.first.n_prime(n), _near_balance(n, rng)),
                     starts=(count_pair(n, U.first.n_prime(n), (n - UNV_WORST_IMBALANCE) // 2),))
    return AuditCase(mechanism, None, agprivcl_pair(n, U.first.n_prime(n)), None, g.eps, g.delta, **extra)


def unvprivcl_law(U, n: int, side, subsample: bool = True) -> np.ndarray:
    """The law of A_UnvPrivCl's (first answer, h_priv(0)) on S = ``side``, cells (0, 0), (0, 1), (1, 0), (1, 1): given
    S the two phases draw independently, so it is the product of A_AgPrivCl's first answer at eps/2
    (``agprivcl_answer_probability``; with its step 2 skipped, on S' = S_fix: ``agprivcl_fixed_answer_probability``)
    and A_SSPP's h_priv on S at eps/2 (``sspp_one_point_probability``)."""
    pos = _positives(side)
    first = (agprivcl_answer_probability(U.first, n, pos) if subsample
             else agprivcl_fixed_answer_probability(U.first, *(int(c) for c in side[0][0])))
    return np.outer(binary(first), binary(sspp_one_point_probability(U.sspp_eps, n - pos, pos))).ravel()


def unvprivcl_pair_loss(U, n: int, delta: float, pair, subsample: bool = True) -> float:
    """The exact eps at ``delta`` of a pair for A_UnvPrivCl (``unvprivcl_law``, ``eps_at_delta``)."""
    return eps_at_delta(*(unvprivcl_law(U, n, side, subsample) for side in pair), delta)


TARGETS = TARGETS + (
    AuditTarget("nb20_relabel", "NB20 Lemma 5 (A o A_Relabel)",
                "Laplace count of S'''s positives after A_Relabel, declared Lemma 5's (eps_A + 3, 4 e delta)",
                lambda e, d: _relabel_case(e, d, lemma5=True), default_samples=400_000, results=("nb20:lemma5",)),
    AuditTarget("nb20_relabel_lemma5_skipped", "NB20 Lemma 5 skipped (broken)",
                "the same composition declared at A's own eps_A (the relabelling's cost ignored)",
                lambda e, d: _relabel_case(e, d, lemma5=False), expect_private=False, default_samples=400_000,
                results=("nb20:lemma5",)),
    AuditTarget("nb20_subsamp", "NB20 Alg 5 (A_SubSamp end to end)",
                "A_SubSamp at bounds nb20:alg5 (k = 3093), its split into k sub-samples included",
                lambda e, d: _subsamp_case(e, d, split=True), default_eps=0.99, default_delta=0.03,
                default_samples=20_000, results=("nb20:alg5",)),
    AuditTarget("nb20_subsamp_no_split", "NB20 Alg 5 without the split (broken)",
                "every sub-sample hypothesis trained on all of S, declared A_SubSamp's guarantee",
                lambda e, d: _subsamp_case(e, d, split=False), expect_private=False, default_eps=0.99,
                default_delta=0.03, default_samples=2_000, results=("nb20:alg5",)),
    AuditTarget("nb20_agprivcl", "NB20 Lemma 8 (A_AgPrivCl end to end)",
                "A_AgPrivCl at bounds nb20:alg3/alg5 (k = 105,762, n = 6.0e6), declared Lemma 8's total",
                lambda e, d: _agprivcl_case(e, d, subsample=True), default_eps=0.99, default_delta=0.03,
                default_samples=20_000, results=("nb20:lemma8",)),
    AuditTarget("nb20_agprivcl_no_subsampling", "NB20 Lemma 8 without step 2 (broken)",
                "A_AgPrivCl with S' = a fixed n' records of S while declaring amplification by n'/n",
                lambda e, d: _agprivcl_case(e, d, subsample=False), expect_private=False, default_eps=0.99,
                default_delta=0.03, default_samples=20_000, results=("nb20:lemma8",)),
    AuditTarget("nb20_unvprivcl", "NB20 Alg 4 (A_UnvPrivCl, both phases)",
                "A_UnvPrivCl at bounds nb20:thm11 with m = m_o + 1 queries, declared the composed budget",
                lambda e, d: _unvprivcl_case(e, d, subsample=True), default_eps=0.99, default_delta=0.03,
                default_samples=20_000, results=("nb20:alg4",)),
    AuditTarget("nb20_unvprivcl_first_phase_no_subsampling", "NB20 Alg 4, first phase without step 2 (broken)",
                "A_UnvPrivCl whose A_AgPrivCl skips its subsampling, declared the composed budget",
                lambda e, d: _unvprivcl_case(e, d, subsample=False), expect_private=False, default_eps=0.99,
                default_delta=0.03, default_samples=20_000, results=("nb20:alg4",)),
)

#: the contract test's sample counts (tests/simulations/test_contract.py), the least of 1,000 / 3,000 /
#: 10,000 / 30,000 at which the outcome was as expected in a measured run (seed 5; from 3,000 on for real
#: mechanisms). The double spend is caught at 3,000 (eps_lb 0.60) and runs at 10,000 (eps_lb 0.75; the modelled
#: power is 0.86 at 3,000 and 1.00 at 10,000, for 0.07 s of CPU). The end-to-end first-phase twin is not
#: caught at 1,000 and needs about 30,000 (minutes of CPU; recorded in benchmarks/RESULTS.md): it runs at 1,000
#: as a known failure, its leak checked directly in tests/simulations/test_nb20_audit.py
TARGETS = with_ci_samples(TARGETS, {
    "nb20_a_stab": 3_000, "nb20_a_stab_margin_sensitivity_1": 3_000, "nb20_unvprivcl_sspp": 3_000,
    "nb20_unvprivcl_double_spend": 10_000,
    "nb20_relabel": 3_000, "nb20_relabel_lemma5_skipped": 3_000,
    "nb20_subsamp": 3_000, "nb20_subsamp_no_split": 1_000,
    "nb20_agprivcl": 3_000, "nb20_agprivcl_no_subsampling": 1_000,
    "nb20_unvprivcl": 3_000, "nb20_unvprivcl_first_phase_no_subsampling": 1_000,
})
