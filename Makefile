# servelint developer tasks. Everything installs itself on a fresh machine
# (Python 3.10+, node 20 and npm are all it needs).

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# The code-server build (300 MB, ~1.5 min) lives outside the clone so that it
# is installed once per machine, not once per CI run.
E2E_TOOLS ?= $(HOME)/.cache/servelint-e2e
export SERVELINT_E2E_TOOLS := $(E2E_TOOLS)

.PHONY: demo setup bytecode test test-python test-client test-e2e test-editors editors e2e-tools integration-tools test-integrations bench fuzz clean release

# Quick start 1: set up and check the bundled examples.
demo: $(STAMP)
	$(VENV)/bin/servelint check examples/ --fail-on never

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	$(MAKE) --no-print-directory bytecode
	touch $(STAMP)

# Byte code for the editable tree, as `pip install` of a wheel compiles it at
# install time.  Without it, an environment with PYTHONDONTWRITEBYTECODE=1
# compiles every servelint module on every start: +170 ms of CPU per
# `servelint check` measured here (bench/RESULTS.md, cold start).  compileall writes
# even under that variable; a module edited later is recompiled in memory
# until the next `make bytecode`.
bytecode:
	$(PY) -m compileall -q server/servelint

# Quick start 2: set up everything and run every test.
test: test-python test-client test-e2e

# Every Python test, the real-editor ones included (headless Neovim, and
# Emacs eglot when installed): their editors are installed first.
test-python: $(STAMP) editors integration-tools
	$(PY) -m pytest -q -p no:cacheprovider

e2e-tools:
	bash tests/e2e/install-tools.sh

# The VS Code extension: lint, unit tests, grammar tests (against VS Code's own
# base grammars once code-server is installed), the .vsix (with the servelint
# wheel inside) and its Marketplace / Open VSX checks.
test-client: e2e-tools
	cd client && npm ci --no-audit --no-fund && npm run lint && npm test && npm run test:grammar && PYTHON=$(PYTHON) npm run package && npm run test:vsix

editors:
	PYTHON=$(abspath $(PY)) bash tests/editors/install.sh

# The real tools tests/integrations drives: pre-commit (PyPI, into the
# venv) and yaml-language-server (npm, pinned in tests/integrations/tools).
PRE_COMMIT_VERSION := 4.7.0
INTEGRATION_NPM := tests/integrations/tools/node_modules/.installed
integration-tools: $(VENV)/.pre-commit-$(PRE_COMMIT_VERSION) $(INTEGRATION_NPM)

$(VENV)/.pre-commit-$(PRE_COMMIT_VERSION): $(STAMP)
	$(PY) -m pip install --quiet "pre-commit==$(PRE_COMMIT_VERSION)"
	touch $@

$(INTEGRATION_NPM): tests/integrations/tools/package-lock.json
	cd tests/integrations/tools && npm ci --no-audit --no-fund --loglevel=error
	touch $@

test-integrations: integration-tools
	$(PY) -m pytest -q -p no:cacheprovider tests/integrations

# The real-editor tests alone (they also run in test-python).
test-editors: $(STAMP) editors
	$(PY) -m pytest -q -p no:cacheprovider tests/editors

# A real VS Code (code-server) in headless Chromium: squiggle, Problems row,
# hover and quick fix of the extension talking to this server.
test-e2e: $(STAMP) test-client
	SERVELINT_PYTHON=$(abspath $(PY)) SERVELINT_E2E_SKIP_INSTALL=1 bash tests/e2e/run.sh

# Add (or refresh) a vLLM release: every table, the validator facts, the
# conformance verdicts and the goldens that depend on the newest release,
# then a report of what changed (tools/knowledge/README.md).
release: $(STAMP)
	@test -n "$(V)" || { echo "usage: make release V=0.34.0"; exit 2; }
	$(PY) tools/knowledge/generate.py $(V)

# Benchmarks (bench/RESULTS.md): `make bench`, or e.g.
# `make bench BENCH_ARGS="--quick --only coldstart"`.  yamllint (pinned)
# installs itself into bench/.tools on first use; shellcheck comes from the
# system (Debian: apt-get install shellcheck), and without it that comparison
# is skipped, saying so.  The vLLM oracle (VLLM_ORACLE_HOME) is optional too.
BENCH_ARGS ?=
bench: $(STAMP)
	@command -v shellcheck >/dev/null || echo "bench: no shellcheck on PATH; its comparison will be skipped (Debian: apt-get install shellcheck)"
	$(PY) bench/run.py $(BENCH_ARGS)

# The long fuzz run (issue 9): 1,010,000 mutated documents through every
# parser, the record loader, the exampleFix reader and the engine, then 100
# random edit sequences per client against a real server; the figures go to
# tests/fuzz/LONGRUN.md, failing inputs to tests/fuzz/found/.  FUZZ_SEED picks
# another seed; FUZZ_HYPOTHESIS=1 then also runs the hypothesis targets at
# long-run scale (hours).
fuzz: $(STAMP)
	nice -n 19 $(PY) tests/fuzz/longrun.py --documents 1010000 --seed $(or $(FUZZ_SEED),20261130) --lsp-documents 100
	if [ -n "$(FUZZ_HYPOTHESIS)" ]; then SERVELINT_FUZZ_LONG=1 $(PY) -m pytest -q -p no:cacheprovider tests/fuzz; fi

clean:
	rm -rf $(VENV) build dist *.egg-info server/*.egg-info
