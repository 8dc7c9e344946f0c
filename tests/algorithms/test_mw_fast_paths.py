"""The faster whole-marginal PMW^Pub / MWEM paths compute exactly what they computed
before. ``MarginalQueries.answer`` is a CSR product in place of the weighted bincount, and
``workload_cells`` returns a cached map in place of a fresh column difference; the engine's outputs
and privacy accounting must be unchanged, bit for bit. Each test names the break it catches."""

import numpy as np
import pytest

from algorithms.query_release import _kernels
from algorithms.query_release.mw import IncrementalMWDistribution, MWDistribution
from algorithms.query_release.mwem import mwem_from_answers, mwem_zcdp_from_answers
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries, all_k_way, random_k_way


class _BincountQueries(MarginalQueries):
    """The representation as it was before the compiled speed-up of the MW engine: every answer one weighted bincount
    over the (S, W) cell table, every workload's cell map recomputed from that table (and no compact
    cell map or cell table, so the engine takes neither the fused compiled scoring pass nor the
    compiled sequence of workload updates)."""

    compact_cells = None
    workload_cell_table = None

    def answer(self, p, rows=None):
        pv = self._check_p(p)
        out = np.bincount(self.cells.ravel(), weights=np.repeat(pv, self.num_workloads),
                          minlength=self.num_queries)
        return out if rows is None else out[rows]

    def workload_cells(self, w):
        return self.cells[:, int(w)] - self.offsets[int(w)]


def _instance(seed, sizes=(2, 3, 2, 4, 2, 3, 2), support=120, n=2000):
    rng = np.random.default_rng(seed)
    dom = CategoricalDomain(sizes)
    wl = random_k_way(dom, 3, 12, rng) + ((1,), (0, 4))
    pub = dom.rows(rng.integers(0, dom.size, size=support))
    priv = dom.rows(rng.integers(0, dom.size, size=n))
    sup, counts = distinct_rows(pub)
    return rng, dom, wl, sup, counts, priv


@pytest.mark.parametrize("seed", range(3))
def test_csr_answers_are_bit_identical_to_the_weighted_bincount(seed):
    """The CSR product adds every query's p(x) in increasing x, as the bincount does: equal bit for
    bit on random and very uneven distributions, for every query and for a row selection. Catches
    a CSR built from unsorted columns (a different order of the additions), a wrong row pointer or
    a column index off by one."""
    rng, dom, wl, sup, _, _ = _instance(seed)
    q, ref = MarginalQueries(dom, wl, sup), _BincountQueries(dom, wl, sup)
    for alpha in (1.0, 0.05):
        p = rng.dirichlet(np.full(q.support_size, alpha))
        assert np.array_equal(q.answer(p), ref.answer(p))
        rows = rng.choice(q.num_queries, size=7, replace=False)
        assert np.array_equal(q.answer(p, rows), ref.answer(p, rows))
    full = MarginalQueries(dom, all_k_way(dom, 2), dom.all_rows())
    p = rng.dirichlet(np.ones(dom.size))
    assert np.array_equal(full.answer(p), _BincountQueries(dom, all_k_way(dom, 2), dom.all_rows()).answer(p))


def test_cached_workload_cells_equal_the_column_difference_and_are_read_only():
    """workload_cells(w) equals cells[:, w] - offsets[w] for every w and cannot be written through
    (a caller scaling in place would corrupt every later update). Catches a transposed or shifted
    cache and a writable one."""
    _, dom, wl, sup, _, _ = _instance(7)
    q = MarginalQueries(dom, wl, sup)
    for w in range(q.num_workloads):
        assert np.array_equal(q.workload_cells(w), q.cells[:, w] - q.offsets[w])
    with pytest.raises(ValueError):
        q.workload_cells(0)[0] = 1


def _runs(seed, T, **opts):
    _, dom, wl, sup, counts, priv = _instance(seed)
    true = marginal_answers(dom, wl, priv)
    out = []
    for cls, backend in ((MarginalQueries, "auto"), (_BincountQueries, "numpy")):
        q = cls(dom, wl, sup)
        with _kernels.using(backend):    # the reference: numpy only, as before the compiled kernels
            for engine in (IncrementalMWDistribution.from_histogram(q, counts), MWDistribution.from_histogram(counts)):
                rel = mwem_zcdp_from_answers(true, priv.shape[0], q, 0.9, T, np.random.default_rng(seed + 100),
                                             initial=engine, **opts)
                out.append(rel)
    return out


@pytest.mark.parametrize("opts", [
    dict(measure_unit="marginal", output="last", replay_threshold=True, replay_limit=5, fit_passes=20,
         selection="exponential", selection_accounting="bounded_range"),
    dict(measure_unit="marginal", output="average", replay_threshold=True),
    dict(replay_threshold=True, replay_limit=3),
    dict(),
], ids=["whole-marginal-BR-K5-fit20", "whole-marginal-replay-average", "per-query-replay", "paper"])
def test_fast_paths_release_bit_identical_outputs_and_the_same_guarantee(opts):
    """A whole run (selection, measurement, replay, fit passes, output) on the fast representation
    releases exactly what the bincount representation released with the same seed, on both MW
    engines, and declares the same guarantee. Catches any change in what is computed: a different
    order of additions would change a selection or a digit within a few rounds of replay."""
    fast_inc, fast_log, ref_inc, ref_log = _runs(3, 12, **opts)
    for fast, ref in ((fast_inc, ref_inc), (fast_log, ref_log)):
        a, b = fast.value, ref.value
        assert np.array_equal(a.selected, b.selected)
        assert np.array_equal(a.measurements, b.measurements)
        assert np.array_equal(a.synthetic, b.synthetic)
        assert np.array_equal(a.answers, b.answers)
        assert fast.guarantee == ref.guarantee


def test_pure_whole_marginal_run_is_bit_identical_on_the_fast_representation():
    """The pure-DP MWEM variant (Laplace, whole marginals, replay, fit) releases the same bits and
    the same PureDP(eps) on both representations. Catches a fast path used by one accounting only."""
    _, dom, wl, sup, counts, priv = _instance(11)
    true = marginal_answers(dom, wl, priv)
    rels = []
    for cls, backend in ((MarginalQueries, "auto"), (_BincountQueries, "numpy")):
        q = cls(dom, wl, sup)
        with _kernels.using(backend):
            rels.append(mwem_from_answers(true, priv.shape[0], q, 1.0, 10, np.random.default_rng(5),
                                          initial=IncrementalMWDistribution.from_histogram(q, counts),
                                          measure_unit="marginal", output="last", replay_threshold=True,
                                          replay_limit=4, fit_passes=5))
    assert np.array_equal(rels[0].value.synthetic, rels[1].value.synthetic)
    assert np.array_equal(rels[0].value.selected, rels[1].value.selected)
    assert rels[0].guarantee == rels[1].guarantee


def test_mw_probabilities_are_scipy_softmax_bit_for_bit():
    """MWDistribution.probabilities computes scipy.special.softmax's formula without its wrappers: the same bits,
    -inf log-weights (points of zero public count) included."""
    from scipy import special

    rng = np.random.default_rng(3)
    for k in range(300):
        lw = rng.normal(size=int(rng.integers(1, 40))) * float(rng.choice([1.0, 30.0]))
        if k % 3 == 0 and lw.size > 1:
            lw[int(rng.integers(lw.size))] = -np.inf
        assert np.array_equal(MWDistribution(lw).probabilities(), special.softmax(lw))
