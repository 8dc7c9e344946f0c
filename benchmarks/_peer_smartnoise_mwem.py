"""Peer measurement for bench_pmw_pub.py: smartnoise-synth's MWEM on the reference workload.

Run by bench_pmw_pub.py in the interpreter that has smartnoise-synth (it may live in its own
virtual environment: its dependencies pin pandas < 3 and pull torch). Usage:
    python _peer_smartnoise_mwem.py IN.npz OUT.json
IN.npz holds `private` (n x d value indices), `workload_cells` (the 64 workloads' attribute lists,
padded with -1), `sizes`, `eps`, `iterations`, `split_factor` (16 = the full domain in one histogram),
`pool` ("workloads": the query pool is exactly the workloads' cuboids, set through the peer's own
`Cuboid.make_cuboid` on its histogram before its MWEM loop runs; "random": the peer's default pool of
q_count random cuboids) and `seed` (seeds Python's `random` and numpy's global generator, which the
peer's selection and pool use; its Laplace noise comes from OpenDP's own generator, which takes no
seed). OUT.json gets fit seconds, seconds per iteration (wall and CPU: bench_pmw_pub.py compares CPU
seconds), and the max and mean error of the workloads' marginals, both on a synthetic sample of n
rows ("sampled_") and exactly on the peer's released histogram(s) (the product of its split
histograms' marginals across splits, exact within one histogram).
"""

import json
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402


def marginals(rows, sizes, workloads):
    out = []
    for w in workloads:
        strides = np.concatenate([[1], np.cumprod([sizes[a] for a in w][:-1])]).astype(np.int64)
        cells = rows[:, w] @ strides
        out.append(np.bincount(cells, minlength=int(np.prod([sizes[a] for a in w]))) / rows.shape[0])
    return np.concatenate(out)


def exact_marginals(histograms, sizes, workloads, n):
    """The workloads' marginals of the released model itself: each split histogram (counts over its
    columns' observed value ranges) normalised, splits independent (the peer samples them so)."""
    out = []
    for w in workloads:
        table = np.ones([sizes[a] for a in w])
        for hist, _, split in histograms:
            split = [int(c) for c in split]
            cols = [c for c in w if c in split]
            if not cols:
                continue
            p = np.asarray(hist, float) / np.sum(hist)
            m = p.sum(axis=tuple(i for i, c in enumerate(split) if c not in cols))   # axes in split order
            order = sorted(cols, key=split.index)
            full = np.zeros([sizes[c] for c in order])
            full[tuple(slice(0, s) for s in m.shape)] = m      # observed ranges start at 0 here (checked)
            inw = [c for c in w if c in cols]
            full = np.moveaxis(full, list(range(len(order))), [inw.index(c) for c in order])
            shape = [sizes[c] if c in cols else 1 for c in w]
            table = table * full.reshape(shape)
        out.append(table.transpose(list(range(len(w)))[::-1]).ravel())    # first attribute fastest
    return np.concatenate(out)


def _exact_histogramdd(sample, bins):
    """np.histogramdd(sample, bins) for integer columns whose values fill 0..bins-1 above their
    minimum: counts by the peer's own bincount helper, edges as numpy's (linspace over min..max)."""
    from snsynth.mwem import Histogram

    sample = np.asarray(sample)
    mins = sample.min(axis=0)
    hist = Histogram.histogramdd_indexes((sample - mins).astype(np.int64), [int(b) for b in bins])
    return hist.astype(np.float64), [np.linspace(m, m + b - 1, int(b) + 1) for m, b in zip(mins, bins)]


def _with_exact_histogramdd(fn, *args):
    original = np.histogramdd
    np.histogramdd = _exact_histogramdd
    try:
        return fn(*args)
    finally:
        np.histogramdd = original


def main(inp, outp):
    import random

    from snsynth.mwem import Cuboid, MWEMSynthesizer

    z = np.load(inp)
    priv, sizes = z["private"], [int(s) for s in z["sizes"]]
    workloads = [[int(a) for a in w if a >= 0] for w in z["workload_cells"]]
    T = int(z["iterations"])
    split_factor = int(z["split_factor"])         # 16 = one histogram over the full domain
    pool = str(z["pool"]) if "pool" in z else "random"
    seed = int(z["seed"]) if "seed" in z else None
    if seed is not None:
        random.seed(seed)
        np.random.seed(seed)
    if np.any(priv.min(axis=0) != 0):
        json.dump({"error": "every attribute must take its value 0 in the private data (the peer "
                            "rebases ranges at the observed minimum)"}, open(outp, "w"))
        return

    class WorkloadPool(MWEMSynthesizer):
        """The peer's MWEM with its query pool replaced by the workloads' cuboids (its own class)."""

        def mwem(self):
            for h in self.histograms:
                split = [int(c) for c in h.split]
                h.queries = [Cuboid.make_cuboid(h.dimensions, [split.index(a) for a in w if a in split])
                             for w in workloads if any(a in split for a in w)]
            return super().mwem()

    class FullDomain(WorkloadPool if pool == "workloads" else MWEMSynthesizer):
        """The peer's histogram built by its own ``Histogram.histogramdd_indexes`` (a bincount over
        the cells) in place of ``np.histogramdd``, whose two outlier bins per axis make 4^15 * 5
        bins (40 GiB) on the full domain; the same counts and edges on integer data (checked
        equal to np.histogramdd's on both 8-attribute halves of the reference data)."""

        def _histogram_from_data_attributes(self, data, splits=[]):
            return _with_exact_histogramdd(super()._histogram_from_data_attributes, data, splits)

    cls = FullDomain
    synth = cls(epsilon=float(z["eps"]), iterations=T, q_count=len(workloads) * 8,
                marginal_width=3, split_factor=split_factor)
    from snsynth.transform import NoTransformer
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        synth.fit(priv, transformer=NoTransformer())
    except MemoryError as exc:                     # numpy's _ArrayMemoryError is a MemoryError
        json.dump({"error": f"{type(exc).__name__}: {exc}", "split_factor": split_factor}, open(outp, "w"))
        return
    fit, cpu = time.perf_counter() - t0, time.process_time() - c0
    true = marginals(priv, sizes, workloads)
    exact = np.abs(exact_marginals(synth.synthetic_histograms, sizes, workloads, priv.shape[0]) - true)
    sample = np.asarray(synth.sample(priv.shape[0])).astype(np.int64)
    sample = np.clip(sample, 0, np.asarray(sizes) - 1)
    diff = np.abs(marginals(sample, sizes, workloads) - true)
    import snsynth
    json.dump({"fit_seconds": fit, "seconds_per_iteration": fit / T, "cpu_seconds_per_iteration": cpu / T,
               "max_error": float(exact.max()), "mean_error": float(exact.mean()),
               "sampled_max_error": float(diff.max()), "sampled_mean_error": float(diff.mean()),
               "spent": float(synth.spent), "pool": pool, "seed": seed,
               "version": getattr(snsynth, "__version__", "1.0.8"), "iterations": T,
               "split_factor": split_factor}, open(outp, "w"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
