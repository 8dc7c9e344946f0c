"""ABM19: errata and checked statements (records of :class:`bounds.errata.Erratum`)."""
from __future__ import annotations

from . import Erratum

PAPER = "ABM19"

ERRATA: tuple[Erratum, ...] = (
    Erratum(
        id='abm19-claim4.6-probabilities',
        paper='ABM19',
        title='Lemma 4.4 / Claim 4.6: the failure probabilities do not add up to 1/16',
        results=('lemma4.4',),
        location='001_f11d23217d8fb771.txt, proof of Claim 4.6',
        printed='1/18 (premise) with the run-out 0.01 gives <= 1/17; adding the TV 0.01 gives < 1/16',
        corrected='1/18 + 0.01 = 0.0656 > 1/17; 1/17 + 0.01 = 0.0688 > 1/16; corrected premise 1/22 (bounds abm19:lemma4.4): 1/22 + TV + P[run out] < 1/16 for all n_priv, n_pub',
        verified='exact fractions for the printed steps; exact binomial run-out and TV over a grid of (n_priv, n_pub) plus hypothesis for the corrected total',
        checks=('abm19:lemma4.4.probabilities',),
        severity='error', status='erratum',
        details='- **Printed.** A is an (alpha, 1/18, eps, delta)-agnostic semi-private learner; the proof bounds\n  A\'s failure w.r.t. D_(p) by 1/17 ("from (2) and the premise"), then adds the 0.01 total variation\n  between S_pub and S^_pub to conclude failure < 1/16.\n- **Wrong.** The premise 1/18 plus the < 0.01 chance that PrivSamp runs out is\n  1/18 + 1/100 = 0.0656 > 1/17 = 0.0588; adding the TV term gives 0.0756 > 1/16 = 0.0625. The chain\n  cannot close at 1/18 for any n_pub: the TV term is 1 - (1 - 1/(100 n_pub))^n_pub >= 1 - e^{-0.01}\n  = 0.00995, already more than 1/16 - 1/18 = 0.00694.\n- **Corrected (encoded in `abm19:lemma4.4`).** A an (alpha, **1/22**, eps, delta)-learner; then B fails\n  with probability <= 1/22 + 1/100 + (e/10)^4 = 0.0609 < 1/16 (with the sample-size fix below).\n  Theorems 4.1 and 4.2 then hold for learners at confidence 1/22 instead of 1/18; their constant\n  1600 is unchanged.\n- **Verified.** Exact rational arithmetic (`fractions`) and a sweep of the encoded TV quantity over\n  n_pub in tests/bounds/test_abm19.py.',
    ),
    Erratum(
        id='abm19-claim4.6-chernoff',
        paper='ABM19',
        title='Lemma 4.4 / Claim 4.6: the Chernoff step needs a larger sample for B',
        results=('lemma4.4',),
        location='001_f11d23217d8fb771.txt, proof of Claim 4.6, first paragraph',
        printed='since n~ = 10 p n_priv, by Chernoff, except w.p. < 0.01 PrivSamp exits with i = n_priv',
        corrected='false when n~ = ceil(n_priv/(10 n_pub)) <= 2 (n_priv = 10, n_pub = 1: 0.0865); true for n~ >= 3; corrected n~ = max(ceil(n_priv/(10 n_pub)), 4) (bounds)',
        verified='exact binomial tail P[Bin(n_priv - 1, 1/(100 n_pub)) >= n~] on a grid of (n_priv, n_pub) plus hypothesis',
        checks=('abm19:lemma4.4.chernoff',),
        severity='gap', status='erratum',
        details='- **Printed.** "Since n~ = 10 p n_priv, by Chernoff\'s bound, except with probability < 0.01,\n  Algorithm 3 exits the WHILE loop with i = n_priv", with n~ = ceil(n_priv/(10 n_pub)).\n- **Wrong** when mu = p n_priv = n_priv/(100 n_pub) is small: n_priv = 10, n_pub = 1 gives n~ = 1 and\n  P[Bin(9, 1/100) >= 1] = 0.0865; n_priv = 20, n_pub = 1 gives n~ = 2 and P[Bin(19, 1/100) >= 2] =\n  0.0153. The multiplicative Chernoff bound (e^9/10^10)^mu <= 0.01 needs mu >= 0.33.\n- **Corrected (encoded).** n~ = max(ceil(n_priv/(10 n_pub)), 4): then n~ >= 10 mu and n~ >= 4 give\n  P[run out] <= e^{-mu} (e mu/n~)^n~ <= (e/10)^n~ <= (e/10)^4 = 0.0055. A larger n~ costs nothing\n  downstream: Theorem 4.3 holds for every sample size, and B\'s delta = 1/(100 n_priv^2 log n_priv)\n  is at most 1/(100 n~^2 log n~) while n~ <= n_priv.\n- **Verified.** Exact binomial tails (scipy.stats.binom) for the counterexamples, and over a grid\n  of (n_priv, n_pub) that the exact run-out probability with the corrected n~ is below the encoded\n  Chernoff quantity, itself below (e/10)^4.',
    ),
    Erratum(
        id='abm19-thm4.1-checked',
        paper='ABM19',
        title='Theorem 4.1: checked and correct',
        results=('thm4.1',),
        verified="Theorem 4.1: n_pub > 1/(1600 alpha) follows from Lemma 4.4's error 100 n_pub alpha and Theorem 4.3's 1/16 (100 n_pub alpha > 1/16); holds for 0 < alpha <= 1/100 (Lemma 4.4's range).",
        severity='none', status='checked',
    ),
    Erratum(
        id='abm19-thm4.2-constant',
        paper='ABM19',
        title='Theorem 4.2: 1/(1600 alpha) is valid but weaker than the proof gives',
        results=('thm4.2',),
        verified="Theorem 4.2: 1/(1600 alpha) is valid but weaker than the proof gives: Lemma 2.6 is at (0.1, 0.1, 0.1) and B's confidence 1/16 < 0.1, so n_pub > 1/(1000 alpha) (the proof overview's constant). The printed 1600 is encoded.",
        severity='remark', status='erratum',
    ),
    Erratum(
        id='abm19-lemma3.3-inequality-checked',
        paper='ABM19',
        title='Lemma 3.3, inequality (1): checked and correct',
        results=('lemma3.3',),
        verified="Lemma 3.3, inequality (1): 2 G(2m) e^{-alpha m/4} is weaker than the textbook double-sample bound 2 G(2m) 2^{-alpha m/2}, so it holds; its side condition m >= 8/alpha holds from the solver's lower end 8d/alpha on.",
        severity='none', status='checked',
    ),
    Erratum(
        id='abm19-thm3.1-explicit-checked',
        paper='ABM19',
        title='Theorem 3.1: checked and correct',
        results=('thm3.1',),
        verified='Theorem 3.1: the paper gives n_priv via [KLN+08] inside an O; the explicit form re-derives it (exponential mechanism, sensitivity 1/n, utility bound at beta/4 with gap alpha/4; Hoeffding + union bound over the data-independent H~ at beta/4 with 2 gamma <= alpha/4; Sauer for log|H~|; Lemma 3.3 at (alpha/2, beta/2)): n_priv = max(32 (log|H~| + log(8/beta))/alpha^2, 8 (log|H~| + log(4/beta))/(eps alpha)), log|H~| <= d log(e n_pub/d).',
        severity='none', status='checked',
    ),
    Erratum(
        id='abm19-thm3.1-notation',
        paper='ABM19',
        title="Theorem 3.1's proof: h^_Tpub for h*_Tpub (notation slip)",
        results=('thm3.1',),
        verified='Notation slip: the proof of Theorem 3.1 writes h^_Tpub for the hypothesis it defined as h*_Tpub.',
        severity='typo', status='erratum',
    ),
    Erratum(
        id='abm19-claim4.5-checked',
        paper='ABM19',
        title='Claim 4.5 (B is (eps, delta)-DP): checked and correct',
        results=('lemma4.4',),
        verified='Claim 4.5 (B is (eps, delta)-DP) holds.',
        severity='none', status='checked',
    ),
    Erratum(
        id='abm19-lemma3.3-alpha-near-1',
        paper='ABM19',
        title='Lemma 3.3: the O(.) size needs alpha bounded away from 1',
        results=('lemma3.3',),
        location='001_f11d23217d8fb771.txt, Lemma 3.3',
        printed='n_pub = O((d log(1/alpha) + log(1/beta))/alpha) makes inequality (1) at most beta',
        corrected='true with the constant 80 for alpha <= 1/2; not uniformly as alpha -> 1 (the least n_pub is >= 8d/alpha while d log(1/alpha)/alpha -> 0); the O implicitly assumes alpha bounded away from 1',
        verified='bounds abm19:lemma3.3 (least n_pub) against 80 (d log(1/alpha) + log(1/beta))/alpha on a grid plus hypothesis, and inequality (1) evaluated at that size',
        checks=('abm19:lemma3.3.big-o', 'abm19:lemma3.3.tail'),
        severity='remark', status='erratum',
    ),
    # --- the statements read as stated: privacy regime, degenerate cases, prose ------------------
    Erratum(
        id="abm19-thm3.1-statement",
        paper="ABM19",
        title="Theorem 3.1's statement: every eps > 0 and alpha, beta in (0, 1), pure privacy: checked and correct",
        results=("thm3.1",),
        location="001_f11d23217d8fb771.txt, Theorem 3.1 and Lemma 3.2",
        printed="for any alpha, beta in (0, 1), eps > 0, A_SSPP is an (alpha, beta, eps)-semi-supervised semi-private "
                "agnostic learner with n_priv = O((d log(1/alpha) + log(1/beta)) max(1/alpha^2, 1/(eps alpha))) and "
                "n_pub = O((d log(1/alpha) + log(1/beta))/alpha)",
        encoded="abm19:thm3.1 takes every eps > 0 and alpha, beta in (0, 1); its explicit n_priv keeps both branches of the max",
        verified="the regime the proof uses is the statement's: Lemma 3.2's exponential mechanism is eps-DP for every eps > 0 "
                 "(no eps <= 1 is used), and its utility bound holds for every eps; the two terms of the max are the "
                 "exponential mechanism's (1/(eps alpha), binding for eps < alpha/4 in the explicit form) and uniform "
                 "convergence's (1/alpha^2). No degenerate case is skipped: n_pub = 0 is not allowed by the O-form (at least "
                 "1 for beta < 1). The one side condition is Lemma 3.3's: the O(.) of n_pub needs alpha bounded away from 1 "
                 "(erratum abm19-lemma3.3-alpha-near-1)",
        severity="none", status="checked",
    ),
    Erratum(
        id="abm19-thm4.1-regime",
        paper="ABM19",
        title="Theorem 4.1's privacy regime: eps = 0.1 and negligible delta, as Definition 2.3 fixes them: checked",
        results=("thm4.1",),
        location="001_f11d23217d8fb771.txt, Definition 2.3, Theorem 4.1 and its proof; Theorem 4.3 (ALMM18 Corollary 2 as restated)",
        printed="any semi-private learner for H (infinite Littlestone dimension) must have n_pub = Omega(1/alpha); a "
                "semi-private learner is, by Definition 2.3, an (alpha, beta, 0.1, negl(n_priv)) learner",
        corrected="nothing: the proof turns the learner A into B (Lemma 4.4) with A's own (eps, delta) and contradicts Theorem "
                  "4.3, which excludes (1/16, 1/16, 0.1, 1/(100 n^2 log n))-private learners; Definition 2.3's eps = 0.1 is "
                  "that eps, and a negligible delta is below 1/(100 n^2 log n) for every large n_priv, which is all an "
                  "Omega(.) statement asks. Two side conditions stay: confidence 1/22 (erratum abm19-claim4.6-probabilities) "
                  "and n_priv >= 4 (n~ >= 4 and log n~ > 0), with 0 < alpha <= 1/100",
        encoded="abm19:thm4.1's domain is 0 < alpha <= 1/100; compute prints the privacy regime (eps = 0.1, delta below "
                "1/(100 n_priv^2 log n_priv)) as a caveat",
        verified="by reading Definition 2.3 (eps = 0.1, delta = negl(n_priv)) against the proof: Theorem 4.3 is the only lower "
                 "bound used and is stated at eps = 0.1, delta = 1/(100 n^2 log n); Lemma 4.4 keeps (eps, delta) unchanged",
        severity="none", status="checked",
    ),
    Erratum(
        id="abm19-thm4.2-regime",
        paper="ABM19",
        title="Theorem 4.2's privacy regime: pure learners at eps = 0.1, as Definition 2.3 fixes it: checked",
        results=("thm4.2",),
        location="001_f11d23217d8fb771.txt, Definition 2.3, Theorem 4.2 and its proof (Lemma 2.6 at (0.1, 0.1, 0.1))",
        printed="every class is either learnable by a pure private learner or any pure semi-private learner needs "
                "n_pub = Omega(1/alpha); pure semi-private learners are, by Definition 2.3, at eps = 0.1, delta = 0",
        corrected="nothing: the proof reaches the contradiction through Lemma 2.6 at (0.1, 0.1, 0.1), the eps Definition 2.3 "
                  "fixes; the side conditions are alpha <= 1/100 and confidence 1/22 (the corrected Lemma 4.4)",
        encoded="abm19:thm4.2's domain is 0 < alpha <= 1/100; compute prints the privacy regime (eps = 0.1) as a caveat",
        verified="by reading Definition 2.3 against the proof: B inherits A's eps through Lemma 4.4 and Lemma 2.6 is applied "
                 "once, at eps = 0.1",
        severity="none", status="checked",
    ),
    Erratum(
        id="abm19-thm4.3-n1",
        paper="ABM19",
        title="Theorem 4.3 at n = 1: delta = 1/(100 n^2 log n) is undefined (log 1 = 0): checked, excluded",
        results=("thm4.3",),
        location="001_f11d23217d8fb771.txt, Theorem 4.3",
        printed="for any n in N ... no (1/16, 1/16, 0.1, 1/(100 n^2 log n))-private learner",
        encoded="abm19:thm4.3's domain starts at n = 2 (one clear error at n = 1)",
        verified="log 1 = 0 makes the printed delta a division by zero; n >= 2 is what the restated corollary can mean",
        severity="none", status="checked",
    ),
    Erratum(
        id="abm19-prose-abstract",
        paper="ABM19",
        title="Abstract and overview: 'roughly d/alpha public and d/alpha^2 private examples', 'nearly matching lower bound', 1/(1000 alpha): checked",
        results=("thm3.1", "thm4.1", "thm4.2"),
        location="001_f11d23217d8fb771.txt, abstract and the proof overview of Section 4",
        printed="d/alpha public and d/alpha^2 private examples suffice; a nearly matching lower bound; 'less than "
                "1/(1000 alpha) public examples' imply private learnability with excess error < 1/10",
        verified="Theorem 3.1's sizes are (d log(1/alpha) + log(1/beta))/alpha and the same times max(1/alpha^2, "
                 "1/(eps alpha)): 'roughly' d/alpha and d/alpha^2 for constant eps and beta, up to the log(1/alpha). The "
                 "lower bound Omega(1/alpha) (Theorems 4.1/4.2) matches in alpha up to d log(1/alpha): 'nearly "
                 "matching' for classes of constant VC dimension such as thresholds (d = 1), not in d. The overview's "
                 "1/(1000 alpha) is the pure case's constant (Lemma 2.6 at 0.1: 100 n_pub alpha < 0.1); Theorem 4.1's "
                 "approximate case needs 1/(1600 alpha) (Theorem 4.3 at 1/16), as the theorem prints",
        severity="none", status="checked",
    ),
)
