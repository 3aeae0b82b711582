# Quarterdeck: `make play` sets everything up and starts playing; `make test` sets up and runs the tests.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

setup: $(STAMP)

play: setup
	$(BIN)/quarterdeck play square-rigger --scenario duel

test: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/pytest

bench: setup
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
