"""HTML and PDF reports built from bounds, result files and proof-check verdicts."""
