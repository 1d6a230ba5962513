# The two entry points of the README: `make report` and `make test`.
# Both create (or reuse) .venv and install the project into it first.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the reports need only the notebook runner: a fresh `make report` skips the test tools
REPORT_STAMP := $(VENV)/.installed-report
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: install test report report-extended lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e '.[test,notebooks]'
	touch $(STAMP) $(REPORT_STAMP)

$(REPORT_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e '.[notebooks]'
	touch $(REPORT_STAMP)

# the tests run on every core (pytest-xdist); each test is independent of the others
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto --dist worksteal --durations=25

# every headline of the seed-rule reports that fits in about 15 minutes on 2 cores; the
# index's balance cards are computed beside the notebooks (one at a time), then read back
report: $(REPORT_STAMP)
	$(BIN)/python -m tabletop.index --cards-only --jobs 1 & cards=$$!; \
	$(BIN)/python -m tabletop.notebooks --size full; status=$$?; \
	wait $$cards; exit $$status
	$(BIN)/python -m tabletop.index

# the same reports with the long solves too (their sections say "extended")
report-extended: $(REPORT_STAMP)
	$(BIN)/python -m tabletop.notebooks --size extended
	$(BIN)/python -m tabletop.index

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
