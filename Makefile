# Two entry points (see README): `make demo` runs the main job, `make test` runs the test suite.
# Both create ./.venv and install what they need into it. PYTHON can point at another interpreter (>= 3.10).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
OUT ?= out/wiki

.PHONY: demo test test-slow bench setup-core setup-full lint clean readme-figures

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Core only: synthesis needs no torch.
$(VENV)/.core: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

# Everything the tests need. torch is pinned first to its CPU wheel (an unpinned torch pulls a multi-GB CUDA build).
# The training stack at the versions the suite last passed with (constraints.txt).
$(VENV)/.full: pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -c constraints.txt -e '.[dev,train]'
	if [ -f .ci/install-bfcl.sh ]; then PATH="$(CURDIR)/$(BIN):$$PATH" bash .ci/install-bfcl.sh; fi
	touch $(VENV)/.core $@

setup-core: $(VENV)/.core
setup-full: $(VENV)/.full

demo: $(VENV)/.core
	$(BIN)/kg2tool synth --graph examples/wiki.ttl --out $(OUT) -n 2000 --seed 0 --overwrite \
		--license mit --attribution examples/wiki.ATTRIBUTION.md

# The default suite on 2 workers (a test file stays on one worker, so its module fixtures are built once), then
# the tests that need the machine to themselves.
test: $(VENV)/.full
	$(BIN)/python -m pytest -n 2 --dist loadfile -m 'not slow and not solo' --durations=15
	$(BIN)/python -m pytest -m solo

test-slow: $(VENV)/.full
	$(BIN)/python -m pytest -m slow

# Every ratio side by side in one run, each with the machine's load average: load vs rdflib and validated
# conversations/s; 1 vs 2 workers (--phases); the store build vs rdflib's parse and pyoxigraph's load at 1M
# triples; a MoE step vs a dense one of equal active size.
bench: $(VENV)/.full
	$(BIN)/python bench/bench_synth.py
	$(BIN)/python bench/bench_whole.py
	$(BIN)/python bench/bench_scale.py --phases --wiki-n 20000
	$(BIN)/python bench/bench_scale.py --sizes 1000000 -n 2000
	$(BIN)/python bench/bench_store_floor.py /tmp/kg2tool-bench/g1m.nt
	$(BIN)/python bench/bench_pretrain.py

# Rewrite the README's command outputs from the commands themselves (tests/test_readme.py checks they match).
readme-figures: $(VENV)/.core
	$(BIN)/python docs/readme_figures.py

lint: $(VENV)/.full
	$(BIN)/ruff check kg2tool tests bench

clean:
	rm -rf $(VENV) out .pytest_cache
