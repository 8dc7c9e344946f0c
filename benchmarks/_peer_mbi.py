r"""Peer measurement for bench_mbi_adult.py: private-pgm's (``mbi``) public-data reweighting and AIM.

Our driver, not their code: it runs in the interpreter of a virtual environment of their own (mbi needs jax), as a
subprocess of bench_mbi_adult.py, and imports the ``mbi`` package installed there: for ``public`` mbi 2.0.0 from
PyPI (``mbi.extensions.ReweightedDatasetEstimator``); for ``aim`` the module ``mechanisms/aim.py`` of a
private-pgm checkout given on the command line (AIM is not part of the package) with that checkout's own ``mbi``
installed (its aim.py calls ``estimation.mirror_descent``, which mbi 2 replaced by estimator classes).
Usage:
    python _peer_mbi.py CHECKOUT IN.npz OUT.npz
IN.npz holds `private`, `public` (rows of value indices), `sizes`, `workload_cells` (attribute lists padded with
-1), `rho` (the zCDP budget), `seeds`, `algorithms` (names below), `aim_max_model_size`, `aim_max_iters`,
`aim_rho_scale` (AIM runs at rho * scale), `public_iters`.

* ``public``: ``ReweightedDatasetEstimator(seed_data=public rows, optimizer=optax.adam(0.1))`` (their
  docstring's optimizer; "inspired by PMW^Pub": the public rows' weights, softmax of log-weights, fitted by
  gradient steps on the measurements' squared loss; ``public_iters`` steps) fed with Gaussian measurements of
  every workload marginal. Replace-one adjacency, as our PMW^Pub: one changed row moves each marginal's count
  vector by sqrt(2) in L2, so W marginals have L2 sensitivity sqrt(2 W) and rho-zCDP needs sigma = sqrt(W / rho).
  ``known_total`` = n (n is public under replace-one, as PMW^Pub's 1/n sensitivity assumes).
* ``aim``: ``AIM(epsilon, delta, max_model_size, max_iters)`` with its ``rho`` set to ``rho * aim_rho_scale``
  after construction (so the budget is a zCDP rho, not their (eps, delta) conversion); workload = the W
  marginals at weight 1. AIM is calibrated for add/remove adjacency (sensitivity 1 per marginal).
  Scored: the marginals of AIM's final model (its estimate before it samples synthetic rows; that sampling step,
  post-processing, fails under the pinned jax and is replaced by a no-op in this process).
  Their AIM seeds from NumPy's global generator (its constructor passes ``prng`` into the ``bounded`` slot),
  so each seed calls ``np.random.seed(seed)``.

OUT.npz gets, per algorithm and seed, the released workload marginals (each a count vector in C order over the
workload's attributes, the first varying fastest as in our MarginalQueries, concatenated, divided by its total) and the
CPU seconds of the release (``time.process_time``, data loading excluded); `true` the private marginals computed by mbi
(the caller checks them against its own, which fixes the cell order); `versions`.

Set-up used for benchmarks/RESULTS.md (temporary, never in the project):
    python3.11 -m venv /tmp/mbi2_venv && /tmp/mbi2_venv/bin/pip install mbi==2.0.0          # public
    git clone https://github.com/ryan112358/private-pgm /tmp/pgm   # or from a local mirror  # AIM
    python3.11 -m venv /tmp/pgm_venv && /tmp/pgm_venv/bin/pip install /tmp/pgm matplotlib \
        jax==0.7.0 jaxlib==0.7.0 chex==0.1.90 optax==0.2.5   # the checkout (Aug 2025) fails on jax 0.10
"""

import os
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402


def _marginals(factor_of, cliques):
    """Each clique's count array (axes in the clique's order) as fractions, raveled with the first attribute
    varying fastest (our MarginalQueries' cell order), concatenated."""
    parts = []
    for cl in cliques:
        v = np.asarray(factor_of(cl), dtype=np.float64).ravel(order="F")
        parts.append(v / v.sum())
    return np.concatenate(parts)


def main(checkout, inp, outp):
    import importlib.metadata as md

    import jax

    jax.config.update("jax_enable_x64", True)     # as mbi advises; the marginals are checked to 1e-9
    jax.config.update("jax_enable_compilation_cache", False)
    from mbi import Dataset, Domain, LinearMeasurement

    z = np.load(inp)
    sizes = [int(s) for s in z["sizes"]]
    cols = [f"a{j:02d}" for j in range(len(sizes))]
    domain = Domain(cols, sizes)
    cliques = [tuple(cols[a] for a in w if a >= 0) for w in z["workload_cells"]]
    rho, n, W = float(z["rho"]), int(z["private"].shape[0]), len(cliques)
    algorithms = [str(a) for a in z["algorithms"]]
    v2 = int(md.version("mbi").split(".")[0]) >= 2

    def dataset(rows):   # mbi 2 (PyPI): a dict of columns; the checkout's mbi 1: a DataFrame
        if v2:
            return Dataset({c: rows[:, j] for j, c in enumerate(cols)}, domain)
        import pandas as pd
        return Dataset(pd.DataFrame(rows, columns=cols), domain)
    priv = dataset(z["private"])
    counts = {cl: np.asarray(priv.project(cl).datavector(flatten=False), dtype=np.float64) for cl in cliques}
    out = {"true": _marginals(lambda cl: counts[cl], cliques)}
    for seed in [int(s) for s in z["seeds"]]:
        if "public" in algorithms:
            import optax
            from mbi.extensions import ReweightedDatasetEstimator

            rng = np.random.default_rng(seed)
            sigma = np.sqrt(W / rho)
            est = ReweightedDatasetEstimator(seed_data=dataset(z["public"]), optimizer=optax.adam(0.1))
            c0 = time.process_time()
            meas = [LinearMeasurement(counts[cl].ravel() + rng.normal(0, sigma, counts[cl].size), cl, stddev=sigma)
                    for cl in cliques]
            model = est.estimate(domain, meas, known_total=float(n), iters=int(z["public_iters"]))
            rel = _marginals(lambda cl: model.project(cl).datavector(flatten=False), cliques)
            out[f"public_s{seed}_cpu"] = time.process_time() - c0
            out[f"public_s{seed}"] = rel
            print(f"mbi ReweightedDatasetEstimator seed {seed}: {out[f'public_s{seed}_cpu']:.1f} CPU s",
                  file=sys.stderr, flush=True)
        if "aim" in algorithms:
            sys.path.insert(0, os.path.join(checkout, "mechanisms"))
            from aim import AIM
            from mbi import MarkovRandomField

            # AIM's last step samples synthetic rows from its model, which fails under this jax ("JAX does not
            # support string indexing"); it is post-processing we do not score, so it is skipped
            MarkovRandomField.synthetic_data = lambda self, rows=None: None

            np.random.seed(seed)
            mech = AIM(1.0, 1e-9, max_model_size=float(z["aim_max_model_size"]), max_iters=int(z["aim_max_iters"]))
            mech.rho = rho * float(z["aim_rho_scale"])
            c0 = time.process_time()
            model, _ = mech.run(priv, [(cl, 1.0) for cl in cliques], num_synth_rows=1)
            rel = _marginals(lambda cl: model.project(cl).datavector(flatten=False), cliques)
            out[f"aim_s{seed}_cpu"] = time.process_time() - c0
            out[f"aim_s{seed}"] = rel
            print(f"AIM seed {seed}: {out[f'aim_s{seed}_cpu']:.1f} CPU s", file=sys.stderr, flush=True)
    out["versions"] = np.array([f"mbi {md.version('mbi')}", f"jax {jax.__version__}", f"numpy {np.__version__}"])
    np.savez(outp, **out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
