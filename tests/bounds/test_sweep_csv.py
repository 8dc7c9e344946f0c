"""The sweep streamed in blocks: ``bounds.api.sweep_chunks`` gives the points of ``sweep_arrays`` in the same
order and with the same values, whatever the block size, and ``python -m bounds sweep ... --csv`` (written
block by block, columnar) parses back to exactly those values. Breaks caught: blocks in another order than
the grid's (C order), a block boundary dropping or repeating a point, a CSV writer that rounds values."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd

from bounds.__main__ import main
from bounds.api import sweep_arrays, sweep_chunks

POINT = dict(epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)
ALPHAS, BETAS = [0.05, 0.1, 0.2], [1e-6, 0.01, 0.05, 0.2]


def test_sweep_chunks_concatenate_to_the_whole_sweep():
    _, cols, evs = sweep_arrays("thm10", alpha=ALPHAS, beta=BETAS, **POINT)
    for chunk in (1, 5, 12, 100):
        parts = list(sweep_chunks("thm10", chunk=chunk, alpha=ALPHAS, beta=BETAS, **POINT))
        assert len(parts) == -(-12 // chunk)
        for k in cols:
            np.testing.assert_array_equal(np.concatenate([p[1][k] for p in parts]), cols[k])
        for name, ev in evs.items():
            np.testing.assert_array_equal(np.concatenate([p[2][name].value for p in parts]), ev.value)
            np.testing.assert_array_equal(np.concatenate([p[2][name].log10 for p in parts]), ev.log10)


def test_cli_csv_parses_back_to_the_sweep_values(capsys, monkeypatch):
    import bounds.api as api

    whole = api.sweep_chunks
    monkeypatch.setattr(api, "sweep_chunks", lambda *a, **k: whole(*a, chunk=5, **k))  # several blocks
    rc = main(["sweep", "thm10", "--alpha", ",".join(map(str, ALPHAS)), "--beta", ",".join(map(str, BETAS)),
               "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8", "--csv"])
    out = capsys.readouterr().out
    assert rc == 0 and out.count("\n") == 13 and out.splitlines()[0].startswith("alpha,beta,")
    df = pd.read_csv(io.StringIO(out))
    _, cols, evs = sweep_arrays("thm10", alpha=ALPHAS, beta=BETAS, **POINT)
    np.testing.assert_array_equal(df["alpha"].to_numpy(), cols["alpha"])
    for name, ev in evs.items():
        np.testing.assert_array_equal(df[name].to_numpy(float), ev.value)
        np.testing.assert_array_equal(df[f"{name}_log10"].to_numpy(float), ev.log10.round(6))
