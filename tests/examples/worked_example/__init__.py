"""docs/DESIGN.md's worked example of an experiment, as a real module the contract test runs
(tests/simulations/test_contract.py imports it by its dotted path ``worked_example.laplace_release``)."""
