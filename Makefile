# Chariot — a xiangqi engine. `make help` lists the targets.

CARGO ?= cargo
BIN := target/release/chariot

.PHONY: all build native run test python-venv python-test python-bench bench perft-full smp-speedup sprt spsa search-alone openings datagen tune train book xboard-test clock-test browser browser-test analysis-doc analyse-speed clean help

# make datagen: where the data goes (ignored by git) and how it is made.
DATA_DIR ?= data
GAMES ?= 25000
NODES ?= 5000
THREADS ?= 2
SEED ?= 1
BOOK ?= $(wildcard tests/data/openings.epd)
DATAGEN_NET ?= default
# make book: the self-play games behind the built-in book, and what is kept.
BOOK_GAMES ?= 2400
BOOK_NODES ?= 10000
BOOK_FLAGS ?= --min-count 2 --max-ply 20 --min-score 0.25
# make python-test / python-bench: the virtual environment the Python package
# is built into (maturin, with pytest, numpy, pyffish and cchess beside it).
PYTHON ?= python3
PY_VENV ?= python/.venv
PY_DEPS := maturin pytest numpy pyffish cchess
# make tune: the data files, and the tuner's options.
DATA ?=
EPOCHS ?= 30
TUNE_FLAGS ?=
# make train: the network file and the trainer's options (DATA as for tune); the
# defaults are those the built-in network was trained with.
NET ?=
TRAIN_FLAGS ?= --epochs 12 --seed 1 --mirror

all: build ## Release build, portable to any x86-64 (target/release/chariot)

build:
	$(CARGO) build --release

native: ## Release build tuned for this CPU (target-cpu=native), in target/native/
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release --target-dir target/native

run: build ## Build, then run the bench (its last line is the signature: <nodes> nodes <nps> nps)
	$(BIN) bench

test: ## What CI runs: formatting, lints, the whole test suite in release mode
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy --all-targets --features tune -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps
	$(CARGO) test --release
	$(CARGO) test --release --features tune --lib tunables
	$(MAKE) python-test

python-venv: ## The Python virtual environment PY_VENV (python/.venv) with maturin, pytest, numpy, pyffish, cchess
	test -x $(PY_VENV)/bin/python || $(PYTHON) -m venv $(PY_VENV)
	$(PY_VENV)/bin/python -c 'import maturin, pytest, numpy, pyffish, cchess' 2>/dev/null || $(PY_VENV)/bin/python -m pip install -q $(PY_DEPS)

python-test: python-venv ## The Python package (python/): fmt and clippy of its crate, built into PY_VENV by maturin, then its pytest suite (its CLI comparisons use target/release/chariot when built)
	cd python && $(CARGO) fmt --check
	cd python && $(CARGO) clippy --release -- -D warnings
	cd python && VIRTUAL_ENV=$(abspath $(PY_VENV)) $(abspath $(PY_VENV))/bin/maturin develop --release -q
	cd python && $(abspath $(PY_VENV))/bin/python -m pytest -q tests

python-bench: build python-venv ## Random playouts/s through Python: chariot vs pyffish vs cchess; perft(4) from Python vs the CLI
	cd python && VIRTUAL_ENV=$(abspath $(PY_VENV)) $(abspath $(PY_VENV))/bin/maturin develop --release -q
	$(PY_VENV)/bin/python python/benchmarks/playouts.py --cli $(BIN)

bench: ## Criterion benchmarks (move generation, make/unmake, perft, rule arbiter)
	$(CARGO) bench

perft-full: ## Every perft count in perft-data/, however deep (minutes)
	$(CARGO) test --release --test perft -- --include-ignored

smp-speedup: ## Lazy SMP time-to-depth speed-up, 2 threads vs 1, 24 middlegames (idle machine, ~6 min; SMP_DEPTH=21, SMP_RUNS=3)
	$(CARGO) test --release --test smp -- --ignored --nocapture

sprt: ## NEW (a git revision, default the working tree) against BASE (default HEAD) from the opening suite, SPRT (TC=5+0.05 BOUNDS=0,10; hours)
	tools/sprt.sh $(or $(BASE),HEAD) $(NEW)

spsa: ## Tune src/search/tunables.rs by SPSA self-play of a `tune` build of REV (default HEAD): STATE=data/spsa.json PAIRS=4000 TC=3+0.03 CONC=2, resumable (hours; see tools/spsa.sh)
	tools/spsa.sh $(or $(REV),HEAD)

search-alone: ## REV's search and time manager (default HEAD) with d28ede8's evaluation against d28ede8 (TC=10+0.1 GAMES=200 CONC=2; about 70 min)
	tools/search_alone.sh $(or $(REV),HEAD)

openings: ## Regenerate tests/data/openings.epd with fairy-stockfish (about 20 min)
	tools/make_openings.py --count 1200 --seed 1 --out tests/data/openings.epd

datagen: build ## Self-play data: GAMES games at NODES per move, THREADS at once, from BOOK, searched with DATAGEN_NET (default: the built-in network; DATAGEN_NET= for the classical evaluation), appended to DATA_DIR/datagen-seedSEED.bin
	mkdir -p $(DATA_DIR)
	$(BIN) datagen --out $(DATA_DIR)/datagen-seed$(SEED).bin --games $(GAMES) --nodes $(NODES) --threads $(THREADS) --seed $(SEED) $(if $(BOOK),--book $(BOOK)) $(if $(DATAGEN_NET),--net $(DATAGEN_NET))

tune: build ## Fit src/eval/params.rs to DATA="file ..." (EPOCHS=30, TUNE_FLAGS="--lambda 0.5 --lr 0.5 ..."); git diff shows the change
	@test -n "$(DATA)" || { echo 'usage: make tune DATA="data/datagen-seed1.bin ..." [EPOCHS=N] [TUNE_FLAGS=...]' >&2; exit 2; }
	$(BIN) tune --out src/eval/params.rs --epochs $(EPOCHS) $(TUNE_FLAGS) $(DATA)

train: build ## Train an NNUE network on DATA="file ..." into NET=nets/xxx.nnue (TRAIN_FLAGS="--epochs 12 --seed 1 --mirror", add e.g. "--init default --lr 0.0003"); NET.svg shows the loss curves
	@test -n "$(DATA)" -a -n "$(NET)" || { echo 'usage: make train DATA="data/datagen-seed1.bin ..." NET=nets/xxx.nnue [TRAIN_FLAGS=...]' >&2; exit 2; }
	mkdir -p $(dir $(NET))
	$(BIN) train --out $(NET) $(TRAIN_FLAGS) $(DATA)

book: build ## Remake books/default.book, the built-in book: BOOK_GAMES self-play games from the start position at BOOK_NODES a move (THREADS at once; the same games whatever THREADS), kept by BOOK_FLAGS
	mkdir -p $(DATA_DIR)
	rm -f $(DATA_DIR)/book-games.txt $(DATA_DIR)/book-positions.bin
	$(BIN) datagen --out $(DATA_DIR)/book-positions.bin --games-out $(DATA_DIR)/book-games.txt --games $(BOOK_GAMES) --nodes $(BOOK_NODES) --threads $(THREADS) --seed 1 --random-plies 0
	$(BIN) book build --out books/default.book $(BOOK_FLAGS) $(DATA_DIR)/book-games.txt

xboard-test: build ## The real XBoard under Xvfb: Chariot vs Chariot, vs fairy-stockfish, and against a scripted perpetual check (needs xboard xvfb imagemagick fairy-stockfish; ~6 min)
	tools/xboard-test.sh $(BIN)

CHROMIUM_PACKAGES := chromium fonts-noto-cjk
# make analysis-doc: the game shown in the README's picture (a file, a game in it).
DOC_GAMES ?= tests/data/games/longhua1989.pgn
DOC_GAME ?= 3

browser: ## Install headless Chromium and CJK fonts (Debian packages) if missing
	command -v chromium >/dev/null 2>&1 || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(CHROMIUM_PACKAGES); }

browser-test: build browser ## The HTML report rendered in headless Chromium (tests/browser.rs; skipped by make test where Chromium is absent)
	$(CARGO) test --release --test browser -- --nocapture

analysis-doc: build browser ## Remake doc/analysis.html and doc/analysis.png (the README's picture) from DOC_GAMES, game DOC_GAME, 1 s a position
	tools/analysis_doc.sh $(BIN) $(DOC_GAMES) $(DOC_GAME)

analyse-speed: build ## Analysis speed: a 100-game self-play file at --movetime 200 on 2 threads, and the best moves against UCI go movetime 200 (~30 min)
	tools/analyse_speed.sh $(BIN)

clock-test: build ## Losses on time on a busy machine: XBoard (Chariot vs itself and vs fairy-stockfish, 10+0.1 and 5+0.05) and match.py --grace-ms 0 three games at once (2+0.02, 1+0.01), least clock left per game (CLOCK_XBOARD_GAMES=20 CLOCK_MATCH_GAMES=30; docs/clock.md; ~1 h)
	tools/clock-test.sh $(BIN)

clean:
	$(CARGO) clean

help: ## This list
	@awk -F ':.*## ' '/^[a-z-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
