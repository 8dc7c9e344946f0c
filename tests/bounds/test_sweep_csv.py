"""The sweep streamed in blocks: ``bounds.api.sweep_chunks`` gives the points of ``sweep_arrays`` in the same
order and with the same values, whatever the block size, its dictionary-encoded parameters decode to the same
columns, and ``python -m bounds sweep ... --csv`` (written block by block, columnar, each distinct parameter
value formatted once) parses back to exactly those values, bit for bit (Python's own float parser on the text). Breaks
caught: blocks in another order than the grid's (C order), a block boundary dropping or repeating a point,
codes pointing at the wrong level (e.g. the outer axis' index used for the inner one), a CSV writer that rounds
values, an integer quantity cast to int64 past 2^63 or from a non-integer, a row's pre-joined parameter cells
(head and tail) taken from the wrong run or with a fixed parameter's text out of place."""
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


def test_levels_decode_to_the_sweep_columns():
    _, cols, _ = sweep_arrays("thm10", alpha=ALPHAS, beta=BETAS, **POINT)
    parts = list(sweep_chunks("thm10", chunk=5, levels=True, alpha=ALPHAS, beta=BETAS, **POINT))
    for k in cols:
        decoded = np.concatenate([np.asarray(p[1][k][0])[p[1][k][1]] for p in parts])
        np.testing.assert_array_equal(decoded, cols[k])
    assert all(len(p[1]["epsilon"][0]) == 1 for p in parts) and len(parts[0][1]["beta"][0]) == len(BETAS)


def _cli_csv(capsys, argv):
    assert main(["sweep", *argv, "--csv"]) == 0
    out = capsys.readouterr().out
    return out, pd.read_csv(io.StringIO(out), dtype=str)


def test_cli_csv_parses_back_to_the_sweep_values(capsys, monkeypatch):
    import bounds.api as api

    whole = api.sweep_chunks
    monkeypatch.setattr(api, "sweep_chunks", lambda *a, **k: whole(*a, chunk=5, **k))  # several blocks
    out, df = _cli_csv(capsys, ["thm10", "--alpha", ",".join(map(str, ALPHAS)), "--beta", ",".join(map(str, BETAS)),
                                "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"])
    assert out.count("\n") == 13 and out.splitlines()[0].startswith("alpha,beta,")
    _, cols, evs = sweep_arrays("thm10", alpha=ALPHAS, beta=BETAS, **POINT)
    for k in cols:
        np.testing.assert_array_equal(df[k].map(float).to_numpy(), cols[k])
    for name, ev in evs.items():
        np.testing.assert_array_equal(df[name].map(float).to_numpy(), ev.value)
        np.testing.assert_array_equal(df[f"{name}_log10"].map(float).to_numpy(), ev.log10.round(6))
        if ev.quantity.integer:  # written as integers, exactly the integer-valued doubles
            assert [int(t) for t in df[name]] == [int(v) for v in ev.value]
    assert list(df["vc"]) == ["3"] * 12


def test_cli_csv_parameter_cells_with_a_fixed_parameter_between_swept_ones(capsys, monkeypatch):
    import bounds.api as api

    whole = api.sweep_chunks
    monkeypatch.setattr(api, "sweep_chunks", lambda *a, **k: whole(*a, chunk=4, **k))  # runs of 3 cross blocks
    point = dict(alpha=[0.05, 0.1, 0.2], beta=0.05, epsilon=[0.25, 0.5, 0.75], delta=1e-6, vc=3, dual_vc=8)
    out, df = _cli_csv(capsys, ["thm10", "--alpha", "0.05,0.1,0.2", "--beta", "0.05", "--epsilon", "0.25,0.5,0.75",
                                "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"])
    header, *rows = out.splitlines()
    assert len(rows) == 9 and all(r.count(",") == header.count(",") for r in rows)
    _, cols, evs = sweep_arrays("thm10", **point)
    for k in cols:
        np.testing.assert_array_equal(df[k].map(float).to_numpy(), cols[k])
    for name, ev in evs.items():
        np.testing.assert_array_equal(df[name].map(float).to_numpy(), ev.value)


def test_cli_csv_writes_parameters_beyond_int64_exactly(capsys):
    out, df = _cli_csv(capsys, ["lemma7", "--alpha", "0.1,0.2", "--beta", "0.05", "--epsilon", "0.5", "--delta",
                                "1e-6", "--num-hypotheses", "2^70,10", "--domain-size", "2^80"])
    assert [int(t) for t in df["num_hypotheses"]] == [2**70, 10, 2**70, 10]
    assert set(df["domain_size"]) == {str(2**80)}
    _, _, evs = sweep_arrays("lemma7", alpha=[0.1, 0.2], beta=0.05, epsilon=0.5, delta=1e-6,
                             num_hypotheses=[2**70, 10], domain_size=2**80)
    for name, ev in evs.items():
        np.testing.assert_array_equal(df[name].map(float).to_numpy(), ev.value)
