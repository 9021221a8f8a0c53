# Chariot — a xiangqi engine. `make help` lists the targets.

CARGO ?= cargo
BIN := target/release/chariot

.PHONY: all build native run test bench perft-full smp-speedup xboard-test clean help

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
	$(CARGO) test --release

bench: ## Criterion benchmarks (move generation, make/unmake, perft, rule arbiter)
	$(CARGO) bench

perft-full: ## Every perft count in perft-data/, however deep (minutes)
	$(CARGO) test --release --test perft -- --include-ignored

smp-speedup: ## Lazy SMP time-to-depth speed-up, 2 threads vs 1, 24 middlegames (idle machine, ~6 min; SMP_DEPTH=21, SMP_RUNS=3)
	$(CARGO) test --release --test smp -- --ignored --nocapture

xboard-test: build ## The real XBoard under Xvfb: Chariot vs Chariot and vs fairy-stockfish (needs xboard xvfb imagemagick fairy-stockfish; ~5 min)
	tools/xboard-test.sh $(BIN)

clean:
	$(CARGO) clean

help: ## This list
	@awk -F ':.*## ' '/^[a-z-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)
