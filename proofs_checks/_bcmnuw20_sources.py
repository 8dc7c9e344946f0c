"""BCMNUW20's name in the checks and the seed texts they cite, shared by proofs_checks.bcmnuw20 and the modules
it registers (bcmnuw20_lemma7), so that none of them imports back from bcmnuw20."""
PAPER = "BCMNUW20"
ICML = "000_f1b0431f359f12a2.txt"
ARXIV = "003_95100840c5f51bc1.txt"
SEEDS = f"{ICML} (ICML), {ARXIV} (arXiv)"
