"""BCMNUW20 Lemma 17: the query-release-to-learning reduction (algorithms.adversaries.query_to_learner)."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.adversaries import query_to_learner as q2l
from algorithms.classes import constructors
from algorithms.evaluation import true_answers
from algorithms.privacy import ApproxDP, PureDP, Release


def _setup(seed=0, N=32):
    rng = np.random.default_rng(seed)
    H = constructors.thresholds(N)
    D = rng.dirichlet(np.ones(N))
    eta = rng.random(N)                      # Pr[y = +1 | x], agnostic
    return rng, H, D, eta, q2l.labelled_distribution(D, eta)


def test_population_errors_equal_the_disagreement_probability():
    """err_D(h) = (1 - E[h(x) y])/2 equals sum_x D(x) (eta(x) [h(x) = -1] + (1 - eta(x)) [h(x) = +1]) exactly."""
    _, H, D, eta, Dz = _setup()
    pos = H.matrix.astype(float)
    direct = (1 - pos) @ (D * eta) + pos @ (D * (1 - eta))
    assert np.allclose(q2l.population_errors(H, Dz), direct, atol=1e-12)


def test_learner_excess_error_is_at_most_the_release_error():
    """For answers within a of the truth on H^+- (50 random perturbations, a in [0, 0.3]) the learner's excess error is
    <= a, and it is 0 with exact answers (ERM on D). Catches argmax of the released error instead of argmin, and a
    labelled class with the two label columns swapped (errors become 1 - err)."""
    rng, H, D, eta, Dz = _setup(1)
    lab = q2l.labelled_class(H)
    truth = true_answers(lab, Dz)
    errors = q2l.population_errors(H, Dz)
    x = rng.integers(0, H.num_points, 10)
    y = np.where(rng.random(10) < 0.5, 1, -1)
    for k in range(50):
        a = 0.3 * k / 49
        noisy = np.clip(truth + rng.uniform(-a, a, truth.size), -1, 1)
        learner = q2l.learner_from_release(lambda s, w, cls, r, g=noisy: Release(g, PureDP(0.5)))
        h = learner(x, y, x[:3], y[:3], H, rng).value.hypothesis
        assert errors[h] - errors.min() <= a + 1e-12
        if a == 0:
            assert errors[h] == errors.min()


def test_learner_passes_the_public_sample_and_the_guarantee_on():
    """m' = m (the public sample reaches the release unchanged, labelled) and the learner's guarantee is the
    release's."""
    rng, H, *_ = _setup(2)
    seen = {}

    def release(s, w, cls, r):
        seen.update(s=s, w=w, cls=cls)
        return Release(np.zeros(cls.num_hypotheses), ApproxDP(0.7, 1e-6))

    x, y = np.array([0, 5, 9]), np.array([1, -1, 1])
    out = q2l.learner_from_release(release)(x, y, np.array([3, 4]), np.array([-1, 1]), H, rng)
    assert out.guarantee == ApproxDP(0.7, 1e-6)
    assert seen["w"].tolist() == [3 + H.num_points, 4] and seen["s"].tolist() == [0, 5 + H.num_points, 9]
    assert seen["cls"].num_points == 2 * H.num_points and seen["cls"].num_hypotheses == H.num_hypotheses


def test_bad_labels_are_refused():
    with pytest.raises(ValueError, match="labels must be"):
        q2l.labelled_points([0, 1], [1, 0], 4)
    with pytest.raises(ValueError, match="labels_plus_prob"):
        q2l.labelled_distribution([0.5, 0.5], [1.2, 0.0])
