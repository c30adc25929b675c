# The commands people type. `make stub` serves the sample stubs; `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift
SWIFTC ?= swiftc
PORT ?= 12306
STUBS ?= Stubs/settings.json

.PHONY: help build test lint format check-stubs check-sharding merge-reports test-browser test-examples check-doc-snippets check-app-targets check-darwin stub stub-deps bench bench-tools bench-router bench-proxy bench-live bench-hardening bench-specs bench-spec-build bench-snapshots bench-yaml width-table

help: ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

build: ## debug build of everything, tests included
	$(SWIFT) build --build-tests

test: check-app-targets check-doc-snippets lint check-darwin ## build and run the whole test suite, then Examples/* (what CI runs)
	$(SWIFT) build --build-tests
	$(MAKE) check-stubs
	$(SWIFT) test --skip-build
	$(MAKE) check-sharding
	$(MAKE) test-browser
	$(MAKE) test-examples

check-sharding: ## the sample's specs as 4 shards (BDD_SHARD=1/4…4/4) merged by `speckit merge` equal the unsharded run (needs `make build`)
	SWIFT='$(SWIFT)' bash scripts/check-sharded-specs.sh

# SHARDS: the shards' report folders (BDD_REPORT_DIR of each), MERGED: where the merged report goes.
SHARDS ?=
MERGED ?= .build/speckit-report-merged
merge-reports: ## merge sharded runs' reports: make merge-reports SHARDS="report-1 report-2 …" [MERGED=folder]
	@test -n "$(SHARDS)" || { echo 'make merge-reports: set SHARDS="<report folder of each shard> …"' >&2; exit 64; }
	$(SWIFT) build --product speckit
	"$$($(SWIFT) build --show-bin-path)/speckit" merge $(SHARDS) -o "$(MERGED)"

test-browser: ## the stubserver dashboard and the spec report (sample + gallery fixture) in headless chromium (installed with apt-get when missing); screenshots in .build/browser/
	bash scripts/browser-deps.sh
	$(SWIFT) build --build-tests
	python3 scripts/browser-test.py --swift '$(SWIFT)' --stubserver "$$($(SWIFT) build --show-bin-path)/stubserver"

# worlds_conf.json#4 answers a story whose vote_count is a string on purpose (the app's error
# handling spec): its drift is expected and reported as a note.
check-stubs: ## every stub in Stubs/ against the DesignerNews OpenAPI document (stubserver check; drift fails)
	$(SWIFT) build --product stubserver
	"$$($(SWIFT) build --show-bin-path)/stubserver" check --openapi Stubs/openapi.yaml -g Stubs/settings.json --expect-drift 'Stubs/worlds_conf.json#4'

test-examples: ## build and test every Examples/* package as a user's package (XCTest + Swift Testing)
	SWIFT='$(SWIFT)' bash scripts/check-examples.sh

check-doc-snippets: ## the docs' complete snippets are byte-for-byte files of Examples/ (so CI compiles them)
	bash scripts/check-doc-snippets.sh

check-darwin: ## type-check every Darwin-only line in Sources/ for macOS and iOS against scripts/darwin-surface/ (on Linux)
	SWIFTC='$(SWIFTC)' python3 scripts/check-darwin.py

# `.swift-format` is the house style: 4-space indent, 140 columns, `#if` blocks not indented. Rules
# off because the house writes it on purpose: DoNotUseSemicolons (`lock.lock(); defer { … }`),
# AlwaysUseLowerCamelCase (`http1_1`, `where_`), OneCasePerLine (`case same(String), added(String)`),
# NoBlockComments (`/* flags */` beside C arguments), UseLetInEveryBoundCaseVariable,
# OnlyOneTrailingClosureArgument, ReplaceForEachWithForLoop, GroupNumericLiterals,
# NoAssignmentInExpressions. Format once with `make format` (its own commit), then `make lint` is clean.
# Swift files `swift format` checks, by the checked-in `.swift-format`. Listed with find rather than
# `--recursive` so Examples/*/.build (a built example's checkouts) is never read.
LINT_FILES = find Sources Tests Specs Examples -name .build -prune -o -name '*.swift' -print0

lint: ## swift format lint over Sources/ Tests/ Specs/ Examples/ (the toolchain's formatter, .swift-format); part of make test
	$(LINT_FILES) | xargs -0 $(SWIFT) format lint --strict --parallel

format: ## rewrite Sources/ Tests/ Specs/ Examples/ in place with swift format (.swift-format); one commit of its own
	$(LINT_FILES) | xargs -0 $(SWIFT) format format --in-place --parallel

check-app-targets: ## app-linkable targets (DesignerNews, SpecKitAppSupport, TextScreen, StubServerClient) never reach XCTest
	bash scripts/check-app-targets.sh

# Extra flags for every release build (the bench scripts read them too), e.g.
# SWIFT_RELEASE_FLAGS="-Xswiftc -no-whole-module-optimization" for a file-by-file build.
export SWIFT_RELEASE_FLAGS ?=
RELEASE_BUILD = $(SWIFT) build -c release $(SWIFT_RELEASE_FLAGS)
# On Linux `stubserver` links the Swift runtime and Foundation statically (in their own build
# folder): it starts in about a third of the time, as no Swift library is loaded and relocated.
# stubserver does not link FoundationNetworking (libcurl); FoundationXML needs libxml2's
# linker name, `libxml2.so`, from libxml2-dev, which `stub-deps` installs when it is missing.
STUB_LINK_FLAGS := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib --scratch-path .build/static)
STUB_BUILD = $(RELEASE_BUILD) $(STUB_LINK_FLAGS)
export STUB_LINK_FLAGS
# Known-harmless linker lines of the static link: glibc's warning about `mktemp`/`tempnam`, which
# Foundation references but stubserver never calls. Everything else the build prints is shown.
STUB_LINKER_NOISE := the use of .(mktemp|tempnam|tmpnam). is dangerous
stub: stub-deps ## serve Stubs/settings.json on 127.0.0.1:$(PORT) (hot reload on edit)
	@echo "make stub: building stubserver (release$(if $(STUB_LINK_FLAGS), with the Swift runtime linked statically)); the first build takes a few minutes (about 3 on 2 cores), later ones seconds"
	@set -o pipefail; $(STUB_BUILD) --product stubserver 2>&1 | { grep --line-buffered -v -E '$(STUB_LINKER_NOISE)' || true; }
	@echo "make stub: starting stubserver on port $(PORT) with $(STUBS) (Ctrl-C stops it; edits reload)"
	@"$$($(STUB_BUILD) --show-bin-path)/stubserver" start -p $(PORT) -c $(STUBS)

stub-deps: ## Linux: install libxml2-dev with apt-get when libxml2.so is missing (static stubserver link)
	@if [ "$$(uname -s)" = Linux ] && ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libxml2\.so '; then \
		sudo=""; [ "$$(id -u)" -ne 0 ] && sudo="sudo"; \
		echo "libxml2-dev is missing: the static stubserver link needs its libxml2.so (FoundationXML)."; \
		echo "installing it now with: $${sudo:+sudo }apt-get install libxml2-dev (about a minute)"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq libxml2-dev >/dev/null; \
	fi

bench: bench-tools stub-deps ## stubserver vs nginx (1 worker), pinned (BENCH_PIN=0: unpinned): text, file, template, 10k stubs, DN stories; text over https vs http
	bash bench/stub-bench.sh

bench-tools: ## install wrk and nginx with apt-get when missing (make bench needs them)
	@if ! command -v wrk >/dev/null 2>&1 || ! { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; }; then \
		sudo=""; [ "$$(id -u)" -ne 0 ] && sudo="sudo"; \
		echo "installing wrk and nginx-light with apt-get"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq wrk nginx-light >/dev/null; \
	fi

bench-router: ## release build; Router.route cost per request, 10 vs 10,000 stubs (ratio in the same run)
	$(RELEASE_BUILD) --product RouterBench
	.build/release/RouterBench

bench-proxy: ## release build; proxied vs direct req/s and p50 under wrk, then the upstream client vs URLSession
	bash bench/proxy-bench.sh

bench-live: ## release build; websocket echo round trip vs HTTP keep-alive GET (p50, p99, ratio)
	$(RELEASE_BUILD) --product LiveBench
	.build/release/LiveBench

bench-hardening: stub-deps ## release build; 200 stalled readers of a 20 MB file, 4,096 keep-alive holders, SIGTERM under a shutdown-port flood, a 10 GB sparse include, idle websockets, broadcasts, stalled uploads, 100,000 admin stubs
	$(STUB_BUILD) --product stubserver
	BENCH_STUBSERVER="$$($(STUB_BUILD) --show-bin-path)/stubserver" python3 bench/hardening-bench.py

bench-specs: ## SpecKit vs plain XCTest: run overhead (10,000 scenarios x 3 steps), then spec build times (bench-spec-build)
	$(SWIFT) build --build-tests
	bench/speckit-bench.sh
	$(MAKE) bench-spec-build

bench-spec-build: ## a generated suite (SPEC_BUILD_BENCH_COUNT=200 scenarios) in SpecKit and plain XCTest: clean build, edit-one rebuild, type-check per file, run CPU, ratios
	SWIFT='$(SWIFT)' SWIFTC='$(SWIFTC)' bash bench/spec-build-bench.sh

bench-snapshots: ## time verifying 1,000 existing text snapshots (release build)
	$(RELEASE_BUILD) --product TextSnapshotBench
	.build/release/TextSnapshotBench

bench-yaml: ## release build; the YAML reader on a 10 MB OpenAPI-shaped document vs JSONParser on the same data (YAML_FILE=path: time that file)
	$(RELEASE_BUILD) --product YAMLBench
	.build/release/YAMLBench $(YAML_FILE)

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

report: ## run Specs/ and write .build/specs-report/report.html (opened when a desktop opener exists), LIVING-DOC.md and junit.xml
	$(SWIFT) build --build-tests
	rm -rf '$(SPECS_REPORT)'
	status=0; BDD_REPORT_DIR='$(SPECS_REPORT)' $(SWIFT) test --skip-build --filter '$(SPECS_FILTER)' || status=$$?; \
	echo "living document: $(SPECS_REPORT)/LIVING-DOC.md"; \
	echo "HTML report: $(SPECS_REPORT)/report.html"; \
	if [ "$$(uname -s)" = Darwin ]; then open '$(SPECS_REPORT)/report.html'; \
	elif command -v xdg-open >/dev/null 2>&1 && [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then xdg-open '$(SPECS_REPORT)/report.html' >/dev/null 2>&1 || true; fi; \
	exit $$status

record: ## re-record Specs/ snapshots that differ (RECORD=all rewrites every one), then verify them
	$(SWIFT) build --build-tests
	TEXT_SNAPSHOT_RECORD='$(RECORD)' $(SWIFT) test --skip-build --filter '$(SPECS_FILTER)' 2>&1 | grep -E '^(wrote|  /)|Executed .* tests' || true
	$(SWIFT) test --skip-build --filter '$(SPECS_FILTER)'
	@echo "re-recorded; review with: git diff --stat -- Specs/__Snapshots__ && git diff -- Specs/__Snapshots__"
