"""LVSUW21 Theorem 4.4 with explicit constants, for the PMW^Pub the workbench runs
(``algorithms.query_release.pmw_pub``: permute-and-flip selection with score |q(A) - q(D~)| at eps_0, a Gaussian
measurement N(0, 1/(n eps_0)^2) clipped to [0, 1], the update A(x) ~ A(x) exp(q(x)(a - q(A))/2), the average of
A_0..A_{T-1} output, eps_0 = eps~/sqrt(2T): eps~^2/2-zCDP by Theorem 4.5). The paper prints no proof; this is
the MWEM analysis (Hardt, Ligett, McSherry 2012, Thm 2.2) redone for that selection and measurement.

Queries take values in [0, 1]; A* is a best mixture on the public support X^ (error f = f_{D~,Q}(X^)); the
potential is Psi_t = KL(A* || A_t).
1. Psi_0 <= log m: A_0 is the public histogram, A_0(x) >= 1/m on X^.
2. One round, d = a_t - q_t(A_{t-1}): Psi_{t-1} - Psi_t = (d/2) q_t(A*) - log E_{A_{t-1}} e^{q_t d/2}
   >= (d/2)(q_t(A*) - q_t(A_{t-1})) - d^2/32 (Hoeffding's lemma, q in [0, 1]).
3. With e_t = q_t(D~) - q_t(A_{t-1}), |a_t - q_t(D~)| <= nu (clipping to [0, 1] only moves a_t towards
   q_t(D~)) and |q_t(A*) - q_t(D~)| <= f: one round gains >= (15/32) e_t^2 - (|e_t|/2)(f + 9 nu/8) - c0,
   c0 = f nu/2 + nu^2/32.
4. Summed over T rounds (Psi_T >= 0) and with mean |e_t| <= E = sqrt(mean e_t^2):
   (15/32) E^2 - (b/2) E - c0 - log(m)/T <= 0, b = f + 9 nu/8, so E <= (b/2 + sqrt(b^2/4 + (15/8)(c0 + log(m)/T)))
   /(15/16).
5. Noise: all T Gaussian measurements within nu = sigma sqrt(2 ln(4T/beta)), sigma = sqrt(2T)/(n eps~), except
   w.p. beta/2; permute-and-flip picks a query within c_sel = 2 ln(2T|Q|/beta)/(n eps_0) of the largest error in
   every round except w.p. beta/2 (a query worse by c is accepted before the best one w.p. <= e^{-eps_0 n c/2}).
6. max_q |q(A) - q(D~)| <= mean_t max_q |q(A_{t-1}) - q(D~)| <= E + c_sel, w.p. >= 1 - beta.
T* is the T (integer, searched on a geometric grid) that minimises that bound at f = 0: every T gives a valid bound,
but T must be fixed before the private data are seen (f = f_{D~,Q}(X^) is computed from the private data set D~, and a T
chosen from it is not covered by the privacy guarantee), so T* depends on n, m, |Q|, beta and eps~ only and the bound is
then evaluated at the actual f with that T.
The coefficient of f is 16/15 + O(nu) (inside the paper's O).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..core import Quantity, Result

#: the grid T* is searched on (every T there gives a valid bound; the search only makes it small)
_T_GRID = np.unique(np.round(np.geomspace(1, 1e8, 700)))


def thm44_eps_round(o, eps_tilde, T):
    """eps_0 = eps~/sqrt(2T) (LVSUW21 Algorithm 1; 2T mechanisms of eps_0^2/2-zCDP)."""
    return eps_tilde / o.sqrt(2 * T)


def thm44_noise(o, n, beta, eps_tilde, T):
    """Step 5: every |a_t - q_t(D~)| <= nu = sigma sqrt(2 ln(4T/beta)), sigma = 1/(n eps_0), except w.p. beta/2."""
    return o.sqrt(2 * T) / (n * eps_tilde) * o.sqrt(2 * o.log(4 * T / beta))


def thm44_selection(o, n, num_queries, beta, eps_tilde, T):
    """Step 5: permute-and-flip within c_sel = 2 ln(2T|Q|/beta)/(n eps_0) of the best score, all rounds, w.p. >= 1 -
    beta/2."""
    return 2 * o.log(2 * T * num_queries / beta) * o.sqrt(2 * T) / (n * eps_tilde)


def thm44_mw_error(o, m, f, T, nu):
    """Step 4: the root of (15/32) E^2 - (b/2) E - c0 - log(m)/T, b = f + 9 nu/8, c0 = f nu/2 + nu^2/32."""
    b = f + 9 * nu / 8
    c0 = f * nu / 2 + nu**2 / 32
    return (b / 2 + o.sqrt(b**2 / 4 + o.frac(15, 8) * (c0 + o.log(m) / T))) / o.frac(15, 16)


def thm44_bound_at(o, n, m, num_queries, beta, eps_tilde, f, T):
    """Step 6: E + c_sel at T rounds."""
    nu = thm44_noise(o, n, beta, eps_tilde, T)
    return thm44_mw_error(o, m, f, T, nu) + thm44_selection(o, n, num_queries, beta, eps_tilde, T)


def thm44_T_star(o, n, m, num_queries, beta, eps_tilde):
    """T* = the T of a geometric grid (1..1e8) that minimises the step-6 bound at f = 0 (shown symbolically as T^*):
    fixed before the data are seen, since f depends on the private data set."""
    if o.name == "sympy":
        import sympy as sp

        return sp.Symbol("T^*", positive=True)
    scalar = o.name == "mpmath" or np.ndim(n) == 0
    args = [np.asarray(float(v) if o.name == "mpmath" else v, dtype=float)[..., None]
            for v in (n, m, num_queries, beta, eps_tilde)]
    with np.errstate(all="ignore"):
        vals = thm44_bound_at(_np_ops(), *args, 0.0, _T_GRID)
    best = _T_GRID[np.nanargmin(vals, axis=-1)]
    return float(best) if scalar and np.ndim(best) == 0 else best


def _np_ops():
    from ..ops import NUMPY

    return NUMPY


def thm44_error_explicit(o, f, m, T_star, nu, c_sel):
    """Step 6 at T*: E + c_sel."""
    return thm44_mw_error(o, m, f, T_star, nu) + c_sel


_STEP = dict(intermediate=True, order="exact")

DERIVATION = ("MWEM's analysis (HLM12 Thm 2.2) redone for PMW^Pub's permute-and-flip selection and clipped Gaussian "
              "measurement (bounds.papers.lvsuw21_thm44, steps 1-6): error <= E + c_sel w.p. >= 1 - beta, E the root "
              "of (15/32) E^2 - (b/2) E - c0 - log(m)/T (b = f + 9 nu/8, c0 = f nu/2 + nu^2/32), at T = T*")

NOTE = ("Explicit (bounds.papers.lvsuw21_thm44; the paper prints no proof): the MWEM potential argument from the "
        "public histogram (KL <= log m), Hoeffding's lemma for the update, the Gaussian and permute-and-flip tails at "
        "beta/2 each; T* minimises the bound at f = 0 over a grid (T is fixed before the private data are seen: f is "
        "computed "
        "from them), and the bound is evaluated at the actual f with that T. f enters with coefficient 16/15 (plus 9 "
        "nu/8 terms): inside "
        "the printed O, so not a departure, but the explicit bound is not f + o(1).")


def extend(*results: Result) -> tuple[Result, ...]:
    out = []
    for r in results:
        if r.short_id == "thm4.4":
            q = {x.name: x for x in r.quantities}
            quantities = (
                dataclasses.replace(q["iterations"], explicit=thm44_T_star, monotone={},
                                    derivation="the grid T (1 to 1e8) minimising the explicit error bound at f = 0 "
                                               "(fixed before "
                                               "the data: f depends on the private data set)"),
                Quantity("eps_round", "eps_0", "per-round privacy eps_0 = eps~/sqrt(2 T*)",
                         explicit=lambda o, eps_tilde, T_star: thm44_eps_round(o, eps_tilde, T_star),
                         derivation="Algorithm 1", **_STEP),
                Quantity("noise_bound", "nu", "bound on every measurement's error |a_t - q_t(D~)|",
                         explicit=lambda o, n, beta, eps_tilde, T_star: thm44_noise(o, n, beta, eps_tilde, T_star),
                         derivation="Gaussian tail, union over T rounds at beta/2; clipping only helps", **_STEP),
                Quantity("selection_error", "c_sel", "permute-and-flip's shortfall below the largest error",
                         explicit=lambda o, n, num_queries, beta, eps_tilde, T_star: thm44_selection(
                             o, n, num_queries, beta, eps_tilde, T_star),
                         derivation="P[a query worse by c before the best] <= |Q| e^{-eps_0 n c/2}, T rounds, beta/2",
                         **_STEP),
                Quantity("mw_error", "E_mw", "root-mean-square error of the selected queries over the T* rounds",
                         explicit=lambda o, m, f, T_star, nu: thm44_mw_error(o, m, f, T_star, nu),
                         derivation="potential KL(A*||A_t) from log m, Hoeffding's lemma per round", **_STEP),
                dataclasses.replace(q["error"], explicit=thm44_error_explicit, derivation=DERIVATION,
                                    monotone={"n": -1, "m": +1, "num_queries": +1, "beta": -1,
                                              "eps_tilde": -1, "f": +1}),
            )
            r = dataclasses.replace(r, quantities=quantities, notes=tuple(
                n for n in r.notes if not n.startswith("No explicit form")) + (NOTE,))
        out.append(r)
    return tuple(out)
