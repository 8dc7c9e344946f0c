"""NB20 Algorithms 2, 3, 5 (and 4): the count-based path (labelled histograms, each sample drawn from its exact
law given the counts before it) against the per-example path.

At sizes where the per-example path runs, both are run a few hundred times on the same fixed S and the laws of
what they release (the answers to a fixed query sequence) and of A_Relabel's h^ are compared by chi-square
two-sample tests at a Bonferroni level; a deliberately wrong count law (S^'s sub-samples drawn from S' without
the relabelling) must be separated by the same tests. Parameters are set by hand (not from bounds) so that
the stability test acts: k = 48 votes, lambda = 10, w = 30 (lambda = 25, w = 20 for A_SubSamp alone), so stable and
unstable answers both occur. At such sizes Lemma 8's accounting is out of its range (Lemma 5 needs eps* <= 1), so the
accounting step is switched off here (``_account``): it is what these tests do not compare.
"""

import numpy as np
import pytest
from scipy import stats

from algorithms.classes.constructors import thresholds
from algorithms.learning.agprivcl import AgPrivCl, AgPrivClParams
from algorithms.learning.erm import labeled_counts
from algorithms.learning.relabel import a_relabel, a_relabel_counts
from algorithms.learning.subsamp import (SubSamp, SubSampParams, answer_online, resample_hypotheses_counts,
                                         subsample_hypotheses_counts)
from algorithms.learning.unvprivcl import UnvPrivCl, UnvPrivClParams

CLS = thresholds(8)
QUERIES = np.array([3, 4, 2, 5, 3, 1])
REPS = 300
LEVEL = 1e-3  # per test; each check below makes at most 2 tests


@pytest.fixture(autouse=True)
def _no_accounting(monkeypatch):
    monkeypatch.setattr(AgPrivCl, "_account", lambda self, params, n: None)


def _params(k=48, lam=10.0, w=30.0, m=QUERIES.size) -> AgPrivClParams:
    sub = SubSampParams(eps=1.0, delta=0.5, beta=0.5, num_queries=m, cutoff=2.0, lam=lam, k=k, w=w)
    return AgPrivClParams(eps=1.0, delta=0.5, alpha=0.5, beta=0.5, num_queries=m, rate=0.5, cutoff=2.0,
                          eps_hat=1.0, delta_hat=0.5, subsamp=sub)


def _sample(n, rng, noise=0.3, target=4):
    x = rng.integers(CLS.num_points, size=n)
    y = CLS.matrix[target, x] ^ (rng.random(n) < noise)
    return x, y


def _hist(x, y):
    c = np.zeros((CLS.num_points, 2), dtype=np.int64)
    np.add.at(c, (x, y.astype(np.int64)), 1)
    return c


def _two_sample_p(a, b) -> float:
    """Chi-square two-sample test on categorical draws, categories with < 5 expected pooled into one."""
    cats, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
    table = np.stack([np.bincount(inv[:len(a)], minlength=cats.size), np.bincount(inv[len(a):], minlength=cats.size)])
    rare = table.sum(axis=0) < 10
    if rare.any():
        table = np.column_stack([table[:, ~rare], table[:, rare].sum(axis=1)])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2:
        return 1.0
    return float(stats.chi2_contingency(table)[1])


def _code(answers) -> int:
    """The released answers to QUERIES as one integer, and 64 x the number of unstable (bottom) answers."""
    bits = int(np.dot(answers.labels.astype(int), 2 ** np.arange(answers.labels.size)))
    return bits + 64 * int(answers.unstable.sum())


def _agprivcl_draws(run, reps, seed):
    rng = np.random.default_rng(seed)
    codes, hyps = [], []
    for _ in range(reps):
        algo = run(rng)
        codes.append(_code(answer_online(algo, QUERIES)))
        hyps.append(algo.relabeled.hypothesis)
    codes = np.array(codes)
    return np.stack([codes, codes // 64]), np.array(hyps)


def _wrong_law(x, y, params):
    """The count path with S^ drawn from S' itself (the relabelling skipped for the sub-samples)."""
    counts = _hist(x, y)

    def run(rng):
        sub = rng.multivariate_hypergeometric(counts.ravel(), params.n_prime(x.size)).reshape(counts.shape)
        algo = AgPrivCl.__new__(AgPrivCl)
        algo.relabeled = a_relabel_counts(CLS, sub, rng)
        algo.subsamp = SubSamp.from_hypotheses(CLS, resample_hypotheses_counts(CLS, sub, params.subsamp.k, rng),
                                               params.subsamp, rng)
        return algo
    return run


@pytest.fixture(scope="module")
def fixed_s():
    params = _params()
    x, y = _sample(2 * params.subsamp.k * 4, np.random.default_rng(7))  # n' = 192: 4 examples per sub-sample
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(AgPrivCl, "_account", lambda self, params, n: None)
        per_example = _agprivcl_draws(lambda rng: AgPrivCl(CLS, x, y, params, rng), REPS, 1)
    return params, x, y, per_example


def test_count_based_agprivcl_has_the_per_example_answer_law(fixed_s):
    """A_AgPrivCl from S's histogram (S' hypergeometric, S'' by a_relabel_counts, S^'s sub-samples
    multinomial) against A_AgPrivCl on the examples, the same fixed S: the answers' and h^'s laws are not
    separated at 1e-3 each (300 runs per path). The wrong-law test below shows the comparison has power."""
    params, x, y, (codes_a, hyps_a) = fixed_s
    counts = _hist(x, y)
    codes_b, hyps_b = _agprivcl_draws(lambda rng: AgPrivCl.from_counts(CLS, counts, params, rng), REPS, 2)
    assert min(_two_sample_p(a, b) for a, b in zip(codes_a, codes_b)) > LEVEL / 2
    assert _two_sample_p(hyps_a, hyps_b) > LEVEL


def test_sub_samples_drawn_without_the_relabelling_are_separated(fixed_s):
    """The same comparison catches S^ drawn from S' (noisy labels) instead of S'': noisy sub-samples disagree,
    so the margins, the unstable answers and the answers move. Catches a comparison without power."""
    params, x, y, (codes_a, _) = fixed_s
    codes_b, _ = _agprivcl_draws(_wrong_law(x, y, params), REPS, 3)
    assert min(_two_sample_p(a, b) for a, b in zip(codes_a, codes_b)) < LEVEL / 2


def test_count_based_subsamp_has_the_per_example_law():
    """A_SubSamp on S's histogram (sequential hypergeometric split) against A_SubSamp on S in a uniformly
    random order (n = 96, 2 examples per sub-sample): the answer laws are not separated."""
    p = _params(lam=25.0, w=20.0).subsamp
    x, y = _sample(2 * p.k, np.random.default_rng(8))
    counts = _hist(x, y)
    rng = np.random.default_rng(4)
    a, b = [], []
    for _ in range(REPS):
        perm = rng.permutation(x.size)
        a.append(_code(answer_online(SubSamp(CLS, x[perm], y[perm], p, rng), QUERIES)))
        b.append(_code(answer_online(SubSamp.from_counts(CLS, counts, p, rng), QUERIES)))
    assert _two_sample_p(np.array(a), np.array(b)) > LEVEL


def test_count_based_relabel_has_the_per_example_law_and_labels_every_example_by_h_hat():
    rng = np.random.default_rng(5)
    x, y = _sample(40, rng)
    counts = _hist(x, y)
    a = np.array([a_relabel(CLS, x, y, rng).hypothesis for _ in range(REPS)])
    outs = [a_relabel_counts(CLS, counts, rng) for _ in range(REPS)]
    assert _two_sample_p(a, np.array([o.hypothesis for o in outs])) > LEVEL
    o = outs[0]
    assert np.array_equal(o.counts.sum(axis=1), counts.sum(axis=1))
    assert np.array_equal(o.counts[:, 1], counts.sum(axis=1) * CLS.matrix[o.hypothesis])


def test_count_based_unvprivcl_matches_per_example_in_both_phases():
    """A_UnvPrivCl from S's histogram against on the examples (m_o = 3 of 6 queries: both phases run)."""
    first = _params(m=3)
    first = AgPrivClParams(eps=0.5, delta=0.5, alpha=0.5, beta=0.5, num_queries=3, rate=0.5, cutoff=2.0,
                           eps_hat=1.0, delta_hat=0.5, subsamp=SubSampParams(
                               eps=1.0, delta=0.5, beta=0.5, num_queries=3, cutoff=2.0, lam=25.0, k=48, w=20.0))
    params = UnvPrivClParams(eps=1.0, num_queries=QUERIES.size, m_o=3, first=first)
    x, y = _sample(2 * 48 * 4, np.random.default_rng(9))
    counts = _hist(x, y)
    rng = np.random.default_rng(6)
    a = [_code(answer_online(UnvPrivCl(CLS, x, y, params, rng), QUERIES)) for _ in range(REPS)]
    b = [_code(answer_online(UnvPrivCl.from_counts(CLS, counts, params, rng), QUERIES)) for _ in range(REPS)]
    assert _two_sample_p(np.array(a), np.array(b)) > LEVEL


def test_count_paths_run_at_theorem_sizes_and_refuse_bad_histograms():
    """n = 10^11 on the i.i.d. entry (S' multinomial): seconds, not memory; the exact step 2 refuses n >= 1e9;
    histograms of the wrong shape or with negative counts are refused."""
    params = _params(k=2000, lam=25.0, w=20.0)
    n = 10**11
    rng = np.random.default_rng(0)
    sub = rng.multinomial(params.n_prime(n), np.full(16, 1 / 16)).reshape(8, 2)
    algo = AgPrivCl.after_step2_counts(CLS, sub, n, params, rng)
    assert algo.n_prime == n // 2 and algo.subsamp.hypotheses.size == 2000
    with pytest.raises(ValueError, match="out of range"):
        AgPrivCl.from_counts(CLS, np.full((8, 2), 10**9), params, rng)
    with pytest.raises(ValueError, match="shape"):
        labeled_counts(CLS, np.ones((7, 2)))
    with pytest.raises(ValueError, match="non-negative"):
        labeled_counts(CLS, -np.ones((8, 2)))
    with pytest.raises(ValueError, match="exactly"):
        AgPrivCl.after_step2_counts(CLS, sub, n + 10, params, rng)
    assert subsample_hypotheses_counts(CLS, np.full((8, 2), 3), 4, rng).size == 4
