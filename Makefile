# kitsoki build, test and release targets. Every target works offline once
# the Go module cache is warm (CI reaches the Go module proxy).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo none)
LDFLAGS := -s -w -X kitsoki/cmd.version=$(VERSION) -X kitsoki/cmd.commit=$(COMMIT)
GO      ?= go
FUZZTIME ?= 20s
# Minimising each new interesting input can stall a short run for its whole
# budget (0 execs/sec while it shrinks a large input): a count of runs, not a
# time, so a rich target (the story loader, validate) explores between them.
FUZZMINIMIZE ?= 100x
BIN     := bin/kitsoki
# build, vet, cross and unit compile with -trimpath: the build cache entries then do not
# depend on where the checkout is, so a fresh clone (as CI makes) reuses what an earlier
# checkout of the same sources compiled instead of compiling every package again.
# Pinned lint tools, fetched through the Go module proxy by `go run`.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
# The go commands that make's checks start without make (the ci-triage and incident-router
# examples `go run` their plugin and `go test` a package, from make examples and from cmd's tests;
# host.local's test runs go test and go build in a module it writes) build with -trimpath too, the
# setting of vet and build: without it they compiled the standard library once more in a setting
# nothing else uses, and the repository's own packages again in every new checkout folder (their
# cache keys hold the directory). The go env file's flags (go env GOFLAGS) are kept.
export GOFLAGS := $(strip $(filter-out -trimpath,$(shell $(GO) env GOFLAGS 2>/dev/null)) -trimpath)

.PHONY: test-variants race-tests beside-race-tests race-staticcheck examples-built flows-built cross-others build test test-tools lint vet fmt-check staticcheck tidy-check unit graphviz examples flows bench bench-fetch fuzz release-snapshot clean fetch-llama-server fetch-models cross

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) .

## test: everything CI runs — format, vet (every release platform), race tests (fuzz seeds included), examples end to end, flow fixtures.
## The race tests run beside the other platforms' vet, staticcheck, the examples and the flow
## fixtures (-j2, each target's output kept together): much of the tests' time is spent waiting on
## child processes and servers, which leaves a core the other checks use, one after another
## (after-build: they need the binary make build made, so it is not linked again). Every check
## of make lint still runs, each once. make build is the second job's first step: its link
## (one core) runs beside the race tests' compiles instead of before them.
test: fmt-check tidy-check test-variants test-tools graphviz vet
	@$(MAKE) --no-print-directory -j2 --output-sync=target race-tests beside-race-tests

# beside-race-tests: the second job of make test's -j2 run, its targets one after another.
# Its staticcheck is race-staticcheck, and it comes last, when the race tests have compiled (most
# of) their packages: see race-staticcheck.
beside-race-tests:
	@$(MAKE) --no-print-directory build && $(MAKE) --no-print-directory cross-others && \
	  $(MAKE) --no-print-directory examples-built && $(MAKE) --no-print-directory flows-built && \
	  $(MAKE) --no-print-directory race-staticcheck

# race-staticcheck: make staticcheck with the race tests' build settings (-race, their cgo setting
# and -gcflags), given to the go list it runs through staticcheck's -matrix (staticcheck itself is
# built as make staticcheck builds it). staticcheck reads every package's export data, test packages
# included: make staticcheck compiles each test package once more without -race for it (make vet
# compiles the non-test packages but not those), where this reads what the race tests compiled
# (and compiles, for them, what they have not yet). What it analyses differs only in the files
# with a race build constraint: it checks the race twins (pkg/agent/faults_race_test.go,
# pkg/trace/race_on_test.go) in place of the !race ones, which make vet checks.
race-staticcheck:
	echo 'race: CGO_ENABLED=$(RACE_CGO) -race $(RACE_GCFLAGS)' | CGO_ENABLED=0 $(GO) run $(STATICCHECK) -matrix ./...

## test-tools: the Debian packages the tests check outputs with (lcov's genhtml, xmllint), installed when missing and apt-get can run.
test-tools:
	@./scripts/test-tools.sh

## lint: gofmt, go vet on every release platform, staticcheck, go.mod tidy, no package compiled twice for the tests.
lint: fmt-check vet cross staticcheck tidy-check test-variants

## staticcheck with the release build's settings (CGO_ENABLED=0, -trimpath from GOFLAGS), for the same reason
## as vet: staticcheck keys its cache on the build IDs of the packages `go list -export` compiles,
## and without -trimpath those depend on the checkout's path, so every fresh clone in a new folder
## (as CI makes) compiled and analysed every package again. With these settings it reuses what
## make vet compiled, and a clone anywhere finds its own earlier results.
staticcheck:
	CGO_ENABLED=0 $(GO) run $(STATICCHECK) ./...

## test-variants: no test binary compiles a repository package a second time (scripts/test-variants.sh says why and the fix).
test-variants:
	@GO=$(GO) ./scripts/test-variants.sh

tidy-check:
	$(GO) mod tidy -diff

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

## vet: go vet with the release build's settings (CGO_ENABLED=0, -trimpath): it is the
## host platform's share of cross, and make build and the tests' builds of kitsoki reuse the
## packages it compiled (same build flags, so the same build cache entries).
vet:
	CGO_ENABLED=0 $(GO) vet -trimpath ./...

## unit: the race tests; where Graphviz could be installed, the graph tests must find dot (KITSOKI_REQUIRE_GRAPHVIZ).
## make vet first: the race tests leave go test's own vet to it (RACE_FLAGS).
unit: graphviz vet race-tests

# race-tests: unit without installing Graphviz first (make test does that before it starts
# the race tests, so that they are the first job of its -j2 run, not queued behind the others).
# RACE_FIRST: the race suite's slowest packages, slowest first (go test starts packages in the
# order it is given them, and ./... adds the rest in name order, each once), so that the many
# short packages fill the end of the run instead of one long package running alone.
# RACE_FLAGS: -vet=off, as make vet runs every analyzer go test would (a superset, over the same
# test files: only the four one-constant race/!race files differ) on every package; no DWARF in
# the race build's objects or test binaries (nothing reads it: panics, t.Helper, runtime.Caller
# and the race detector's reports use the symbol table), which the compiles and the links spent on.
RACE_FIRST := ./pkg/flowtest ./internal/testing/conformance/gen ./cmd ./pkg/validate ./pkg/lsp \
	./pkg/trace ./pkg/host ./pkg/agent ./pkg/story ./pkg/agent/localllm ./pkg/fold ./pkg/engine \
	./pkg/graph ./pkg/story/expr ./pkg/fetch ./internal/yamlfast
RACE_GCFLAGS := -gcflags=all=-dwarf=false
RACE_FLAGS := -vet=off $(RACE_GCFLAGS) -ldflags=-w
# RACE_CGO: the cgo setting go test -race builds with (go env's, which a recipe's CGO_ENABLED=0 does not change).
RACE_CGO = $(shell $(GO) env CGO_ENABLED)
race-tests:
	KITSOKI_REQUIRE_GRAPHVIZ=$$(command -v dot >/dev/null 2>&1 && echo 1) $(GO) test -race -trimpath $(RACE_FLAGS) -count=1 -timeout 30m $(RACE_FIRST) ./...

## graphviz: Graphviz's dot for kitsoki graph's tests (Debian's graphviz package, installed as root with apt-get when missing).
graphviz:
	@if command -v dot >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "== installing Graphviz (Debian's graphviz package) for the graph tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null) \
	    || echo "graphviz: apt-get could not install graphviz; the graph tests skip rendering DOT"; \
	else \
	  echo "graphviz: dot is missing and cannot be installed here (needs apt-get as root); the graph tests skip rendering DOT"; \
	fi

examples: build examples-built

# examples-built, flows-built: examples and flows with the binary make build already made.
examples-built:
	./scripts/examples.sh $(BIN)

## flows: kitsoki test over the examples' flow fixtures and, when ../shared/corpus exists, the corpus's.
CORPUS ?= ../shared/corpus
flows: build flows-built

flows-built:
	./$(BIN) test examples/... -j 2
	@if [ -d "$(CORPUS)" ]; then \
	  echo "== kitsoki test $(CORPUS)/..."; ./$(BIN) test $(CORPUS)/... -j 2; \
	else \
	  echo "flows: $(CORPUS) is missing; skipping the corpus fixtures (set CORPUS=DIR to run them)"; \
	fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## fuzz: each fuzz target for FUZZTIME (default 20s), minimising for at most FUZZMINIMIZE.
fuzz:
	GO=$(GO) scripts/fuzz.sh $(FUZZTIME) $(FUZZMINIMIZE)

## fetch-llama-server / fetch-models MODEL=<id>: pre-warm the cache with pinned, verified artifacts.
fetch-llama-server: build
	./$(BIN) fetch-llama-server

fetch-models: build
	./$(BIN) fetch-models $(MODEL)

## bench-fetch: 1 GiB from loopback vs curl+sha256sum, peak RSS, warm start, capped parts (BENCH_FETCH_SIZE to change)
bench-fetch:
	KITSOKI_BENCH_FETCH_SIZE=$(or $(BENCH_FETCH_SIZE),1GiB) $(GO) test -run '^$$' -bench 'FetchLoopback|CurlSha256sum|WarmStart|Rehash|CappedParts' -benchtime 1x -timeout 30m ./pkg/fetch

## cross: the release platforms compile (vet included) without goreleaser: vet is the host
## platform's pass (same settings), so the loop vets each other one.
RELEASE_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
HOST_PLATFORM = $(shell $(GO) env GOOS)/$(shell $(GO) env GOARCH)
cross: vet cross-others

# CROSS_GCFLAGS: the other platforms' packages are compiled only for vet's type information (no
# other step uses them), so without optimisation, inlining or DWARF: every compile error is still
# found (the type checker finds them), for about a quarter less CPU.
CROSS_GCFLAGS := all=-N -l -dwarf=false
cross-others:
	@for p in $(filter-out $(HOST_PLATFORM),$(RELEASE_PLATFORMS)); do \
	  echo "== $$p"; GOOS=$${p%/*} GOARCH=$${p#*/} CGO_ENABLED=0 $(GO) vet -trimpath -gcflags='$(CROSS_GCFLAGS)' ./... || exit 1; \
	done

release-snapshot:
	goreleaser release --snapshot --clean

clean:
	rm -rf bin dist
