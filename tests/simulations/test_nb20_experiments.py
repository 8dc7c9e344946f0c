"""NB20 experiments thm7 and thm11: small runs of the real trial/summarise at the theorems' own n (count-based
path) with the negative controls and baselines, the pure-noise counterexample to Lemma 9's printed query count,
and the below-bound status."""

import numpy as np
import pytest

from simulations import contract, stats
from simulations.experiments import thm7, thm11


def _records(module, params, trials, seed):
    return [module.trial(params, np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,))))
            for i in range(trials)]


@pytest.fixture(scope="module")
def thm7_summary():
    p = thm7.Params(cases=("thresholds",), per_subsample=1, num_queries=20, counter_reps=20)
    return contract.summarise_run(thm7.EXPERIMENT, _records(thm7, p, 3, 11), p)


@pytest.fixture(scope="module")
def thm7_at_bound():
    p = thm7.Params(cases=("boundary_noise",), counter_reps=1)
    return contract.summarise_run(thm7.EXPERIMENT, _records(thm7, p, 3, 13), p)


@pytest.mark.slow
def test_thm7_at_its_own_n_the_relabelling_beats_btt18_and_both_controls_are_violated(thm7_at_bound):
    """boundary_noise at Theorem 7's n (3 * 10^11, tight lambda): BTT18's sub-samples split at the fair-coin
    point, so it meets unstable queries and halts after floor(T) of them in every trial, and fails; A_AgPrivCl
    meets none; both controls (majority inverted; sub-samples without the relabelling, which halts like BTT18)
    come out violated on 3 trials; the constant answer fails. Catches a relabelling that does not reach the
    sub-samples, or controls judged below the bound."""
    c = thm7_at_bound["cases"]["boundary_noise"]
    assert c["at_bound"] and c["n_fraction_of_bound"] >= 1 and c["not_judged_because"] is None
    assert c["btt18_halted_rate"] == 1.0 and c["btt18_unstable"]["mean"] == c["rounds"]
    assert c["unstable"]["mean"] == 0 and c["halted_rate"] == 0
    assert c["accuracy"]["btt18"]["status"] == "fails" and c["baselines"]["constant"]["status"] == "fails"
    assert c["negative_control"]["status"] == stats.VIOLATED
    assert c["negative_control_no_relabel"]["status"] == stats.VIOLATED
    assert thm7_at_bound["negative_controls_caught"] and c["privacy_as_requested"]
    assert thm7_at_bound["trials_for_holds"] > 3 and c["accuracy"]["agprivcl"]["kind"] == "verdict"


def test_thm7_below_the_theorem_size_is_below_bound_never_violated(thm7_summary):
    c = thm7_summary["cases"]["thresholds"]
    assert c["n_used"] < c["n_bound"] and not c["at_bound"] and c["not_judged_because"].startswith("n = ")
    assert c["accuracy"]["agprivcl"]["status"] == stats.BELOW_BOUND
    assert c["negative_control"]["status"] == stats.BELOW_BOUND
    assert thm7_summary["verdict"] == stats.BELOW_BOUND
    assert c["privacy_as_requested"] and c["unstable_within_T"]


def test_thm7_printed_query_count_is_refuted_on_pure_noise_and_the_corrected_one_holds(thm7_summary):
    """60 pure-noise runs at m = 8 log(1/(alpha beta))/alpha (79,228 at 0.001, 0.05): success ~0.71 < 0.95,
    violated; at bounds' corrected count (Bernstein, gamma = 1/2) every run succeeds: holds. Catches: the
    corrected count replaced by the printed one (then both are violated), or labels that are not noise."""
    ce = thm7_summary["counterexample"]
    assert ce["m_printed"] == 79228
    assert ce["printed"]["status"] == stats.VIOLATED
    assert ce["corrected"]["status"] == stats.HOLDS


def test_thm7_trial_is_a_pure_function_of_its_generator():
    p = thm7.Params(cases=("intervals",), per_subsample=1, num_queries=10, counter_reps=1)
    a = _records(thm7, p, 1, 5)
    b = _records(thm7, p, 1, 5)
    assert a == b


def test_thm7_params_reject_bad_input():
    with pytest.raises(ValueError, match="noise=0.6"):
        thm7.Params(noise=0.6)
    with pytest.raises(ValueError, match="cases="):
        thm7.Params(cases=("stumps",))
    with pytest.raises(ValueError, match="path="):
        thm7.Params(path="examples")  # the per-example path only below the bound
    with pytest.raises(ValueError, match="variant="):
        thm7.Params(variant="nonsense")


def test_thm7_per_example_path_runs_below_the_bound():
    p = thm7.Params(cases=("thresholds",), per_subsample=1, num_queries=10, counter_reps=1, path="examples")
    rec = _records(thm7, p, 1, 3)[0]["cases"]["thresholds"]
    assert rec["n_prime"] == rec["k"] and rec["unstable_before_halt"] <= rec["rounds"]


@pytest.mark.slow
def test_thm11_switch_privacy_and_negative_control():
    """Three trials at Theorem 11's n: the switch happens exactly after m_o queries, the composed privacy is
    within (eps, delta) while the printed budget would spend more than eps, and the inverted h_priv is
    violated; below the bound (per_subsample = 1) the accuracy is below-bound. Catches: h_priv computed one
    query early/late, the double spend, a control that is not inverted."""
    p = thm11.Params(cases=("thresholds",))
    s = contract.summarise_run(thm11.EXPERIMENT, _records(thm11, p, 3, 12), p)
    c = s["cases"]["thresholds"]
    assert c["at_bound"] and c["n_used"] >= c["n_bound"]
    assert c["switch"]["status"] == stats.HOLDS and c["privacy"]["status"] == stats.HOLDS
    assert c["privacy"]["eps"] <= p.eps < c["privacy"]["printed_budget_eps"]
    assert c["negative_control"]["status"] == stats.VIOLATED
    assert c["baselines"]["constant_zero"]["status"] == "fails"
    small = thm11.Params(cases=("thresholds",), per_subsample=1)
    b = contract.summarise_run(thm11.EXPERIMENT, _records(thm11, small, 1, 12), small)
    assert b["cases"]["thresholds"]["accuracy"]["status"] == stats.BELOW_BOUND and b["verdict"] == stats.BELOW_BOUND
    rows = c["crossover"]
    assert [r["m"] for r in rows] == list(thm11.CROSSOVER_M)
    assert rows[-1]["thm7_n_bound"] > rows[-1]["thm11_n_bound"]   # many queries: Theorem 11 wins
    assert len({r["thm11_n_run"] for r in rows if r["m"] >= c["m_o"]}) == 1  # n does not grow beyond m_o
