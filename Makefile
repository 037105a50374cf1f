# Everything runs from a virtualenv this Makefile makes itself, so `make demo` and
# `make test` work on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SAMPLE := samples/sample.pdf
SIFT   := $(BIN)/siftpdf

.PHONY: demo test check lint bench bench-quality bakeoff fuzz docs install-docs fixtures sample clean redis-server

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,ocr,mcp,redis,serve,semantic]' --config-settings editable_mode=compat
	touch $(STAMP)

# The OCR engine's language data (`--ocr`; the library itself comes with the ocr extra), from
# the system's packages: installed here when this is a Debian or Ubuntu machine run as root.
TESSDATA := $(addprefix /usr/share/tesseract-ocr/5/tessdata/,chi_sim.traineddata osd.traineddata)
$(TESSDATA):
	@if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		apt-get install -y -qq tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim >/dev/null; }; \
	else \
		echo "the OCR tests need tesseract's data: apt-get install tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim"; \
		exit 1; \
	fi

# A Redis server for the shared cache's tests and benchmark (`--cache-url`; the client comes with
# the redis extra), from the system's packages, as tesseract's data above. The tests start their
# own servers on free loopback ports; none runs as a service for them.
redis-server:
	@command -v redis-server >/dev/null 2>&1 || \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		apt-get install -y -qq redis-server >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; }; \
	else \
		echo "the shared cache's tests need a Redis server: apt-get install redis-server"; \
		exit 1; \
	fi

demo: $(STAMP) $(TESSDATA)
	@echo '$$ siftpdf sniff $(SAMPLE)'
	@$(SIFT) sniff $(SAMPLE)
	@echo; echo '$$ siftpdf map --cap 1900 $(SAMPLE)'
	@$(SIFT) map --cap 1900 $(SAMPLE)
	@echo; echo '$$ siftpdf pages 3 $(SAMPLE)'
	@$(SIFT) pages 3 $(SAMPLE)
	@echo; echo "$$ siftpdf grep 'oxbow|sediment' $(SAMPLE)"
	@$(SIFT) grep 'oxbow|sediment' $(SAMPLE)
	@echo; echo "$$ siftpdf digest -q 'why do deltas shrink?' $(SAMPLE)"
	@$(SIFT) digest -q 'why do deltas shrink?' $(SAMPLE)

# The suite on the Python modules (the editable install), on every core; the long runs are
# make check's (marked `check`: the corpus walks, long fuzzing, a soak, the compiled copy).
test: $(STAMP) $(TESSDATA) redis-server
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m 'not check'

# The long runs, then organization's own tests once more on the compiled copy tools/compiled.py
# builds as `pip install .` does (made again only when a source changed); tests/test_compiled.py
# holds the two to the same bytes. CI runs make test, then make check.
COMPILED_TESTS := tests/test_organize.py tests/test_organize_pure.py tests/test_organize_layout.py \
	tests/test_tables.py tests/test_headings.py tests/test_organize_fuzz.py
check: $(STAMP) $(TESSDATA) redis-server
	$(BIN)/python -m pytest -q -m check
	tree=$$($(BIN)/python tools/compiled.py) && \
	PYTHONPATH=$$tree $(BIN)/python -P -c 'import sys; from siftpdf.compiled import state; sys.exit(state()["path"] != "compiled")' && \
	PYTHONPATH=$$tree $(BIN)/pytest -q -p no:cacheprovider -m 'not replaces_organize' $(COMPILED_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check siftpdf tests bench tools setup.py
	$(BIN)/mypy siftpdf

# Man pages, completions and the --help texts (siftpdf/console/helptext.py), generated from the
# commands, and the compiled forms of the lazy patterns (siftpdf/_sre_codes.py), generated from
# the package's patterns (tests fail when they are stale).
docs: $(STAMP)
	$(BIN)/python tools/gendocs.py
	$(BIN)/python tools/patterns.py

# Man pages and completions for the current user (PREFIX=/usr/local as root for everyone).
PREFIX ?= $(HOME)/.local
install-docs:
	install -d $(PREFIX)/share/man/man1 $(PREFIX)/share/bash-completion/completions \
		$(PREFIX)/share/zsh/site-functions $(PREFIX)/share/fish/vendor_completions.d
	install -m 644 man/*.1 $(PREFIX)/share/man/man1/
	install -m 644 completions/siftpdf.bash $(PREFIX)/share/bash-completion/completions/siftpdf
	install -m 644 completions/_siftpdf $(PREFIX)/share/zsh/site-functions/_siftpdf
	install -m 644 completions/siftpdf.fish $(PREFIX)/share/fish/vendor_completions.d/siftpdf.fish

# Speed and memory, each beside its peer tool measured in the same run (bench/bench_*.py);
# pdf-inspector and liteparse, the peers of the organized Markdown, come with the bench extra.
bench: $(STAMP) redis-server
	@$(BIN)/python -c 'import pdf_inspector, liteparse' 2>/dev/null || \
		$(BIN)/pip install -q -e '.[bench]' --config-settings editable_mode=compat
	$(BIN)/python bench/run.py

# The article on the three benchmarks of ../shared/bench (DP-Bench, ICDAR 2013 tables, reading
# order), half by half: one cold command per PDF of siftpdf and of two rule-based peers,
# pdf-inspector and liteparse (the bench extra, installed here when missing), each scored by the
# set's own script; DP-Bench also beside the published outputs of docling, marker,
# opendataloader and pymupdf4llm. Writes docs/quality.md (a few minutes). `make bench` runs it
# too, with whichever peers are installed.
bench-quality: $(STAMP)
	@$(BIN)/python -c 'import pdf_inspector, liteparse' 2>/dev/null || \
		$(BIN)/pip install -q -e '.[bench]' --config-settings editable_mode=compat
	$(BIN)/python bench/run.py quality

# Engine comparison over ../shared/corpus and 200 mutants, then the hostile fixtures; writes
# docs/bakeoff.md (about 15 min on 2 shared cores). A quick look without writing anything:
#   .venv/bin/python bench/bakeoff.py --files 10 --mutants 20 --no-broken --out -
bakeoff: $(STAMP)
	$(BIN)/python bench/bakeoff.py
	$(BIN)/python bench/hostile.py --into docs/bakeoff.md

# Byte-mutation fuzzing of the extraction child for FUZZ_SECONDS; failures are saved as recipes
# in tests/fuzz_regressions.json, which the test suite replays. Then organization's properties
# over generated evidence for FUZZ_SECONDS more (tests/test_organize_fuzz.py, more examples).
FUZZ_SECONDS ?= 60
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz_child.py --seconds $(FUZZ_SECONDS)
	$(BIN)/python tests/fuzz_organize.py --seconds $(FUZZ_SECONDS)

sample: $(STAMP)
	$(BIN)/python tests/make_fixtures.py --sample $(SAMPLE)

clean:
	rm -rf $(VENV) tests/.fixtures bench/.data
