# Two commands for a newcomer: `make run` (set up, open the TUI on the demo workspace) and
# `make test` (set up with test tools, run lint, types and the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_WORKSPACE := .paddle-workbench-demo
# Paddle is not a hard dependency: when the base interpreter already has one (e.g. paddlepaddle-gpu),
# the venv sees it through --system-site-packages; otherwise the `cpu` extra installs the CPU wheel.
HAVE_PADDLE := $(shell $(PYTHON) -c 'import importlib.util,sys; sys.exit(0 if importlib.util.find_spec("paddle") else 1)' 2>/dev/null && echo yes)
VENV_FLAGS := $(if $(HAVE_PADDLE),--system-site-packages,)
PADDLE_EXTRA := $(if $(HAVE_PADDLE),,cpu)
comma := ,

.PHONY: run test test-fast setup setup-test lint typecheck unit bench clean

# uv (from PyPI, into the venv) installs what pip would, the same versions, about ten times faster: 8.6 s
# against 98 s for `.[test,cpu]` into a new venv on a 2-core machine, both caches cold. pip stays the
# installer where the venv sees a system Paddle: pip counts the system's packages as installed, uv installs
# them again into the venv. Where uv cannot be had or fails (a proxy, a certificate), pip does the install.
USE_UV := $(if $(HAVE_PADDLE),,yes)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(if $(USE_UV),$(BIN)/python -m pip install -q uv || echo "uv not installed: pip installs the project")

# $(call install,REQUIREMENT): uv where it is there and works, else pip (upgraded first: an old pip lacks
# editable installs from pyproject.toml).
install = $(if $(USE_UV),{ [ -x $(BIN)/uv ] && $(BIN)/uv pip install -q --python $(BIN)/python $(1); } ||) \
	{ $(BIN)/python -m pip install -q --upgrade pip && $(BIN)/python -m pip install -q $(1); }

$(VENV)/.installed-run: pyproject.toml setup.py | $(BIN)/python
	$(call install,-e ".[$(PADDLE_EXTRA)]")
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/python
	$(call install,-e ".[test$(if $(PADDLE_EXTRA),$(comma)$(PADDLE_EXTRA),)]")
	@# The browser test (tests/integration/test_web.py) drives Debian's Chromium; it skips, saying why, without it.
	@if [ ! -x /usr/lib/chromium/chromium ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get install -y -q --no-install-recommends chromium \
			|| (apt-get update -q && apt-get install -y -q --no-install-recommends chromium) \
			|| echo "chromium not installed: the browser test will skip"; \
		else echo "chromium not installed (needs root and apt-get): the browser test will skip"; fi; \
	fi
	touch $@ $(VENV)/.installed-run

setup: $(VENV)/.installed-run
setup-test: $(VENV)/.installed-test

run: setup
	$(BIN)/paddle-workbench --workspace $(DEMO_WORKSPACE) tui --demo

# lint-imports and mypy read the package as it installs (screens/, themes/ under workbench/): see tools/staged.py.
lint: setup-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python tools/staged.py -- $(abspath $(BIN))/lint-imports pyproject.toml

typecheck: setup-test
	$(BIN)/python tools/staged.py -- $(abspath $(BIN))/mypy --config-file pyproject.toml

# Three xdist workers on two cores: much of the suite waits on launched ranks and subprocesses, so a third
# worker fills that time (458.7 s against 539.5 s for two, the same tree, a quiet 2-core machine). Tests
# sharing a module or session fixture stay in one worker (tests/conftest.py groups them).
# PYTHONDONTWRITEBYTECODE is cleared for the suite: with it set (some containers set it), each worker
# rewrites the asserts of every test module at every run (~4 CPU-s a worker) instead of reading the
# cached ones from tests/**/__pycache__ (git-ignored).
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -p no:cacheprovider -n 3 --dist loadgroup

# lint and typecheck (one process at a time, 70-90 s of one core) run beside the suite, not before it:
# the suite's workers leave part of the two cores idle while they wait on launched ranks and subprocesses,
# and the checks, niced, take that time. Their output follows the suite's; a failure of any of them fails
# `make test`. `make lint` and `make typecheck` still run each alone.
test: setup-test
	@checks=$$(mktemp); \
	nice -n 10 $(MAKE) --no-print-directory --keep-going lint typecheck > "$$checks" 2>&1 & \
	pid=$$!; trap 'kill $$pid 2>/dev/null; rm -f "$$checks"; exit 130' INT TERM HUP; \
	echo '$(PYTEST)'; \
	$(PYTEST); suite=$$?; \
	wait $$pid; lint=$$?; \
	echo "--- make lint typecheck (run beside the suite) ---"; cat "$$checks"; rm -f "$$checks"; \
	[ $$suite -eq 0 ] && [ $$lint -eq 0 ]

# The inner loop: unit and UI tests only (no real Paddle runs or launches); CI runs `make test`.
test-fast: setup-test
	$(PYTEST) tests/unit tests/ui

bench: setup-test
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/key_latency.py  # keys and mode switches while a run trains, vs a bare Textual app
	$(BIN)/python benchmarks/metrics.py
	$(BIN)/python benchmarks/monitor_overhead.py --grid
	$(BIN)/python benchmarks/system_sampler.py
	$(BIN)/python benchmarks/grid_ui_cpu.py
	$(BIN)/python benchmarks/terminal_bandwidth.py
	$(BIN)/python benchmarks/diagnose.py
	$(BIN)/python benchmarks/textsafe.py
	$(BIN)/python benchmarks/serve_pool.py
	$(BIN)/python benchmarks/serve_load.py
	$(BIN)/python benchmarks/dataset_check.py  # side by side with PaddleX when PADDLEX_PYTHON is set
	$(BIN)/python benchmarks/plan_run_overhead.py  # plan run vs a hand launch of its export, alternating

clean:
	rm -rf $(VENV) $(DEMO_WORKSPACE) .mypy_cache .ruff_cache
