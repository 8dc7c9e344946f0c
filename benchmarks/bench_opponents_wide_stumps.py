"""BCMNUW20 Theorem 10's separation line (README: ``wide_stumps:clusters``, decision stumps on {+-1}^2000, 4
coordinate clusters) against the private-only opponents of ``algorithms.opponents``, on the same draws.

Usage: python benchmarks/bench_opponents_wide_stumps.py [--trials 200] [--seed 2026] [--fractions 1,0.01,...]

For each private sample size n = fraction x the README line's n (thm10.SEPARATION_PRIVATE_RUN: 0.0032 of Theorem
10's n, m = 0.001 of its m), ``--trials`` trials each draw the public points and the private sample (as its
coordinate counts) once, then run A_PAP and every opponent that applies (``simulations.opponents``: Gaussian and
Laplace on the 2000 answers, the public-only releases, the constant, the exact private and pooled answers), judged
by thm10's rule Err = max_i |G(h_i) - E_D h_i| <= alpha. Prints per n and release the success count, its Clopper-
Pearson status against 1 - beta at 95% (``contract.baseline``: succeeds / fails / undecided) and the mean error,
then each release's least n on the grid (the first grid n from which it succeeds at every larger grid n) beside
``bounds``' n for it. Writes nothing to the repo.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import bounds
from simulations import contract
from simulations.experiments import make_params, thm10
from simulations.opponents import answer_opponents, least_succeeding, size_text, summarise_opponents

DEFAULT_FRACTIONS = (1.0, 1 / 3, 1 / 10, 1 / 30, 1 / 100, 1 / 300, 1 / 1000, 1 / 1600, 1 / 2000, 1 / 2800, 1 / 4000,
                     1 / 8000)


def trial(s, P, n, m, rng):
    from algorithms.query_release.pap import a_pap

    D, cls, truth = s["D"], s["cls"], s["truth"]
    public = D.sample(m, rng)
    private = D.private_counts(n, rng)
    rel = a_pap(private, public, cls, P.alpha, P.beta, P.eps, P.delta, rng, mw_accuracy=s["mw_accuracy"])
    out = answer_opponents(truth, private_answers=2.0 * private.ones / n - 1.0, n=n,
                           public_answers=public.mean(axis=0, dtype=np.float64), m=m, eps=P.eps, delta=P.delta,
                           beta=P.beta, rng=rng)
    out["a_pap"] = float(np.max(np.abs(rel.value.answers - truth)))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--fractions", default=",".join(f"{f:.6g}" for f in DEFAULT_FRACTIONS))
    a = ap.parse_args(argv)
    P = make_params(thm10, thm10.SEPARATION_PRIVATE_RUN)
    s = thm10.case_setup("wide_stumps:clusters", P)
    n_line, m = thm10.used_sizes(s["n_bound"], s["m_bound"], P.n_scale, P.m_scale, P.n_max)
    k = s["cls"].num_hypotheses
    print(f"wide_stumps:clusters p={k} alpha={P.alpha} beta={P.beta} eps={P.eps} delta={P.delta}; Theorem 10 n="
          f"{s['n_bound']:,} m={s['m_bound']:,}; the README line n={n_line:,} m={m}; {a.trials} trials per n")
    kw = dict(alpha=P.alpha, beta=P.beta, epsilon=P.eps)
    predicted = {"gaussian": bounds.compute("baselines:gaussian", **kw, delta=P.delta, num_hypotheses=k),
                 "laplace": bounds.compute("baselines:laplace", **kw, num_hypotheses=k)}
    for name, c in predicted.items():
        print(f"bounds: baselines:{name} private_samples = {int(c['private_samples']):,}")
    target = 1 - P.beta
    table = {}
    t0 = time.process_time()
    for f in (float(x) for x in a.fractions.split(",")):
        n = max(1, int(round(f * n_line)))
        rows = [trial(s, P, n, m, np.random.default_rng(np.random.SeedSequence(a.seed, spawn_key=(n, i))))
                for i in range(a.trials)]
        summ = summarise_opponents(rows, P.alpha, target, 0.95)
        e = np.array([r["a_pap"] for r in rows])
        summ["opponents"]["a_pap"] = {**contract.baseline(int(np.sum(e <= P.alpha)), e.size, target, 0.95),
                                      "error_mean": float(e.mean())}
        table[n] = summ
        print(f"\nn = {n:,} ({f:.6g} of the line; strongest opponent {summ['strongest']}, failed: "
              f"{summ['strongest_failed']}; strongest private-only {summ['strongest_private_only']}, failed: "
              f"{summ['strongest_private_only_failed']}; weaker than the constant: "
              f"{summ['weaker_than_constant'] or 'none'})")
        for name, b in summ["opponents"].items():
            print(f"  {name:17s} {b['successes']:4d}/{b['trials']}  {b['status']:9s}  mean error {b['error_mean']:.4g}")
    print("\nleast grid n from which each release succeeds (95% Clopper-Pearson vs 1 - beta):")
    for name, v in least_succeeding(table).items():
        print(f"  {name:17s} least n = {size_text(v['least'])} (next grid n below: {size_text(v['below'])})")
    print(f"\nCPU {time.process_time() - t0:.1f} s")


if __name__ == "__main__":
    main()
