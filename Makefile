# Quarry — two commands: `make start` (one process, embedded defaults) and `make test` (everything,
# against real PostgreSQL, Kafka and Chromium installed and started by scripts/infra).
SHELL := /bin/bash
.DEFAULT_GOAL := help
export NX_DAEMON ?= false
export NX_NO_CLOUD ?= true
export NX_TUI ?= false
export PUPPETEER_SKIP_DOWNLOAD ?= true
PORT ?= 3002
# PGlite (embedded PostgreSQL) loads WebAssembly modules with import(), which Jest's VM needs this flag for.
JEST := NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning" npx jest
DATA_DIR ?= ./.data

.PHONY: help setup deps system-deps generate build start test test-unit test-integration test-e2e test-clients clients lint typecheck check \
        infra-up infra-down db-check format format-check clean chart-check dashboards cluster cluster-down test-faults bench-load bench

help: ## list targets
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-18s %s\n", $$1, $$2}'

# `npm install` rather than `npm ci`: the registry lacks some platform-specific optional packages
# (e.g. @swc/core for other OSes), which npm leaves out of the lock file and `npm ci` then rejects.
node_modules/.installed: package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $@

deps: node_modules/.installed ## install npm dependencies (reuses node_modules when current)

system-deps: ## install Chromium, fonts and OCR tools from Debian when missing
	@scripts/infra/system-deps.sh

generate: deps ## generate the Prisma client (offline)
	npm run --silent db:generate

setup: deps generate ## everything the code needs to build

build: setup ## build every service bundle
	npx nx run-many -t build --parallel=2

start: setup ## run the whole platform in one process on $(PORT) (data in $(DATA_DIR))
	@scripts/infra/system-deps.sh || echo "[start] could not install Chromium: browser features will be unavailable"
	npx nx build standalone
	PORT=$(PORT) DATA_DIR=$(DATA_DIR) node dist/apps/standalone/main.js

infra-up: ## start PostgreSQL and a Kafka broker for tests (idempotent)
	@scripts/infra/postgres.sh up >/dev/null
	@scripts/infra/kafka.sh up single >/dev/null

infra-down: ## stop the test PostgreSQL and Kafka
	@scripts/infra/kafka.sh down single
	@scripts/infra/postgres.sh down

lint: setup ## eslint with module boundaries, zero warnings
	npx nx run-many -t lint --parallel=2 -- --max-warnings=0

typecheck: setup ## strict TypeScript on every project
	npx nx run-many -t typecheck --parallel=2

db-check: setup ## migrations match prisma/schema.prisma
	npm run --silent db:check

format-check: setup ## prettier --check on every source, config and JSON file (make format rewrites them)
	npx prettier --check "{apps,libs,bench,deploy,scripts,tools}/**/*.{ts,tsx,js,mjs,cjs,json}" "*.{js,mjs,cjs,json}"

format: setup ## rewrite every source file in the project's import order and prettier style
	npx nx run-many -t lint --parallel=2 -- --fix --quiet >/dev/null || true # lint reports what --fix cannot change
	npx prettier --write --log-level warn "{apps,libs,bench,deploy,scripts,tools}/**/*.{ts,tsx,js,mjs,cjs,json}" "*.{js,mjs,cjs,json}"

check: format-check lint typecheck db-check ## static checks

test-unit: setup ## fast unit tests (no infrastructure)
	$(JEST) --testPathPatterns '\.spec\.ts$$'

test-integration: setup system-deps infra-up ## integration tests against real PostgreSQL, Kafka, Chromium
	source scripts/test-env.sh && $(JEST) --testPathPatterns '\.integration-spec\.ts$$' --runInBand --testTimeout=120000 --forceExit

test-e2e: build system-deps infra-up ## black-box tests of running services (cluster over Kafka, one-process mode, the SDK)
	@scripts/ops/tools.sh promtool # the observability e2e lints expositions and queries with promtool
	@scripts/ops/tools.sh schemathesis # the API fuzz e2e runs schemathesis against /v2/openapi.json
	source scripts/test-env.sh && $(JEST) --selectProjects platform-e2e --runInBand --testTimeout=180000 --forceExit

clients: ## install the pinned third-party clients the client suites drive (firecrawl-py venv, firecrawl-mcp, firecrawl-cli) into .tools/clients
	@scripts/infra/clients.sh >/dev/null

test-clients: setup system-deps clients ## the clients people use (firecrawl-py v2/async/v1, firecrawl-mcp over stdio, firecrawl-cli, the JS SDK) against the one-process server
	npx nx build standalone
	source scripts/test-env.sh && $(JEST) -c apps/platform-e2e/jest.clients.config.cjs --runInBand --forceExit

chart-check: setup ## Helm chart: lint, render (default + production), Kubernetes schema validation, alert rules, assertions
	@scripts/ops/chart-check.sh

dashboards: setup ## regenerate the Grafana dashboards and the chart's env wiring/docs from their sources
	SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register deploy/grafana/generate.ts
	SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register deploy/helm/generate.ts

cluster: build system-deps ## the platform as separate processes: 2 gateways behind a round-robin proxy (:3100), 3 scrape workers, agent orchestrator, doc-parser, 3 Kafka brokers, PostgreSQL on 25432
	SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register scripts/ops/cluster.ts

cluster-down: ## stop the local cluster's Kafka brokers and PostgreSQL (never the shared test instances)
	@scripts/infra/kafka.sh down cluster
	@PG_CLUSTER=quarry-faults PGPORT=25432 scripts/infra/postgres.sh down

test-faults: build system-deps ## fault tests on the local cluster: worker kill -9, broker restart, PostgreSQL stop, gateway kill
	$(JEST) -c apps/platform-e2e/jest.faults.config.cjs --runInBand

bench: setup system-deps infra-up ## every benchmark against its baseline, one table, JSON in bench/results (BENCH=gateway,latency for a subset, BENCH_QUICK=1 for tiny sizes)
	source scripts/test-env.sh && BENCH="$(BENCH)" BENCH_QUICK="$(BENCH_QUICK)" SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/run.ts

test: check test-unit chart-check test-integration test-e2e test-clients ## everything CI runs

clean: ## remove build outputs and caches (keeps .data)
	rm -rf dist .nx tmp coverage
