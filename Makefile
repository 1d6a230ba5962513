# The two entry points of the README: `make report` and `make test`.
# Both create (or reuse) .venv and install the project into it first.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test report report-extended lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,notebooks]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# every headline of the seed-rule reports that fits in about 15 minutes on 2 cores
report: $(STAMP)
	$(BIN)/python -m tabletop.notebooks --size full
	$(BIN)/python -m tabletop.index

# the same reports with the long solves too (their sections say "extended")
report-extended: $(STAMP)
	$(BIN)/python -m tabletop.notebooks --size extended
	$(BIN)/python -m tabletop.index

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
