"""python -m bounds plot: n and m of several results on one log-log figure, printed beside corrected values, the
crossings marked at the values crossover finds."""

from __future__ import annotations

import pytest

from bounds import api, plot
from bounds.__main__ import main

QUICK = ["--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8",
         "--num-hypotheses", "16", "--domain-size", "256"]
NB20 = ["--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6", "--vc", "1"]


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_plot_thm10_uc_pmw_writes_the_format_its_suffix_names(tmp_path, capsys, suffix, magic):
    out = tmp_path / f"fig{suffix}"
    assert main(["plot", "thm10", "uc", "pmw", "--vary", "alpha", *QUICK, "--points", "30", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(magic)
    assert "6 curves" in capsys.readouterr().out  # thm10 n, m and n as printed; uc m; pmw n and n as printed
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


def test_the_curves_are_the_values_compute_gives_and_printed_beside_corrected():
    """Catches a curve drawn from another quantity or parameter point than compute's."""
    p = plot.curves(["thm10", "pmw"], vary="alpha", low=0.05, high=0.2, points=3, beta=0.05, epsilon=0.5,
                    delta=1e-6, vc=3, dual_vc=8, num_hypotheses=16, domain_size=256)
    labels = [c.label for c in p.curves]
    assert labels == ["thm10: n", "thm10: n as printed", "thm10: m", "pmw: n", "pmw: n as printed"]
    c = api.compute("thm10", alpha=float(p.grid[1]), beta=0.05, epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)
    assert p.curves[0].log10[1] == pytest.approx(c.quantities["private_samples"].log10)
    assert p.curves[1].log10[1] == pytest.approx(c.quantities["private_samples_as_printed"].log10)


def test_the_crossing_is_marked_where_crossover_finds_it(tmp_path, capsys):
    """NB20 Theorems 7 and 11 cross once in the number of queries (docs/ERRATA.md: 8,302 at alpha = 0.1, d = 1);
    the figure's crossing, interpolated on a 400-point grid, is within 1% of crossover's bisection, and the
    command prints it with n there. Catches a crossing missed, or placed at a grid point far from it."""
    out = tmp_path / "x.png"
    assert main(["plot", "thm7", "thm11", "--vary", "num-queries", *NB20, "--low", "10", "--high", "1e9",
                 "--points", "400", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    exact = api.crossover("thm7", "thm11", vary="num_queries", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6,
                          vc=1)["crossings"][0]
    p = plot.curves(["thm7", "thm11"], vary="num_queries", low=10, high=1e9, points=400, alpha=0.1, beta=0.05,
                    epsilon=0.5, delta=1e-6, vc=1)
    [x] = p.crossings
    assert x["at"] == pytest.approx(exact["at"], rel=0.01)
    assert x["log10_value"] == pytest.approx(exact["first_log10"], abs=0.01)
    assert "crossover of n: thm7 = thm11 at num_queries = 83" in text


@pytest.mark.parametrize("argv,needle", [
    (["--out", "fig.gif"], "suffix"),
    (["--vary", "nonsense"], "unknown parameter"),
    (["--low", "0"], "--low"),
])
def test_bad_plot_arguments_are_one_line_exit_2(tmp_path, capsys, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    base = ["plot", "thm10", "uc", "--vary", "alpha", *QUICK, "--out", "fig.png"]
    for k in range(0, len(argv), 2):
        if argv[k] in base:
            base[base.index(argv[k]) + 1] = argv[k + 1]
        else:
            base += argv[k:k + 2]
    assert main(base) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
    assert not list(tmp_path.iterdir())
