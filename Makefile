# The commands people type. A fresh clone needs only `make serve` or `make test`:
# each creates the virtual environment it needs on first use.
#
#   make serve            live-reloading site on http://127.0.0.1:8000 (docs tools only)
#   make build            static site into site/ (strict)
#   make test             examples -> record -> strict build -> site, tooling and browser checks
#   make test-matrix      the same, with the examples run in every verification environment
#   make run-examples     every script run as a reader runs it (python examples/...), checked
#   make benchmark        time the stages of make test from a cold build/, against budgets
#   make budgets          Lighthouse scores, page weight and search index size, against budgets
#   make measure-matmul   re-measure matrix multiply speed into benchmarks/results/, redraw its tables
#   make generated        write the glossary pages, figures and measured-speed tables from data
#   make notebooks        write the notebooks (.ipynb) into build/notebooks/site/ (build and serve do)
#   make update-examples  rewrite expected `#>` outputs after an intended library change
#                         (ENV=previous: that environment's outputs, verification/expected/)
#   make test-gpu         on a GPU machine: run the CUDA examples with the Python found there
#   make new-page SECTION=numpy-torch SLUG=my-topic   start a page in both languages
#   make sync-translation PAGE=docs/a/b.md   record that a page and its translation agree
#   make lock             regenerate requirements/*.txt from the pins in pyproject.toml
#   make test-examples ENV=previous   stage 1 alone, in one environment (the CI matrix)
#   make check-site       stage 3 alone, on the site built before
#   make wheelhouse       the engine's wheels, for a GPU machine with no package registry
#   make test-env         set-up alone (docs-env: the docs-only part; browser: Chromium, fonts)
#   make clean            remove build outputs (keeps .venv and node_modules)

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
# Verification record written by the examples stage and read by the site build.
RECORD := build/verification.json
# Two workers: one per core on the reference machine; each imports torch and TF once.
WORKERS ?= 2
# The browser the browser tests and Lighthouse CI drive (tooling/browser.py reads it;
# `make budgets` hands it to Lighthouse CI as CHROME_PATH).
# Debian's Chromium by default, installed by `make browser`; on GitHub's Ubuntu runners
# the workflow points it at the preinstalled Google Chrome instead.
export CHROMIUM ?= /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# Quieter TensorFlow start-up; it does not change any printed example output.
export TF_CPP_MIN_LOG_LEVEL := 2
# Silences Material 9's end-of-life banner, printed on every build. Material is pinned
# to 9.x on purpose: its successor does not yet support mkdocs-static-i18n.
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve build site-build generated notebooks test test-matrix test-examples run-examples test-gpu wheelhouse check-site benchmark budgets measure-matmul browser update-examples new-page sync-translation lock clean \
	docs-env test-env

$(PY):
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.11 or run 'make $(MAKECMDGOALS) PYTHON=/path/to/python3.11'"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# The environment is built in two layers so that writers never wait for torch/TF.
# The engine (engine/, the package `verified`) and the site's MkDocs plugin (mkdocs-plugin/,
# `verified_site`) are installed from their folders, editable and without their dependencies,
# whose versions the lock files pin (pip fetches the build backend each pyproject.toml pins).
ENGINE := --no-deps -e ./engine
$(VENV)/.docs-installed: requirements/docs.txt engine/pyproject.toml mkdocs-plugin/pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements/docs.txt
	$(PY) -m pip install --disable-pip-version-check -q $(ENGINE) -e ./mkdocs-plugin
	touch $@

$(VENV)/.test-installed: requirements/test.txt $(VENV)/.docs-installed
	$(PY) -m pip install --disable-pip-version-check -q -r requirements/test.txt
	touch $@

docs-env: $(VENV)/.docs-installed
test-env: $(VENV)/.test-installed

# Chromium for the browser tests, and CJK fonts so that Chinese pages render (and their
# screenshots show text). Never a browser download: Playwright drives this one. Only
# Debian's package is installed here; another browser is named with CHROMIUM=...
# Node.js runs Material's own search code on the whole query file (tests/browser).
browser:
	@if [ -x "$(CHROMIUM)" ] && fc-list 2>/dev/null | grep -qi "Noto Sans CJK" && \
	  command -v node >/dev/null; then exit 0; fi; \
	if [ ! -x "$(CHROMIUM)" ] && [ "$(CHROMIUM)" != /usr/bin/chromium ]; then \
	  echo "CHROMIUM=$(CHROMIUM) is not an executable: point it at Chromium or Chrome"; exit 1; fi; \
	command -v apt-get >/dev/null || { echo "The browser tests need Chromium, the Noto CJK \
	fonts and Node.js: install them, and set CHROMIUM=/path/to/chromium if it is not \
	/usr/bin/chromium"; exit 1; }; \
	echo "Installing Debian's chromium, fonts-noto-cjk and nodejs (apt-get) for the browser tests"; \
	$(SUDO) apt-get update -qq && \
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	  $(if $(wildcard $(CHROMIUM)),,chromium) fonts-noto-cjk \
	  $(if $(shell command -v node),,nodejs) >/dev/null

# Lighthouse CI, pinned in package.json / package-lock.json, for `make budgets` only.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts

# Files generated from data before the build and committed (tooling/generate.py): the
# glossary pages from data/glossary.yml, the figures (docs/**/*.svg, one per language) and
# the measured-speed tables (docs/includes/) from benchmarks/results/. It rewrites only the
# files that differ (a fraction of a second), so the writers' targets run it first; `make
# test` checks them as committed (tests/content/test_generated.py names a stale one).
generated: docs-env
	$(PY) -m tooling.generate

# Each language's .ipynb for download, from docs/notebooks/*.md and the suite's run of it
# (build/notebooks/executed/, if any), into build/notebooks/site/, which the build reads
# (verified_site.notebooks). Under `make serve`, run it again after changing a notebook
# source or a script it embeds (it writes links to the deployed site unless SITE_URL is set).
notebooks: docs-env
	$(PY) -m verified_site.notebooks

# SITE_URL: served at the root of the address, not under the deployed site's path (the
# notebooks' links to pages are written with it too).
serve: export SITE_URL := http://127.0.0.1:8000/
serve: docs-env generated notebooks
	$(PY) -m mkdocs serve --livereload --dev-addr 127.0.0.1:8000

build: docs-env generated
	@$(MAKE) --no-print-directory site-build

# Stage 2 of `make test`: the notebooks, then the strict build, from the sources as they are
# (`make build` regenerates the generated files first; the suite checks them as committed).
site-build: docs-env
	$(PY) -m verified_site.notebooks
	$(PY) -m mkdocs build --strict

# Verification environments (pyproject.toml, [tool.verification]): `default` is .venv;
# another, NAME, is .venv-NAME, installed from requirements/NAME.txt.
ENVIRONMENTS := $(shell PYTHONPATH=engine/src $(PYTHON) -m verified.environments names 2>/dev/null || echo default)
OTHER_ENVIRONMENTS := $(filter-out default,$(ENVIRONMENTS))
ENV ?= default
env_python = $(if $(filter default,$(1)),$(PY),.venv-$(1)/bin/python)
# In a target's prerequisites: stops make when ENV is not a verification environment,
# before anything is installed.
check_env = $(if $(filter $(ENV),$(ENVIRONMENTS)),,$(error ENV=$(ENV) is not a verification \
  environment; there are: $(ENVIRONMENTS) (pyproject.toml, [tool.verification])))

.venv-%/.installed: requirements/%.txt engine/pyproject.toml mkdocs-plugin/pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found: install Python 3.11"; exit 1; }
	$(PYTHON) -m venv .venv-$*
	.venv-$*/bin/python -m pip install --disable-pip-version-check -q -r $<
	.venv-$*/bin/python -m pip install --disable-pip-version-check -q $(ENGINE) -e ./mkdocs-plugin
	touch $@

# Every stage runs even when an earlier one fails, so that a failed example is
# stamped "failed" on its page; the target fails if any stage failed.
# The build runs without --quiet: that flag keeps warnings (dead links, anchors)
# from counting under --strict.
# $(1): the environments whose examples run; each adds its part to the record.
# EXTRA_RECORDS: records of other environments' runs made elsewhere (the CI matrix's jobs),
# added to the record before the build.
define suite
@rm -rf $(RECORD) build/notebooks site; status=0; \
	for env in $(1); do \
	  $(MAKE) --no-print-directory test-examples ENV=$$env || status=1; \
	done; \
	for extra in $(EXTRA_RECORDS); do \
	  echo "   adding the runs of $$extra to the record"; \
	  $(PY) -m verified.environments merge $(RECORD) $$extra || status=1; \
	done; \
	echo "== 2/3 notebooks and site build (strict, stamped from $(RECORD))"; \
	built=1; $(MAKE) --no-print-directory site-build || { status=1; built=0; }; \
	$(MAKE) --no-print-directory check-site BUILT=$$built || status=1; \
	exit $$status
endef

test: test-env browser
	$(call suite,default)

# The whole example suite in every environment, then the same build and checks. The
# record then covers every environment, and the stamps list every set of versions.
test-matrix: test-env browser $(OTHER_ENVIRONMENTS:%=.venv-%/.installed)
	@test -n "$(OTHER_ENVIRONMENTS)" || { echo "no other verification environment: \
	'PYTHONPATH=engine/src $(PYTHON) -m verified.environments names' failed or lists only the default"; exit 1; }
	$(call suite,$(ENVIRONMENTS))

# Stage 3 alone, on the site built before; BUILT=0 (the build failed) skips the checks of
# the built site.
BUILT ?= 1
check-site: test-env browser
	@echo "== 3/3 site, tooling and browser checks"
	$(if $(filter 0,$(BUILT)),@echo "(the build failed: skipping the checks of the built site)")
	$(PY) -m pytest tests/content tests/tooling tests/browser engine/tests -n $(WORKERS) \
	  $(if $(filter 0,$(BUILT)),--ignore=tests/content/test_build.py --ignore=tests/browser)

# Stage 1 alone, in one environment (ENV=NAME), adding its run to RECORD. The CI workflow
# runs each other environment so, in a job of its own, then `make test EXTRA_RECORDS=...`;
# `make test` and `make test-matrix` run stage 1 through it, once per environment.
test-examples: $(check_env) $(if $(filter default,$(ENV)),test-env,.venv-$(ENV)/.installed)
	@echo "== 1/3 examples and notebooks in environment $(ENV), into the record $(RECORD)"
	@start=$$(date +%s); status=0; \
	$(call env_python,$(ENV)) -m pytest tests/examples -n $(WORKERS) --record $(RECORD) \
	  --environment $(ENV) || status=1; \
	echo "   environment $(ENV): examples stage took $$(( $$(date +%s) - start )) s"; \
	exit $$status

# Every script run the way its docstring tells a reader: `python examples/<section>/<topic>.py`
# from the repository root, a fresh process each, its output compared with its `#>` lines.
# Stage 1 runs the same scripts in-process and cannot see what only a real run shows (a
# file name that shadows a module, say). A CI job of its own: it does not lengthen `make test`.
run-examples: test-env
	$(PY) -m pytest tests/reader -n $(WORKERS)

# Figures, not tests. Lighthouse CI (lighthouserc.json) serves site/ at / and asserts each
# measured page's performance and accessibility scores and first-visit transfer (median of
# RUNS runs; reports in build/lhci/); tooling/budgets.py checks the search indexes' size.
# Both always run; the target fails if either finds a figure over budget. Lighthouse CI's
# working folder, .lighthouseci/ (its place is fixed), goes once the reports are copied.
RUNS ?= 3
budgets: build browser node_modules/.package-lock.json
	@rm -rf build/lhci; status=0; \
	CHROME_PATH=$(CHROMIUM) npx --no lhci autorun --collect.numberOfRuns=$(RUNS) || status=1; \
	rm -rf .lighthouseci; \
	$(PY) -m tooling.budgets || status=1; \
	exit $$status

# Not a test: times the three stages of `make test` from a cold build/ (it removes build/
# and site/) through the targets above, and prints them and the machinery's line count,
# each next to its budget (tooling/suite_timing.py). It fails if a stage fails.
benchmark: test-env browser
	$(PY) -m tooling.suite_timing

# The numbers of the "measured speed" page: a data file per machine, committed with the
# tables and plot `make generated` then draws from it. Not part of `make test` (the suite
# only checks that the script runs on tiny matrices).
MATMUL_OUT ?= benchmarks/results/matmul-cpu-2-cores.json
measure-matmul: test-env
	$(PY) benchmarks/matmul.py --out $(MATMUL_OUT)
	$(PY) -m tooling.generate

# Serial on purpose: pytest-examples rewrites files per worker, and two workers
# must never edit the same page. Writes no record: rewriting is not verifying,
# so run `make test` afterwards.
# ENV=NAME: run in that environment; its outputs, where they differ from the `#>` lines,
# go to verification/expected/NAME.json, and the scripts are left alone.
update-examples: $(check_env) test-env $(if $(filter default,$(ENV)),,.venv-$(ENV)/.installed)
	$(call env_python,$(ENV)) -m pytest tests/examples -p no:xdist --update-examples \
	  --environment $(ENV)

# On a GPU machine, which usually cannot build .venv: the engine's own pytest run of the
# CUDA examples (-m cuda) with the Python found there, which needs only torch, pytest and the
# engine (README: install them from a wheelhouse made here with `make wheelhouse`). It
# writes the GPU run, a record: copy it to verification/gpu-run.json here, then
# `make update-examples`.
GPU_PYTHON ?= python3
GPU_RUN_OUT ?= build/gpu-run.json
test-gpu:
	$(GPU_PYTHON) -m pytest tests/examples/test_examples.py -m cuda -p no:xdist \
	  --environment gpu --record $(GPU_RUN_OUT)

# The engine's wheel and its dependencies' wheels, for a machine with no package registry
# (the GPU machine): pip there installs them with --no-index --find-links. WHEEL_PYTHON is
# that machine's Python version, WHEEL_PLATFORMS the platform tags its pip accepts.
WHEELHOUSE ?= build/wheelhouse
WHEEL_PYTHON ?= 3.12
WHEEL_PLATFORMS ?= manylinux_2_28_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64
wheelhouse: docs-env
	rm -rf $(WHEELHOUSE)
	$(PY) -m pip wheel --disable-pip-version-check --no-deps -q -w $(WHEELHOUSE) ./engine
	$(PY) -m pip download --disable-pip-version-check -q -d $(WHEELHOUSE) --only-binary=:all: \
	  --python-version $(WHEEL_PYTHON) $(WHEEL_PLATFORMS:%=--platform %) --find-links $(WHEELHOUSE) \
	  -c requirements/test.txt tensors-verified-engine
	@echo "$(WHEELHOUSE): copy it to the GPU machine, then there: python -m pip install \
	--no-index --find-links wheelhouse tensors-verified-engine"

# Starts a page in both languages with a runnable example and a nav entry.
new-page: test-env
	@test -n "$(SECTION)" -a -n "$(SLUG)" || { echo "usage: make new-page SECTION=numpy-torch SLUG=my-topic [TITLE_ZH=... TITLE_EN=...]"; exit 2; }
	$(PY) -m tooling.scaffold "$(SECTION)" "$(SLUG)" \
	  $(if $(TITLE_ZH),--title-zh "$(TITLE_ZH)") $(if $(TITLE_EN),--title-en "$(TITLE_EN)") \
	  $(if $(SECTION_TITLE_ZH),--section-title-zh "$(SECTION_TITLE_ZH)") \
	  $(if $(SECTION_TITLE_EN),--section-title-en "$(SECTION_TITLE_EN)")

# After updating a translation: records, in both pages' front matter, that they agree.
sync-translation: docs-env
	@test -n "$(PAGE)" || { echo "usage: make sync-translation PAGE=docs/<section>/<page>.md"; exit 2; }
	$(PY) -m tooling.translations sync $(PAGE)

# A local label such as torch's `+cpu` names one index's build: the other environments'
# locks keep the public version, which installs from any index (here the CPU wheel on
# disk, elsewhere PyPI's build).
lock: test-env
	$(BIN)/pip-compile --quiet --extra docs --strip-extras --no-emit-find-links \
	  --no-emit-index-url -o requirements/docs.txt pyproject.toml
	$(BIN)/pip-compile --quiet --extra docs --extra examples --extra test --strip-extras \
	  --no-emit-find-links --no-emit-index-url -o requirements/test.txt pyproject.toml
	for env in $(OTHER_ENVIRONMENTS); do \
	  $(BIN)/pip-compile --quiet --extra docs --extra examples --extra $$env --strip-extras \
	    --no-emit-find-links --no-emit-index-url -o requirements/$$env.txt pyproject.toml \
	  || exit 1; \
	  sed -i -E 's/^(torch==[^+ ]+)\+cpu$$/\1/' requirements/$$env.txt; done

clean:
	rm -rf site build .lighthouseci
