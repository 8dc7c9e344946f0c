"""A_PAP for thresholds on a 2^L grid without the grid (algorithms.query_release.pap_grid)."""
from __future__ import annotations

import numpy as np
import pytest

from algorithms.classes import PointCounts, constructors
from algorithms.opponents import GridData
from algorithms.privacy import ApproxDP
from algorithms.query_release.pap import a_pap
from algorithms.query_release.pap_grid import a_pap_thresholds_grid


@pytest.mark.parametrize("seed", range(4))
def test_same_bits_as_the_dense_a_pap_on_an_enumerable_grid(seed):
    """Steps 1-5 in closed form release what a_pap on constructors.thresholds(2^L) releases, bit for bit (the same
    members, cells, reduced class and PMW call); seed 1 puts a public point on the grid's last point (the empty
    last cell dropped)."""
    rng = np.random.default_rng(seed)
    N = 64
    p = rng.dirichlet(np.ones(N))
    counts = rng.multinomial(5000, p)
    pub = rng.choice(N, 12, p=p)
    if seed == 1:
        pub = np.append(pub, N - 1)
    a = a_pap(PointCounts(counts), pub, constructors.thresholds(N), 0.3, 0.1, 0.9, 1e-6, np.random.default_rng(9),
              mw_accuracy=0.03)
    b = a_pap_thresholds_grid(GridData.from_histogram(counts), pub, 6, 0.3, 0.1, 0.9, 1e-6,
                              np.random.default_rng(9), mw_accuracy=0.03)
    assert np.array_equal(a.value.answers, b.value.answers(np.arange(N + 1)))
    assert a.guarantee == b.guarantee


def test_runs_on_a_2_to_64_grid_and_answers_every_threshold():
    """On 2^64 points: answers for j = 0 and j = 2^64 come from the all-negative and the all-positive member."""
    rng = np.random.default_rng(3)
    pts = rng.integers(0, 2**64 - 1, size=20000, dtype=np.uint64, endpoint=True)
    pub = rng.integers(0, 2**64 - 1, size=30, dtype=np.uint64, endpoint=True)
    out = a_pap_thresholds_grid(GridData.from_points(64, pts), pub, 64, 0.3, 0.1, 0.9, 1e-6, rng)
    g = out.value.answers([0, 2**63, 2**64])
    assert out.guarantee == ApproxDP(0.9, 1e-6)
    assert g.shape == (3,) and np.all(np.abs(g) <= 1)
    assert g[0] == out.value.g_tilde[0] and g[2] == out.value.g_tilde[-1]
    with pytest.raises(ValueError):
        a_pap_thresholds_grid(GridData.from_points(8, [1, 2]), [300], 8, 0.3, 0.1, 0.9, 1e-6, rng)
