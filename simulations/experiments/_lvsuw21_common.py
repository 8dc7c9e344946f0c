"""Shared set-up of the LVSUW21 experiments on CPS1988 (``thm4_4``, ``lvsuw21_figures``).

The private dataset is one region of CPS1988 (``simulations.data.cps``); the query class is every
3-way marginal of its 6 attributes (20 workloads, the paper's "3-way marginals"); budgets are
stated as (eps, delta = 1/n^2) as in LVSUW21 Figures 1-3 and turned into PMW^Pub's eps~ through
Theorem 4.5's infimum (``pmw_pub.eps_tilde_for``).
"""

from __future__ import annotations

import functools

import numpy as np

from algorithms.query_release.mixture import best_mixture_error
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.workloads import MarginalQueries, all_k_way
from simulations.data.cps import load_cps1988, region_pair

REGIONS = ("northeast", "midwest", "south", "west")


@functools.lru_cache(maxsize=1)
def cps1988():
    """(domain, rows, regions, 3-way workloads) of CPS1988, loaded once per process."""
    domain, rows, regions = load_cps1988()
    return domain, rows, regions, all_k_way(domain, 3)


@functools.lru_cache(maxsize=32)
def region_setting(private_region: str, public_region: str) -> dict:
    """Private/public rows across regions, the private answers and the public support's best mixture error."""
    domain, rows, regions, workloads = cps1988()
    priv, pub = region_pair(rows, regions, private_region, public_region)
    true = marginal_answers(domain, workloads, priv)
    return {"private": priv, "public": pub, "true": true,
            "f": floor(domain, workloads, true, pub)}


def floor(domain, workloads, true, public_rows) -> float:
    """LVSUW21 Def 4.1: the best mixture error of the public rows' support (the LP)."""
    support, _ = distinct_rows(public_rows)
    return best_mixture_error(true, MarginalQueries(domain, workloads, support)).error


def mean_se(values) -> tuple[float, float]:
    """Mean and standard error (sample sd / sqrt(k); 0 for one value), as LVSUW21's error bars."""
    v = np.asarray(values, dtype=float)
    se = float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else 0.0
    return float(v.mean()), se
