"""Peer measurement for bench_pmw_pub.py: smartnoise-synth's MWEM on the reference workload.

Run by bench_pmw_pub.py in the interpreter that has smartnoise-synth (it may live in its own
virtual environment: its dependencies pin pandas < 3 and pull torch). Usage:
    python _peer_smartnoise_mwem.py IN.npz OUT.json
IN.npz holds `private` (n x d value indices), `workload_cells` (the 64 workloads' attribute lists,
padded with -1), `sizes`, `eps`, `iterations`, `split_factor` (16 = the full domain in one histogram). OUT.json gets
fit seconds, seconds per
iteration (wall and CPU: bench_pmw_pub.py compares CPU seconds), and the max and mean error of the
workloads' marginals on a synthetic sample of n rows.
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


def main(inp, outp):
    from snsynth.mwem import MWEMSynthesizer

    z = np.load(inp)
    priv, sizes = z["private"], [int(s) for s in z["sizes"]]
    workloads = [[int(a) for a in w if a >= 0] for w in z["workload_cells"]]
    T = int(z["iterations"])
    split_factor = int(z["split_factor"])         # 16 = one histogram over the full domain
    synth = MWEMSynthesizer(epsilon=float(z["eps"]), iterations=T, q_count=len(workloads) * 8,
                            marginal_width=3, split_factor=split_factor)
    from snsynth.transform import NoTransformer
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        synth.fit(priv, transformer=NoTransformer())
    except MemoryError as exc:                     # numpy's _ArrayMemoryError is a MemoryError
        json.dump({"error": f"{type(exc).__name__}: {exc}", "split_factor": split_factor}, open(outp, "w"))
        return
    fit, cpu = time.perf_counter() - t0, time.process_time() - c0
    sample = np.asarray(synth.sample(priv.shape[0])).astype(np.int64)
    sample = np.clip(sample, 0, np.asarray(sizes) - 1)
    diff = np.abs(marginals(sample, sizes, workloads) - marginals(priv, sizes, workloads))
    import snsynth
    json.dump({"fit_seconds": fit, "seconds_per_iteration": fit / T, "cpu_seconds_per_iteration": cpu / T,
               "max_error": float(diff.max()), "mean_error": float(diff.mean()),
               "version": getattr(snsynth, "__version__", "1.0.8"), "iterations": T,
               "split_factor": split_factor}, open(outp, "w"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
