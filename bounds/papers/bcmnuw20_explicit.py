"""BCMNUW20 Theorems 13, 14, 15 and Lemma 17 with explicit constants, for the attack and the reduction the
workbench runs (``algorithms.adversaries.tracing``, ``algorithms.adversaries.query_to_learner``).

:mod:`bounds.papers.bcmnuw20_lower` declares the results with their asymptotic forms; :func:`extend` (called by
:mod:`bounds.papers.bcmnuw20` on them before they are registered) adds the explicit forms below beside them.

Theorem 14, derived for the workbench's attack (the hard distribution D~: biases mu_j ~ U[-gamma, gamma]
i.i.d., samples with E[x_j] = mu_j; the score <y - z, q> with q the clipped answers and z one fresh
reference sample, no centring; the analytic threshold tau = 2 ||q|| sqrt(ln(1/f)), f = 1/(r + t)^2).
Let A be (alpha, alpha)-accurate on s samples (every coordinate within alpha w.p. >= 1 - alpha, for every
fixed mu), N the number of the s samples traced IN, W = X - 1 mu^T (s x p, entries centred, |W_ij| <= 1 + gamma).

1. Soundness: given mu, q and z, a fresh y gives <y - z, q> = sum_j (y_j - z_j) q_j with independent,
   centred, 2 q_j^2-sub-Gaussian terms (y_j, z_j each 1-sub-Gaussian, Hoeffding's lemma), so
   P[<y - z, q> > tau] <= exp(-tau^2/(4 ||q||^2)) = f.
2. Accuracy slack on an output event: E' = {||q|| <= nu}, nu = min(gamma + alpha, 1) sqrt(p), contains the
   accuracy event, and |E[q_j 1_E' | mu] - mu_j| <= alpha (1 - b) + (1 + gamma) b <= alpha (2 + gamma - alpha)
   =: a (b <= alpha the failure probability).
3. Fingerprinting under U[-gamma, gamma] (score identity E[f sum_i (x_ij - mu_j) | mu] = (1 - mu_j^2) d/dmu_j
   E[f | mu], then integration by parts): E[sum_j q_j 1_E' sum_i W_ij] >= p F(a, gamma), F(a, gamma) =
   (1 - gamma^2)(1 - a/gamma) + 2 gamma^2/3 - a gamma; the reference term s <z - mu, q> 1_E' has mean 0.
4. On E' and B = {||W||_op <= b, |<z - mu, q>| <= zeta ||q||}: OUT samples score <= tau each, IN ones sum to
   1_IN^T W q - N <z - mu, q> <= sqrt(N) ||q|| (b + sqrt(s) zeta) (N <= s); so S = sum_i score_i <= nu (2 s
   sqrt(ln 1/f) + sqrt(N)(b + sqrt(s) zeta)). Off B, |S| <= 2 (1 + gamma) s sqrt(p) nu (Frobenius bounds).
5. b from matrix Bernstein (Tropp 2012, Thm 1.6; variance max(s, p), range 1 + gamma) at failure delta, zeta
   from Hoeffding at failure delta; delta = 1/(S^2 p) with S = r + t.
6. Taking expectations (E[sqrt N] <= sqrt(E N)): E[N] >= ((kappa - 2 s sqrt(2 ln S) - 4 (1 + gamma) s
   sqrt(p) delta)_+ / (b + sqrt(s) zeta))^2 with kappa = sqrt(p) F/min(gamma + alpha, 1), decreasing in s.
   The workbench splits kappa: half pays the non-members' threshold (S = r + t is the largest total with
   2 S sqrt(2 ln S) <= kappa/2), the tails take <= 4 (1 + gamma)/(S sqrt p), the rest is the members' signal.
7. Theorem 14's conclusion in the form it can hold (erratum bcmnuw20-thm14-whp): E[N] >= K =: (t + 1)/2 for
   every s <= r + t, i.e. t = 2 K - 1. Theorem 13 (its proof with the Markov step replaced by this
   expectation) then needs only sum over private i of P[IN] >= K - m >= 1/2 for m < t/2. The hard distribution
   is random (biases drawn from the prior) and the attacker holds a fresh reference sample; the (1, 1/(4n))-DP
   inequality holds for every fixed pair of neighbouring datasets, so it holds averaged over both, which is all
   the contradiction uses (n >= 11, n <= r so f = 1/(r+t)^2 <= 1/n^2).

The tightened chain (``THM14_TIGHT_CHAIN``, quantities ``*_tight``, beside the chain above, which it leaves
unchanged). The operator-norm step 4 charges every traced member ||W||_op ~ sqrt(2 p ln(...)) (a log factor of ~60 in
K); the members' score sum needs only the norm of their own sum of rows, w_i = x_i - mu:
4'. On E' and B' (below), sum_{i IN} score_i = <sum_IN w_i, q> - N <z - mu, q> <= ||q|| h(N) with
   h(N) = sqrt(N B_w + N^2 c) + N zeta', since ||sum_IN w_i||^2 = sum_IN ||w_i||^2 + sum_{i != k} <w_i, w_k>.
5'. B': every ||w_i||^2 <= B_w = p + 2 ln(S/delta) (||w_i||^2 = sum_j (1 - mu_j^2) - 2 sum_j mu_j w_ij, Hoeffding
   with proxy U = sum mu_j^2, and 2 sqrt(2 U L) <= U + 2 L); every <w_i, w_k> <= c = sqrt(2 B_w ln(S^2/delta))
   (Hoeffding given w_k, proxy ||w_k||^2); -<z - mu, q/||q||> <= zeta' = sqrt(2 ln(1/delta)) (one-sided);
   P[not B'] <= 3 delta, delta = 1/(S^2 p). Off B' a member scores <= 2 sqrt(p) ||q|| (|x_ij - z_j| <= 2).
6'. h is increasing and concave, so E h(N) <= h(E N) (Jensen) and pF <= nu (2 s sqrt(2 ln S) + h(E N) + 6/(S sqrt p)):
   E N >= K' = the root of h(N) = M, M = kappa - 2 S sqrt(2 ln S) - 6/(S sqrt p) (closed form, a quadratic).
   S' = r' + t' is the largest total with t' = 2 K' - 1 >= 1 (``TIGHT_MIN_TRACED``; any S with t' > 0 is valid).
   No share of kappa is set aside for the members: K' is what the threshold leaves.
What it gains and what it cannot: t' ~ (F/cap)^2/4 ~ 1/(50 alpha^2), but a usable pair (t' >= 1 and r' >= 0, so
S' >= 1) exists only up to about alpha = 0.068 at p = 2000 and 0.08 at p = 10^6 (at alpha = 0.08, p = 2000 the range
is empty: S' = 0 and r' = -0.66 is no sample size, which the regime lines say; the matrix-Bernstein chain: alpha <
0.009); and r' + t' stays ~ sqrt(p) F/(2 cap sqrt(2 ln S)), set by the threshold each non-member
costs, so the region holds an (alpha, alpha)-accurate release only from p ~ 10^10-10^11 on (benchmarks/RESULTS.md,
"thm13's explicit region", from ``benchmarks/bench_thm13_region.py``).

gamma is chosen as min(1, (2 + sqrt 6) alpha), the maximiser of the leading term F/(gamma + alpha) as
alpha -> 0 (any gamma in (0, 1] gives a valid bound; this one is the workbench's choice, not the paper's).
"""
from __future__ import annotations

import dataclasses
import math

from ..core import Departure, Implicit, Quantity, Result

#: shares of the normalised signal kappa: the non-members' threshold, the rest (members and tails)
THRESHOLD_SHARE = 0.5


# --- Theorem 14: the chain ------------------------------------------------------------------------
def thm14_bias_range(o, alpha):
    """The hard distribution's prior width gamma = min(1, (2 + sqrt 6) alpha) (workbench's choice)."""
    return o.min(1, (2 + o.sqrt(6)) * alpha)


def thm14_accuracy_slack(o, alpha, gamma):
    """Step 2: |E[q_j 1_E' | mu] - mu_j| <= alpha (1 - b) + (1 + gamma) b at b = alpha: alpha (2 + gamma - alpha)."""
    return alpha * (2 + gamma - alpha)


def thm14_signal_floor(o, gamma, a_fp):
    """Step 3 (fingerprinting under U[-gamma, gamma]): the per-coordinate expected signal floor F(a, gamma)."""
    return (1 - gamma**2) * (1 - a_fp / gamma) + 2 * gamma**2 / 3 - a_fp * gamma


def thm14_norm_cap(o, alpha, gamma):
    """Step 2: on the accuracy event |q_j| <= min(gamma + alpha, 1), so ||q|| <= nu = cap sqrt(p)."""
    return o.min(gamma + alpha, 1)


def thm14_kappa(o, p, F, cap):
    """Step 6: the normalised signal kappa = p F / nu = sqrt(p) F / cap."""
    return o.sqrt(p) * F / cap


def thm14_total_g(o, S1, kappa):
    """Step 6: kappa/2 - 2 S sqrt(2 ln S); non-increasing in S >= 1. Its least root S1 is the first total
    sample size whose threshold cost exceeds half the signal."""
    return kappa * THRESHOLD_SHARE - 2 * S1 * o.sqrt(2 * o.log(S1))


def thm14_total(o, S1):
    """Step 6: S = r + t = S1 - 1, the largest total sample size with 2 S sqrt(2 ln S) <= kappa/2."""
    return S1 - 1


def _S_eff(o, S):
    return o.max(S, 1)


def thm14_tail_delta(o, p, S):
    """Step 5: each tail event (operator norm, reference term) fails w.p. <= delta = 1/(S^2 p)."""
    return 1 / (_S_eff(o, S) ** 2 * p)


def thm14_opnorm(o, p, S, gamma, delta_tail):
    """Step 5: matrix Bernstein (Tropp 2012, Thm 1.6) for the S x p matrix W of independent centred entries,
    |W_ij| <= R = 1 + gamma, variance proxy sigma^2 = max(S, p): P[||W|| >= b] <= (S + p) e^{-b^2/2/(sigma^2
    + R b/3)} = delta at b = R l/3 + sqrt((R l/3)^2 + 2 sigma^2 l), l = ln((S + p)/delta)."""
    s = _S_eff(o, S)
    ell = o.log((s + p) / delta_tail)
    R = 1 + gamma
    return R * ell / 3 + o.sqrt((R * ell / 3) ** 2 + 2 * o.max(s, p) * ell)


def thm14_reference(o, delta_tail):
    """Step 5: Hoeffding for <z - mu, u>, ||u|| = 1, z independent of u: P[|.| > zeta] <= 2 e^{-zeta^2/2} = delta."""
    return o.sqrt(2 * o.log(2 / delta_tail))


def thm14_member_signal(o, p, kappa, S, gamma):
    """Step 6: what is left for the members: kappa - kappa/2 (threshold) - 4 (1 + gamma) S sqrt(p) delta
    (tails, delta = 1/(S^2 p)), clipped at 0."""
    return o.max(kappa * (1 - THRESHOLD_SHARE) - 4 * (1 + gamma) / (_S_eff(o, S) * o.sqrt(p)), 0)


def thm14_expected_traced(o, member, b_op, zeta, S):
    """Step 6: E[#IN] >= K = (member signal / (b + sqrt(S) zeta))^2 for every s <= S."""
    return (member / (b_op + o.sqrt(_S_eff(o, S)) * zeta)) ** 2


def thm14_t_explicit(o, K):
    """Step 7: t = 2 K - 1, so that E[#IN] >= (t + 1)/2 (<= 0: vacuous)."""
    return 2 * K - 1


def thm14_r_explicit(o, S, t):
    """r = S - t, so that r + t = S."""
    return S - t


def thm14_failure_explicit(o, S):
    """Soundness level f = 1/(r + t)^2 = 1/S^2."""
    return 1 / _S_eff(o, S) ** 2


def thm13_m_explicit(o, t):
    """Theorem 13: the alternative m >= t/2."""
    return t / 2


def thm13_n_explicit(o, r):
    """Theorem 13: the alternative n > r."""
    return r


_STEP = dict(intermediate=True, order="exact")

#: Theorem 14's chain (steps 2-7), shared by Theorems 13 and 14
THM14_CHAIN = (
    Quantity("bias_range", "gamma", "width gamma of the hard distribution's bias prior U[-gamma, gamma]",
             explicit=thm14_bias_range, derivation="min(1, (2 + sqrt 6) alpha): maximises F/(gamma + alpha) "
             "as alpha -> 0 (the workbench's choice; any gamma in (0, 1] is valid)", **_STEP),
    Quantity("accuracy_slack", "a_fp", "a = sup |E[q_j 1{||q|| <= nu} | mu] - mu_j| for an (alpha, alpha)-"
             "accurate release", explicit=thm14_accuracy_slack,
             derivation="alpha (1 - b) + (1 + gamma) b at failure b = alpha: alpha (2 + gamma - alpha)", **_STEP),
    Quantity("signal_floor", "F", "per-coordinate expected fingerprinting signal floor",
             explicit=thm14_signal_floor, derivation=(
                 "score identity + integration by parts under U[-gamma, gamma]: (1 - gamma^2)(g(gamma) - "
                 "g(-gamma))/(2 gamma) + (1/gamma) int mu g >= (1 - gamma^2)(1 - a/gamma) + 2 gamma^2/3 - a gamma"),
             **_STEP),
    Quantity("norm_cap", "cap", "||q||/sqrt(p) on the accuracy event", explicit=thm14_norm_cap,
             derivation="|q_j| <= |mu_j| + alpha <= gamma + alpha, and q is clipped to [-1, 1]", **_STEP),
    Quantity("normalised_signal", "kappa", "expected total score divided by the norm cap nu = cap sqrt(p)",
             explicit=thm14_kappa, derivation="p F / (cap sqrt p)", **_STEP),
    Quantity("first_excess_total", "S1", "least total sample size whose threshold cost exceeds kappa/2",
             explicit=Implicit("S1", thm14_total_g, "2 S sqrt(2 ln S) >= kappa/2", lambda o: 1),
             integer=True, derivation="least integer S1 >= 1 with kappa/2 - 2 S1 sqrt(2 ln S1) <= 0",
             intermediate=True),
    Quantity("range_total", "S", "r + t: the largest total sample size the attack covers",
             explicit=thm14_total, order="exact", integer=False,
             derivation="S = S1 - 1: the largest S with 2 S sqrt(ln(1/f)) <= kappa/2 at f = 1/S^2",
             monotone={"alpha": -1, "p": +1}, intermediate=True),
    Quantity("tail_failure", "delta_tail", "failure probability of each tail bound (operator norm, reference)",
             explicit=thm14_tail_delta, derivation="delta = 1/(S^2 p)", **_STEP),
    Quantity("operator_norm_bound", "b_op", "b >= ||X - 1 mu^T||_op except w.p. delta",
             explicit=thm14_opnorm, derivation="matrix Bernstein (Tropp 2012, Thm 1.6), sigma^2 = max(S, p), "
             "R = 1 + gamma: b = R l/3 + sqrt((R l/3)^2 + 2 sigma^2 l), l = ln((S + p)/delta)", **_STEP),
    Quantity("reference_bound", "zeta", "zeta >= |<z - mu, q/||q||>| except w.p. delta",
             explicit=thm14_reference, derivation="Hoeffding: zeta = sqrt(2 ln(2/delta))", **_STEP),
    Quantity("member_signal", "member", "normalised signal left for the members",
             explicit=thm14_member_signal, derivation="kappa/2 - 4 (1 + gamma)/(S sqrt p) (tails), >= 0", **_STEP),
    Quantity("expected_traced", "K", "lower bound on E[#{i : T(q, z_i) = IN}] for every s <= r + t",
             explicit=thm14_expected_traced, order="exact",
             derivation="(member / (b + sqrt(S) zeta))^2 (Cauchy-Schwarz: E sqrt(N) <= sqrt(E N))",
             monotone={"alpha": -1}),
)

# --- Theorem 14: the tightened chain (steps 4'-6'), beside the matrix-Bernstein one ------------------
#: Theorem 13 needs t > 0 only; the tightened chain takes the largest total S whose t is >= this (at least
#: one traced sample in expectation beyond the 1/2 the private samples must carry); any S with t > 0 is valid
TIGHT_MIN_TRACED = 1


def thm14_tight_tail(o, p, S):
    """Step 5': the tail budget delta = 1/(S^2 p), spent three times: delta/S per sample (norms), delta/S^2 per
    ordered pair (cross products), delta once (reference): the bad event B^c has probability <= 3 delta."""
    return 1 / (_S_eff(o, S) ** 2 * p)


def thm14_tight_row_norm(o, p, S, delta):
    """Step 5': ||w_i||^2 = sum_j (1 - mu_j^2) - 2 sum_j mu_j w_ij <= p - U + 2 sqrt(2 U L) <= p + 2 L (Hoeffding,
    proxy U = sum_j mu_j^2; then 2 sqrt(2 U L) <= U + 2 L), L = ln(S/delta), for all s <= S rows w.p. >= 1 - delta."""
    return p + 2 * o.log(_S_eff(o, S) / delta)


def thm14_tight_cross(o, S, delta, B_w):
    """Step 5': for rows i != k, given w_k, <w_i, w_k> is a sum of independent centred terms of ranges 2|w_kj|
    (proxy ||w_k||^2 <= B_w): <w_i, w_k> <= c = sqrt(2 B_w ln(S^2/delta)) for all ordered pairs w.p. >= 1 - delta."""
    return o.sqrt(2 * B_w * o.log(_S_eff(o, S) ** 2 / delta))


def thm14_tight_reference(o, delta):
    """Step 5': one-sided Hoeffding for -<z - mu, q/||q||> (z independent of q given mu): <= sqrt(2 ln(1/delta))."""
    return o.sqrt(2 * o.log(1 / delta))


def thm14_tight_member(o, p, kappa, S):
    """Step 6': what is left for the members, M = kappa - 2 S sqrt(2 ln S) - 6/(S sqrt p) (threshold for all S
    samples, then the bad event: off B each member scores <= 2 sqrt(p) ||q||, so S * 2 sqrt(p) * 3 delta), >= 0."""
    s = _S_eff(o, S)
    return o.max(kappa - 2 * s * o.sqrt(2 * o.log(s)) - 6 / (s * o.sqrt(p)), 0)


def thm14_tight_traced(o, M, B_w, c, zeta):
    """Step 6': on B the N members score <= ||q|| h(N), h(N) = sqrt(N B_w + N^2 c) + N zeta (concave, increasing);
    Jensen gives h(E N) >= M, so E N >= the root of h(N) = M: 2 M^2 / (b + sqrt(b^2 + 4 (c - zeta^2) M^2)),
    b = B_w + 2 M zeta (the root of (c - zeta^2) N^2 + b N - M^2 in [0, M/zeta])."""
    b = B_w + 2 * M * zeta
    return 2 * M**2 / (b + o.sqrt(b**2 + 4 * (c - zeta**2) * M**2))


def _tight_K(o, p, kappa, S):
    delta = thm14_tight_tail(o, p, S)
    B_w = thm14_tight_row_norm(o, p, S, delta)
    return thm14_tight_traced(o, thm14_tight_member(o, p, kappa, S), B_w, thm14_tight_cross(o, S, delta, B_w),
                              thm14_tight_reference(o, delta))


def thm14_tight_total_g(o, S1_t, p, kappa):
    """Step 6': K'(S1) - (1 + TIGHT_MIN_TRACED)/2, non-increasing in S1 (M falls, B_w, c, zeta grow with S1); its
    least root S1 is the first total whose t' = 2 K' - 1 falls to TIGHT_MIN_TRACED."""
    return _tight_K(o, p, kappa, S1_t) - (1 + TIGHT_MIN_TRACED) / 2


def thm14_tight_total(o, S1_t):
    """Step 6': S' = S1' - 1, the largest total whose tightened t' = 2 K' - 1 exceeds TIGHT_MIN_TRACED."""
    return S1_t - 1


def thm14_tight_tail_q(o, p, S_t):
    return thm14_tight_tail(o, p, S_t)


def thm14_tight_row_norm_q(o, p, S_t, delta_t):
    return thm14_tight_row_norm(o, p, S_t, delta_t)


def thm14_tight_cross_q(o, S_t, delta_t, B_w):
    return thm14_tight_cross(o, S_t, delta_t, B_w)


def thm14_tight_reference_q(o, delta_t):
    return thm14_tight_reference(o, delta_t)


def thm14_tight_member_q(o, p, kappa, S_t):
    return thm14_tight_member(o, p, kappa, S_t)


def thm14_tight_traced_q(o, M_t, B_w, c_x, zeta_t):
    return thm14_tight_traced(o, M_t, B_w, c_x, zeta_t)


def thm14_tight_t(o, K_t):
    """Step 7 on the tightened chain: t' = 2 K' - 1."""
    return 2 * K_t - 1


def thm14_tight_r(o, S_t, t_t):
    """r' = S' - t'."""
    return S_t - t_t


#: Theorem 14's tightened chain (steps 4'-7'), beside the matrix-Bernstein chain above
THM14_TIGHT_CHAIN = (
    Quantity("first_excess_total_tight", "S1_t", "least total sample size whose tightened t' is <= 1",
             explicit=Implicit("S1_t", thm14_tight_total_g, "2 K'(S) - 1 <= 1", lambda o: 1),
             integer=True, derivation="least integer S1' >= 1 with K'(S1') <= (1 + 1)/2", intermediate=True),
    Quantity("range_total_tight", "S_t", "r' + t': the largest total sample size the tightened chain covers",
             explicit=thm14_tight_total, order="exact", derivation="S' = S1' - 1", intermediate=True),
    Quantity("tail_failure_tight", "delta_t", "the tightened chain's tail budget (spent three times)",
             explicit=thm14_tight_tail_q, derivation="delta' = 1/(S'^2 p)", **_STEP),
    Quantity("row_norm_bound", "B_w", "B_w >= ||x_i - mu||^2 for every sample, except w.p. delta'",
             explicit=thm14_tight_row_norm_q,
             derivation="p + 2 ln(S'/delta') (Hoeffding on -2 sum_j mu_j w_ij, then AM-GM)", **_STEP),
    Quantity("cross_bound", "c_x", "c >= <x_i - mu, x_k - mu> for every ordered pair i != k, except w.p. delta'",
             explicit=thm14_tight_cross_q, derivation="sqrt(2 B_w ln(S'^2/delta')) (Hoeffding given x_k)", **_STEP),
    Quantity("reference_bound_tight", "zeta_t", "zeta' >= -<z - mu, q/||q||> except w.p. delta'",
             explicit=thm14_tight_reference_q, derivation="one-sided Hoeffding: sqrt(2 ln(1/delta'))", **_STEP),
    Quantity("member_signal_tight", "M_t", "normalised signal left for the members (tightened chain)",
             explicit=thm14_tight_member_q, derivation="kappa - 2 S' sqrt(2 ln S') - 6/(S' sqrt p), >= 0", **_STEP),
    Quantity("expected_traced_tight", "K_t", "tightened lower bound on E[#IN] for every s <= r' + t'",
             explicit=thm14_tight_traced_q, order="exact", intermediate=True,
             derivation="the root of sqrt(N B_w + N^2 c) + N zeta' = M (Jensen on the concave h)"),
    Quantity("traced_t_tight", "t_t", "Theorem 14's t from the tightened chain (Theorem 13's m < t'/2)",
             explicit=thm14_tight_t, order="exact", intermediate=True,
             derivation="t' = 2 K' - 1 (>= 1 wherever S' >= 1)"),
    Quantity("range_r_tight", "r_t", "Theorem 14's r from the tightened chain (Theorem 13's n <= r')",
             explicit=thm14_tight_r, order="exact", intermediate=True, derivation="r' = S' - t'"),
)

THM14_DERIVATION = ("t = 2 K - 1 with K the chain's lower bound on the expected number of traced samples "
                    "(module bounds.papers.bcmnuw20_explicit, steps 1-7); E[#IN] >= (t + 1)/2 for every "
                    "s <= r + t. <= 0 means the attack guarantees nothing at this (p, alpha).")


def _explicit_quantities(result: Result) -> tuple[Quantity, ...]:
    q = {x.name: x for x in result.quantities}
    if result.short_id == "thm14":
        return THM14_CHAIN + THM14_TIGHT_CHAIN + (
            dataclasses.replace(q["traced_t"], explicit=thm14_t_explicit, derivation=THM14_DERIVATION),
            dataclasses.replace(q["range_r"], explicit=thm14_r_explicit, monotone={},
                                derivation="r = S - t (so that r + t = S)"),
            dataclasses.replace(q["failure_probability"], explicit=thm14_failure_explicit,
                                monotone={"alpha": +1, "p": -1},
                                derivation="the analytic threshold's level f = 1/S^2 = 1/(r + t)^2 (step 1)"),
        )
    if result.short_id == "thm13":
        hidden = dict(intermediate=True, order="exact")
        return THM14_CHAIN + THM14_TIGHT_CHAIN + (
            Quantity("traced_t", "t", "Theorem 14's t", explicit=thm14_t_explicit, derivation=THM14_DERIVATION,
                     **hidden),
            Quantity("range_r", "r", "Theorem 14's r", explicit=thm14_r_explicit, derivation="r = S - t",
                     **hidden),
            dataclasses.replace(q["private_samples"], explicit=thm13_n_explicit, monotone={},
                                derivation=THM13_N_DERIVATION),
            dataclasses.replace(q["public_samples"], explicit=thm13_m_explicit, derivation=THM13_M_DERIVATION),
        )
    return result.quantities


THM13_N_DERIVATION = (
    "n > r unless m >= t/2, for n >= 11: with m < t/2 and n <= r, some private i* has P[T(q, x_i*) = IN] >= "
    "(K - m)/n >= 1/(2n) (Theorem 14 in expectation, erratum bcmnuw20-thm14-whp; it replaces the Markov "
    "step whose printed form is erratum bcmnuw20-thm13-m-1), while on the neighbour without x_i* the level "
    "is f = 1/(r + t)^2 <= 1/n^2; (1, 1/(4n))-DP then needs 1/(2n) <= e/n^2 + 1/(4n), false for n >= 11.")
THM13_M_DERIVATION = "m >= t/2, t = 2 K - 1 from Theorem 14's chain: K - m >= 1/2 for every integer m < t/2."

THM14_WHP_NOTE = (
    "Erratum (Theorem 14, both versions): P[#IN >= t/2] >= 1 - 1/(r+t)^2 cannot hold for every (alpha, alpha)-"
    "accurate algorithm once alpha/2 > 1/(r+t)^2: an accurate release that outputs a data-independent answer "
    "(e.g. 0) w.p. alpha/2 leaves every sample as untraceable as a fresh one on that event. The explicit form "
    "proves the expectation E[#IN] >= (t + 1)/2, which is what Theorem 13's proof uses after its Markov step.")
THM14_LOG_NOTE = (
    "Explicit t = Omega(1/(alpha^2 log(p r))) and r + t = Omega(sqrt(p)/(alpha sqrt(log))): the operator-norm "
    "bound (matrix Bernstein) costs a log factor against the printed Omega(1/alpha^2); no sharper bound with "
    "explicit constants was used. The constants are small: t > 0 needs alpha below about 0.009 at p = 2000 "
    "(0.0075 at p = 10^6; alpha = 0.003, p = 2000 gives t = 6.4, r = 115), and the region n + m <= r + t holds an "
    "(alpha, alpha)-accurate release (empirical means need n + m >= 2 ln(2p/alpha)/alpha^2) only from p ~ 10^13 "
    "(alpha = 0.005) to 10^16 (alpha = 3e-4) on: explicit, but vacuous at any size a simulation reaches.")


def _thm14_regime(v):
    out = []
    if v["traced_t"] <= 0:
        out.append((True, f"t = {v['traced_t']:.3g} <= 0: the explicit attack guarantees no traced sample at this "
                          "(p, alpha) (Theorems 13 and 14 are vacuous here)"))
    elif v["range_r"] < 0:
        out.append((True, f"r = {v['range_r']:.3g} < 0: no total sample size in [t, r + t]"))
    if "range_total_tight" in v and (v["range_total_tight"] < 1 or v["range_r_tight"] < 0 or v["traced_t_tight"] < 1):
        out.append((True, f"tightened chain: S' = r' + t' = {v['range_total_tight']:.3g} with t' = "
                          f"{v['traced_t_tight']:.3g}, r' = {v['range_r_tight']:.3g}: no usable pair (t' >= 1 and "
                          "r' >= 0) at this (p, alpha); its t' and r' are not sample sizes here"))
    need = 2 * math.log(2 * v["dual_vc"] / v["alpha"]) / v["alpha"] ** 2
    if v["range_total"] < need:
        out.append((False, f"r + t = {v['range_total']:.4g} < {need:.4g} = 2 ln(2p/alpha)/alpha^2, the samples the "
                           "empirical means need for (alpha, alpha)-accuracy: the region n + m <= r + t may hold no "
                           "accurate release at all (then Theorem 13 holds there vacuously)"))
    return out


# --- Lemma 17 and Theorem 15 ----------------------------------------------------------------------
def lemma17_n_explicit(o, n):
    """BCMNUW20 Lemma 17 (the workbench's reduction): the learner uses the release's n private samples."""
    return n


def lemma17_excess(o, alpha):
    """BCMNUW20 Lemma 17: release error a on H^+- (on [-1, 1]) gives excess error <= a: err = (1 - E g)/2, so
    err(h_hat) <= (1 - G(g_h_hat))/2 + a/2 <= (1 - G(g_h))/2 + a/2 <= err(h) + a."""
    return alpha


def lemma17_failure(o, beta):
    """BCMNUW20 Lemma 17: the learner fails only where the release does (beta unchanged)."""
    return beta


def lemma17_n_printed_c1(o, alpha, beta, n):
    """BCMNUW20 Lemma 17 as printed, O(n log(1/(alpha beta))/(alpha^2 beta)), at constant 1."""
    return n * o.log(1 / (alpha * beta)) / (alpha**2 * beta)


def thm15_m_explicit(o, alpha):
    """BCMNUW20 Theorem 15 (Lemma 17 at excess alpha, then ABM19 Theorem 4.1): m > 1/(1600 alpha), the least
    such integer floor(1/(1600 alpha)) + 1."""
    return o.floor(1 / (1600 * alpha)) + 1


LEMMA17_NOTE = (
    "Explicit (the workbench's reduction, algorithms.adversaries.query_to_learner): n' = n, m' = m, excess error "
    "alpha' = alpha (release error on [-1, 1]), beta' = beta, (eps, delta) unchanged (post-processing). No "
    "generalisation step: Definition 8 measures accuracy on D itself. Departure "
    "(erratum bcmnuw20-lemma17-labelled): the release runs on the labelled class H^+- = {(x, y) -> h(x) y} over X x "
    "{+-1}, not on H; the "
    "printed route (BNS13 Thm 5.5 via Remark 9's proper sanitizer) has no stated constants.")
THM15_NOTE = (
    "Explicit: m_min = floor(1/(1600 alpha)) + 1 (C_15 = 1/1600), for a PAP release of H^+- (H of infinite "
    "Littlestone dimension) that is (alpha, beta, eps, delta) with alpha <= 1/100, beta <= 1/22 (ABM19 Lemma "
    "4.4 as corrected: 1/18 as printed), eps <= 0.1, delta <= 1/(100 n^2 log n) and n >= 4 private samples (ABM19 "
    "Theorem 4.1's n~ >= 4, so that log n~ > 0 "
    "and the delta above is defined): Lemma 17 (explicit) turns it "
    "into a learner with excess alpha and ABM19 Theorem 4.1 (bounds abm19:thm4.1) applies. Departure (erratum "
    "bcmnuw20-thm15-regime): the printed statement names no (beta, eps, delta); ABM19's lower bound holds "
    "at these values only (larger eps is outside the cited theorem).")


def _combined(old, new):
    """The result's own regime lines, then this module's."""
    return lambda v: (list(old(v)) if old is not None else []) + list(new(v))


def _thm15_regime(v):
    if v["alpha"] > 0.01:
        return [(True, f"alpha = {v['alpha']:g} > 1/100: ABM19 Theorem 4.1, on which the explicit form rests, "
                       "covers alpha <= 1/100 only")]
    return []


def _lemma17(r: Result) -> Result:
    q = {x.name: x for x in r.quantities}
    quantities = (
        dataclasses.replace(q["learner_private_samples"], explicit=lemma17_n_explicit,
                            monotone={"n": +1}, derivation="n' = n: the learner runs the release once on the "
                            "labelled samples and picks the hypothesis of least released error"),
        q["learner_public_samples"],
        Quantity("learner_excess_error", "alpha_learn", "excess error of the learner (Definition 16)",
                 explicit=lemma17_excess, order="exact", monotone={"alpha": +1},
                 derivation="err_D(h) = (1 - E_D[g_h])/2 and the release is within alpha of E_D[g_h] on H^+-"),
        Quantity("learner_failure", "beta_learn", "failure probability of the learner",
                 explicit=lemma17_failure, order="exact", monotone={"beta": +1},
                 derivation="the learner's output is correct wherever the release is accurate"),
        Quantity("learner_private_samples_as_printed", "n_printed", "Lemma 17's O-form at C_17 = 1",
                 explicit=lemma17_n_printed_c1, intermediate=True, order="exact",
                 derivation="n log(1/(alpha beta))/(alpha^2 beta)"),
    )
    return dataclasses.replace(r, quantities=quantities, notes=r.notes + (LEMMA17_NOTE,),
                               errata=tuple(r.errata) + ("bcmnuw20-lemma17-labelled",), departures=(
        Departure("learner_private_samples", "learner_private_samples_as_printed",
                  "n': explicit reduction / printed O-form at constant 1"),))


def _thm15(r: Result) -> Result:
    q = r.quantities[0]
    return dataclasses.replace(
        r, quantities=(dataclasses.replace(q, explicit=thm15_m_explicit, scaling=(("alpha", "0"),),
                                           derivation=("Lemma 17 (explicit: excess alpha, same beta, eps, "
                                                       "delta) then ABM19 Theorem 4.1: m > 1/(1600 alpha)")),),
        notes=tuple(n for n in r.notes if not n.startswith("Not explicit")) + (THM15_NOTE,),
        regime=_combined(r.regime, _thm15_regime), errata=tuple(r.errata) + ("bcmnuw20-lemma17-labelled",))


def extend(*results: Result) -> tuple[Result, ...]:
    """The results with the explicit forms of this module added beside their asymptotic ones."""
    out = []
    for r in results:
        if r.short_id in ("thm13", "thm14"):
            notes = tuple(n for n in r.notes if not n.startswith(("r and t are not pinned", "Omega~ and Omega")))
            r = dataclasses.replace(r, quantities=_explicit_quantities(r), regime=_combined(r.regime, _thm14_regime),
                                    notes=notes + (THM14_WHP_NOTE, THM14_LOG_NOTE),
                                    errata=tuple(r.errata) + ("bcmnuw20-thm14-whp",))
        elif r.short_id == "lemma17":
            r = _lemma17(r)
        elif r.short_id == "thm15":
            r = _thm15(r)
        out.append(r)
    return tuple(out)
