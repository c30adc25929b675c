# The commands people type. `make stub` serves the sample stubs; `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift
PORT ?= 12306
STUBS ?= Stubs/settings.json

.PHONY: help build test check-app-targets stub bench bench-router bench-specs bench-snapshots width-table

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

build: ## debug build of everything, tests included
	$(SWIFT) build --build-tests

test: check-app-targets ## build and run the whole test suite (what CI runs)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

check-app-targets: ## app-linkable targets (DesignerNews, SpecKitAppSupport, TextScreen, StubServerClient) never reach XCTest
	bash scripts/check-app-targets.sh

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
	python3 scripts/generate-width-table.py > Sources/TextScreen/Layout/DisplayWidthTable.swift

# --- DesignerNews sample: the QA specs in Specs/ -------------------------------------------
SPECS_FILTER ?= ^Specs\.
SPECS_REPORT ?= .build/specs-report
RECORD ?= failed

.PHONY: specs report record

specs: ## build and run only the DesignerNews QA specs (Specs/)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '$(SPECS_FILTER)'

report: ## run Specs/ and write its living document to .build/specs-report/LIVING-DOC.md (+ junit.xml)
	$(SWIFT) build --build-tests
	rm -rf '$(SPECS_REPORT)'
	status=0; BDD_REPORT_DIR='$(SPECS_REPORT)' $(SWIFT) test --skip-build --filter '$(SPECS_FILTER)' || status=$$?; \
	echo "living document: $(SPECS_REPORT)/LIVING-DOC.md"; exit $$status

record: ## re-record Specs/ snapshots that differ (RECORD=all rewrites every one), then verify them
	$(SWIFT) build --build-tests
	TEXT_SNAPSHOT_RECORD='$(RECORD)' $(SWIFT) test --skip-build --filter '$(SPECS_FILTER)' 2>&1 | grep -E '^(wrote|  /)|Executed .* tests' || true
	$(SWIFT) test --skip-build --filter '$(SPECS_FILTER)'
	@echo "re-recorded; review with: git diff --stat -- Specs/__Snapshots__ && git diff -- Specs/__Snapshots__"
