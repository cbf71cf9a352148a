"""Tooling stage: the suite's own machinery, tested by making mistakes in temporary copies."""
