# Two commands for a fresh machine: `make lab` and `make test` (see README.md).
PYTHON ?= python3
# Small matrices run faster on one BLAS thread, and a second one only adds noise on 2 busy cores.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab test bench exercises check-exercises clean help

help:
	@echo "make lab        - create .venv, install the course, start JupyterLab on lessons/"
	@echo "make test       - create/update .venv and run the whole test suite"
	@echo "make bench      - print the speed ratios (benchmarks/bench.py)"
	@echo "make exercises  - regenerate exercises/ from solutions/"

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "chutes_edu needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Re-install whenever the package metadata changes.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[lab,test]"
	@touch $(STAMP)

lab: $(STAMP)
	@echo "Starting JupyterLab on lessons/ - open the http://127.0.0.1 URL printed below."
	$(VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --allow-root --ServerApp.root_dir=lessons

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/bench.py

exercises: $(STAMP)
	$(PY) tools/make_exercises.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/artifacts
