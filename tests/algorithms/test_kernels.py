"""The compiled kernels of the whole-marginal MW round (``algorithms.query_release._kernels``)
compute numpy's floating-point operations in numpy's order, so a seeded run releases the same bits
with or without numba. Each test names the break it catches; the compiled side is skipped when numba
is not installed (the numpy twins are then all that runs)."""

import numpy as np
import pytest

from algorithms.query_release import _kernels
from algorithms.query_release.mw import IncrementalMWDistribution
from algorithms.query_release.mwem import mwem_from_answers, mwem_zcdp_from_answers
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries, all_k_way, random_k_way

numba_only = pytest.mark.skipif(not _kernels._build(), reason="numba is not installed")

# lengths on every branch of numpy's pairwise sum: < 8, the 8-accumulator block (<= 128, with and
# without a tail), one and several halvings, and past numpy's 8192-element buffer
LENGTHS = list(range(0, 140)) + [255, 256, 257, 1000, 1479, 1480, 4095, 8191, 8192, 8193, 98304, 100003]


@numba_only
def test_pairwise_sum_equals_numpy_sum_bit_for_bit():
    """The compiled sum is numpy's pairwise summation: equal to ``a.sum()`` on every branch of the
    algorithm, with magnitudes spread over 9 orders (where the order of additions shows). Catches a
    plain left-to-right loop, a different block size or unrolling, a split not at a multiple of 8, and
    halves added right + left."""
    rng = np.random.default_rng(0)
    k = _kernels._build()     # the compiled kernels themselves, whatever the active backend
    for n in LENGTHS:
        for _ in range(3):
            a = rng.random(n) * 10.0 ** rng.integers(-4, 5, size=n)
            assert k["sum"](a) == a.sum(), n


def _instance(seed, sizes=(2, 3, 2, 4, 2, 3, 2), support=150):
    rng = np.random.default_rng(seed)
    dom = CategoricalDomain(sizes)
    wl = random_k_way(dom, 3, 12, rng) + ((1,), (0, 4), (0, 1, 2, 3, 4, 5))   # units of 3 .. 576 cells
    sup, counts = distinct_rows(dom.rows(rng.integers(0, dom.size, size=support)))
    return rng, dom, wl, sup, counts


@numba_only
@pytest.mark.parametrize("seed", range(3))
def test_compiled_answers_and_scores_equal_the_numpy_twins(seed):
    """On random and very uneven distributions: the x-major scatter equals the CSR product (uint16 and
    int32 cell maps); the fused pass equals ``p /= p.sum()``, the product and ``np.add.reduceat`` of the
    absolute errors (first term, then numpy's pairwise sum of the rest), and leaves the same p; the
    workload bincount and the in-place rescaling equal numpy's. Catches a scatter walking x backwards
    or in blocks, a unit's score summed left to right, a normaliser multiplied by its reciprocal."""
    rng, dom, wl, sup, _ = _instance(seed)
    q = MarginalQueries(dom, wl, sup)
    k = _kernels._build()     # the compiled kernels themselves, whatever the active backend
    true = rng.random(q.num_queries)
    starts = q.offsets.astype(np.intp)
    for alpha in (1.0, 0.03):
        p = rng.dirichlet(np.full(q.support_size, alpha)) * 3.7    # unnormalised, as after an update
        ref = q.query_matrix() @ (p / p.sum())
        for dtype in (np.uint16, np.int32):
            assert np.array_equal(k["scatter"](q.cells.astype(dtype), p / p.sum(), q.num_queries), ref)
        p_fused, p_ref = p.copy(), p.copy()
        ans, scores = k["answer_scores"](p_fused, q.compact_cells(), q.num_queries, true, starts)
        with _kernels.using("numpy"):
            ans_ref, scores_ref = _kernels.normalise_answer_scores(p_ref, q.compact_cells(), q.num_queries, true,
                                                                   starts, q.query_matrix)
        assert np.array_equal(p_fused, p_ref) and np.array_equal(ans, ans_ref) and np.array_equal(scores, scores_ref)
        for w in range(q.num_workloads):
            cells, size = q.workload_cells(w), int(q.cells_per_workload[w])
            assert np.array_equal(k["bincount"](cells, p, size), np.bincount(cells, weights=p, minlength=size))
            factors = np.exp(rng.normal(0.0, 0.3, size=size))
            mine, theirs = p.copy(), p.copy()
            k["scale_normalise"](mine, cells, factors)
            theirs *= factors[cells]
            theirs /= theirs.sum()
            assert np.array_equal(mine, theirs)


WHOLE_MARGINAL_OPTS = {
    "no-replay-fit2": dict(measure_unit="marginal", output="last", fit_passes=2, selection="exponential",
                           selection_accounting="bounded_range"),
    "replay-K5-fit2": dict(measure_unit="marginal", output="last", replay_threshold=True, replay_limit=5,
                           fit_passes=2, selection="exponential", selection_accounting="bounded_range"),
    "average-replay": dict(measure_unit="marginal", output="average", replay_threshold=True),
}


@numba_only
@pytest.mark.parametrize("name", list(WHOLE_MARGINAL_OPTS))
def test_whole_runs_release_the_same_bits_on_both_backends(name):
    """A whole PMW^Pub run (whole marginals; the configurations of the PMW^Pub speed goal) and a pure whole-marginal
    MWEM
    run release the same selections, measurements and synthetic distribution, and declare the same
    guarantee, with the compiled kernels and with numpy only. Catches any kernel that differs from its
    twin in one bit (a selection or a digit changes within a few rounds), and a cached marginal read
    after p changed."""
    _, dom, wl, sup, counts = _instance(5)
    rng = np.random.default_rng(9)
    priv = dom.rows(rng.integers(0, dom.size, size=3000))
    true = marginal_answers(dom, wl, priv)
    rels = {}
    for backend in ("numba", "numpy"):
        q = MarginalQueries(dom, wl, sup)
        with _kernels.using(backend):
            init = IncrementalMWDistribution.from_histogram(q, counts)
            rels[backend] = (
                mwem_zcdp_from_answers(true, priv.shape[0], q, 0.9, 25, np.random.default_rng(4), initial=init,
                                       **WHOLE_MARGINAL_OPTS[name]),
                mwem_from_answers(true, priv.shape[0], q, 1.0, 15, np.random.default_rng(6), initial=init,
                                  **{k: v for k, v in WHOLE_MARGINAL_OPTS[name].items()
                                     if k != "selection_accounting"}))
    for fast, ref in zip(rels["numba"], rels["numpy"]):
        a, b = fast.value, ref.value
        assert np.array_equal(a.selected, b.selected) and np.array_equal(a.measurements, b.measurements)
        assert np.array_equal(a.synthetic, b.synthetic) and np.array_equal(a.answers, b.answers)
        assert fast.guarantee == ref.guarantee


def test_backend_choice(monkeypatch):
    """``set_backend`` takes only its three names (ValueError otherwise), ``PUBPRIV_NO_NUMBA=1`` turns the
    automatic choice to numpy, ``using`` restores the previous choice. Catches an environment switch that
    is ignored and a ``using`` that leaks its backend."""
    monkeypatch.setattr(_kernels, "_active", None)    # restored at teardown: no resolved choice leaks out
    with pytest.raises(ValueError):
        _kernels.set_backend("cuda")
    monkeypatch.setenv("PUBPRIV_NO_NUMBA", "1")
    with _kernels.using("auto"):
        assert _kernels.backend() == "numpy" and _kernels.compiled() is None
    monkeypatch.delenv("PUBPRIV_NO_NUMBA")
    with _kernels.using("numpy"):
        assert _kernels.backend() == "numpy"
    assert _kernels.backend() == ("numba" if _kernels._build() else "numpy")


def test_numpy_twins_give_the_representations_answers():
    """Without numba the answers are the CSR product, and the fused scoring is the product and the
    reduceat. Catches a numpy fallback that drifts from the representation it stands for."""
    rng, dom, wl, sup, _ = _instance(2)
    q = MarginalQueries(dom, all_k_way(dom, 2), sup)
    p = rng.dirichlet(np.ones(q.support_size))
    with _kernels.using("numpy"):
        assert np.array_equal(q.answer(p), q.query_matrix() @ p)
        true = rng.random(q.num_queries)
        pp = p.copy()
        ans, scores = _kernels.normalise_answer_scores(pp, q.compact_cells(), q.num_queries, true,
                                                       q.offsets.astype(np.intp), q.query_matrix)
        assert np.array_equal(ans, q.query_matrix() @ pp)
        assert np.array_equal(scores, np.add.reduceat(np.abs(ans - true), q.offsets[:-1]))


@numba_only
def test_sequence_of_workload_updates_equals_the_numpy_loop_and_checks_before_touching_p():
    """One compiled call applying a sequence of whole-marginal updates (repeats included, as a fit pass
    over past rounds has) leaves p with the bits of the numpy loop (bincount, libm exp, rescale, numpy's
    sum); a unit with one value too few, or naming a workload that does not exist, is refused by both
    backends before p changes. Catches exp taken from a different library, an update applied out of
    order, and a half-applied sequence on bad input."""
    rng, dom, wl, sup, _ = _instance(4)
    q = MarginalQueries(dom, wl, sup)
    k = _kernels._build()
    W = q.num_workloads
    workloads = rng.integers(0, W, size=40)
    widths = q.cells_per_workload[workloads]
    starts = np.concatenate([[0], np.cumsum(widths)]).astype(np.intp)
    ma = rng.random(int(starts[-1])) * 0.2
    order = rng.permutation(np.concatenate([np.arange(40), rng.integers(0, 40, size=10)])).astype(np.intp)
    p0 = rng.dirichlet(np.full(q.support_size, 0.3))
    fast, slow = p0.copy(), p0.copy()
    assert k["workload_updates"](fast, q.workload_cell_table(), q.cells_per_workload, workloads, ma, starts, order) == 0
    with _kernels.using("numpy"):
        assert _kernels.workload_updates(slow, q.workload_cell_table(), q.cells_per_workload, workloads, ma,
                                         starts, order) == 0
    assert np.array_equal(fast, slow)
    short = starts.copy()
    short[7:] -= 1                                      # unit 6 has one value too few
    bad_w = workloads.copy()
    bad_w[3] = W                                        # unit 3 names a workload that does not exist
    for backend in ("numba", "numpy"):
        with _kernels.using(backend):
            for st, wk, unit in ((short, workloads, 6), (starts, bad_w, 3)):
                p = p0.copy()
                seq = np.array([0, 1, unit, 2], dtype=np.intp)
                assert _kernels.workload_updates(p, q.workload_cell_table(), q.cells_per_workload, wk, ma, st,
                                                 seq) == 3
                assert np.array_equal(p, p0)
                dist = IncrementalMWDistribution(q, p0)
                with pytest.raises(ValueError, match="one value per cell"):
                    dist.update_workloads(q, wk, ma, st, seq)
                assert np.array_equal(dist.probabilities(), p0 / p0.sum())


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_bad_scoring_input_is_refused_before_p_changes(backend):
    """The fused scoring pass refuses unit offsets that do not run from 0 to num_queries in increasing
    steps, a true-answer vector of the wrong length, and a cell map of another support, with ValueError
    and p untouched, on both backends (the compiled loop does no bounds checks of its own). Catches an
    unchecked offset that would read past the answers."""
    if backend == "numba" and not _kernels._build():
        pytest.skip("numba is not installed")
    rng, dom, wl, sup, _ = _instance(8)
    q = MarginalQueries(dom, wl, sup)
    starts = q.offsets.astype(np.intp)
    true = rng.random(q.num_queries)
    p0 = rng.dirichlet(np.ones(q.support_size))
    cases = [(q.compact_cells(), true, np.concatenate([starts[:-1], [starts[-1] + 5]])),
             (q.compact_cells(), true, np.concatenate([[0, 0], starts[1:]])),
             (q.compact_cells(), true[:-1], starts),
             (q.compact_cells()[:-1], true, starts)]
    with _kernels.using(backend):
        for cells, t, st in cases:
            p = p0.copy()
            with pytest.raises(ValueError, match="whole-marginal scoring"):
                _kernels.normalise_answer_scores(p, cells, q.num_queries, t, st, q.query_matrix)
            assert np.array_equal(p, p0)
        other = MarginalQueries(dom, wl, sup[:-1])
        dist = IncrementalMWDistribution(other, np.ones(other.support_size))
        with pytest.raises(ValueError, match="one column per support point"):
            dist.update_workloads(q, np.array([0]), np.zeros(int(q.cells_per_workload[0])),
                                  np.array([0, int(q.cells_per_workload[0])]), np.array([0]))


@pytest.mark.parametrize("backend", ["numba", "numpy"])
def test_a_workload_update_with_queries_over_another_domain_is_refused(backend):
    """A full-domain workload update (``DomainMarginalQueries``: the one-at-a-time path) with queries over a
    domain of another size raises ValueError on both backends instead of reading past p. Catches the
    support check dropped in front of the compiled bincount."""
    if backend == "numba" and not _kernels._build():
        pytest.skip("numba is not installed")
    from algorithms.query_release.workloads import DomainMarginalQueries
    small, large = CategoricalDomain((2, 3, 2)), CategoricalDomain((2, 3, 2, 2))
    q_small, q_large = DomainMarginalQueries(small, ((0, 1),)), DomainMarginalQueries(large, ((0, 1),))
    with _kernels.using(backend):
        dist = IncrementalMWDistribution.uniform(q_small)
        with pytest.raises(ValueError, match="support points"):
            dist.update_workload(q_large, 0, np.full(6, 1 / 6))


def _pmw_cases():
    """(class, data, eps, seed) covering every branch of PMW's pass: domains below 8 points, within one
    pairwise block and past 128 (the recursive halving); many tops (the draws run out and the pass resumes);
    c = 1 on one point with eps = 0.01 (halting inside a block, and tops on the second query of a pair)."""
    from algorithms.classes import intervals, thresholds
    from algorithms.classes.finite import FiniteClass

    rng = np.random.default_rng(3)
    one = FiniteClass(np.tile(np.array([[True], [False]]), (10, 1)), name="twenty-on-one-point")
    out = [(one, np.zeros(5, dtype=np.intp), 0.01, s) for s in range(6)]
    for cls, n in ((thresholds(5), 400), (thresholds(64), 3000), (intervals(24), 4000), (thresholds(300), 1500),
                   (intervals(128), 20000)):
        D = rng.dirichlet(np.full(cls.num_points, 0.3))
        out.append((cls, rng.choice(cls.num_points, size=n, p=D), 0.9, int(rng.integers(1 << 30))))
    rand = FiniteClass(rng.random((150, 200)) < 0.3, name="random")
    out.append((rand, rng.integers(0, 200, size=2500), 0.9, 11))
    return out


@numba_only
def test_pmw_pass_releases_the_same_bits_compiled_and_in_numpy(monkeypatch):
    """PMW's whole pass as one compiled kernel (``_kernels_nb.pmw_scan``) against its numpy twin (``pmw._scan`` on
    ``SignedCountMW`` with NumericSparse's own ``first_above`` / ``query``): the same answers, synthetic
    distribution, update record, tops and halting, and the generator left at the same point (its next draw
    equal), on every branch of the pass (``_pmw_cases``); the compiled pass really ran, and resumed when its
    draws ran out. Checked by breaking it once: the answer drawn before the redrawn threshold at a top fails
    (every case with a top), as does a comparison read from the wrong draw."""
    from algorithms.query_release.pmw import pmw

    kernels = _kernels._build()
    calls, compiled_pass = [], kernels["pmw_scan"]

    def counting(*args):
        calls.append(1)
        return compiled_pass(*args)

    monkeypatch.setitem(kernels, "pmw_scan", counting)
    runs = 0
    for cls, data, eps, seed in _pmw_cases():
        out = {}
        for backend in ("numba", "numpy"):
            with _kernels.using(backend):
                rng = np.random.default_rng(seed)
                rel = pmw(data, cls, 0.5, 0.1, eps, 1e-6, rng)
                out[backend] = (rel, rng.random())
        (fast, next_fast), (ref, next_ref) = out["numba"], out["numpy"]
        a, b = fast.value, ref.value
        for field in ("answers", "synthetic", "update_queries", "update_before", "update_answers", "update_after"):
            x, y = getattr(a, field), getattr(b, field)
            assert x.dtype == y.dtype and np.array_equal(x, y), (cls.name, field)
        assert (a.halted, a.num_tops, fast.guarantee, next_fast) == (b.halted, b.num_tops, ref.guarantee, next_ref)
        runs += 1
    assert len(calls) > runs          # every run went through the kernel, some more than once (resumed)
