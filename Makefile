# Quarterdeck: `make play` sets everything up and starts playing; `make test` sets up and runs the tests.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test test-random conformance mutation bench load-test screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

setup: $(STAMP)

play: setup
	$(BIN)/quarterdeck serve

# As root on Debian, the tests get a real PostgreSQL server and Chromium (scripts/ci-services.sh
# installs and starts them, and a failure there stops the run rather than skipping their tests);
# elsewhere the tests that need them are skipped.
SERVICES := if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	services="$$(scripts/ci-services.sh)" || { echo "scripts/ci-services.sh failed" >&2; exit 1; }; \
	eval "$$services"; fi

test: setup
	$(BIN)/ruff check src tests benchmarks
	@$(SERVICES); \
	$(BIN)/pytest

# The whole suite in three shuffled orders, each on every core (pytest-xdist), with new hypothesis
# examples: no test may depend on another's leftovers. Replay a failing order with
# --random-order-seed=N.
test-random: setup
	@$(SERVICES); \
	for seed in $(or $(SEEDS),1 2 3); do \
		QUARTERDECK_HYPOTHESIS=explore $(BIN)/pytest -n auto --random-order-seed=$$seed || exit 1; done

# The README's pictures of each board, taken by the browser tests (tests never write into docs/).
screenshots: setup
	@$(SERVICES); \
	QUARTERDECK_SCREENSHOTS=docs/screenshots $(BIN)/pytest tests/web/test_browser.py tests/web/test_browser_naval_warfare.py tests/web/test_browser_frigate.py

# The conformance suite alone, long: every scenario of every game played GAMES times (docs/testing.md).
conformance: setup
	$(BIN)/pytest tests/conformance --conformance-games $(or $(GAMES),5)

# Planted bugs per rules module that the game's tests catch (docs/testing.md, "Mutation testing"):
# MUTANTS per module (default 150; MUTANTS=30 is the quick look), WORKERS at once, GAMES=a,b to limit.
mutation: setup
	nice -n 10 $(BIN)/python scripts/mutation.py $(if $(MUTANTS),--mutants $(MUTANTS)) \
		--workers $(or $(WORKERS),1) $(if $(GAMES),--games $(GAMES))

load-test: setup
	$(BIN)/python benchmarks/load_web.py --players 20 --moves 40

bench: setup
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
