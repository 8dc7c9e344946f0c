"""Accounting: guarantees as values, composition, conversions, group privacy, subsampling.

Hand-computed values are written as literals (computed independently with a calculator from
the cited formula); the zCDP -> (eps, delta) conversion is checked against Google's
dp_accounting and against the exact Gaussian curve (Balle-Wang 2018), which no valid
conversion of rho-zCDP may undercut (the Gaussian mechanism with mu = sqrt(2 rho) is rho-zCDP).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import dp_accounting
from dp_accounting.rdp import RdpAccountant

from algorithms.privacy.accounting import (
    Accountant,
    ApproxDP,
    PureDP,
    Release,
    ZCDP,
    advanced_composition,
    amplify_by_subsampling,
    compose,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_sigma_analytic,
    group_privacy,
    pure_to_approx,
    pure_to_zcdp,
    zcdp_epsilon_closed,
    zcdp_epsilon_infimum,
    zcdp_to_approx,
    zcdp_to_approx_closed,
)


# ----------------------------------------------------------------- values and bad input

@pytest.mark.parametrize(
    "make, name",
    [
        (lambda: PureDP(-0.1), "eps"),
        (lambda: PureDP(float("nan")), "eps"),
        (lambda: PureDP(math.inf), "eps"),
        (lambda: PureDP("a"), "eps"),
        (lambda: ApproxDP(1.0, 1.0), "delta"),
        (lambda: ApproxDP(1.0, -1e-9), "delta"),
        (lambda: ApproxDP(-1.0, 0.1), "eps"),
        (lambda: ZCDP(-1.0), "rho"),
        (lambda: ZCDP(None), "rho"),
    ],
)
def test_guarantee_out_of_range_raises_value_error_naming_argument(make, name):
    with pytest.raises(ValueError, match=name):
        make()


def test_guarantees_are_frozen_hashable_values():
    g = ApproxDP(1.0, 1e-6)
    assert g == ApproxDP(1, 1e-6) and hash(g) == hash(ApproxDP(1.0, 1e-6))
    with pytest.raises(Exception):
        g.eps = 2.0  # type: ignore[misc]


def test_release_unpacks_to_value_and_guarantee():
    value, guarantee = Release(3, PureDP(0.5))
    assert value == 3 and guarantee == PureDP(0.5)


# ----------------------------------------------------------------- composition

def test_basic_composition_of_pure_adds_eps():
    assert compose(PureDP(0.5), PureDP(0.25), PureDP(0.125)) == PureDP(0.875)


def test_basic_composition_of_pure_and_approx_is_approx_with_summed_eps_and_delta():
    assert compose(PureDP(0.5), ApproxDP(0.25, 1e-6), ApproxDP(0.25, 2e-6)) == ApproxDP(1.0, 3e-6)


def test_zcdp_composition_adds_rho():
    assert compose(ZCDP(0.01), ZCDP(0.02), ZCDP(0.03)) == ZCDP(0.06)


def test_compose_of_nothing_is_zero_pure():
    assert compose() == PureDP(0.0)


def test_compose_refuses_zcdp_mixed_with_pure():
    with pytest.raises(ValueError, match="guarantees"):
        compose(ZCDP(0.1), PureDP(0.1))


def test_compose_refuses_total_delta_at_least_one():
    with pytest.raises(ValueError, match="delta"):
        compose(ApproxDP(0.1, 0.6), ApproxDP(0.1, 0.5))


def test_compose_refuses_non_guarantee():
    with pytest.raises(ValueError, match=r"guarantees\[1\]"):
        compose(PureDP(0.1), 0.1)


def test_advanced_composition_matches_hand_computation():
    """DRV10 / Dwork-Roth Thm 3.20, k = 10, eps = 0.1, delta = 1e-6, delta' = 1e-5:
    sqrt(20 ln 1e5) * 0.1 + 10 * 0.1 * (e^0.1 - 1) = 1.517426 + 0.105171 = 1.622597;
    delta total = 10 * 1e-6 + 1e-5 = 2e-5."""
    g = advanced_composition(ApproxDP(0.1, 1e-6), 10, 1e-5)
    assert g.eps == pytest.approx(1.622597, rel=1e-6)
    assert g.delta == pytest.approx(2e-5, rel=1e-12)


def test_advanced_composition_beats_basic_for_many_small_steps():
    g = advanced_composition(PureDP(0.01), 10_000, 1e-6)
    assert g.eps < 10_000 * 0.01 / 10


@pytest.mark.parametrize("k, slack, name", [(0, 1e-5, "k"), (2.5, 1e-5, "k"), (3, 0.0, "delta_slack"),
                                            (3, 1.0, "delta_slack")])
def test_advanced_composition_bad_input(k, slack, name):
    with pytest.raises(ValueError, match=name):
        advanced_composition(PureDP(0.1), k, slack)


# ----------------------------------------------------------------- conversions

def test_pure_to_zcdp_is_eps_squared_over_two():
    assert pure_to_zcdp(PureDP(0.3)).rho == pytest.approx(0.045, rel=1e-15)
    assert pure_to_approx(PureDP(0.3)) == ApproxDP(0.3, 0.0)


def test_zcdp_closed_conversion_matches_hand_computation():
    """Bun-Steinke Prop 1.3, rho = 0.5, delta = 1e-5: 0.5 + 2 sqrt(0.5 ln 1e5) = 0.5 + 2 * 2.399263 = 5.298526."""
    assert zcdp_epsilon_closed(0.5, 1e-5) == pytest.approx(5.298526, rel=1e-6)
    assert zcdp_to_approx_closed(ZCDP(0.5), 1e-5) == ApproxDP(zcdp_epsilon_closed(0.5, 1e-5), 1e-5)


@pytest.mark.parametrize("eps_tilde", [0.1, 0.5, 1.0, 3.0])
def test_closed_conversion_is_lvsuw21_thm4_5_upper_bound_in_eps_tilde(eps_tilde):
    """LVSUW21 Thm 4.5 second line: eps~^2/2 + sqrt(2 ln(1/delta)) eps~ with rho = eps~^2/2."""
    delta = 1e-6
    assert zcdp_epsilon_closed(eps_tilde**2 / 2, delta) == pytest.approx(
        eps_tilde**2 / 2 + math.sqrt(2 * math.log(1 / delta)) * eps_tilde, rel=1e-13)


def _dense_rdp_accountant_epsilon(rho, delta):
    orders = np.concatenate([np.linspace(1.0001, 2.0, 20001), np.linspace(2.0, 50.0, 20001),
                             np.geomspace(50.0, 1e5, 4001)])
    acc = RdpAccountant(orders=orders)
    acc.compose(dp_accounting.ZCDpEvent(rho))
    return acc.get_epsilon(delta)


@pytest.mark.parametrize("rho", [1e-4, 5e-3, 0.125, 0.5, 2.0, 50.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-5, 1e-2])
def test_zcdp_infimum_conversion_matches_dp_accounting_rdp(rho, delta):
    """CKS20 Prop 12 as LVSUW21 Thm 4.5 writes it equals dp_accounting's RDP conversion (same
    formula minimised over a dense grid of orders): ours (continuous infimum) is never above
    theirs and within 1e-5 relative of it. Catches a wrong term in the objective (e.g.
    ln(1/delta) in place of ln(1/(alpha delta))) or a failed minimisation."""
    ours, alpha = zcdp_epsilon_infimum(rho, delta)
    theirs = _dense_rdp_accountant_epsilon(rho, delta)
    assert ours <= theirs + 1e-12
    assert ours == pytest.approx(theirs, rel=1e-5, abs=1e-9)
    assert alpha > 1.0


@pytest.mark.parametrize("sigma", [0.5, 1.0, 4.0, 20.0])
def test_gaussian_rdp_event_conversion_agrees_with_ours_at_rho_half_over_sigma_squared(sigma):
    """dp_accounting's GaussianDpEvent (RDP alpha/(2 sigma^2)) at its default orders is never
    better than our infimum for rho = 1/(2 sigma^2): the default grid only restricts alpha."""
    acc = RdpAccountant()
    acc.compose(dp_accounting.GaussianDpEvent(sigma))
    theirs, order = acc.get_epsilon_and_optimal_order(1e-6)
    rho = 1 / (2 * sigma**2)
    ours, _ = zcdp_epsilon_infimum(rho, 1e-6)
    assert ours <= theirs + 1e-12
    # at their optimal order our objective (LVSUW21 Thm 4.5, first line) reproduces their value
    at_order = rho * order + math.log(1 / (order * 1e-6)) / (order - 1) + math.log(1 - 1 / order)
    assert at_order == pytest.approx(theirs, rel=1e-10)


@settings(max_examples=60, deadline=None)
@given(log_rho=st.floats(-9.0, 4.0), log_delta=st.floats(-25.0, -0.5))
def test_conversions_are_ordered_exact_gaussian_le_infimum_le_closed(log_rho, log_delta):
    """For every rho, delta: the exact Gaussian curve (Balle-Wang) <= LVSUW21 Thm 4.5 infimum
    <= its closed upper bound. A conversion below the Gaussian curve would be invalid."""
    rho, delta = math.exp(log_rho), math.exp(log_delta)
    exact = gaussian_epsilon(delta, rho=rho)
    inf_eps, _ = zcdp_epsilon_infimum(rho, delta)
    closed = zcdp_epsilon_closed(rho, delta)
    assert exact <= inf_eps + 1e-9 * max(1.0, inf_eps)
    assert inf_eps <= closed + 1e-12


@settings(max_examples=40, deadline=None)
@given(log_rho=st.floats(-8.0, 3.0), log_delta=st.floats(-20.0, -1.0), factor=st.floats(1.01, 10.0))
def test_infimum_conversion_increases_with_rho_and_decreases_with_delta(log_rho, log_delta, factor):
    rho, delta = math.exp(log_rho), math.exp(log_delta)
    base = zcdp_epsilon_infimum(rho, delta)[0]
    assert zcdp_epsilon_infimum(rho * factor, delta)[0] >= base - 1e-9
    assert zcdp_epsilon_infimum(rho, delta / factor)[0] >= base - 1e-9


def test_infimum_is_below_the_objective_at_every_alpha_on_a_grid():
    rho, delta = 0.3, 1e-7
    eps, alpha_star = zcdp_epsilon_infimum(rho, delta)
    alphas = np.geomspace(1.0 + 1e-6, 1e4, 200_001)
    obj = rho * alphas + np.log(1 / (alphas * delta)) / (alphas - 1) + np.log(1 - 1 / alphas)
    assert eps <= obj.min() + 1e-12
    assert eps == pytest.approx(obj.min(), rel=1e-8)


def test_zcdp_to_approx_uses_the_infimum_and_rho_zero_is_free():
    assert zcdp_to_approx(ZCDP(0.5), 1e-5).eps == pytest.approx(zcdp_epsilon_infimum(0.5, 1e-5)[0])
    assert zcdp_epsilon_infimum(0.0, 1e-5)[0] == 0.0


@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.5, 10.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5, 0.05])
def test_exact_gaussian_curve_matches_dp_accounting_analytic_gaussian(sigma, delta):
    """Balle-Wang (2018) Thm 8 against dp_accounting.get_epsilon_gaussian (same theorem, their code)."""
    ours = gaussian_epsilon(delta, sensitivity=1.0, sigma=sigma)
    theirs = dp_accounting.get_epsilon_gaussian(sigma, delta)
    assert ours == pytest.approx(theirs, rel=1e-8, abs=1e-10)
    if ours > 0:
        assert gaussian_delta(ours, sensitivity=1.0, sigma=sigma) == pytest.approx(delta, rel=1e-7)


@pytest.mark.parametrize("eps, delta", [(0.1, 1e-5), (1.0, 1e-5), (5.0, 1e-8)])
def test_analytic_sigma_matches_dp_accounting_and_is_scale_equivariant(eps, delta):
    s1 = gaussian_sigma_analytic(1.0, eps, delta)
    assert s1 == pytest.approx(dp_accounting.get_sigma_gaussian(eps, delta), rel=1e-6)
    assert gaussian_sigma_analytic(0.01, eps, delta) == pytest.approx(0.01 * s1, rel=1e-10)


def test_exact_gaussian_curve_sensitivity_sigma_equals_rho_form():
    assert gaussian_epsilon(1e-6, sensitivity=2.0, sigma=5.0) == pytest.approx(
        gaussian_epsilon(1e-6, rho=4.0 / 50.0), rel=1e-12)


@pytest.mark.parametrize("kwargs, name", [({"rho": 0.1, "sigma": 1.0}, "rho"), ({"sigma": 1.0}, "rho"),
                                          ({"rho": -1.0}, "rho"), ({"sensitivity": 1.0, "sigma": 0.0}, "sigma")])
def test_gaussian_curve_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        gaussian_epsilon(1e-5, **kwargs)


def test_conversion_bad_delta_raises():
    for bad in (0.0, 1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="delta"):
            zcdp_epsilon_infimum(0.1, bad)
        with pytest.raises(ValueError, match="delta"):
            zcdp_epsilon_closed(0.1, bad)


# ----------------------------------------------------------------- group privacy, subsampling

def test_group_privacy_hand_values():
    """k = 3: pure 3 * 0.2 = 0.6; approx (0.6, 3 e^{0.4} 1e-6 = 4.475474e-6); zCDP 9 rho."""
    assert group_privacy(PureDP(0.2), 3).eps == pytest.approx(0.6)
    g = group_privacy(ApproxDP(0.2, 1e-6), 3)
    assert g.eps == pytest.approx(0.6) and g.delta == pytest.approx(4.475474e-6, rel=1e-6)
    assert group_privacy(ZCDP(0.01), 3).rho == pytest.approx(0.09)
    with pytest.raises(ValueError, match="k"):
        group_privacy(PureDP(0.2), 0)


def test_subsampling_amplification_hand_values():
    """eps = 1, q = 0.1: ln(1 + 0.1 (e - 1)) = ln(1.17182818) = 0.15856508; delta 1e-6 -> 1e-7."""
    assert amplify_by_subsampling(PureDP(1.0), 0.1).eps == pytest.approx(0.15856508, rel=1e-7)
    g = amplify_by_subsampling(ApproxDP(1.0, 1e-6), 0.1)
    assert g.eps == pytest.approx(0.15856508, rel=1e-7) and g.delta == pytest.approx(1e-7)
    assert amplify_by_subsampling(PureDP(1.0), 1.0).eps == pytest.approx(1.0)
    for q in (0.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="q"):
            amplify_by_subsampling(PureDP(1.0), q)
    with pytest.raises(ValueError, match="guarantee"):
        amplify_by_subsampling(ZCDP(0.1), 0.5)


# ----------------------------------------------------------------- accountant

def test_accountant_records_labels_and_composes():
    acct = Accountant()
    assert acct.total() == PureDP(0.0)
    acct.spend("select 1", PureDP(0.1))
    acct.spend("measure 1", ApproxDP(0.2, 1e-6))
    assert len(acct) == 2 and acct.entries[0] == ("select 1", PureDP(0.1))
    assert acct.total().eps == pytest.approx(0.3) and acct.total().delta == 1e-6
    value, spent = acct.release("output")
    assert value == "output" and spent == acct.total()
    with pytest.raises(ValueError, match="label"):
        acct.spend(3, PureDP(0.1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="guarantee"):
        acct.spend("x", 0.1)  # type: ignore[arg-type]


@pytest.mark.parametrize("T", [1, 7, 100])
def test_lvsuw21_thm4_5_total_is_eps_tilde_squared_over_two_for_any_T(T):
    """LVSUW21 Thm 4.5 / Sec 4.1: T selections (eps_0-DP, converted to eps_0^2/2-zCDP) and T
    Gaussian measurements (eps_0^2/2-zCDP), eps_0 = eps~/sqrt(2T): total eps~^2/2."""
    eps_tilde = 0.7
    eps0 = eps_tilde / math.sqrt(2 * T)
    acct = Accountant()
    for t in range(T):
        acct.spend(f"select {t}", PureDP(eps0))
        acct.spend(f"measure {t}", ZCDP(eps0**2 / 2))
    assert acct.total_zcdp().rho == pytest.approx(eps_tilde**2 / 2, rel=1e-12)
    approx = acct.total_approx(1e-6)
    via_zcdp = zcdp_epsilon_infimum(eps_tilde**2 / 2, 1e-6)[0]
    via_basic = T * eps0 + zcdp_epsilon_infimum(T * eps0**2 / 2, 1e-6)[0]
    assert approx.eps == pytest.approx(min(via_zcdp, via_basic), rel=1e-9)
    with pytest.raises(ValueError, match="guarantees"):
        acct.total()


def test_accountant_total_approx_adds_pure_part_to_converted_zcdp_part():
    acct = Accountant()
    acct.spend("laplace", PureDP(0.1))
    acct.spend("gauss", ZCDP(0.02))
    g = acct.total_approx(1e-6)
    assert g.eps == pytest.approx(0.1 + zcdp_epsilon_infimum(0.02, 1e-6)[0])
    assert g.delta == pytest.approx(1e-6)
    acct.spend("approx", ApproxDP(0.1, 1e-7))
    with pytest.raises(ValueError, match="approx"):
        acct.total_zcdp()


# ----------------------------------------------------------------- bounded range (Cesar-Rogers 2021)
# Exact laws on small cases: every score vector on a grid, every neighbour that moves each score by
# -Delta, 0 or +Delta (the extreme points of the allowed moves), for the exponential mechanism and
# permute-and-flip; the privacy-loss random variable is log P(r) - log P'(r) with r ~ P.

from algorithms.privacy.accounting import bounded_range_to_zcdp  # noqa: E402
from algorithms.privacy.mechanisms import (  # noqa: E402
    ExponentialMechanism,
    PermuteAndFlip,
    exponential_probabilities,
    permute_and_flip_probabilities,
)

_BR_EPS = (0.05, 0.3, 1.0, 2.5)
_RENYI_ORDERS = np.concatenate([[1.0], np.linspace(1.05, 3.0, 40), np.geomspace(3.0, 200.0, 40)])


def _neighbour_pairs(k, delta=1.0):
    """Score vectors u on {0, 0.5, 2}^k (k <= 3) and every u' = u + s Delta, s in {-1, 0, 1}^k."""
    import itertools

    grid = (0.0, 0.5, 2.0)
    for u in itertools.product(grid, repeat=k):
        for s in itertools.product((-1.0, 0.0, 1.0), repeat=k):
            if any(s):
                yield np.array(u), np.array(u) + delta * np.array(s)


def _renyi_over_alpha(p, q):
    """max over the orders of D_alpha(P || Q) / alpha (alpha = 1: KL), exactly from the mass
    functions, in log space (one logsumexp per order)."""
    from scipy.special import logsumexp

    lp, lq = np.log(p), np.log(q)
    kl = float(np.sum(p * (lp - lq)))
    a = _RENYI_ORDERS[1:, None]
    d = logsumexp(a * lp + (1.0 - a) * lq, axis=1) / (a[:, 0] - 1.0)
    return max(kl, float(np.max(d / a[:, 0])))


def _worst_case(law, eps, ks=(2, 3)):
    """Over all small neighbour pairs (k candidates, k in ``ks``): the widest privacy-loss range, and
    max_alpha D_alpha / alpha."""
    width, ratio = 0.0, 0.0
    for u, v in (pair for k in ks for pair in _neighbour_pairs(k)):
        p, q = law(u, eps), law(v, eps)
        loss = np.log(p) - np.log(q)
        width = max(width, float(loss.max() - loss.min()))
        ratio = max(ratio, _renyi_over_alpha(p, q), _renyi_over_alpha(q, p))
    return width, ratio


def _em(u, eps):
    return exponential_probabilities(u, eps=eps, sensitivity=1.0)


def _em_monotone(u, eps):
    return exponential_probabilities(u, eps=eps, sensitivity=1.0, monotone=True)


def _pf(u, eps):
    return permute_and_flip_probabilities(u, eps=eps, sensitivity=1.0)


def test_bounded_range_to_zcdp_is_eps_squared_over_eight_and_checks_input():
    assert bounded_range_to_zcdp(1.0) == ZCDP(0.125)
    assert bounded_range_to_zcdp(0.4).rho == pytest.approx(0.02, rel=1e-15)
    assert ExponentialMechanism(0.4, 1.0).zcdp_guarantee == bounded_range_to_zcdp(0.4)
    assert PermuteAndFlip(0.4, 1.0).zcdp_guarantee == pure_to_zcdp(PureDP(0.4))
    with pytest.raises(ValueError, match="eps"):
        bounded_range_to_zcdp(-1.0)


@pytest.mark.parametrize("eps", _BR_EPS)
def test_exponential_mechanism_exact_loss_is_eps_bounded_range_and_eps_sq_over_8_zcdp(eps):
    """Cesar-Rogers 2021 on the exponential mechanism's exact law: over every neighbour pair of the
    grid the privacy loss spans at most eps (and exactly eps on u -> u + (1, -1, ..) Delta), and
    D_alpha <= alpha eps^2/8 at every order checked. Catches the monotone weights eps/Delta used on
    non-monotone neighbours (loss range 2 eps) and a declared eps^2/16 (the worst case reaches more
    than 0.9 x eps^2/8 at small eps: two candidates moving apart are a two-point loss at t, t + eps)."""
    width, ratio = _worst_case(_em, eps)
    assert width <= eps * (1 + 1e-9)
    assert width >= eps * (1 - 1e-9)
    rho = ExponentialMechanism(eps, 1.0).zcdp_guarantee.rho
    assert ratio <= rho * (1 + 1e-9)
    if eps <= 0.3:
        assert ratio > 0.9 * rho        # so rho / 2 would be violated
    wide, _ = _worst_case(_em_monotone, eps, (2,))   # monotone weights on non-monotone moves: range 2 eps
    assert wide > 1.5 * eps


@pytest.mark.parametrize("eps", _BR_EPS)
def test_monotone_exponential_mechanism_is_eps_bounded_range_on_monotone_neighbours(eps):
    """The monotone refinement (weights eps u / Delta) is eps-BR when every score moves the same way:
    the exact loss range over all monotone moves u -> u +- Delta s, s in {0, 1}^3, is at most eps."""
    import itertools

    for u, _ in _neighbour_pairs(3):
        for s in itertools.product((0.0, 1.0), repeat=3):
            for sign in (-1.0, 1.0):
                loss = np.log(_em_monotone(u, eps)) - np.log(_em_monotone(u + sign * np.array(s), eps))
                assert loss.max() - loss.min() <= eps * (1 + 1e-9)


@pytest.mark.parametrize("eps", _BR_EPS)
def test_permute_and_flip_is_not_bounded_range_and_only_eps_sq_over_2_zcdp(eps):
    """The premise that permute-and-flip admits eps^2/8 is false: on two
    candidates moving from (0, 0) to (Delta, -Delta) its exact law goes from (1/2, 1/2) to
    (1 - e^-eps/2, e^-eps/2); the loss range is eps + log(2 - e^-eps) > eps and
    max_alpha D_alpha / alpha exceeds eps^2/8 (about eps^2/2 at small eps), while the pure-DP
    conversion eps^2/2 holds on every pair. Catches declaring permute-and-flip bounded-range."""
    p, q = _pf(np.array([0.0, 0.0]), eps), _pf(np.array([1.0, -1.0]), eps)
    assert q == pytest.approx([1 - math.exp(-eps) / 2, math.exp(-eps) / 2], rel=1e-12)
    loss = np.log(p) - np.log(q)
    assert loss.max() - loss.min() == pytest.approx(eps + math.log(2 - math.exp(-eps)), rel=1e-12)
    width, ratio = _worst_case(_pf, eps)
    assert width > eps * 1.2
    assert ratio > bounded_range_to_zcdp(eps).rho * 1.5
    assert ratio <= PermuteAndFlip(eps, 1.0).zcdp_guarantee.rho * (1 + 1e-9)
    if eps <= 0.3:
        assert ratio > 0.8 * eps**2 / 2


def _pld_epsilon(p, q, delta):
    from dp_accounting.pld import privacy_loss_distribution as pld

    lp = {i: float(np.log(x)) for i, x in enumerate(p)}
    lq = {i: float(np.log(x)) for i, x in enumerate(q)}
    d = pld.from_two_probability_mass_functions(lp, lq, value_discretization_interval=1e-5)
    return d.get_epsilon_for_delta(delta)


@pytest.mark.parametrize("eps", [0.3, 1.0])
def test_dp_accounting_pld_of_exact_laws_agrees_with_the_declared_zcdp(eps):
    """Cross-check with Google's dp_accounting: its privacy-loss distribution built from the exact
    mass functions gives eps(delta) on the worst two-candidate pair; for the exponential mechanism it
    is at most the CKS conversion of eps^2/8 (the declared rho), for permute-and-flip it exceeds the
    conversion of eps^2/8 at some delta (so dp_accounting confirms it is not eps^2/8-zCDP) and stays
    below that of eps^2/2."""
    u, v = np.array([0.0, 0.0]), np.array([1.0, -1.0])
    deltas = (1e-6, 1e-3, 0.05, 0.2)
    for delta in deltas:
        for a, b in ((u, v), (v, u)):
            assert _pld_epsilon(_em(a, eps), _em(b, eps), delta) <= zcdp_epsilon_infimum(eps**2 / 8, delta)[0] + 1e-4
            assert _pld_epsilon(_pf(a, eps), _pf(b, eps), delta) <= zcdp_epsilon_infimum(eps**2 / 2, delta)[0] + 1e-4
    assert any(_pld_epsilon(_pf(a, eps), _pf(b, eps), delta) > zcdp_epsilon_infimum(eps**2 / 8, delta)[0]
               for delta in deltas for a, b in ((u, v), (v, u)))
