"""LVSUW21 Section 3.2: PMW^Pub keeps its distribution A_t on the public support X^ rather than the domain X, "implying
that the run-time of PMW^Pub is O(n|Q| + T|X^||Q|)" against MWEM's O(n|Q| + T|X||Q|). Counted, not timed: the query
evaluations q(x) that Algorithm 1's loop makes in the workbench's engine, held to ``bounds``' explicit count
(``lvsuw21:sec3.2``'s query_evaluations, n|Q| + (T + 1)|X^||Q| + T|X^|).

One trial, for every number of binary attributes d in ``dims`` (X = {0, 1}^d, Q = all ``k``-way marginal cells): a
product law with coordinate biases uniform on [0.1, 0.9]; n private and m public rows; X^ = the distinct public rows.
The loop is ``mwem.mwem_zcdp_from_answers`` (PMW^Pub's own, the defaults of ``pmw_pub``) on the plain MW distribution
started from the public histogram, with the queries' values on the support given through ``CountingQueries``, a
``mw.MatrixQueries`` that adds the evaluations of every call it answers: ``answer(p, rows)`` evaluates len(rows)
queries on every support point, ``values(i)`` one query on every support point; q(D~) is computed through the same
counter on the n private rows. success = evaluations <= bounds' count at |X^|.

The claim is universal (every run of the loop), so sampling can refute it and never confirm it: ``violated`` when a
trial exceeds the count, else ``inconclusive`` with no counterexample. The measurements give the count of MWEM on the
whole domain X beside it (the same loop from the uniform distribution on X) and the ratio of the two.

Negative control ``full_domain`` (``EXPERIMENT.controls``): PMW^Pub's distribution kept on all of X (the loop MWEM
runs), counted against the bound at |X^|: it must come out ``violated`` (from d = 8 on, |X| = 256 > m).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations import contract, stats
from simulations.experiments import Controlled, param

RESULT_ID = "lvsuw21:sec3.2"


@dataclass(frozen=True)
class Params(Controlled):
    dims: tuple = param((6, 8, 10), "numbers d of binary attributes (X = {0, 1}^d)", within="[2, 14]",
                        distinct=True)
    k: int = param(2, "marginal order of the queries", within="[1, 3]")
    n: int = param(2000, "private rows n", within="[1, 1000000]")
    m: int = param(64, "public rows m (|X^| <= m)", within="[1, 100000]")
    T: int = param(20, "rounds T of Algorithm 1", within="[1, 1000]")
    eps_tilde: float = param(1.0, "privacy eps~ of the run", within="(0, inf)")

    def check(self):
        if min(self.dims) < self.k:
            raise ValueError(f"dims={self.dims!r} must all be >= k={self.k}")


class CountingQueries:
    """``mw.MatrixQueries`` on a (|Q|, support) matrix, adding the query evaluations q(x) of every call to
    ``evaluations``: ``answer(p, rows)`` costs len(rows) x support, ``values(i)`` costs support."""

    def __init__(self, matrix):
        from algorithms.query_release.mw import MatrixQueries

        self._q = MatrixQueries(matrix)
        self.evaluations = 0

    @property
    def num_queries(self) -> int:
        return self._q.num_queries

    @property
    def support_size(self) -> int:
        return self._q.support_size

    def answer(self, p, rows=None):
        asked = self.num_queries if rows is None else np.arange(self.num_queries)[rows].size
        self.evaluations += asked * self.support_size
        return self._q.answer(p, rows)

    def values(self, i):
        self.evaluations += self.support_size
        return self._q.values(i)


def count_loop(dom, workloads, private, support, counts, params: Params, rng) -> int:
    """Query evaluations of Algorithm 1's loop on ``support`` rows from ``counts``, q(D~) included."""
    from algorithms.query_release.mw import MWDistribution
    from algorithms.query_release.mwem import mwem_zcdp_from_answers
    from algorithms.query_release.workloads import MarginalQueries

    on_private = CountingQueries(MarginalQueries(dom, workloads, private).dense_matrix())
    true = on_private.answer(np.full(private.shape[0], 1.0 / private.shape[0]))
    q = CountingQueries(MarginalQueries(dom, workloads, support).dense_matrix())
    mwem_zcdp_from_answers(true, private.shape[0], q, params.eps_tilde, params.T, rng,
                           initial=MWDistribution.from_histogram(counts))
    return on_private.evaluations + q.evaluations


def bound(params: Params, num_queries: int, support: int) -> int:
    return contract.required_sizes(RESULT_ID, {"ops": ("query_evaluations", int)}, private_samples=params.n,
                                   num_queries=num_queries, domain_size=support, iterations=params.T)["ops"]


@dataclass(frozen=True)
class Dim:
    """One d: |Q|, |X^|, |X|, the counts of PMW^Pub (or the control) and of MWEM on X, and bounds' count at |X^|."""
    num_queries: int
    support: int
    domain: int
    evaluations: int
    mwem_evaluations: int
    bound: int
    within: bool


@dataclass(frozen=True)
class Outcome:
    """One trial: every d (keyed by d) and whether every count is within the bound."""
    dims: dict[str, Dim]
    success: bool


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.query_release.pmw_pub import distinct_rows
    from algorithms.query_release.workloads import CategoricalDomain, all_k_way

    out = {}
    for d in params.dims:
        dom = CategoricalDomain([2] * d)
        workloads = all_k_way(dom, params.k)
        bias = rng.uniform(0.1, 0.9, size=d)
        private = (rng.random((params.n, d)) < bias).astype(np.int64)
        public = (rng.random((params.m, d)) < bias).astype(np.int64)
        support, counts = distinct_rows(public)
        full = dom.all_rows()
        mwem = count_loop(dom, workloads, private, full, np.ones(dom.size), params, rng)
        if params.variant == "full_domain":
            ops = mwem
        else:
            ops = count_loop(dom, workloads, private, support, counts, params, rng)
        nq = int(sum(int(np.prod([2] * len(w))) for w in workloads))
        b = bound(params, nq, support.shape[0])
        out[str(d)] = Dim(num_queries=nq, support=int(support.shape[0]), domain=int(dom.size), evaluations=int(ops),
                          mwem_evaluations=int(mwem), bound=b, within=bool(ops <= b))
    return Outcome(dims=out, success=all(v.within for v in out.values()))


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Violated if any count exceeds bounds' (a universal claim); the counts and the MWEM ratio as measurements."""
    T = len(records)
    c = contract.claim(sum(r["success"] for r in records), T, 1.0, 0.95,
                       label="query evaluations <= n|Q| + (T + 1)|X^||Q| + T|X^| for every d")
    per_d = {}
    for d in map(str, params.dims):
        rows = [r["dims"][d] for r in records]
        per_d[d] = {"num_queries": rows[0]["num_queries"], "domain": rows[0]["domain"],
                    "max_support": max(x["support"] for x in rows),
                    "max_ratio_to_bound": max(x["evaluations"] / x["bound"] for x in rows),
                    "mwem_over_pmw_pub": float(np.mean([x["mwem_evaluations"] / x["evaluations"] for x in rows]))}
    what = "the full-domain loop (negative control)" if params.variant == "full_domain" else "PMW^Pub's loop"
    ratios = ", ".join(f"d = {d}: {v['max_ratio_to_bound']:.3g} (MWEM/PMW^Pub {v['mwem_over_pmw_pub']:.3g})"
                       for d, v in per_d.items())
    exceed = T - c["successes"]
    text = ((f"{exceed} of {T} trials: {what} exceeds bounds' count" if c["verdict"] == stats.VIOLATED else
             f"no counterexample in {T} trials x {len(params.dims)} dimensions (a universal claim: sampling can refute "
             "it, never confirm it)") + f"; largest count/bound {ratios}")
    return contract.Judgement(claims=[c], text=text, measurements={
        "result_id": RESULT_ID,
        "claim": "PMW^Pub's run time O(n|Q| + T|X^||Q|) (LVSUW21 Section 3.2), counted in query evaluations",
        "bound_source": (f"bounds.compute('{RESULT_ID}', private_samples={params.n}, num_queries=|Q|, "
                         f"domain_size=|X^|, iterations={params.T})['query_evaluations']"),
        "per_d": per_d, "per_trial": c})


EXPERIMENT = contract.Experiment(
    name="pmw_pub_ops", results=("lvsuw21:sec3.2",),
    section="lvsuw21",
    description="PMW^Pub's run time O(n|Q| + T|X^||Q|), counted in query evaluations against MWEM's on X",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(2, {"dims": "4,8", "n": 200, "T": 5}),
    opponents=contract.NoOpponents("an operation count of one algorithm held to its own bound: no release is judged "
                                   "(MWEM's count on X is shown beside it as a measurement)"),
    controls={"full_domain": "the distribution kept on all of X (MWEM's loop), counted against the bound at |X^|"},
)
