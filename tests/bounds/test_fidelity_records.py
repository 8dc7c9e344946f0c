"""Fidelity of the records and forms to the papers: each test pins one slip that a reading against the papers found
(each fails on the code before its fix)."""
from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np

import bounds
from bounds.errata import get

ROOT = Path(__file__).resolve().parents[2]
THM44 = dict(private_samples=10**6, public_samples=1000, num_queries=10**4, beta=0.05, eps_tilde=1.0)


def test_thm44_T_is_fixed_before_the_private_data():
    """LVSUW21 Theorem 4.4: f is computed from the private data, so T* must not depend on it (it moved from 49,251 at
    f = 0 to 7,386 at f = 0.5 when T* minimised the bound at the actual f); the bound at a fixed T stays within 3% of
    the f-optimal T's."""
    from bounds.ops import NUMPY
    from bounds.papers.lvsuw21_thm44 import _T_GRID, thm44_bound_at

    t0 = bounds.compute("lvsuw21:thm4.4", best_mixture_error=0.0, **THM44)["iterations"]
    for f in (0.1, 0.5):
        c = bounds.compute("lvsuw21:thm4.4", best_mixture_error=f, **THM44)
        assert c["iterations"] == t0
        best = np.nanmin(thm44_bound_at(NUMPY, THM44["private_samples"], THM44["public_samples"],
                                        THM44["num_queries"], THM44["beta"], THM44["eps_tilde"], f, _T_GRID))
        assert best <= c["error"] <= 1.03 * best


def test_lower_bound_constants_record_is_not_filed_as_correct():
    """BCMNUW20 Theorems 13-15 / Lemma 17: the record contradicted the Theorem 14 and Lemma 17 errata and C_15."""
    e = get("bcmnuw20-lower-constants")
    assert e.status == "erratum"
    for needed in ("bcmnuw20-thm14-whp", "bcmnuw20-lemma17-labelled", "1/1600"):
        assert needed in e.corrected


def test_remark12_record_quotes_the_printed_bound():
    """NB20 Remark 12 prints O~(VC/alpha^2 * max(1, sqrt VC)), not O~(d/alpha)."""
    e = get("nb20-remark12-eps")
    assert "VC(H)/alpha^2 * max(1, sqrt(VC(H)))" in e.printed and "d/alpha" not in e.printed
    assert "eps alpha^2" in e.corrected


def test_abm19_regimes_are_definition_2_3s():
    """ABM19 Definition 2.3 fixes eps = 0.1: Theorems 4.1 and 4.2 at eps = 0.1 are the statements, not a gap."""
    from bounds.papers.abm19 import THM4_1_REGIME, THM4_2_REGIME

    for rid in ("abm19-thm4.1-regime", "abm19-thm4.2-regime"):
        assert get(rid).status == "checked" and "Definition 2.3" in get(rid).title
    assert "eps <= 0.1" not in THM4_1_REGIME + THM4_2_REGIME and "eps = 0.1" in THM4_1_REGIME


def test_tightened_thm14_chain_says_when_its_range_is_empty():
    """BCMNUW20 Theorem 14's tightened chain: at alpha = 0.08, p = 2000 it has no usable (t', r') and says so."""
    import bounds.papers.bcmnuw20_explicit as ex

    empty = bounds.compute("thm14", alpha=0.08, dual_vc=2000)
    assert any("tightened chain" in line and "no usable pair" in line for line in empty.regime)
    fine = bounds.compute("thm14", alpha=0.03, dual_vc=2000)
    assert fine["range_r_tight"] >= 0 and not any("tightened chain" in line for line in fine.regime)
    assert "up to alpha ~ 0.1" not in ex.__doc__
    assert "accurate release with at most r + t" in get("bcmnuw20-thm14-whp").corrected


def test_thm15_regime_names_four_private_samples():
    """BCMNUW20 Theorem 15's explicit C_15 = 1/1600 rests on ABM19 Theorem 4.1, which needs n_priv >= 4."""
    from bounds.papers.bcmnuw20_explicit import THM15_NOTE
    from bounds.papers.bcmnuw20_lower import THM15_REGIME

    assert "n' >= 4" in THM15_REGIME and "n >= 4" in THM15_NOTE


def test_lemma9_step2_follows_from_the_encoded_steps():
    details = get("nb20-lemma9-printed-constants").details
    assert "size is not encoded" not in details and "nb20:lemma9.step2" in details


def test_table1_full_domain_size_is_recorded():
    """LVSUW21 Table 1's FULL domain: 67 attributes of dimension 287 as printed, but 5.12e37 cells, not 4.99e18."""
    tree = ast.parse((ROOT / "benchmarks" / "bench_table1.py").read_text(encoding="utf-8"))
    sizes = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                 and getattr(n.targets[0], "id", "") == "ACS_FULL_SIZES")
    assert len(sizes) == 67 and sum(sizes) == 287
    cells = math.prod(sizes)
    e = get("lvsuw21-table1-full-domain")
    assert "4.99" in e.printed and f"{cells:.2e}".replace("e+", "e") in e.corrected and e.status == "erratum"
