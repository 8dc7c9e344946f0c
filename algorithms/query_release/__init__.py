"""Query release: PMW, MWEM, PMW^Pub, A_PAP, best mixture error."""
