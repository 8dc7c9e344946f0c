"""The papers' algorithms, run for real on finite hypothesis classes."""
