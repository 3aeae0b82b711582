"""Tests of Napoleonic Chess (seed 002)."""
