"""LVSUW21 Section 5's private check of a public set (``mixture.check_public_support``)."""

import numpy as np

from algorithms.query_release.pmw_pub import marginal_answers
from algorithms.query_release.workloads import CategoricalDomain



def test_public_support_check_decides_on_the_released_error():
    """LVSUW21 Sec 5's check: f of a one-point support {0} against data half 0s, half 1s is 1/2 on the 1-way
    marginal; at a large eps the release is within noise of f, so threshold 0.6 accepts and 0.4 rejects;
    the guarantee is PureDP(eps). Catches a decision on the wrong side of the threshold."""
    from algorithms.privacy import PureDP
    from algorithms.query_release.mixture import check_public_support
    from algorithms.query_release.workloads import MarginalQueries

    d = CategoricalDomain([2])
    data = np.array([[0], [1]] * 50)
    q = MarginalQueries(d, [(0,)], np.array([[0]]))
    true = marginal_answers(d, [(0,)], data)
    rng = np.random.default_rng(0)
    yes = check_public_support(true, q, 100, 1e4, 0.6, rng)
    no = check_public_support(true, q, 100, 1e4, 0.4, rng)
    assert yes.value.accept and not no.value.accept and yes.guarantee == PureDP(1e4)
    assert abs(yes.value.released - 0.5) < 1e-3
