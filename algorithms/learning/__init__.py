"""Private learning with public data: ERM oracle, A_SSPP, NB20's classification-query algorithms."""
