"""The speed goal's verdict (``benchmarks/bench_pmw_pub.py``'s ``_goal``) can come out
"not met": at the 10x line, against a more accurate peer, and against a peer with a stronger guarantee.
Each test names the break it catches."""

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_pmw_pub.py"
_spec = importlib.util.spec_from_file_location("bench_pmw_pub", _PATH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ZCDP, PURE = bench.ZCDP_GUARANTEE, bench.PURE_GUARANTEE


def _peer(label, T, sec, err, guarantee=ZCDP):
    return dict(label=label, T=T, sec=sec, max=err, guarantee=guarantee, peer=True)


def _ours(label, T, sec, err, guarantee=ZCDP):
    return dict(label=label, T=T, sec=sec, max=err, guarantee=guarantee)


AUTHORS = [_peer("LVSUW21 authors' code, PMW^Pub", 100, 0.00124, 0.079),
           _peer("LVSUW21 authors' code, MWEM (recycling)", 100, 0.0375, 0.0186)]


def _verdicts(rows, T=100):
    return {line.split(" reading")[0].split(", ")[-1]: line.rsplit(": ", 1)[1] for line in bench._goal(rows, T)
            if " reading" in line}


@pytest.mark.parametrize("sec, strict, lenient", [(0.000089, "MET", "MET"), (0.000124, "MET", "MET"),
                                                  (0.000125, "not met", "MET"), (0.0038, "not met", "not met")])
def test_strict_and_lenient_readings_at_the_ten_times_line(sec, strict, lenient):
    """A tenth of the authors' fastest time (their PMW^Pub, 1.24 ms) is the strict line, a tenth of their
    most accurate configuration's time (37.5 ms) the lenient one; exactly at the line counts as met.
    Catches a ratio taken against the wrong row and a verdict that cannot say "not met"."""
    v = _verdicts(AUTHORS + [_ours("ours", 100, sec, 0.0165)])
    assert v == {"strict": strict, "lenient": lenient}


def test_no_configuration_at_or_below_the_best_error_is_not_met():
    """A faster configuration with a larger error than the best peer does not qualify. Catches a goal
    that compares time only."""
    lines = bench._goal(AUTHORS + [_ours("ours", 100, 0.00001, 0.0187)], 100)
    assert lines and all("not met" in line for line in lines)


def test_a_stronger_guarantee_is_compared_only_with_as_strong_ones():
    """When the most accurate peer is pure (1, 0)-DP, a zCDP configuration of ours does not count against
    it, however accurate and fast; a pure one does. Catches the guarantee check dropped."""
    rows = AUTHORS + [_peer("smartnoise-synth MWEM", 100, 0.4, 0.010, PURE), _ours("ours zcdp", 100, 0.00005, 0.005)]
    against_pure = [line for line in bench._goal(rows, 100) if line.startswith("T = 100, against smartnoise")]
    assert against_pure == ["T = 100, against smartnoise-synth MWEM (max error 0.0100, (1, 0)-DP): "
                            "no configuration of ours at or below that error: not met"]
    rows.append(_ours("ours pure", 100, 0.00005, 0.009, PURE))
    assert all("MET" in line for line in bench._goal(rows, 100) if "against smartnoise" in line)


def test_no_authors_row_means_no_verdict():
    """Without a row of the authors' code measured in the run there is no verdict at all (quoted rows never
    count). Catches a goal evaluated against quoted figures."""
    assert bench._goal([_ours("ours", 100, 0.00005, 0.005)], 100) == [
        "T = 100: no LVSUW21 row measured in this run: goal not evaluated"]


def _sn(mx, mean):
    return dict(label="smartnoise-synth MWEM, full domain, the workloads' cuboids as its pool, exact output", T=30,
                sec=0.6, max=mx, mean=mean, guarantee=bench.SNSYNTH_GUARANTEE, peer=True)


def test_pure_lead_needs_both_errors_and_keeps_the_adjacencies_apart():
    """The pure-DP lead (``_pure_lead``): met only by a row of ours at or below smartnoise's max AND
    mean error, judged per adjacency. Catches a verdict on max alone (the first row is below on max,
    above on mean), an add/remove row counted for replace-one, and a zCDP row counted at all."""
    ours = [dict(label="ours replace", T=30, sec=0.001, max=0.010, mean=0.0030, guarantee=PURE),
            dict(label="ours add/remove", T=30, sec=0.002, max=0.011, mean=0.0020, guarantee=bench.PURE_ADD_REMOVE),
            dict(label="ours zcdp", T=30, sec=0.0001, max=0.001, mean=0.0001, guarantee=ZCDP)]
    lines = bench._pure_lead([_sn(0.014, 0.0024)] + ours, 30)
    assert len(lines) == 2
    assert "replace one record" in lines[0] and ": not met" in lines[0] and "ours replace" in lines[0]
    assert "add/remove" in lines[1] and "met by ours add/remove" in lines[1] and "300x" in lines[1]
    assert bench._pure_lead(ours, 30) == [
        "T = 30: smartnoise-synth's full-domain MWEM not measured in this run: not evaluated"]


def test_pure_lead_judges_replace_one_against_the_peer_run_at_its_replace_one_cost():
    """With smartnoise also run at eps / 1.125 ((1, 0)-DP under replace-one), our replace-one rows are judged
    against that run and our add/remove rows against its charged run. Catches the replace-one verdict taken
    against the charged run (which is (1.125, 0) under replace-one), or the add/remove one against the scaled run."""
    fair = dict(_sn(0.016, 0.0027), label=_sn(0, 0)["label"] + ", eps / 1.125",
                guarantee=bench.SNSYNTH_REPLACE_GUARANTEE)
    ours = [dict(label="ours replace", T=30, sec=0.001, max=0.015, mean=0.0026, guarantee=PURE),
            dict(label="ours add/remove", T=30, sec=0.002, max=0.015, mean=0.0026, guarantee=bench.PURE_ADD_REMOVE)]
    lines = bench._pure_lead([_sn(0.014, 0.0024), fair] + ours, 30)
    assert "replace one record" in lines[0] and "max 0.0160" in lines[0] and "met by ours replace" in lines[0]
    assert "add/remove" in lines[1] and "max 0.0140" in lines[1] and ": not met" in lines[1]
