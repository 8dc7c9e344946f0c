"""The privacy auditor: power on broken mechanisms, calibration on correct ones, the bound's formula, the registry."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from simulations import audit


def test_epsilon_lower_bound_formula():
    """eps_lb = max(0, log((1-delta-FNR)/FPR), log((1-delta-FPR)/FNR)) on hand values."""
    assert audit.epsilon_lower_bound(0.1, 0.5) == pytest.approx(math.log(5))
    assert audit.epsilon_lower_bound(0.5, 0.1) == pytest.approx(math.log(5))
    assert audit.epsilon_lower_bound(0.1, 0.5, delta=0.2) == pytest.approx(math.log(3))
    assert audit.epsilon_lower_bound(0.6, 0.6) == 0.0
    assert audit.epsilon_lower_bound(np.array([0.1, 0.6]), np.array([0.5, 0.6])) == pytest.approx([math.log(5), 0.0])


def test_best_threshold_finds_the_separating_cut():
    s0 = np.zeros(1000)
    s1 = np.ones(1000)
    test, lb = audit.best_threshold_test(s0, s1)
    assert test.guesses_d1(np.array([1.0]))[0] and not test.guesses_d1(np.array([0.0]))[0]
    assert lb > 4  # log(1/FPR_u) with FPR_u = 1 - 1e-4^(1/1000) (SELECTION_LEVEL): 4.69


TARGETS = audit.targets()
REAL = sorted(n for n, t in TARGETS.items() if t.expect_private)
BROKEN = sorted(n for n, t in TARGETS.items() if not t.expect_private and n in
                {"laplace_half_scale", "laplace_no_noise", "gaussian_half_sigma", "gaussian_no_noise",
                 "exponential_no_factor_two", "exponential_argmax"})


def test_shipped_targets_include_real_and_broken_variants():
    assert {"laplace", "gaussian", "exponential"} <= set(REAL)
    assert len(BROKEN) == 6


@pytest.mark.parametrize("name", BROKEN)
def test_auditor_catches_broken_variant(name):
    """Each broken variant (noise scale halved, noise removed, factor 2 dropped) gets eps_lb > declared eps
    at 95% confidence with its default sample size and a fixed seed (catches an auditor without power)."""
    result = audit.run_target(name, seed=11)
    assert result.violated, str(result)


@pytest.mark.parametrize("name", REAL)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_correct_mechanism_passes(name, seed):
    """Correct mechanisms get eps_lb <= declared eps (guaranteed with prob >= 95% per audit; fixed seeds)."""
    result = audit.run_target(name, seed=seed)
    assert not result.violated, str(result)


def test_correct_laplace_is_nearly_tight():
    """On the hard pair, the correct Laplace mechanism's lower bound comes close to eps (the pair is hard and
    the threshold search works): eps_lb > 0.8 eps with 200000 samples."""
    assert audit.run_target("laplace", seed=5).eps_lower_bound > 0.8


def test_false_alarm_rate_of_the_auditor_is_at_most_five_percent():
    """40 independent audits of the correct Laplace mechanism with 20000 samples: the number refuting eps is
    Bin(40, <= 0.05) if the auditor is calibrated, so <= 6 except with probability 0.0034. Catches an auditor that
    uses point estimates instead of Clopper-Pearson bounds (it refutes the tight tail ratio e^eps about half the time)."""
    target = TARGETS["laplace"]
    violations = sum(audit.audit(target.make(1.0, 0.0), 20_000, np.random.default_rng(100 + r)).violated
                     for r in range(40))
    assert violations <= st.binom.ppf(0.999, 40, 0.05) - 1


def _randomized_response(eps_true):
    """Warner (1965) randomized response on one bit, unbatched (one output per call)."""
    keep = math.exp(eps_true) / (1 + math.exp(eps_true))

    def mechanism(private_data, public_data, rng):
        bit = int(private_data[0])
        return bit if rng.random() < keep else 1 - bit

    return mechanism


def test_unbatched_mechanism_and_power_on_randomized_response():
    """Unbatched path: randomized response with true eps 2 declared eps 1 is caught; declared at its true eps 2 it passes."""
    d0, d1 = np.array([0]), np.array([1])
    broken = audit.AuditCase(_randomized_response(2.0), float, (d0, d1), None, eps=1.0)
    result = audit.audit(broken, 20_000, np.random.default_rng(0))
    assert result.violated and result.eps_lower_bound > 1.5
    honest = audit.AuditCase(_randomized_response(2.0), float, (d0, d1), None, eps=2.0)
    assert not audit.audit(honest, 20_000, np.random.default_rng(0)).violated


def test_register_target_without_editing_the_engine():
    """A target registered at run time is listed and runnable by name; a second target with the same name is refused."""
    d0, d1 = np.array([0]), np.array([1])
    t = audit.AuditTarget("test_rr", "Warner 1965", "randomized response",
                          lambda e, d: audit.AuditCase(_randomized_response(e), float, (d0, d1), None, eps=e),
                          default_samples=2_000)
    audit.register(t)
    assert "test_rr" in audit.targets()
    assert not audit.run_target("test_rr", seed=1).violated
    with pytest.raises(ValueError, match="already registered"):
        audit.register(audit.AuditTarget("test_rr", "x", "y", t.make))


def test_bad_arguments_raise():
    case = TARGETS["laplace"].make(1.0, 0.0)
    with pytest.raises(ValueError, match="samples"):
        audit.audit(case, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="confidence"):
        audit.audit(case, 100, np.random.default_rng(0), confidence=1.5)
    with pytest.raises(ValueError, match="unknown"):
        audit.get_target("nope")
