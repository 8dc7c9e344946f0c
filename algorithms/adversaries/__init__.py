"""Adversaries of the lower bounds: robust tracing attack, public-data reduction B."""
