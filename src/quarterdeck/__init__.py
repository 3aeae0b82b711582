"""Quarterdeck: Age-of-Sail and Napoleonic wargames and chess variants on one engine."""

__version__ = "0.1.0"
