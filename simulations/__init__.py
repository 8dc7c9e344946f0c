"""Monte-Carlo validation of the results: distributions, experiments, runner, store, statistics, audit."""
