"""NB20 audit targets' exact pair losses (simulations/audit_targets/nb20.py, _nb20_laws.py): each exact law the
loss is computed from is held to the mechanism's own draws (fixed seeds; Clopper-Pearson or DKW bands at 99.9%,
Bonferroni over the cells), the hockey-stick inversion to brute force, and the lines print the losses."""

import itertools
import math

import numpy as np
import pytest
from scipy import special, stats

from simulations import audit
from simulations.audit_targets import _nb20_laws as laws
from simulations.audit_targets import nb20
from simulations.audit_targets.noisy_erm import _binary_eps

ALPHA = 1e-3


def _draw_counts(case, side, draws: int, seed: int, cells: int) -> np.ndarray:
    """Counts of the outputs (binary, or a pair of binary answers as 2 a + b) of ``draws`` runs of the mechanism."""
    rng = np.random.default_rng(seed)
    out = np.array([np.ravel(case.mechanism(side, None, rng)) for _ in range(draws)], dtype=float)
    codes = (out @ (2.0 ** np.arange(out.shape[1])[::-1])).astype(int)
    return np.bincount(codes, minlength=cells)


def _inside_clopper_pearson(counts: np.ndarray, probs: np.ndarray, alpha: float) -> bool:
    """Every cell's exact probability inside its two-sided Clopper-Pearson interval at alpha / #cells."""
    total, level = int(counts.sum()), alpha / counts.size
    for c, p in zip(counts, probs):
        lo = stats.beta.ppf(level / 2, c, total - c + 1) if c > 0 else 0.0
        hi = stats.beta.ppf(1 - level / 2, c + 1, total - c) if c < total else 1.0
        if not lo <= p <= hi:
            return False
    return True


def test_eps_at_delta_is_the_least_eps_of_every_event():
    """``eps_at_delta`` against brute force over all 2^4 events (bisection on sup_E P(E) - e^eps Q(E) <= delta) on
    random laws, and against the binary closed form. Catches an inversion that reads one direction only or stops
    at the single most likely-ratio output (a break tried: only the first top set, which fails here)."""
    rng = np.random.default_rng(0)
    for _ in range(40):
        p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        delta = float(rng.choice([0.0, 0.01, 0.1]))
        events = [np.array(e, dtype=bool) for e in itertools.product([0, 1], repeat=4)]

        def excess(eps):
            return max(max(p[e].sum() - math.exp(eps) * q[e].sum(), q[e].sum() - math.exp(eps) * p[e].sum())
                       for e in events)

        lo, hi = 0.0, 50.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if excess(mid) > delta else (lo, mid)
        assert laws.eps_at_delta(p, q, delta) == pytest.approx(hi, abs=1e-9)
        assert laws.eps_at_delta(laws.binary(p[0]), laws.binary(q[0]), delta) == pytest.approx(
            _binary_eps(1 - p[0], 1 - q[0], delta), abs=1e-12)


def test_a_stab_release_law_matches_its_draws_and_its_loss_by_hand():
    """A_stab on the vote margins 6 and 4 (the pair) and 2: Pr[release] = (1/2) e^{-eps (10 - M) / 2} inside
    Clopper-Pearson intervals of 200,000 draws each; the pair's loss at the declared delta d = (1/2) e^{-5 eps} is
    log((p6 - d) / p4) = log(e - e^{-2}) = 0.949 at eps = 1. Catches a law whose threshold is Gamma instead of
    Delta Gamma (the break tried: release probabilities e^5 too large, outside every interval)."""
    case = nb20._stab_case(1.0, 0.0, sensitivity=2.0)
    mech = nb20.DistanceToInstability(1.0, nb20.GAMMA, sensitivity=2.0)
    rng = np.random.default_rng(7)
    for margin in (6, 4, 2):
        hits = int(np.count_nonzero(mech.sample(margin, rng, 200_000)))
        p = laws.stab_release_probability(mech, margin)
        assert p == pytest.approx(0.5 * math.exp(-(10 - margin) / 2))
        assert _inside_clopper_pearson(np.array([200_000 - hits, hits]), laws.binary(p), ALPHA / 3), (margin, hits)
    assert case.pair_loss(case.private_pair) == pytest.approx(math.log(math.e - math.exp(-2)), rel=1e-12)


def test_relabel_output_law_matches_its_draws():
    """A o A_Relabel's output, the Laplace mixture over h^ (``relabel_centre_weights``), against 20,000 batched draws
    of the mechanism on each side of the pair: sup |F_n - F| inside the DKW band sqrt(log(2 / alpha) / (2 n)).
    Catches weights from h^'s law at the wrong eps~ (the break tried: eps~ / 2, outside the band on D1)."""
    case = nb20._relabel_case(1.0, 0.0, lemma5=True)
    rng = np.random.default_rng(3)
    n = 20_000
    band = math.sqrt(math.log(2 * 2 / ALPHA) / (2 * n))
    for side in case.private_pair:
        o = np.sort(case.mechanism(side, None, rng, size=n))
        f = laws.laplace_mixture_cdf(nb20.relabel_centre_weights(side), 1.0, o)
        gap = max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))
        assert gap <= band, gap


def test_relabel_loss_is_the_sup_of_the_density_ratio():
    """The sup at the integers of ``laplace_mixture_loss`` against a fine grid of the two mixture densities over
    [-30, 36] (the grid is below the sup and within 1e-3 of it), on the pair (its sup at o = 1, a centre only D1's
    law weighs). Catches a sup read only at the centres both laws weigh (the break tried: 1.40 at o = 0)."""
    d0, d1 = nb20.relabel_pair()
    w0, w1 = nb20.relabel_centre_weights(d0), nb20.relabel_centre_weights(d1)
    o = np.linspace(-30, 36, 200_001)
    dens = [stats.laplace.pdf(o[:, None], loc=np.arange(w.size)[None, :]) @ w for w in (w0, w1)]
    grid = float(np.max(np.abs(np.log(dens[0]) - np.log(dens[1]))))
    loss = laws.laplace_mixture_loss(w0, w1, 1.0)
    assert grid <= loss + 1e-12 and loss - grid < 1e-3 and loss == pytest.approx(1.6515, abs=1e-4)


def test_majority_vote_law_by_enumeration_and_convolution():
    """``majority_vote_laws`` (a recurrence) against every split of 12 records into 4 blocks of 3, and against the
    direct sum C(k, v) sum_i C(v, i) C(k - v, P - 2v - i) 3^{P - v - 2i} / C(3k, P) at k = 41 and at the target's
    k = 3093, P = 3k/2 (where the recurrence subtracts). Catches a recurrence with a wrong coefficient or shift, or
    one whose cancellation grows."""
    k, n = 4, 12
    table = laws.majority_vote_laws(k, n // 2)
    for P in range(n // 2 + 1):
        v = [(np.isin(np.arange(n), c).reshape(k, 3).sum(axis=1) >= 2).sum()
             for c in itertools.combinations(range(n), P)]
        assert np.allclose(table[P], np.bincount(v, minlength=k + 1) / len(v)), P
    k = 41
    table = laws.majority_vote_laws(k, 3 * k // 2)
    for P in (10, 40, 61):
        direct = [math.comb(k, v) * sum(math.comb(v, i) * math.comb(k - v, P - 2 * v - i) * 3 ** (P - v - 2 * i)
                                        for i in range(v + 1) if 0 <= P - 2 * v - i <= k - v)
                  for v in range(k + 1)]
        assert np.allclose(table[P], np.array(direct, dtype=float) / math.comb(3 * k, P), rtol=0, atol=1e-13)
    k, P = 3093, 4639      # the target's k, P = 3k/2 (the recurrence subtracts from P = k + 2 on): log-space sum
    lf = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, 3 * k + 1)))])
    v, i = np.arange(k + 1)[:, None], np.arange(k + 1)[None, :]
    j = P - 2 * v - i
    ok = (i <= v) & (j >= 0) & (j <= k - v)
    jj, ii = np.where(ok, j, 0), np.where(ok, i, 0)
    terms = np.where(ok, lf[v] - lf[ii] - lf[v - ii] + lf[k - v] - lf[jj] - lf[np.maximum(k - v - jj, 0)]
                     + (P - v - 2 * ii) * math.log(3.0), -np.inf)
    direct = np.exp(lf[k] - lf[v[:, 0]] - lf[k - v[:, 0]] + special.logsumexp(terms, axis=1)
                    - (lf[3 * k] - lf[P] - lf[3 * k - P]))
    assert np.max(np.abs(laws.majority_vote_laws(k, P)[P] - direct)) < 1e-11


@pytest.mark.slow
def test_subsamp_answer_law_matches_its_draws():
    """A_SubSamp end to end (k = 3093): Pr[answer 1] (``subsamp_answer_table``) inside Clopper-Pearson intervals of
    3,000 runs on each side of the pair (0.4997, 0.5003) and on S with 4,720 and 4,760 labels 1 of 9,279 (0.63,
    0.79: the stability test decides there). Catches a stable probability read at half the margin (the break tried:
    0.53 and 0.55 at 4,720 and 4,760, outside the intervals)."""
    case = nb20._subsamp_case(0.99, 0.03, split=True)
    table = laws.subsamp_answer_table(nb20.subsamp_params(0.99, 0.03, nb20.AG_BETA, 1, 1.0))
    n = 3 * nb20.subsamp_params(0.99, 0.03, nb20.AG_BETA, 1, 1.0).k
    sides = [*case.private_pair, nb20._single_point(n - 4720, 4720), nb20._single_point(n - 4760, 4760)]
    for j, side in enumerate(sides):
        counts = _draw_counts(case, side, 3_000, 20 + j, 2)
        assert _inside_clopper_pearson(counts, laws.binary(table[int(side[0, 1])]), ALPHA / len(sides)), (j, counts)


@pytest.mark.slow
def test_agprivcl_answer_law_matches_its_draws():
    """A_AgPrivCl end to end (k = 105,762, n = 6.0e6): Pr[answer 1] (``agprivcl_answer_probability``) inside
    Clopper-Pearson intervals of 3,000 runs on each side of the pair and on S with 6,000 labels 1 fewer than half
    (0.255: the spread of the hypergeometric S' decides there); h^'s closed form against ``a_sspp_law``. Catches a
    law that skips the average over S' (the break tried: h^'s probability at the mean of pos', about 1e-46 at the
    imbalanced S). h^'s own eps~ barely shows here: at eps~ / 2 the imbalanced S gives 0.25525 for 0.25521.)"""
    case = nb20._agprivcl_case(0.99, 0.03, subsample=True)
    params, n = nb20._agprivcl_setup(0.99, 0.03)
    imbalanced = nb20.count_pair(n, params.n_prime(n), n // 2 - 6000)[0]
    sides = [*case.private_pair, imbalanced]
    for j, side in enumerate(sides):
        p = laws.agprivcl_answer_probability(params, n, nb20._positives(side))
        counts = _draw_counts(case, side, 3_000, 30 + j, 2)
        assert _inside_clopper_pearson(counts, laws.binary(p), ALPHA / len(sides)), (j, counts, p)
    for neg, pos in ((7, 3), (2, 9)):
        law = nb20.a_sspp_law(nb20._CLS1, np.zeros(2, dtype=np.int64), np.array([0, 1]), np.zeros(1, dtype=np.int64),
                              0.7, counts=np.array([neg, pos]))
        assert law.hypothesis_probabilities()[1] == pytest.approx(laws.sspp_one_point_probability(0.7, neg, pos))


@pytest.mark.slow
def test_unvprivcl_joint_law_matches_its_draws():
    """A_UnvPrivCl (both phases): the product law of (first answer, h_priv(0)) inside Clopper-Pearson intervals of
    3,000 runs on each side of the pair (h_priv = h_1 w.p. 0.23 / 0.32) and on S with 20,000 labels 1 fewer than
    half (first answer 1 w.p. 0.245). Catches a law that couples the phases or reads A_SSPP at the full eps (the
    break tried: A_SSPP at eps, h_priv = h_1 w.p. 0.08 / 0.18, outside the intervals)."""
    case = nb20._unvprivcl_case(0.99, 0.03, subsample=True)
    U, n = nb20.unvprivcl_setup(0.99, 0.03)
    imbalanced = nb20.count_pair(n, U.first.n_prime(n), n // 2 - 20_000)[0]
    sides = [*case.private_pair, imbalanced]
    for j, side in enumerate(sides):
        law = nb20.unvprivcl_law(U, n, side)
        counts = _draw_counts(case, side, 3_000, 40 + j, 4)
        assert _inside_clopper_pearson(counts, law, ALPHA / len(sides)), (j, counts, law)


@pytest.mark.parametrize("name, loss", [("nb20_a_stab", "0.9489"), ("nb20_relabel", "1.652"), ("nb20_subsamp", "0"),
                                        ("nb20_agprivcl", "0"), ("nb20_unvprivcl", "0.3567"),
                                        ("nb20_subsamp_no_split", "114.5"), ("nb20_agprivcl_no_subsampling", "0.8029"),
                                        ("nb20_unvprivcl_first_phase_no_subsampling", "1.16")])
def test_the_lines_print_the_pairs_loss_and_the_worst_pair_found(name, loss):
    """Each real NB20 target's line states its pair's exact loss and the exact search's worst pair (a small run: the
    loss and the search use no samples); A_SubSamp's and A_AgPrivCl's also state their bound on every pair's shift
    (tests/simulations/test_nb20_shift_bounds.py). Catches a target whose loss or bound is not handed to the auditor
    (the break tried: A_AgPrivCl's bound replaced by one above delta, so its line claims nothing of every pair)."""
    text = str(audit.run_target(name, samples=200, seed=0))
    assert f"exact privacy loss of the pair: eps {loss}" in text, text
    if audit.targets()[name].expect_private:
        assert "worst pair: exact-loss search" in text, text
    if name in ("nb20_subsamp", "nb20_agprivcl"):
        assert "every pair: no neighbouring pair" in text and "< delta" in text, text


def test_relabel_worst_pair_is_the_largest_over_every_small_pair():
    """``relabel_worst_pair`` (the exact search's start) has the largest exact loss, 1.777, among all S' of 2..6
    records over thresholds(N=3) and every move of one record to another cell (917 data sets); the target's own pair
    has 1.652. Catches a start that is not the enumeration's worst."""
    hists = [np.array(c) for t in range(2, nb20.RELABEL_MAX + 1)
             for c in itertools.product(range(t + 1), repeat=6) if sum(c) == t]
    w = {c.tobytes(): nb20.relabel_centre_weights(c.reshape(3, 2)) for c in hists}
    best = 0.0
    for h in hists:
        for a in np.flatnonzero(h):
            for b in set(range(6)) - {a}:
                g = h.copy()
                g[a], g[b] = g[a] - 1, g[b] + 1
                best = max(best, laws.laplace_mixture_loss(w[h.tobytes()], w[g.tobytes()], 1.0))
    worst = nb20.relabel_pair_loss(1.0, nb20.relabel_worst_pair())
    assert worst == pytest.approx(best, rel=1e-12) and worst == pytest.approx(1.7769, abs=1e-4)


def test_agprivcl_and_subsamp_pairs_all_have_loss_0_at_the_declared_delta():
    """On their one-point domain every neighbouring pair is a count of labels 1 and that count plus one. A_SubSamp:
    over all 3k counts the answer's probability moves by at most 0.0044 < delta = 0.0257, so every pair's loss at
    delta is 0. A_AgPrivCl: near balance, where the hypergeometric-averaged h^ is steepest, it moves by at most
    4.4e-5 < delta = 0.0029 (the target's pair 4.4e-5). Catches a law that would make the eps_lb = 0 of these
    audits the test's rather than the pair's (the break tried: A_AgPrivCl's h^ not averaged over S', jumps 0.0044).
    """
    params = nb20.subsamp_params(0.99, 0.03, nb20.AG_BETA, 1, 1.0)
    jumps = np.abs(np.diff(laws.subsamp_answer_table(params)))
    assert jumps.max() == pytest.approx(0.00439, abs=1e-5) and jumps.max() < params.guarantee().delta
    ag, n = nb20._agprivcl_setup(0.99, 0.03)
    p = [laws.agprivcl_answer_probability(ag, n, P) for P in range(n // 2 - 200, n // 2 + 201)]
    delta = nb20.lemma8_chain(ag, n)[-1][1].delta
    assert 4.3e-5 < np.max(np.abs(np.diff(p))) < 4.5e-5 < delta
    case = nb20._agprivcl_case(0.99, 0.03, subsample=True)
    assert case.pair_loss(case.private_pair) == 0.0


def test_unvprivcl_worst_pair_in_its_window_and_none_outside():
    """A_UnvPrivCl: over S with labels 0 minus labels 1 b in [-80, 80] (and the neighbour b - 2) the largest exact
    loss at the declared delta is 0.451 at b = 13 (``UNV_WORST_IMBALANCE``, the exact search's start; the target's
    own pair b = 5: 0.357), and for |b| >= 64 (outside the search's window) the two laws are within total variation
    delta, so the loss there is 0. Catches a start or a window that misses the worst pair."""
    U, n = nb20.unvprivcl_setup(0.99, 0.03)
    case = nb20._unvprivcl_case(0.99, 0.03, subsample=True)
    scan = {}
    for b in range(-80, 81):
        l0, l1 = (nb20.unvprivcl_law(U, n, side) for side in nb20.count_pair(n, U.first.n_prime(n), (n - b) // 2))
        scan[n - 2 * ((n - b) // 2)] = (laws.eps_at_delta(l0, l1, case.delta), 0.5 * np.abs(l0 - l1).sum())
    worst = max(scan, key=lambda b: scan[b][0])
    assert worst == nb20.UNV_WORST_IMBALANCE and scan[worst][0] == pytest.approx(0.4509, abs=1e-4)
    assert case.pair_loss(case.starts[0]) == scan[worst][0]
    assert all(t < case.delta and x == 0.0 for b, (x, t) in scan.items() if abs(b) >= nb20.BALANCE_WINDOW)


@pytest.mark.slow
def test_broken_twins_laws_match_their_draws():
    """The broken twins' exact laws (their lines' exact losses) inside Clopper-Pearson intervals of their own draws:
    A_SubSamp without the split (1,000 runs a side: the answer is ERM(S)(0) but for a coin of probability 1.8e-50,
    loss 114.5 at delta), A_AgPrivCl without step 2 (3,000 a side: 0.119 against 0.269, loss 0.803 at delta, declared
    0.345) and A_UnvPrivCl whose first phase skips it (2,000 a side, four cells: (1, 1) 0.027 against 0.087, loss
    1.160 at delta, declared 0.862). Catches a twin's law read through step 2's hypergeometric S' (the break tried:
    ``agprivcl_answer_probability`` for the fixed S', about 0.4999 a side, far outside the intervals)."""
    targets = audit.targets()
    params = nb20.subsamp_params(0.99, 0.03, nb20.AG_BETA, 1, 1.0)
    case = targets["nb20_subsamp_no_split"].make(0.99, 0.03)
    for j, side in enumerate(case.private_pair):
        law = laws.subsamp_no_split_answer_law(params, nb20._CLS1, side)
        assert _inside_clopper_pearson(_draw_counts(case, side, 1_000, 50 + j, 2), law, ALPHA / 2)
    assert case.pair_loss(case.private_pair) == pytest.approx(114.507, abs=1e-3)
    ag, n = nb20._agprivcl_setup(0.99, 0.03)
    case = targets["nb20_agprivcl_no_subsampling"].make(0.99, 0.03)
    for j, side in enumerate(case.private_pair):
        law = laws.binary(laws.agprivcl_fixed_answer_probability(ag, *(int(c) for c in side[0][0])))
        assert _inside_clopper_pearson(_draw_counts(case, side, 3_000, 60 + j, 2), law, ALPHA / 2), (j, law)
    assert case.pair_loss(case.private_pair) == pytest.approx(0.80295, abs=1e-5)
    U, n = nb20.unvprivcl_setup(0.99, 0.03)
    case = targets["nb20_unvprivcl_first_phase_no_subsampling"].make(0.99, 0.03)
    for j, side in enumerate(case.private_pair):
        law = nb20.unvprivcl_law(U, n, side, subsample=False)
        assert _inside_clopper_pearson(_draw_counts(case, side, 2_000, 70 + j, 4), law, ALPHA / 2), (j, law)
    assert case.pair_loss(case.private_pair) == pytest.approx(1.16015, abs=1e-5)
