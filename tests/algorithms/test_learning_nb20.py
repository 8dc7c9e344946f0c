"""NB20 Algorithms 2-5: A_Relabel, A_SubSamp (with A_stab and the sparse vector), A_AgPrivCl, A_UnvPrivCl.

Parameters come from bounds through simulations.experiments._nb20_common (the experiments' path), so
these tests also hold the algorithms to bounds' values.
"""

import math

import numpy as np
import pytest
from scipy import integrate, stats

import bounds
from algorithms.classes.constructors import thresholds
from algorithms.learning.agprivcl import AgPrivCl, lemma8_chain
from algorithms.learning.erm import erm
from algorithms.learning.relabel import EPS_TILDE, a_relabel, lemma5_guarantee, relabel_probabilities
from algorithms.learning.sspp import a_sspp_law
from algorithms.learning.subsamp import (SubSamp, SubSampParams, a_subsamp, laplace_difference_tail,
                                         subsample_hypotheses, vote_margins)
from algorithms.learning.unvprivcl import UnvPrivCl, label_histogram, sspp_from_histogram
from algorithms.privacy.accounting import ApproxDP, PureDP, amplify_by_subsampling, group_privacy
from simulations.experiments._nb20_common import (agprivcl_params, labeled_histogram, sample_labeled,
                                                  subsamp_params, unvprivcl_params)

CLS = thresholds(16)
TARGET = 8  # hypothesis j = 8: label 1 on points 0..7


def _realizable(n, rng):
    x = rng.integers(16, size=n)
    return x, CLS.matrix[TARGET, x]


# ------------------------------------------------------------------ A_Relabel (Algorithm 2)

def test_relabel_law_is_the_exponential_mechanism_at_eps_tilde_one_over_the_dichotomies():
    """Exact law: Pr[h^ = h] proportional to exp(-eps~ n' err^(h; S')/2) over one h per dichotomy on S'_u.
    Catches: a wrong eps~, the score without 1/n' sensitivity, or H~ = all of H (duplicated dichotomies)."""
    x = np.array([1, 3, 3, 9, 12])
    y = np.array([1, 1, 0, 0, 1])
    p = relabel_probabilities(CLS, x, y)
    counts = (CLS.matrix[:, x] != y.astype(bool)).sum(axis=1)
    _, first = np.unique(CLS.matrix[:, np.unique(x)], axis=0, return_index=True)
    members = np.sort(first)
    w = np.exp(-EPS_TILDE * counts[members] / 2.0)
    expected = np.zeros(CLS.num_hypotheses)
    expected[members] = w / w.sum()
    assert np.allclose(p, expected, atol=1e-12)
    assert members.size == 5  # 4 distinct points on a threshold class: 5 dichotomies


def test_relabel_output_is_s_prime_labelled_by_the_selected_hypothesis():
    rng = np.random.default_rng(1)
    x, y = _realizable(200, rng)
    y = y ^ (rng.random(200) < 0.3)
    out = a_relabel(CLS, x, y, rng)
    assert np.array_equal(out.points, x)
    assert np.array_equal(out.labels, CLS.matrix[out.hypothesis, x])


def test_relabel_draws_follow_the_exact_law():
    """Chi-square of 2000 draws against the exact law (fixed seed). Catches: sampling a different law
    (e.g. eps~ = 2 moves the mass by factors e^{+-1} on this sample)."""
    x, y = np.array([2, 5, 9]), np.array([1, 0, 1])
    p = relabel_probabilities(CLS, x, y)
    rng = np.random.default_rng(2)
    draws = np.array([a_relabel(CLS, x, y, rng).hypothesis for _ in range(2000)])
    support = np.flatnonzero(p)
    counts = np.array([(draws == h).sum() for h in support])
    assert counts.sum() == 2000
    assert stats.chisquare(counts, 2000 * p[support]).pvalue > 1e-3


def test_lemma5_adds_three_and_multiplies_delta_by_4e_and_refuses_eps_above_one():
    g = lemma5_guarantee(ApproxDP(0.5, 1e-4))
    assert g == ApproxDP(3.5, 4 * math.e * 1e-4)
    with pytest.raises(ValueError, match="eps <= 1"):
        lemma5_guarantee(ApproxDP(1.5, 1e-4))


# ------------------------------------------------------------------ A_SubSamp (Algorithm 5)

def test_subsample_hypotheses_are_the_erm_of_each_disjoint_subsample():
    """The batched ERM equals algorithms.learning.erm.erm on every sub-sample (least-index ties)."""
    rng = np.random.default_rng(3)
    x = rng.integers(16, size=1003)
    y = (x < 6) ^ (rng.random(1003) < 0.25)
    hyps = subsample_hypotheses(CLS, x, y, 10)
    s = 100
    ref = [erm(CLS, x[j * s:(j + 1) * s], y[j * s:(j + 1) * s]).hypothesis for j in range(10)]
    assert hyps.tolist() == ref
    with pytest.raises(ValueError, match="n=3 examples"):
        subsample_hypotheses(CLS, x[:3], y[:3], 10)


def test_vote_margin_is_largest_minus_second_largest_count_ties_to_label_zero():
    hyps = np.array([3, 3, 5, 8])  # h_j is 1 on points < j; at point 4: 0, 0, 1, 1 (a tie)
    maj, margin = vote_margins(CLS, hyps)
    assert (maj[4], margin[4]) == (False, 0)
    assert (maj[0], margin[0]) == (True, 4)
    assert (maj[5], margin[5]) == (False, 2)
    assert (maj[15], margin[15]) == (False, 4)


def test_laplace_difference_tail_equals_the_convolution_integral():
    for t in (-3.0, 0.0, 1.0, 7.5):
        def f(y, t=t):
            tail = 0.5 * math.exp(-(t + y) / 2.0) if t + y >= 0 else 1 - 0.5 * math.exp((t + y) / 2.0)
            return tail * math.exp(-abs(y)) / 2.0
        exact = integrate.quad(f, -60, 60, points=[0.0, -t], limit=200)[0]
        assert laplace_difference_tail(t, 2.0, 1.0) == pytest.approx(exact, rel=1e-8, abs=1e-12)


@pytest.mark.parametrize("lam,suffix", [("tight", "_tight"), ("cautious", "")])
@pytest.mark.parametrize("eps,delta,beta,m,T", [(1.0, 0.01, 0.1, 100, 2.0), (0.5, 1e-4, 0.05, 40, 3.7)])
def test_subsamp_parameters_equal_bounds_alg5(eps, delta, beta, m, T, lam, suffix):
    """lambda, k, w (tight or cautious) and the margin sensitivity are bounds nb20:alg5's, and the sparse vector
    inside A_SubSamp runs at threshold noise Lap(lambda), query noise Lap(2 lambda) on -dist against -w."""
    c = bounds.compute("nb20:alg5", epsilon=eps, delta=delta, beta=beta, num_queries=m, cutoff=T)
    p = subsamp_params(eps, delta, beta, m, T, lam)
    assert p.lam == pytest.approx(float(c["lambda" + suffix]), rel=1e-12)
    assert p.k == int(math.ceil(c["subsamples" + suffix]))
    assert p.w == pytest.approx(float(c["threshold" + suffix]), rel=1e-12)
    assert p.margin_sensitivity == float(c["margin_sensitivity"])
    assert p.round_epsilon == pytest.approx(2 * float(c["margin_sensitivity"]) / float(c["lambda" + suffix]),
                                            rel=1e-12)
    rng = np.random.default_rng(4)
    x, y = _realizable(p.k, rng)
    algo = SubSamp(CLS, x, y, p, rng)
    assert algo._sv.threshold_scale == pytest.approx(p.lam, rel=1e-9)
    assert algo._sv.query_scale == pytest.approx(2 * p.lam, rel=1e-9)
    assert algo._sv.threshold == -p.w
    assert algo._sv.c == math.floor(T)


def test_subsamp_declared_privacy_is_at_most_eps_delta_and_eps_exactly_at_integer_T():
    """Advanced composition of floor(T) rounds at delta/2 and the stable-release tail stay within
    (eps, delta); at integer T the SparseVector's eps is the input eps (lambda calibrated to it).
    Catches: the printed lambda read at sensitivity 2 (declared eps would double)."""
    for eps, delta, T in ((1.0, 0.01, 2.0), (0.3, 1e-6, 5.0), (0.9, 0.03, 1.0)):
        p = subsamp_params(eps, delta, 0.1, 100, T, "cautious")
        g = p.guarantee()
        assert p.sparse_vector_eps == pytest.approx(eps, rel=1e-9)
        assert g.eps <= eps * (1 + 1e-9) and g.delta <= delta
        broken = SubSampParams(**{**p.__dict__, "lam": p.lam / 2, "margin_sensitivity": 2.0})
        assert broken.guarantee().eps > 1.9 * eps


def test_tight_lambda_declares_the_rounds_composition_just_below_eps():
    """At bounds' lambda_tight A_SubSamp declares the advanced composition of its floor(T) rounds (each
    4/lambda-DP): <= eps and within 1% of it at integer T, while SparseVector's closed form at that lambda
    would say ~2 eps. Catches the tight lambda run with the closed-form declaration (or vice versa)."""
    for eps, delta, T in ((1.0, 0.01, 2.0), (0.3, 1e-6, 5.0), (0.9, 0.03, 1.0)):
        p = subsamp_params(eps, delta, 0.1, 100, T, "tight")
        g = p.guarantee()
        assert p.accounting == "composition"
        assert 0.99 * eps <= g.eps <= eps * (1 + 1e-9) and g.delta <= delta
        assert p.sparse_vector_eps > 1.5 * eps
        assert SubSampParams(**{**p.__dict__, "accounting": "sparse_vector"}).guarantee().eps > 1.5 * eps


def test_subsamp_halts_after_floor_T_unstable_answers_then_answers_coins():
    """bounds' lambda and k with w moved far above every margin (<= k), so each query is unstable until
    the sparse vector halts after floor(T) = 3 of them. Catches the printed guard c <= T (4 rounds)."""
    p = subsamp_params(1.0, 0.01, 0.1, 50, 3.5)
    p = SubSampParams(**{**p.__dict__, "w": 1e6 * p.k})
    rng = np.random.default_rng(5)
    x, y = _realizable(p.k, rng)
    rel = a_subsamp(CLS, x, y, rng.integers(16, size=50), p, rng)
    ans = rel.value
    assert ans.unstable.all()
    assert ans.halted_at == 3
    assert rel.guarantee == p.guarantee()
    algo = SubSamp(CLS, x, y, p, rng)
    for q in range(50):
        algo.answer(q % 16)
    with pytest.raises(ValueError, match="m=50 queries"):
        algo.answer(0)


def test_subsamp_answers_match_the_target_on_a_realizable_toy():
    """64 examples per sub-sample on 16 uniform points: every vote margin is near k >> w, so every answer
    is the target's label. Catches: majority inverted, margin compared the wrong way round."""
    p = subsamp_params(1.0, 0.01, 0.1, 40, 1.0)
    rng = np.random.default_rng(6)
    x, y = _realizable(64 * p.k, rng)
    q = rng.integers(16, size=40)
    ans = a_subsamp(CLS, x, y, q, p, rng).value
    assert not ans.unstable.any()
    assert np.array_equal(ans.labels, CLS.matrix[TARGET, q])


# ------------------------------------------------------------------ A_AgPrivCl (Algorithm 3, Lemma 8)

@pytest.mark.parametrize("alpha,beta,eps,delta,m", [(0.3, 0.2, 0.99, 0.03, 100), (0.1, 0.05, 0.5, 1e-6, 1000)])
def test_agprivcl_parameters_equal_bounds_alg3_and_alg5(alpha, beta, eps, delta, m):
    c = bounds.compute("nb20:alg3", alpha=alpha, beta=beta, epsilon=eps, delta=delta, num_queries=m)
    p = agprivcl_params(alpha, beta, eps, delta, m)
    assert p.rate == pytest.approx(float(c["subsample_fraction"]), rel=1e-12)
    assert p.cutoff == pytest.approx(float(c["cutoff"]), rel=1e-12)
    assert p.eps_hat == pytest.approx(float(c["eps_hat"]), rel=1e-12)
    assert p.delta_hat == pytest.approx(float(c["delta_hat"]), rel=1e-12)
    t7 = bounds.compute("nb20:thm7", alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=1, num_queries=m)
    assert p.subsamp.k == int(math.ceil(t7["subsamples_tight"]))  # the tight lambda, adopted by default
    assert p.subsamp.lam == pytest.approx(float(t7["lambda_tight"]), rel=1e-12)
    cautious = agprivcl_params(alpha, beta, eps, delta, m, "cautious")
    assert cautious.subsamp.k == int(math.ceil(t7["subsamples"]))
    assert cautious.subsamp.lam == pytest.approx(float(t7["lambda"]), rel=1e-12)


@pytest.mark.parametrize("alpha,beta,eps,delta,m", [(0.3, 0.2, 0.99, 0.03, 100), (0.1, 0.05, 0.5, 1e-6, 1000),
                                                    (0.45, 0.5, 0.2, 0.01, 20)])
def test_lemma8_chain_composes_to_at_most_eps_delta_step_by_step(alpha, beta, eps, delta, m):
    """Each step is the accounting rule it names, and the total is within Theorem 7's (eps, delta) and
    bounds' Lemma 8 total. Catches: a missing amplification (eps* + 3 > 3 > eps), group privacy over
    the wrong r, the bad-event probability left out."""
    p = agprivcl_params(alpha, beta, eps, delta, m)
    n = 10 * p.min_private_samples()
    steps = [g for _, g in lemma8_chain(p, n)]
    r = math.floor(math.log(2 / delta))
    assert steps[1] == group_privacy(steps[0], r)
    assert steps[2].eps == steps[1].eps and steps[2].delta == pytest.approx(
        steps[1].delta + stats.binom.sf(r, p.n_prime(n), 1 / p.n_prime(n)), rel=1e-12)
    assert steps[3] == lemma5_guarantee(steps[2])
    assert steps[4] == amplify_by_subsampling(steps[3], p.n_prime(n) / n)
    total = steps[-1]
    assert total.eps <= eps and total.delta <= delta
    c = bounds.compute("nb20:alg3", alpha=alpha, beta=beta, epsilon=eps, delta=delta, num_queries=m)
    assert total.eps <= float(c["total_epsilon"]) * (1 + 1e-9)


def test_agprivcl_answers_match_the_target_on_a_realizable_toy_and_declares_lemma8():
    """Exact-law entry (S' drawn i.i.d.): n' = 16 k examples on 16 points, so h^ is the target and every
    sub-sample's vote is stable. Catches: relabelling with the wrong hypothesis, resampling S'' wrongly."""
    p = agprivcl_params(0.45, 0.5, 0.99, 0.03, 20)
    n = int(math.ceil(16 * p.subsamp.k / p.rate))
    rng = np.random.default_rng(7)
    x, y = _realizable(p.n_prime(n), rng)
    y = y ^ (rng.random(y.size) < 0.2)  # agnostic labels: A_Relabel must recover the target
    algo = AgPrivCl.after_step2(CLS, x, y, n, p, rng)
    assert algo.relabeled.hypothesis == TARGET
    q = rng.integers(16, size=20)
    answers = [algo.answer(int(v)) for v in q]
    assert [a for a, _ in answers] == CLS.matrix[TARGET, q].tolist()
    assert algo.guarantee == lemma8_chain(p, n)[-1][1]
    with pytest.raises(ValueError, match="allowed n >="):
        AgPrivCl.after_step2(CLS, x[:10], y[:10], int(10 / p.rate) + 1, p, rng)


# ------------------------------------------------------------------ A_UnvPrivCl (Algorithm 4, Theorem 11)

def test_sspp_from_histogram_has_a_sspp_law():
    rng = np.random.default_rng(8)
    x = rng.integers(16, size=30)
    y = (x < 5) ^ (rng.random(30) < 0.2)
    pub = np.array([0, 4, 4, 9, 15])
    law = a_sspp_law(CLS, x, y, pub, 0.7).hypothesis_probabilities()
    pos, neg = label_histogram(16, x, y)
    draws = np.bincount([sspp_from_histogram(CLS, pos, neg, pub, 0.7, rng) for _ in range(3000)],
                        minlength=CLS.num_hypotheses)
    support = np.flatnonzero(law)
    assert draws[np.setdiff1d(np.arange(CLS.num_hypotheses), support)].sum() == 0
    assert stats.chisquare(draws[support], 3000 * law[support]).pvalue > 1e-3


def test_unvprivcl_switches_at_m_o_and_composes_the_split_budget():
    """Online: the first m_o answers come from A_AgPrivCl, h_priv appears right after query m_o and
    answers the rest; the total is A_AgPrivCl's (at eps/2) plus eps/2, within (eps, delta).
    Catches: the printed double spend (eps for both phases) and a switch one query early or late."""
    alpha, beta, eps, delta, m = 0.45, 0.5, 0.99, 0.03, 400
    p = unvprivcl_params(alpha, beta, eps, delta, 1, m)
    c = bounds.compute("nb20:thm11", alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=1, num_queries=m)
    assert p.m_o == int(math.ceil(c["public_samples"])) and p.m_o < m
    assert p.first.eps == pytest.approx(float(c["privacy_eps"])) and p.first.beta == float(c["failure_probability"])
    n = int(math.ceil(2 * p.first.subsamp.k / p.first.rate))
    rng = np.random.default_rng(9)
    joint = np.zeros((16, 2))
    joint[np.arange(16), CLS.matrix[TARGET].astype(int)] = 1 / 16
    sx, sy = sample_labeled(joint, p.first.n_prime(n), rng)
    pos, neg = labeled_histogram(joint, n - sx.size, rng)
    hist = label_histogram(16, sx, sy)
    algo = UnvPrivCl.after_step2(CLS, sx, sy, (pos + hist[0], neg + hist[1]), p, rng)
    assert algo.n == n
    q = rng.integers(16, size=m)
    labels = []
    for i in range(m):
        labels.append(algo.answer(int(q[i]))[0])
        assert (algo.h_priv is not None) == (i + 1 >= p.m_o)
        if i + 1 == p.m_o:
            assert algo.public == q[:p.m_o].tolist()
    assert algo.h_priv == TARGET  # realizable toy: A_SSPP at eps/2 on n ~ 10^8 examples picks the target
    assert labels[p.m_o:] == CLS.matrix[TARGET, q[p.m_o:]].tolist()
    g = algo.guarantee
    first = algo.first.guarantee
    assert g == ApproxDP(first.eps + eps / 2, first.delta)
    assert g.eps <= eps and g.delta <= delta
    assert first.eps + eps > eps  # the printed budget (eps to each phase) would exceed eps
    assert algo.accountant.entries[0][1] == PureDP(eps / 2)


def test_subsamp_stability_test_is_a_stab_against_the_noisy_threshold():
    """Steps 2, 9, 10 as one sparse-vector round: for a margin M = w - 2 lambda, Pr[stable] =
    Pr[M + Lap(2 lambda) > w + Lap(lambda)] = laplace_difference_tail(2 lambda; 2 lambda, lambda) = 0.2227, and the
    printed composition (Algorithm 6's A_stab at eps = 1/(2 lambda) against w^ = w + Lap(lambda)) gives the same
    rate. 3000 runs each, 99.9% Clopper-Pearson intervals. Catches: query noise Lap(lambda) (rate e^-2 = 0.135), no
    threshold noise (0.184), the comparison reversed (0.777)."""
    from algorithms.privacy.stability import a_stab
    from simulations.stats import clopper_pearson

    p = subsamp_params(1.0, 0.01, 0.1, 100, 2.0)
    margin = int(round(p.w - 2 * p.lam))
    a = (p.k + margin + 1) // 2
    margin = 2 * a - p.k
    hyps = np.array([16] * a + [0] * (p.k - a))  # h_16 votes 1 everywhere, h_0 votes 0
    expected = 1.0 - laplace_difference_tail(margin - p.w, 2 * p.lam, p.lam)
    rng = np.random.default_rng(10)
    stable = sum(not SubSamp.from_hypotheses(CLS, hyps, p, rng).answer(3)[1] for _ in range(3000))
    ref = sum(a_stab(None, lambda S: 1, lambda S: margin, p.w + rng.laplace(0, p.lam), 1 / (2 * p.lam), rng).value
              is not None for _ in range(3000))
    for count in (stable, ref):
        lo, hi = clopper_pearson(count, 3000, 0.999)
        assert lo <= expected <= hi, (count, expected)
    assert abs(expected - 0.2227) < 0.01
