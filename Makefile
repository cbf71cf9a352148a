# README.md's table says what each target does; each creates the environment it needs.

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
RECORD := build/verification.json
# One worker per core on the reference machine.
WORKERS ?= 2
export CHROMIUM ?= /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# Quieter TensorFlow start-up; it does not change any printed example output.
export TF_CPP_MIN_LOG_LEVEL := 2
# Silences Material 9's end-of-life banner: 9.x is pinned on purpose (its successor runs
# none of the site's plugins).
export NO_MKDOCS_2_WARNING := 1
# mkdocs.yml: the Chinese site, at SITE_URL; mkdocs.en.yml: the English one, at en/ below it.
ifdef SITE_URL
export SITE_URL_EN ?= $(patsubst %/,%,$(SITE_URL))/en/
endif
MKDOCS_EN := -f mkdocs.en.yml

.PHONY: serve serve-en build site-build check-sources offline offline-build generated notebooks reference test test-matrix test-examples run-examples test-gpu wheelhouse check-site lint benchmark budgets measure-matmul browser update-examples new-page readers sync-translation lock clean docs-env test-env canary links

$(PY):
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.11 or run 'make $(MAKECMDGOALS) PYTHON=/path/to/python3.11'"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Two layers, so that writers never wait for torch/TF; the locks pin the dependencies.
PIP := -m pip install --disable-pip-version-check -q
PROJECT := $(PIP) --no-deps -e ./engine -e ./mkdocs-plugin
$(VENV)/.docs-installed: requirements/docs.txt engine/pyproject.toml mkdocs-plugin/pyproject.toml | $(PY)
	$(PY) $(PIP) -r requirements/docs.txt
	$(PY) $(PROJECT)
	touch $@

$(VENV)/.test-installed: requirements/test.txt $(VENV)/.docs-installed
	$(PY) $(PIP) -r requirements/test.txt
	touch $@

docs-env: $(VENV)/.docs-installed
test-env: $(VENV)/.test-installed

# Never a browser download: Playwright drives this one.
browser:
	@if [ -x "$(CHROMIUM)" ] && fc-list 2>/dev/null | grep -qi "Noto Sans CJK" && \
	  command -v node >/dev/null && command -v npm >/dev/null; then exit 0; fi; \
	if [ ! -x "$(CHROMIUM)" ] && [ "$(CHROMIUM)" != /usr/bin/chromium ]; then \
	  echo "CHROMIUM=$(CHROMIUM) is not an executable: point it at Chromium or Chrome"; exit 1; fi; \
	command -v apt-get >/dev/null || { echo "The browser tests need Chromium, the Noto CJK \
	fonts and Node.js with npm: install them, and set CHROMIUM=/path/to/chromium if it is not \
	/usr/bin/chromium"; exit 1; }; \
	echo "Installing Debian's chromium, fonts-noto-cjk, nodejs and npm (apt-get) for the browser tests"; \
	$(SUDO) apt-get update -qq && \
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	  $(if $(wildcard $(CHROMIUM)),,chromium) fonts-noto-cjk \
	  $(if $(shell command -v node),,nodejs) $(if $(shell command -v npm),,npm) >/dev/null

node_modules/.bin/lhci: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@ $(IFRAME_WORKER)

# npm gives its files a fixed old date: `touch` records when it was installed.
IFRAME_WORKER := node_modules/iframe-worker/shim/index.js
$(IFRAME_WORKER): package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm not found: the offline edition needs \
	iframe-worker from npm; run 'make browser' or install Node.js 20 with npm"; exit 1; }
	npm ci --omit=dev --no-audit --no-fund --ignore-scripts
	touch $@

generated: docs-env
	$(PY) -m tooling.generate

notebooks: docs-env
	$(PY) -m verified_site.notebooks

reference: docs-env
	$(PY) -m tooling.reference_pages

# Served at the root, not under the deployed site's path (notebooks' links too).
serve serve-en: export SITE_URL := http://127.0.0.1:8000/
serve serve-en: export SITE_URL_EN := http://127.0.0.1:8001/en/
serve: docs-env generated notebooks reference
	$(PY) -m mkdocs serve --livereload --dev-addr 127.0.0.1:8000
serve-en: docs-env generated notebooks reference
	$(PY) -m mkdocs serve $(MKDOCS_EN) --livereload --dev-addr 127.0.0.1:8001

build: docs-env generated
	@$(MAKE) --no-print-directory site-build

# Chinese first: its build empties site/. No --quiet: warnings must count under --strict.
SITE_HTML = $(PY) -m mkdocs build --strict && $(PY) -m mkdocs build --strict $(MKDOCS_EN)
site-build: notebooks reference
	$(SITE_HTML)

# OFFLINE=true enables Material's offline plugin (mkdocs.base.yml).
OFFLINE_NAME := tensors-verified-offline
OFFLINE_DIR := build/offline
offline: docs-env generated notebooks reference
	@$(MAKE) --no-print-directory offline-build

offline-build: $(IFRAME_WORKER)
	@rm -rf $(OFFLINE_DIR)
	OFFLINE=true $(PY) -m mkdocs build --strict --site-dir $(OFFLINE_DIR)/$(OFFLINE_NAME)
	OFFLINE=true $(PY) -m mkdocs build --strict $(MKDOCS_EN) --site-dir $(OFFLINE_DIR)/$(OFFLINE_NAME)/en
	$(PY) -c 'import shutil, sys; shutil.make_archive(*sys.argv[1:])' \
	  $(OFFLINE_DIR)/$(OFFLINE_NAME) zip $(OFFLINE_DIR) $(OFFLINE_NAME)
	@echo "$(OFFLINE_DIR)/$(OFFLINE_NAME).zip: unzip it and open $(OFFLINE_NAME)/index.html"

# Verification environments (pyproject.toml, [tool.verification]): `default` is .venv;
# another, NAME, is .venv-NAME, from requirements/NAME.txt.
ENVIRONMENTS := $(shell PYTHONPATH=engine/src $(PYTHON) -m verified.environments names 2>/dev/null || echo default)
OTHER_ENVIRONMENTS := $(filter-out default,$(ENVIRONMENTS))
ENV ?= default
env_python = $(if $(filter default,$(1)),$(PY),.venv-$(1)/bin/python)
# In a target's prerequisites: stops make before anything is installed.
check_env = $(if $(filter $(ENV),$(ENVIRONMENTS)),,$(error ENV=$(ENV) is not a verification \
  environment; there are: $(ENVIRONMENTS) (pyproject.toml, [tool.verification])))

.venv-%/.installed: requirements/%.txt engine/pyproject.toml mkdocs-plugin/pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.11"; exit 1; }
	$(PYTHON) -m venv .venv-$*
	.venv-$*/bin/python $(PIP) -r $<
	.venv-$*/bin/python $(PROJECT)
	touch $@

# Every stage runs even when one fails, so that a failed example is stamped "failed" on its
# page. Stage 2 builds the offline edition beside the site (each build keeps one core busy)
# and prints its log after the site's. $(1): the environments whose examples run;
# EXTRA_RECORDS: runs made elsewhere (CI).
define suite
@rm -rf $(RECORD) build/notebooks build/offline site; status=0; start=$$(date +%s); \
	$(MAKE) --no-print-directory lint || status=1; \
	sources=1; $(MAKE) --no-print-directory check-sources || { status=1; sources=0; }; \
	for env in $(1); do \
	  $(MAKE) --no-print-directory test-examples ENV=$$env || status=1; \
	done; \
	for extra in $(EXTRA_RECORDS); do \
	  echo "   adding the runs of $$extra to the record"; \
	  $(PY) -m verified.environments merge $(RECORD) $$extra || status=1; \
	done; \
	echo "== 2/3 notebooks, site build and offline edition (strict, stamped from $(RECORD))"; \
	built=1; $(MAKE) --no-print-directory notebooks reference || { status=1; built=0; }; \
	if [ $$built = 1 ]; then mkdir -p build; \
	  $(MAKE) --no-print-directory offline-build > build/offline-build.log 2>&1 & offline=$$!; \
	  $(SITE_HTML) || { status=1; built=0; }; \
	  wait $$offline || status=1; cat build/offline-build.log; \
	fi; \
	checks=$$(date +%s); \
	$(MAKE) --no-print-directory check-site BUILT=$$built SOURCES=$$sources || status=1; \
	end=$$(date +%s); \
	echo "   stage 3: $(call against,$$((end - checks)),120,s)"; \
	echo "   whole run: $(call against,$$((end - start)),240,s)"; \
	exit $$status
endef

# $(call against,FIGURE,BUDGET,UNIT): "FIGURE UNIT (budget BUDGET UNIT)", ", OVER" if above.
against = $(1) $(3) (budget $(2) $(3)$$([ $(1) -le $(2) ] || echo ", OVER"))

# $(call guarded,COMMAND): sets `status` to 1, naming the files, where COMMAND changed git's
# list of changed and untracked files (the list, not contents: a clean checkout shows all).
TREE_STATUS := git status --porcelain --untracked-files=all 2>/dev/null
define guarded
before=$$($(TREE_STATUS)); $(1); \
	changed=$$({ printf '%s\n' "$$before"; $(TREE_STATUS); } | grep . | sort | uniq -u); \
	if [ -n "$$changed" ]; then status=1; echo "tests changed files in the checkout (they may \
	write only into build/, site/ or a temporary directory):"; printf '%s\n' "$$changed"; fi
endef

test: test-env browser
	$(call suite,default)

test-matrix: test-env browser $(OTHER_ENVIRONMENTS:%=.venv-%/.installed)
	@test -n "$(OTHER_ENVIRONMENTS)" || { echo "no other verification environment: \
	'PYTHONPATH=engine/src $(PYTHON) -m verified.environments names' failed or lists only the default"; exit 1; }
	$(call suite,$(ENVIRONMENTS))

lint: test-env
	@echo "== lint: the pre-commit hooks on every tracked file"
	$(BIN)/pre-commit run --all-files --show-diff-on-failure

check-sources: test-env
	@echo "== the sources: pages, translations, navs, snippets (tests/content/test_sources.py)"
	$(PY) -m pytest tests/content/test_sources.py -p no:xdist -q

# BUILT=0 (the build failed) or SOURCES=0 (the source checks failed) skips the checks of the
# built site; SOURCES set: the source checks ran already. worksteal: the slowest end unevenly.
BUILT ?= 1
SOURCES ?=
unchecked_site = $(filter 0,$(BUILT) $(SOURCES))
check-site: test-env browser
	@echo "== 3/3 site, tooling and browser checks"
	$(if $(unchecked_site),@echo "(the build or the source checks failed: skipping the checks of the built site)")
	@status=0; $(call guarded,$(PY) -m pytest tests/content tests/tooling engine/tests \
	  $(if $(unchecked_site),--ignore=tests/content/test_build.py,tests/browser) \
	  $(if $(SOURCES),--ignore=tests/content/test_sources.py) -m "not readers" \
	  -n $(WORKERS) --dist worksteal || status=1); exit $$status

# Search ranked on both sites built before: the readers' corpus (a minute a language), the query
# file, the atlas's printed lines and the reference's API names; the shares and their floors.
# READER_QUESTIONS=<file>: a held-out set instead of the corpus, printed, and nothing else.
readers: test-env browser
	@echo "== search: the readers' questions, the query file and the API names, on both sites"
	$(PY) -m pytest tests/browser/test_reader_questions.py \
	  $(if $(READER_QUESTIONS),,tests/browser/test_search.py) -m readers -n $(WORKERS) --dist worksteal

test-examples: $(check_env) $(if $(filter default,$(ENV)),test-env,.venv-$(ENV)/.installed)
	@echo "== 1/3 examples and notebooks in environment $(ENV), into the record $(RECORD)"
	@start=$$(date +%s); status=0; \
	$(call guarded,$(call env_python,$(ENV)) -m pytest tests/examples -n $(WORKERS) \
	  --record $(RECORD) --environment $(ENV) || status=1); \
	echo "   environment $(ENV): examples stage took $$(( $$(date +%s) - start )) s"; \
	exit $$status

run-examples: test-env
	$(PY) -m pytest tests/reader -n $(WORKERS)

# Failed tests are news, not an error: it fails only when pip or pytest cannot run.
# PIP_CONSTRAINT=/dev/null: no machine's constraint file caps the libraries.
CANARY := build/canary
CANARY_LIBRARIES := torch torchvision tensorflow-cpu numpy
CANARY_VERSIONS := grep -iE '^(torch|torchvision|tensorflow[-_]cpu|numpy)=='
EXAMPLES_PINS = $(shell $(PYTHON) -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["examples"]))')
canary:
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.11"; exit 1; }
	rm -rf $(CANARY) && mkdir -p $(CANARY) && git clone --quiet . $(CANARY)/tree
	$(PYTHON) -m venv $(CANARY)/venv
	grep -v $(CANARY_LIBRARIES:%=-e '^%==') requirements/docs.txt > $(CANARY)/tools.txt
	cd $(CANARY)/tree && PIP_CONSTRAINT=/dev/null ../venv/bin/python $(PIP) \
	  -r ../tools.txt $(EXAMPLES_PINS) $(CANARY_LIBRARIES) && ../venv/bin/python $(PROJECT)
	$(CANARY)/venv/bin/python -m pip freeze > $(CANARY)/pip-freeze.txt
	cd $(CANARY)/tree && ../venv/bin/python -m pytest tests/examples -p no:xdist \
	  --update-examples --environment canary > ../pytest.log 2>&1 || [ $$? = 1 ] || \
	  { tail -n 30 ../pytest.log; echo "pytest could not run the examples (above)"; exit 1; }
	@cd $(CANARY) && git -C tree diff > outputs.diff && { \
	  echo "pinned:"; $(CANARY_VERSIONS) tree/requirements/test.txt; \
	  echo "newest that install together:"; $(CANARY_VERSIONS) pip-freeze.txt; \
	  echo "outputs changed (outputs.diff):"; git -C tree diff --stat; \
	  echo "failed (pytest.log):"; grep -E '^(FAILED|ERROR) ' pytest.log || echo "  none"; \
	} | tee report.txt

# The site's own address is left out: the strict build checks links inside the site.
links: build
	@mkdir -p build; own=$$($(PY) -c 'from mkdocs.config import load_config; \
	  print(load_config().site_url)' 2>/dev/null); status=0; \
	$(BIN)/lychee --no-progress --format markdown --output build/links.md \
	  $${own:+--exclude "^$$own"} 'site/**/*.html' || status=$$?; \
	if [ $$status = 2 ]; then echo "broken links: build/links.md (CONTRIBUTING, 'Scheduled checks')"; fi; \
	exit $$status

# Both run; it fails if either finds a figure over budget.
RUNS ?= 3
SEARCH_INDEXES := site/search/search_index.json site/en/search/search_index.json
budgets: build browser node_modules/.bin/lhci
	@rm -rf build/lhci; status=0; \
	CHROME_PATH=$(CHROMIUM) npx --no lhci autorun --collect.numberOfRuns=$(RUNS) || status=1; \
	rm -rf .lighthouseci; \
	for index in $(SEARCH_INDEXES); do \
	  [ -f $$index ] || { echo "$$index is missing: the build failed"; status=1; continue; }; \
	  kb=$$(( ($$(gzip -c < $$index | wc -c) + 1023) / 1024 )); \
	  echo "$$index, gzip: $(call against,$$kb,300,KB)"; [ $$kb -le 300 ] || status=1; \
	done; \
	exit $$status

MACHINERY_LINES ?= ../shared/tools/machinery_lines.py
benchmark: test-env browser
	@rm -rf build site; status=0; \
	$(MAKE) --no-print-directory test || status=1; \
	if [ -f $(MACHINERY_LINES) ]; then set -- $$($(PY) $(MACHINERY_LINES) .); \
	  echo "machinery: $(call against,$$2,10000,lines) ($$*)"; \
	else echo "no line count: $(MACHINERY_LINES) is missing (MACHINERY_LINES=path)"; fi; \
	exit $$status

MATMUL_OUT ?= benchmarks/results/matmul-cpu-2-cores.json
measure-matmul: test-env
	$(PY) benchmarks/matmul.py --out $(MATMUL_OUT)
	$(PY) -m tooling.generate

# Serial on purpose: two workers must never edit the same page. Writes no record.
update-examples: $(check_env) test-env $(if $(filter default,$(ENV)),,.venv-$(ENV)/.installed)
	$(call env_python,$(ENV)) -m pytest tests/examples -p no:xdist --update-examples \
	  --environment $(ENV) $(if $(EXAMPLE),--example '$(EXAMPLE)')

# A GPU machine's Python needs torch, pytest, the engine and what the reference's data reads
# (README, `make wheelhouse`): the CUDA examples, then the reference's rows marked `cuda:`.
GPU_PYTHON ?= python3
GPU_RUN_OUT ?= build/gpu-run.json
test-gpu:
	PYTHONPATH=mkdocs-plugin/src $(GPU_PYTHON) -m pytest tests/examples/test_examples.py \
	  tests/examples/test_reference.py -m cuda -p no:xdist --environment gpu --record $(GPU_RUN_OUT)

# WHEEL_PYTHON: the GPU machine's Python version; WHEEL_PLATFORMS: the tags its pip accepts.
WHEELHOUSE ?= build/wheelhouse
WHEEL_PYTHON ?= 3.12
WHEEL_PLATFORMS ?= manylinux_2_28_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64
wheelhouse: docs-env
	rm -rf $(WHEELHOUSE)
	$(PY) -m pip wheel --disable-pip-version-check --no-deps -q -w $(WHEELHOUSE) ./engine
	$(PY) -m pip download --disable-pip-version-check -q -d $(WHEELHOUSE) --only-binary=:all: \
	  --python-version $(WHEEL_PYTHON) $(WHEEL_PLATFORMS:%=--platform %) --find-links $(WHEELHOUSE) \
	  -c requirements/test.txt tensors-verified-engine numpy pyyaml jsonschema jinja2
	@echo "$(WHEELHOUSE): copy it to the GPU machine, then there: python -m pip install \
	--no-index --find-links wheelhouse tensors-verified-engine numpy pyyaml jsonschema jinja2"

new-page: test-env
	@test -n "$(SECTION)" -a -n "$(SLUG)" || { echo "usage: make new-page SECTION=numpy-torch SLUG=my-topic [TITLE_ZH=... TITLE_EN=...]"; exit 2; }
	$(PY) -m tooling.scaffold "$(SECTION)" "$(SLUG)" \
	  $(if $(TITLE_ZH),--title-zh "$(TITLE_ZH)") $(if $(TITLE_EN),--title-en "$(TITLE_EN)")

sync-translation: docs-env
	@test -n "$(PAGE)" || { echo "usage: make sync-translation PAGE=docs/zh/<section>/<page>.md"; exit 2; }
	$(PY) -m tooling.translations sync $(PAGE)

# The other environments' locks keep torch's public version, not the local `+cpu` build,
# which installs from one index only. UPGRADE="pkg ...": take those packages' newest releases.
COMPILE := $(BIN)/pip-compile --quiet --strip-extras --no-emit-find-links --no-emit-index-url \
  $(UPGRADE:%=--upgrade-package %)
lock: test-env
	$(COMPILE) --extra docs -o requirements/docs.txt pyproject.toml
	$(COMPILE) --extra docs --extra examples --extra test -o requirements/test.txt pyproject.toml
	for env in $(OTHER_ENVIRONMENTS); do \
	  $(COMPILE) --extra docs --extra examples --extra $$env -o requirements/$$env.txt \
	    pyproject.toml || exit 1; \
	  sed -i -E 's/^(torch==[^+ ]+)\+cpu$$/\1/' requirements/$$env.txt; done

clean:
	rm -rf site build .lighthouseci
