r"""Peer measurement for bench_pmw_pub.py: the LVSUW21 authors' MWEM and PMW^Pub
(terranceliu/dp-query-release) on the reference workload.

Our driver, not their code: it imports their package ``src`` from a checkout given on the command
line and runs in the interpreter of its own virtual environment (their code needs torch), as a
subprocess of bench_pmw_pub.py. Usage:
    python _peer_lvsuw21_dpqr.py CHECKOUT IN.npz OUT.npz
IN.npz holds `private`, `public` (rows of value indices), `sizes`, `workload_cells` (attribute lists
padded with -1), `eps`, `delta`, `iterations` (the T values), `seeds`, `algorithms` (keys of ALGORITHMS to run). The
run follows their
examples/run/run_mwem.py and examples/run/public_assisted/run_pmw_pub.py: budget from their
``get_per_round_budget_zCDP(eps, delta, T, alpha=0.5)``, ``MWEMSingle`` on the whole domain from the
uniform histogram and ``PMWPubSingle`` on the public support from the public histogram, with and
without their query recycling, output ``G.A`` (their last iterate, what their scripts evaluate).
OUT.npz gets, per run, the final weights and the support rows they live on (so that bench_pmw_pub.py
computes the errors with OUR code on our queries), the CPU seconds of ``fit`` and their rho / eps0.

Set-up used for benchmarks/RESULTS.md (a temporary copy beside the benchmark, never in the project):
    git clone https://github.com/terranceliu/dp-query-release /tmp/dpqr    # or from a local mirror
    sed -i 's/np\.infty/np.inf/g' /tmp/dpqr/src/algo/mwem.py /tmp/dpqr/src/utils/mechanisms.py  # NumPy 2
    python3.11 -m venv /tmp/dpqr_venv
    /tmp/dpqr_venv/bin/pip install torch==2.13.0 numpy pandas scipy scikit-learn tqdm
(its requirements.txt pins torch 1.12 / rdt 0.4 for Python 3.7; MWEM and PMW^Pub need neither).
"""

import os
import sys
import tempfile
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

# (key, their class, query manager, recycle_queries)
ALGORITHMS = [("mwem", "MWEMSingle", False), ("mwem_recycle", "MWEMSingle", True),
              ("pmw_pub", "PMWPubSingle", False), ("pmw_pub_recycle", "PMWPubSingle", True)]


def main(checkout, inp, outp):
    sys.path.insert(0, checkout)
    import torch

    torch.set_num_threads(1)
    from src.algo import MWEMSingle
    from src.algo.public_assisted import PMWPubSingle
    from src.qm import KWayMarginalQM, KWayMarginalSupportQM, KWayMarginalSupportQMPublic
    from src.syndata import NormalizedHistogram
    from src.utils import Dataset, Domain, get_per_round_budget_zCDP

    z = np.load(inp)
    sizes = [int(s) for s in z["sizes"]]
    cols = [f"a{j:02d}" for j in range(len(sizes))]     # zero-padded: their sorting keeps our order
    domain = Domain(cols, sizes)
    data = Dataset(pd.DataFrame(z["private"], columns=cols), domain)
    data_pub = Dataset(pd.DataFrame(z["public"], columns=cols), domain)
    workloads = [tuple(cols[a] for a in w if a >= 0) for w in z["workload_cells"]]
    eps, delta = float(z["eps"]), float(z["delta"])
    classes = {"MWEMSingle": MWEMSingle, "PMWPubSingle": PMWPubSingle}

    wanted = [str(a) for a in z["algorithms"]]
    out = {}
    qm_full = qm_pub = true_full = true_pub = None
    if any(a.startswith("mwem") for a in wanted):      # the whole domain as their support: small domains only
        qm_full = KWayMarginalSupportQM(data, workloads)
        true_full = qm_full.get_answers(qm_full.convert_to_support_distr(data))      # as run_mwem.py
        out["support_mwem"] = qm_full.data_support.df.values.astype(np.int16)
    if any(a.startswith("pmw_pub") for a in wanted):
        qm_pub = KWayMarginalSupportQMPublic(data_pub, workloads)
        true_pub = KWayMarginalQM(data, workloads).get_answers(data)                 # as run_pmw_pub.py
        out["support_pmw_pub"] = qm_pub.data_support.df.values.astype(np.int16)
    with tempfile.TemporaryDirectory() as save_dir:
        for T in [int(t) for t in z["iterations"]]:
            eps0, rho = get_per_round_budget_zCDP(eps, delta, T, alpha=0.5)
            out[f"rho_T{T}"], out[f"eps0_T{T}"] = rho, eps0
            for key, cls, recycle in ALGORITHMS:
                if key not in wanted:
                    continue
                qm, true = (qm_full, true_full) if cls == "MWEMSingle" else (qm_pub, true_pub)
                for seed in [int(s) for s in z["seeds"]]:
                    G = NormalizedHistogram(qm)
                    algo = classes[cls](G, T, eps0, alpha=0.5, recycle_queries=recycle,
                                        default_dir=save_dir, verbose=False, seed=seed)
                    c0 = time.process_time()
                    algo.fit(true)
                    cpu = time.process_time() - c0
                    out[f"{key}_T{T}_s{seed}_weights"] = np.asarray(G.A, dtype=np.float64)
                    out[f"{key}_T{T}_s{seed}_cpu"] = cpu
                    print(f"{key} T={T} seed={seed}: {cpu / T:.5f} CPU s/it", file=sys.stderr, flush=True)
    import torch as _t
    out["versions"] = np.array([f"torch {_t.__version__}", f"numpy {np.__version__}", f"pandas {pd.__version__}"])
    np.savez(outp, **out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
