"""LVSUW21: errata and checked statements (records of :class:`bounds.errata.Erratum`)."""
from __future__ import annotations

from . import Erratum

PAPER = "LVSUW21"

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id='lvsuw21-prop4.3-omega',
        paper='LVSUW21',
        title="Proposition 4.3's proof: omega_x must carry x's multiplicity in D^",
        results=('prop4.3',),
        location='002_612460dc0cc18cc4.txt, proof of Proposition 4.3',
        printed='omega_x = g(x) / sum_{x in D^} g(x) for x in X^ (a distribution on X^)',
        corrected='omega_x = c_x g(x) / sum_{x in D^} g(x), c_x the multiplicity of x in D^ (otherwise omega does not sum to 1 when D^ repeats a point); the bound is unaffected',
        verified='exhaustive over 100 random (mu, nu, D^): the printed omega sums to 0.5 on D^ = (x, x), the corrected one to 1 and reproduces (1/m^) sum g q',
        checks=('lvsuw21:prop4.3.omega',),
        severity='typo', status='erratum',
    ),
    Erratum(
        id='lvsuw21-prop4.3-checked',
        paper='LVSUW21',
        title='Proposition 4.3: checked and correct',
        results=('prop4.3',),
        verified='Proposition 4.3: Hoeffding (2 e^{-alpha^2 n/8} at deviation alpha/4), Bernstein (denominator 32 e^{D2} + (8/3) alpha e^{Dinf} at t = alpha m/4, variance <= e^{D2}, range e^{Dinf}), the final ratio alpha/4 + (alpha/2)/(1 - alpha/4) <= alpha (true for alpha <= 4/3) and the union bound 2|Q| e^{...n} + (2|Q| + 2) e^{...m} <= beta at the printed n and m: all right. Verified by hand-computed values and the union bound at the computed sizes in tests/bounds/test_lvsuw21.py.',
        severity='none', status='checked',
    ),
    Erratum(
        id='lvsuw21-lemma4.2-checked',
        paper='LVSUW21',
        title='Lemma 4.2 (stated without proof): checked and correct',
        results=('lemma4.2',),
        verified='Lemma 4.2 (stated without proof): f_{D,Q}(S) is 1/n-sensitive under replace-one neighbours; the Section 5.5.1 example (n ~ 1e5, eps = 0.01: Laplace standard deviation sqrt(2)/(n eps) = 1.414e-3) is right.',
        severity='none', status='checked',
    ),
    Erratum(
        id='lvsuw21-thm4.5-checked',
        paper='LVSUW21',
        title='Theorem 4.5: checked and correct',
        results=('thm4.5',),
        verified="Theorem 4.5: rho = 2T (eps_0^2/2) = eps~^2/2 with eps_0 = eps~/sqrt(2T); the infimum is the Canonne-Kamath-Steinke conversion (its log(1/alpha delta) means log(1/(alpha delta))); the closed bound eps~^2/2 + sqrt(2 log(1/delta)) eps~ = rho + 2 sqrt(rho log(1/delta)) is never below the infimum. Verified against brentq on the first-order condition rho (a-1)^2 = log(1/(a delta)), scipy's bounded minimiser and dp_accounting's RDP conversion, and inf <= closed by hypothesis.",
        severity='none', status='checked',
    ),
    Erratum(
        id='lvsuw21-thm4.4-checked',
        paper='LVSUW21',
        title='Theorem 4.4: checked and correct',
        results=('thm4.4',),
        verified='Theorem 4.4: no proof and no constants in the paper; its form is consistent with the MWEM analysis on the public support under zCDP (balancing sqrt(log m/T) against sqrt(T) log|Q|/(n eps~)). Derived explicitly for the PMW^Pub the workbench runs (bounds/papers/lvsuw21_thm44.py: permute-and-flip selection, clipped Gaussian measurement, potential KL <= log m from the public histogram): error <= E + c_sel at the T* that minimises it, f entering at coefficient 16/15 (inside the printed O); each step a check, and the bound held end to end on the workbench PMW^Pub.',
        encoded="lvsuw21:thm4.4 explicit beside its asymptotic form (named constants C_T, C_4_4)",
        checks=("lvsuw21:thm4.4.potential-start", "lvsuw21:thm4.4.hoeffding", "lvsuw21:thm4.4.round-gain",
                "lvsuw21:thm4.4.root", "lvsuw21:thm4.4.selection", "lvsuw21:thm4.4.measurement",
                "lvsuw21:thm4.4.end-to-end", "lvsuw21:thm4.4.assembly"),
        severity='none', status='checked',
    ),
    # --- the statements read as stated: regimes, degenerate cases, prose ----------------------------
    Erratum(
        id="lvsuw21-prop4.3-statement",
        paper="LVSUW21",
        title="Proposition 4.3's statement: every alpha, beta > 0 and D_inf < infinity: checked and correct",
        results=("prop4.3",),
        location="002_612460dc0cc18cc4.txt, Proposition 4.3",
        printed="let alpha, beta > 0 ... if n >= (8/alpha^2) log(4|Q|/beta) and m >= (32 e^{D2}/alpha^2 + 8 e^{Dinf}/(3 alpha)) "
                "log((4|Q| + 4)/beta), then P[f(X^) <= alpha] >= 1 - beta",
        encoded="lvsuw21:prop4.3 takes alpha, beta in (0, 1) (the rest is trivial) and D2 <= Dinf, both finite",
        verified="the proof's 'we may assume alpha < 1' is right: f <= 1 for [0, 1]-valued queries, and beta >= 1 is "
                 "vacuous; its final ratio alpha/4 + (alpha/2)/(1 - alpha/4) <= alpha needs alpha <= 4/3, so alpha < 1 is "
                 "inside it; D_inf < infinity is needed (Bernstein's range e^{Dinf}) and stated; the prose beside it ('the "
                 "required size of the public dataset increases with the divergence') matches m's e^{D2}, e^{Dinf}. No "
                 "privacy regime: the proposition is about sampling only",
        severity="none", status="checked",
    ),
    Erratum(
        id="lvsuw21-thm4.4-degenerate",
        paper="LVSUW21",
        title="Theorem 4.4 at |Q| = 1: log|Q| = 0 divides T and would make the error O(f): excluded",
        results=("thm4.4",),
        location="002_612460dc0cc18cc4.txt, Theorem 4.4",
        printed="for any D~, Q, D^ and eps~ > 0, T = Theta(n eps~ sqrt(log m)/log|Q| + log(1/beta)) and error "
                "O(sqrt(log|Q| (sqrt(log m) + log(1/beta))/(n eps~)) + f)",
        corrected="at |Q| = 1 the printed T divides by log 1 = 0 and the error bound reduces to O(f), which no eps~-zCDP "
                  "algorithm achieves when f = 0 (one query still needs noise of order 1/(n eps~)); read with |Q| >= 2 "
                  "(or log|Q| as max(1, log|Q|)). m = 1 is fine (log m = 0: T = Theta(log(1/beta)), the release is the one "
                  "public point)",
        encoded="lvsuw21:thm4.4's domain is |Q| >= 2 (one clear error at 1)",
        verified="by the argument above (a single counting query at f = 0 against the zCDP lower bound on its noise)",
        severity="gap", status="erratum",
    ),
    Erratum(
        id="lvsuw21-thm4.5-delta",
        paper="LVSUW21",
        title="Theorem 4.5 'for all delta > 0': the closed bound needs delta < 1: checked, domain 0 < delta < 1",
        results=("thm4.5",),
        location="002_612460dc0cc18cc4.txt, Theorem 4.5",
        printed="for all delta > 0, (eps(delta), delta)-DP with eps(delta) = inf_a ... <= eps~^2/2 + sqrt(2 log(1/delta)) eps~",
        encoded="lvsuw21:thm4.5's domain is 0 < delta < 1",
        verified="for delta >= 1 every algorithm is (0, delta)-DP and sqrt(2 log(1/delta)) is undefined; for 0 < delta < 1 "
                 "the regime the proof uses (permute-and-flip eps_0-DP hence eps_0^2/2-zCDP, Gaussian noise at "
                 "eps_0^2/2-zCDP, 2T-fold composition, CKS20's conversion) is the statement's for every eps~ > 0",
        severity="none", status="checked",
    ),
    Erratum(
        id="lvsuw21-table1-full-domain",
        paper="LVSUW21",
        title="Section 5 / Table 1: the FULL ACS domain has about 5.12e37 cells, not the printed 4.99e18 (erratum candidate)",
        results=("thm4.4",),
        location="002_612460dc0cc18cc4.txt, Section 5 (data) and Table 1 (run-time on FULL and Red.)",
        printed="67 attributes, 'a data domain with dimension 287 and size approximately 4.99 x 10^18'",
        corrected="the attributes of the authors' own ACS domain file with at most 13 values are exactly 67, of total size "
                  "(dimension) 287 as printed, but the product of their sizes is 5.12e37, not 4.99e18: the printed size "
                  "matches no 67 of the file's attributes with that dimension. An erratum candidate: the file is the "
                  "authors' public one, not necessarily the one behind Table 1",
        encoded="benchmarks/bench_table1.py's FULL domain (ACS_FULL_SIZES, read for sizes only); Table 1's timings are "
                "compared per iteration, and MWEM on FULL is not run (one float64 distribution needs 4.09e38 bytes)",
        verified="the product and sum of ACS_FULL_SIZES (tests/bounds/test_fidelity_records.py); benchmarks/RESULTS.md, "
                 "'LVSUW21 Table 1'",
        severity="typo", status="erratum",
    ),
)
