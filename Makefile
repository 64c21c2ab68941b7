# The project's commands, for a fresh checkout on Linux or macOS with Python 3.10+ and make:
#
#   make demo       set up .venv (PyTorch's CPU build, the package) and check the shipped
#                   example answer against its sources with the offline judge: the report is
#                   printed, and written to report.html
#   make test       set up what the tests need in .venv and run the light tiers: everything
#                   but the browser, Spark, Ray, model-server and trace-sink tests
#   make test-all   every tier, as CI runs it (bash .ci/run: installs Chromium and Java 17,
#                   builds llama.cpp's server the first time)
#
# Why make: it is on every Linux and macOS development machine, so the first command needs
# nothing installed first (nox or tox would be a third command, and uv does not read pip's
# configuration, where a machine prepared for offline work keeps its PyTorch).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The tiers that need a system package or a long build; `make test` leaves them out.
HEAVY := browser or spark or ray or model_server or trace_sink

.PHONY: demo test test-all install clean

demo: $(VENV)/.installed
	@# exit status 1 is the verdict: two sentences of the example answer are not supported
	@$(BIN)/provenance check --source examples/eiffel_history.txt \
	    --source examples/eiffel_visiting.txt --text examples/answer.txt --html report.html; \
	status=$$?; \
	if [ $$status -eq 1 ]; then echo "(exit status 1: the example answer fails, as it should)"; \
	else exit $$status; fi

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not ($(HEAVY))"
	@echo "Not run here: the $(HEAVY) tiers (make test-all runs every tier)."

test-all:
	bash .ci/run

install: $(VENV)/.installed

# Editable, so that `make test` tests the checkout as it is now. (setuptools warns at length
# that an editable install's package can be shadowed by a folder of the same name: there is none,
# the package's folder is validator/.)
EDITABLE := PYTHONWARNINGS=ignore::UserWarning $(BIN)/python -m pip install -q -e

$(VENV)/.installed: pyproject.toml tools/install_torch.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(PYTHON) tools/install_torch.py $(BIN)/python
	$(EDITABLE) .
	@touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(EDITABLE) '.[test]'
	@touch $@

clean:
	rm -rf $(VENV) report.html
