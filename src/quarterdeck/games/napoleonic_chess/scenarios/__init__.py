"""Scenario files of Napoleonic Chess (TOML, read with tomllib by `scenario.load_scenario`)."""
