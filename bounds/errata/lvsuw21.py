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
        verified='Theorem 4.4: no proof and no constants in the paper; its form is consistent with the MWEM analysis on the public support under zCDP (balancing sqrt(log m/T) against sqrt(T) log|Q|/(n eps~)). Encoded with named constants only.',
        severity='none', status='checked',
    ),
)
