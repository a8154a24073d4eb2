# The two commands a newcomer needs:  make book  and  make test.
# Everything runs inside .venv, created from requirements.txt on first use and
# reinstalled only when requirements.txt or pyproject.toml change.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
NODE_STAMP := node_modules/.installed  # make node: Node and the npm packages
BUILD  := _build
NOTEBOOKS = $(shell $(BIN)/python tests/toc.py 2>/dev/null)
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# The site test drives Debian's Chromium (Playwright's own browser download
# does not work offline); `make site` installs it when it is missing.
export CHROMIUM ?= /usr/bin/chromium
# `make book REPOSITORY=owner/name`: the site's repository, Binder, Colab and
# Live code links point at that repository (scripts/site/repository_from_env.py).
export REPOSITORY
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Instructors: the nbgrader course folder (its gradebook holds a class's grades).
# make clean and make test keep $(BUILD)/nbgrader; make clean-all deletes it too.
# For a real class, keep it outside $(BUILD) anyway: make grade COURSE=~/perceptron-grading
COURSE ?= $(BUILD)/nbgrader
# Empties $(BUILD) except the default course folder.
CLEAN_BUILD = test ! -d $(BUILD) || find $(BUILD) -mindepth 1 -maxdepth 1 ! -name nbgrader \
	-exec rm -rf {} +
PDF    := $(BUILD)/pdf/perceptron-course.pdf

.PHONY: help book serve test lint unit unit-library unit-grading notebooks notebooks-portable build-check site binder chromium node lab execute student bench clean clean-all lock
.PHONY: assignments grade export pdf pdf-check texlive bubblewrap
.PHONY: colab-check site-pages lab-check lab-and-colab

help:
	@echo "make book   build the HTML book into $(BUILD)/html (formulas rendered by MathJax in Node)"
	@echo "make serve  serve the built book at http://localhost:8000/ (PORT=...)"
	@echo "make test   lint, library tests, notebook checks (also under other CPUs' arithmetic),"
	@echo "            strict book build, site test, PDF check"
	@echo "make site   test the built site in headless Chromium (screenshots in $(BUILD)/screenshots)"
	@echo "make binder replay Binder's build (binder/) in a fresh environment and run every chapter"
	@echo "make colab-check  run the Colab edition (colab/) in a fresh Colab-like environment,"
	@echo "            and check that its Markdown renders as Colab renders it"
	@echo "make lab    JupyterLab on the book's notebooks"
	@echo "make execute  restart and run all, in place, every notebook (or NB=book/...ipynb)"
	@echo "make student  students' copies of the chapters, solutions removed, in $(BUILD)/student"
	@echo "make assignments  nbgrader assignments ch01, ch02, ... from the chapters, in $(COURSE)"
	@echo "            (CHAPTERS=3, or CHAPTERS=\"3 5\": only those chapters)"
	@echo "make grade SUBMITTED=DIR  autograde DIR/<student>/chNN/*.ipynb:"
	@echo "            $(COURSE)/grades-by-question.csv, feedback pages, a summary"
	@echo "make export  the grades for an LMS: $(COURSE)/export/ (by student; Canvas; Moodle)"
	@echo "make pdf    the whole book as one PDF, $(PDF)"
	@echo "make bench  time perceptron_lib against scikit-learn, and grading a class"
	@echo "make lock   regenerate requirements.txt (every package pinned) from requirements.in"
	@echo "make clean  remove build outputs (keeps .venv and the course folder $(BUILD)/nbgrader)"
	@echo "make clean-all  remove build outputs and $(BUILD)/nbgrader, grades included (keeps .venv)"

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

book: $(STAMP) $(NODE_STAMP)
	$(BIN)/jupyter-book build . --path-output . --warningiserror --nitpick --keep-going
	@echo
	@echo "The book is built in $(abspath $(BUILD))/html. To read it: make serve, then open"
	@echo "http://localhost:$(PORT)/ (opened from disk, its animations do not load)."

# The built site on a local web server (a page opened from disk cannot fetch
# its animations: browsers block fetch() on file://).
PORT ?= 8000
serve:
	@test -f $(BUILD)/html/index.html || $(MAKE) book
	@echo "The book at http://localhost:$(PORT)/ (Ctrl-C stops the server)"
	$(BIN)/python -m http.server $(PORT) --bind 127.0.0.1 --directory $(BUILD)/html

# The stages in order; those that keep one core busy each run in pairs (CI has two
# cores): nbval beside the strict build, the site's pages beside JupyterLab's test
# then the Colab edition's run, Binder's replay beside the PDF. With --output-sync
# each stage's output is printed whole when it ends.
test:
	$(MAKE) lint unit
	$(MAKE) -j2 --output-sync=target notebooks build-check
	$(MAKE) notebooks-portable
	$(MAKE) -j2 --output-sync=target site-pages lab-and-colab
	$(MAKE) -j2 --output-sync=target binder pdf-check

# book/ruff.toml holds the notebooks' code to 88 columns (read on phones).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Two pytest runs side by side (each keeps one core busy): the grading tests,
# which grade whole classes in sandboxes one after another, and everything else
# (with the doctests of scripts/, the tools around the book). The export and
# download-layout tests grade small classes too, but run with the library's tests:
# the two halves then take about as long as each other.
GRADING_TESTS = tests/test_nbgrader.py $(filter-out $(GRADING_BESIDE_LIBRARY),\
	$(wildcard tests/test_grading_*.py))
GRADING_BESIDE_LIBRARY = tests/test_grading_export.py tests/test_grading_layouts.py
unit: $(STAMP) bubblewrap
	$(MAKE) -j2 --output-sync=target unit-library unit-grading

unit-library: $(STAMP) bubblewrap $(NODE_STAMP)
	$(BIN)/python -m pytest -q tests perceptron_lib scripts --ignore=tests/test_site.py \
		--ignore=tests/test_jupyterlab.py --ignore=tests/test_pdf.py --ignore=tests/test_binder.py \
		--ignore=tests/test_chapter_figures.py $(addprefix --ignore=,$(GRADING_TESTS)) \
		--ignore=tests/test_colab.py --ignore=tests/test_colab_markdown.py

# (Node: make grade typesets the feedback pages' maths with it, and the tests check them.)
unit-grading: $(STAMP) bubblewrap $(NODE_STAMP)
	$(BIN)/python -m pytest -q $(GRADING_TESTS)

notebooks: $(STAMP)
	@test -n "$(NOTEBOOKS)" || { echo "no notebooks in _toc.yml"; exit 1; }
	# nbval's kernels also measure every figure the chapters draw, as a phone shows
	# it (tests/measure_figures.py as an IPython start-up file, in a throw-away
	# IPYTHONDIR); tests/test_chapter_figures.py then reads their log, so each
	# chapter runs once for both checks. The folder is outside $(BUILD), which
	# build-check empties while this runs beside it in make test.
	measure=$$(mktemp -d) && trap 'rm -rf "$$measure"' EXIT && \
	mkdir -p "$$measure/ipython/profile_default/startup" && \
	cp tests/measure_figures.py "$$measure/ipython/profile_default/startup/" && \
	touch "$$measure/sizes.jsonl" && \
	IPYTHONDIR="$$measure/ipython" FIGURE_SIZES_LOG="$$measure/sizes.jsonl" \
		$(BIN)/python -m pytest -q -o addopts="" -p no:cacheprovider --nbval \
		--nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg $(NOTEBOOKS) && \
	FIGURE_SIZES_LOG="$$measure/sizes.jsonl" $(BIN)/python -m pytest -q tests/test_chapter_figures.py

# The notebooks again under two other processors' arithmetic, side by side:
# OpenBLAS forced to its oldest kernel family (Prescott, SSE3) on one thread, and
# to a vector family that is not this CPU's default. Every saved text output must
# still match, so no committed output depends on the CPU, the BLAS kernel or the
# thread count (tests/arithmetic.py says how the set-ups are chosen and checked).
notebooks-portable: $(STAMP)
	@test -n "$(NOTEBOOKS)" || { echo "no notebooks in _toc.yml"; exit 1; }
	$(BIN)/python tests/arithmetic.py $(NOTEBOOKS)

build-check: $(STAMP) $(NODE_STAMP)
	$(CLEAN_BUILD)
	$(BIN)/jupyter-book build . --path-output . --warningiserror --nitpick --keep-going

# Reuses $(BUILD)/html (the test builds it only if it is missing). The second
# test opens the chapters in JupyterLab, as a student running them sees them.
site: site-pages lab-check

site-pages: $(STAMP) chromium
	$(BIN)/python -m pytest -q tests/test_site.py

lab-check: $(STAMP) chromium
	$(BIN)/python -m pytest -q tests/test_jupyterlab.py

# In make test, beside the site's pages (the longest test): the two ways a student
# runs a chapter as a notebook, JupyterLab from the course's environment, then Colab.
lab-and-colab:
	$(MAKE) lab-check colab-check

# Binder's build replayed (tests/test_binder.py): repo2docker's plan for binder/,
# run in a fresh environment, then every chapter with that environment's kernel.
# After build-check, so that the built site's launch links are checked too.
# The times a student waits are in $(BUILD)/binder/replay.txt.
binder: $(STAMP)
	$(BIN)/python -m pytest -q -s tests/test_binder.py

# The Colab edition as Colab runs it (tests/test_colab.py): a fresh environment of
# what Colab ships (tests/colab/requirements.txt), every colab/*.ipynb run top to
# bottom after its own install cell; and its Markdown rendered as Colab renders it
# (tests/colab/render_markdown.mjs, Node). The times are in $(BUILD)/colab/run.txt.
colab-check: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest -q -s tests/test_colab_markdown.py tests/test_colab.py

# make grade runs every submission in a bubblewrap sandbox (Debian's package,
# unprivileged): installed here when it is missing, as Chromium is for the site.
bubblewrap:
	@command -v bwrap >/dev/null || { echo "Installing bubblewrap for make grade"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q bubblewrap; }

# The book's formulas are rendered when it is built, by MathJax in Node
# (scripts/site/prerender_math.py): Debian's nodejs and npm are installed when
# missing, as Chromium is, and `npm ci` installs the exact packages of
# package-lock.json into node_modules/ (git-ignored).
node: $(NODE_STAMP)
$(NODE_STAMP): package.json package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		echo "Installing Node for the book's formulas"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q nodejs npm; }
	npm ci --no-audit --no-fund
	touch $@

chromium:
	@test -x "$(CHROMIUM)" || { echo "Installing Chromium for the site test"; \
		$(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium; }

# The printed book. Debian's TeX Live is installed when latexmk or pdftotext is missing
# (29 packages, 103 MB to download, 360 MB installed on Debian 12: no extra
# fonts are needed, see the latex part of _config.yml).
# The notebooks' outputs come from the book build's cache when there is one.
# --all: every page is read again for LaTeX, since the pages read for the HTML
# site (shared doctrees) never met the transform that prints animations as stills.
pdf: $(STAMP) texlive
	$(BIN)/jupyter-book build . --path-output . --builder pdflatex --all --warningiserror \
		--nitpick --keep-going
	mkdir -p $(dir $(PDF))
	cp $(BUILD)/latex/perceptron-course.pdf $(PDF)
	@test ! -d $(BUILD)/html || $(BIN)/python scripts/pdf/book_pdf.py $(BUILD)/html $(PDF)
	@echo "The book as a PDF: $(abspath $(PDF))"

pdf-check: pdf
	$(BIN)/python -m pytest -q tests/test_pdf.py

texlive:
	@command -v latexmk >/dev/null && command -v pdftotext >/dev/null || { \
		echo "Installing TeX Live for make pdf"; $(SUDO) apt-get update -q && \
		$(SUDO) apt-get install -y -q --no-install-recommends latexmk \
			texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
			tex-gyre poppler-utils; }

# nbgrader assignments made from the chapters (never edited by hand): each
# chapter becomes $(COURSE)/source/chNN and, for the students, release/chNN.
assignments: $(STAMP)
	$(BIN)/python scripts/grading/nbgrader_course.py $(if $(CHAPTERS),--chapters "$(CHAPTERS)") \
		$(COURSE) $(NOTEBOOKS)
	@echo "Hand out $(COURSE)/release/chNN/ to the students."

# Autograde a class: SUBMITTED=DIR with DIR/<student>/chNN/<notebook>.ipynb.
# Each notebook runs in a bubblewrap sandbox; CREDIT=all-or-nothing gives a
# coding question its points only when every check passes (default: partial credit).
# The feedback pages' maths is typeset offline by MathJax in Node (make node).
grade: $(STAMP) bubblewrap $(NODE_STAMP)
	@test -n "$(SUBMITTED)" || { echo "usage: make grade SUBMITTED=DIR" \
		"(DIR/<student>/chNN/<notebook>.ipynb)"; exit 2; }
	@test -f $(COURSE)/gradebook.db || $(MAKE) assignments
	$(BIN)/python scripts/grading/grades.py $(if $(filter all-or-nothing,$(CREDIT)),--all-or-nothing) \
		$(COURSE) $(SUBMITTED)

# The grades as an LMS imports them (after make grade, and after grading written
# answers in the formgrader): see scripts/grading/export.py.
export: $(STAMP)
	$(BIN)/python scripts/grading/export.py $(COURSE)

lab: $(STAMP)
	$(BIN)/jupyter lab book/

# "Restart and run all" for authors: nbval compares only what was executed and
# saved. Widget state is not stored: the web page shows static counterparts.
execute: $(STAMP)
	for notebook in $(or $(NB),$(NOTEBOOKS)); do \
		$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.store_widget_state=False $$notebook || exit 1; \
		$(BIN)/python scripts/notebooks/tidy_notebook.py $$notebook; \
	done

# The Colab edition, colab/<chapter>.ipynb: written from the chapters (executed, with their
# outputs) by scripts/colab/edition.py; commit it with the chapters (REPOSITORY=owner/name
# names the repository its install cell and links point at).
.PHONY: colab
colab: $(STAMP)
	$(BIN)/python scripts/colab/edition.py colab

student: $(STAMP)
	$(BIN)/python scripts/notebooks/student_notebooks.py $(BUILD)/student $(NOTEBOOKS)
	@echo "Students' copies (exercises without solutions) are in $(BUILD)/student/."

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_perceptron.py
	$(BIN)/python benchmarks/bench_multiclass.py
	$(BIN)/python benchmarks/bench_grading.py

# requirements.in is the list people edit; requirements.txt pins every package
# it pulls in, for every platform (--universal), so that Binder, CI and a fresh
# clone install the same versions. No hashes: pip's hash-checking mode refuses
# the `-e .` line that installs perceptron_lib from the checkout.
UV_VERSION := 0.13.9
# binder/requirements.txt, the slim list Binder installs (what running the
# chapters needs), is compiled from binder/requirements.in with every version
# constrained to its pin in requirements.txt (uv refuses the `-e .` line as a
# constraint, so it is left out of the copy it reads).
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip compile --universal --python-version 3.11 --upgrade \
		--custom-compile-command "make lock" requirements.in -o requirements.txt
	mkdir -p $(BUILD)
	grep -v '^-e ' requirements.txt > $(BUILD)/requirements-pins.txt
	$(BIN)/uv pip compile --universal --python-version 3.11 \
		--constraints $(BUILD)/requirements-pins.txt \
		--custom-compile-command "make lock" binder/requirements.in -o binder/requirements.txt
	# The Colab-like environment of tests/test_colab.py: Colab's versions, pinned in
	# tests/colab/requirements.in (not upgraded: they follow Colab's list, by hand).
	$(BIN)/uv pip compile --universal --python-version 3.11 \
		--custom-compile-command "make lock" tests/colab/requirements.in \
		-o tests/colab/requirements.txt

clean:
	$(CLEAN_BUILD)
	rm -rf .pytest_cache .ruff_cache
	find . -name __pycache__ -not -path "./$(VENV)/*" -not -path "./$(BUILD)/*" -prune \
		-exec rm -rf {} +

# Deletes the default course folder too: its gradebook, submissions and feedback.
clean-all: clean
	rm -rf $(BUILD)
