# The commands people type. `make stub` serves the sample stubs; `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift
PORT ?= 12306
STUBS ?= Stubs/settings.json

.PHONY: help build test stub bench bench-router bench-specs bench-snapshots width-table

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

build: ## debug build of everything, tests included
	$(SWIFT) build --build-tests

test: ## build and run the whole test suite (what CI runs)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

stub: ## serve Stubs/settings.json on 127.0.0.1:$(PORT) (hot reload on edit)
	$(SWIFT) build -c release --product stubserver
	.build/release/stubserver start -p $(PORT) -c $(STUBS)

bench: ## release build; stubserver vs nginx (1 worker) under wrk: req/s, p50, p99, ratio, startup, RSS
	bash bench/stub-bench.sh

bench-router: ## release build; Router.route cost per request, 10 vs 10,000 stubs (ratio in the same run)
	$(SWIFT) build -c release --product RouterBench
	.build/release/RouterBench

bench-specs: ## SpecKit overhead: 10,000 scenarios x 3 steps vs 10,000 plain XCTest entries
	$(SWIFT) build --build-tests
	bench/speckit-bench.sh

bench-snapshots: ## time verifying 1,000 existing text snapshots (release build)
	$(SWIFT) build -c release --product TextSnapshotBench
	.build/release/TextSnapshotBench

width-table: ## regenerate TextSnapshot's display-width table from Unicode data (python3)
	python3 scripts/generate-width-table.py > Sources/TextSnapshot/Layout/DisplayWidthTable.swift
