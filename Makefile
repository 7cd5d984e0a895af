# Two commands for a fresh machine: `make lab` and `make test` (see README.md), in either order.
#
# Two environments, so that a student's Lab holds the course and nothing else:
#   .venv-lab  the student's: exactly the pinned environment of binder/ (the same one a hub image uses)
#   .venv      the developers': the course plus tests, linters and the teacher's grading tools
PYTHON ?= python3
# Small matrices run faster on one BLAS thread, and a second one only adds noise on 2 busy cores.
export OPENBLAS_NUM_THREADS ?= 1
export OMP_NUM_THREADS ?= 1
# Where the environment sets PYTHONDONTWRITEBYTECODE, every Python process (each kernel, server,
# nbgrader step and pytest worker) compiles each of our modules again, and pytest rewrites every test
# module again in each worker (about 6 s of CPU each): the caches go to __pycache__ (git-ignored).
unexport PYTHONDONTWRITEBYTECODE
VENV      := .venv
PY        := $(VENV)/bin/python
STAMP     := $(VENV)/.installed
LAB_VENV  ?= .venv-lab
LAB_STAMP := $(LAB_VENV)/.installed
PORT      ?= 8888
# OpenBLAS kernels besides the machine's own under which the checked notebooks must print the same:
# both exist on every x86-64 CPU, and their rounding differs from AVX2/AVX-512 kernels in the last bits.
KERNELS   ?= Haswell Prescott
NOTEBOOKS := lessons solutions es tests/notebooks

# The course website (`make site`): SOLUTIONS=1 adds the worked solutions; BINDER_URL / HUB_URL turn
# on launch links under the widgets (REPO_URL and BRANCH say what the links open).
SOLUTIONS  ?=
BINDER_URL ?=
HUB_URL    ?=
REPO_URL   ?=
BRANCH     ?= main
SITE_NPM   := book/node_modules/.package-lock.json
# What the tests run in Node or inject into Chromium (axe-core, marked), pinned in tests/js.
TEST_NPM   := tests/js/node_modules/.package-lock.json
# The front end's build tool (esbuild), pinned in package.json: `npm run build` writes
# chutes_edu/widgets/static/ from chutes_edu/widgets/js/ (checked in: students need no Node).
FRONT_NPM  := node_modules/.package-lock.json

# The teacher's grading set-up (`make teacher`; TEACHING.md, "Running the course with nbgrader"):
# .venv-teacher is the students' pinned environment plus nbgrader (binder/requirements-teacher.txt),
# and COURSE_DIR the nbgrader course folder, outside the repository so that `git pull` never meets
# students' work: the course folder is `../chutes-course-grading` on your own machine (the default
# of `make teacher`) and `~/course` on a hub (`python -m chutes_teacher.gradebook setup --course
# ~/course`; hub/README.md, section 6). ROSTER (CSV) and SCHEDULE (CSV or TOML, dates in TIMEZONE)
# are imported when given; GENERATE=no leaves `nbgrader generate_assignment` (about 15 s for all
# sets) to later.
TEACHER_VENV  ?= .venv-teacher
TEACHER_STAMP := $(TEACHER_VENV)/.installed
COURSE_DIR    ?= ../chutes-course-grading
# `COURSE_DIR=~/course` reaches make unexpanded (the shell expands `~` only at a word's start):
# expanded here, as a teacher means it, instead of making a folder named `~` in the repository.
COURSE     := $(patsubst ~/%,$(HOME)/%,$(COURSE_DIR))
ROSTER        ?=
SCHEDULE      ?=
TIMEZONE      ?=
GENERATE      ?= yes

# `make test` runs the suite in one pytest session (pytest-xdist; conftest.py says how work is
# shared), the checked notebooks also under each of $(KERNELS). Each stage says when it starts and
# how long it took (tools/stage.sh), and a table of them all closes the run. One worker more than
# the machine has cores: browser, server and hub tests spend part of their time waiting on other
# processes, and the extra worker fills it. Measured on 2 cores: with 3 workers both cores are
# 95-100% busy from the third minute on (on 2 workers, an AMD machine's were 93% busy). Clean-clone
# pytest took 1,275 s on 2 workers, then 1,131 s and 1,319 s on 3: runs here vary by more than that.
WORKERS   ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) + 1 )))
PARALLEL  := -n $(WORKERS) --dist loadgroup --no-loadscope-reorder
STAGE_LOG := $(CURDIR)/tests/artifacts/stages.txt
STAGE     := STAGE_LOG=$(STAGE_LOG) tools/stage.sh
TEST_SITE := $(CURDIR)/_build/test-site

.PHONY: help lab lab-env teacher autograde test test-fast test-start hub-caches test-site lint fmt front-end \
	notebooks-kernels site pdf bench bench-autograde exercises translations resave student coverage clean

help:
	@echo "make lab        - create .venv-lab (the pinned course environment) and start JupyterLab"
	@echo "make teacher    - the teacher's nbgrader set-up: .venv-teacher and a course folder in"
	@echo "                  COURSE_DIR (../chutes-course-grading); ROSTER=, SCHEDULE=, TIMEZONE="
	@echo "make autograde SET=01_exercises_waiting_for_heads JOBS=2 - autograde a set's collected"
	@echo "                  submissions in COURSE_DIR, JOBS at a time, each in a sandbox (FORCE=1:"
	@echo "                  grade again those autograded already)"
	@echo "make test       - create/update .venv, lint, type-check and run the whole test suite"
	@echo "make test-fast  - the quick part while you work: no browsers, servers or other BLAS kernels"
	@echo "make coverage   - line coverage of chutes_edu and chutes_teacher over test-fast (ALL=1: the"
	@echo "                  whole suite), every Python the tests start counted"
	@echo "make lint       - ruff and mypy; the front end's build check, tsc and biome;  make fmt"
	@echo "make front-end  - build the explorers' front end (esbuild) into chutes_edu/widgets/static"
	@echo "make site       - build the course website into _build/html, the Spanish into"
	@echo "                  _build/html/es (SOLUTIONS=1 adds solutions)"
	@echo "make pdf        - the website printed as tagged PDFs into _build/pdf: course.pdf and one per"
	@echo "                  lesson and exercise set, the Spanish into _build/pdf/es (SOLUTIONS=1 adds"
	@echo "                  the worked solutions; PAPER=letter)"
	@echo "make bench      - print the speed ratios (benchmarks/bench.py), then time a class's"
	@echo "                  autograde (BENCH_AUTOGRADE=120; 0 skips it)"
	@echo "make bench-autograde N=120 JOBS=2 - only that: wall-clock and CPU seconds per submission"
	@echo "make exercises  - regenerate exercises/ from solutions/"
	@echo "make translations - update the Spanish catalogs (locale/es) from the English and"
	@echo "                  regenerate the Spanish notebooks (es/) from them; check what is missing"
	@echo "make resave NB=lessons/05_exact_answers.ipynb - execute notebooks and save them the course's"
	@echo "                  way: the kernel's metadata, each picture once (tools/slim_notebook.py)"
	@echo "make student    - build the branch 'student' from main: the course without solutions or"
	@echo "                  answer checks, for a graded class; STUDENT_REPO=<url> publishes it there"

define check_python
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "chutes_edu needs Python 3.11 or newer")'
endef

# ---------------------------------------------------------------- the student's environment
$(LAB_STAMP): binder/requirements.txt binder/postBuild pyproject.toml
	$(check_python)
	@echo "Installing the course's environment into $(LAB_VENV) (once; a few minutes)..."
	@$(PYTHON) -m venv $(LAB_VENV)
	@$(LAB_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(LAB_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
		-r binder/requirements.txt
	@PATH="$(abspath $(LAB_VENV))/bin:$$PATH" bash binder/postBuild
	@touch $@

lab-env: $(LAB_STAMP)

# Only what a student needs in the terminal: the URL (Binder and hub logs keep their usual level).
lab: $(LAB_STAMP)
	@echo "Starting JupyterLab on the course. Open the http://127.0.0.1:$(PORT)/lab/... URL printed"
	@echo "below in your browser: it opens the start page. Press Control-C here to stop."
	@$(LAB_VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(PORT) --allow-root \
		--ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/start_here.ipynb \
		--ServerApp.log_level=ERROR --LabApp.log_level=ERROR \
		--LanguageServerManager.autodetect=False

# ---------------------------------------------------------------- the teacher's environment
$(TEACHER_STAMP): binder/requirements.txt binder/requirements-teacher.txt binder/postBuild pyproject.toml
	$(check_python)
	@echo "Installing the teacher's environment into $(TEACHER_VENV) (once; a few minutes)..."
	@$(PYTHON) -m venv $(TEACHER_VENV)
	@$(TEACHER_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(TEACHER_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
		-r binder/requirements.txt -r binder/requirements-teacher.txt
	@PATH="$(abspath $(TEACHER_VENV))/bin:$$PATH" bash binder/postBuild
	@# then the teacher's views back on, formgrader guarded, graded the course's way in every
	@# server and nbgrader command of this environment (chutes_teacher.nbgrader_setup)
	@$(TEACHER_VENV)/bin/python -m chutes_teacher.nbgrader_setup
	@touch $@

# Idempotent: copies only what the course folder lacks, skips sets already generated, and
# re-imports a roster or schedule as an update. (nbgrader runs alembic: the venv's bin on PATH.)
teacher: $(TEACHER_STAMP)
	@PATH="$(abspath $(TEACHER_VENV))/bin:$$PATH" $(TEACHER_VENV)/bin/python -m chutes_teacher.gradebook \
		setup --repo "$(CURDIR)" --course "$(COURSE)" $(if $(ROSTER),--roster "$(ROSTER)") \
		$(if $(SCHEDULE),--schedule "$(SCHEDULE)") $(if $(TIMEZONE),--timezone "$(TIMEZONE)") \
		$(if $(filter no,$(GENERATE)),--no-generate)

# `make autograde SET=03_exercises_markov_chains JOBS=2`: every collected submission of a set in
# COURSE_DIR, JOBS at a time, each in its sandbox, a line as each finishes (chutes_teacher.autograde;
# TEACHING.md). Submissions autograded already are skipped; FORCE=1 grades them again.
SET   ?=
JOBS  ?= 2
FORCE ?=
autograde: $(TEACHER_STAMP)
	@test -n "$(SET)" || { echo "make autograde needs SET=, e.g. SET=01_exercises_waiting_for_heads"; exit 2; }
	cd "$(COURSE)" && PATH="$(abspath $(TEACHER_VENV))/bin:$$PATH" \
		"$(abspath $(TEACHER_VENV))/bin/python" -m chutes_teacher.autograde "$(SET)" --jobs $(JOBS) \
		$(if $(filter-out 0 no,$(FORCE)),--force)

# ---------------------------------------------------------------- the developers' environment
$(PY):
	$(check_python)
	@$(STAGE) "set-up: create .venv" $(PYTHON) -m venv $(VENV)
	@$(STAGE) "set-up: upgrade pip, add uv" $(PY) -m pip install --quiet --upgrade pip "uv>=0.9"

# Re-install whenever the package metadata changes. uv installs the same versions as pip (their
# freezes compared), in a third of the time: 20 s of a fresh clone's `make test` here, where pip
# took 67 s (caches warm). Where uv cannot (say, an index only pip's configuration names), pip
# does. Compiled ahead (--compile-bytecode, as pip does by default): the sandboxed graders and the
# hub's servers see the venv read-only, and would compile at every start each module that no
# process outside a sandbox had compiled before them.
$(STAMP): pyproject.toml | $(PY)
	@$(STAGE) "set-up: install the course and its tools" sh -c '$(PY) -m uv pip install --quiet \
		--python $(PY) --compile-bytecode -e ".[test]" || { echo "uv failed: installing with pip"; \
		$(PY) -m pip install --quiet -e ".[test]"; }'
	@touch $(STAMP)

lint: $(STAMP) $(FRONT_NPM)
	@$(STAGE) "lint: ruff" $(VENV)/bin/ruff check .
	@$(STAGE) "types: mypy" $(VENV)/bin/mypy
	@$(STAGE) "lint: the built front end is what js/ builds to" node tools/build_front_end.mjs --check
	@$(STAGE) "types: tsc over the front end" node_modules/.bin/tsc -p tsconfig.json
	@$(STAGE) "lint: biome over the front end" node_modules/.bin/biome lint --error-on-warnings .

# After a change in chutes_edu/widgets/js/: build, then commit static/ with it (`npm run dev`
# rebuilds on every save; CONTRIBUTING.md, "The front end").
front-end: $(FRONT_NPM)
	npm run build

fmt: $(STAMP)
	$(VENV)/bin/ruff check --fix .

# Only the checked notebooks, under the machine's own OpenBLAS kernel and each of $(KERNELS): a
# printed float-rounding accident fails here, not on a student's laptop. (`make test` runs them too.)
notebooks-kernels: $(STAMP)
	@$(STAGE) "notebooks under each OpenBLAS kernel" $(PY) -m pytest -q $(PARALLEL) \
		--openblas-kernels "$(KERNELS)" $(NOTEBOOKS)

# The first prerequisite: a new table of stages for this run.
test-start:
	@mkdir -p $(dir $(STAGE_LOG)) && rm -f $(STAGE_LOG)

# The website the site's tests share (tests/site_build.py), built afresh in the background while lint
# runs, mostly on the core mypy leaves idle; a test that needs it sooner waits for it.
test-site: $(STAMP)
	@mkdir -p $(dir $(STAGE_LOG)) $(dir $(TEST_SITE)) && rm -rf $(TEST_SITE)
	@($(STAGE) "set-up: the website for the tests (in the background)" $(PY) -m tests.site_build \
		$(TEST_SITE) > $(dir $(STAGE_LOG))site_build.log 2>&1 &)

# The hub tests' caches (configurable-http-proxy, ngshare's environment and client; a minute or more
# of installs at a fresh clone's first run) go in in the background while lint runs: a hub test
# that starts before they are in waits for them (tests/hub_caches.py). Its stage line comes when done.
hub-caches: $(STAMP)
	@mkdir -p $(dir $(STAGE_LOG))
	@($(STAGE) "set-up: the hub tests' caches (in the background)" $(PY) -m tests.hub_caches \
		> $(dir $(STAGE_LOG))hub_caches.log 2>&1 &)

test: test-start hub-caches test-site lint $(TEST_NPM)
	@$(STAGE) "tests: pytest on $(WORKERS) workers (notebooks also under $(KERNELS))" \
		env CHUTES_TEST_SITE=$(TEST_SITE) $(PY) -m pytest $(PARALLEL) --openblas-kernels "$(KERNELS)" \
		--durations=10; status=$$?; \
		echo; echo "make test, stage by stage (wall seconds):"; cat $(STAGE_LOG); exit $$status

# While you work: everything but the notebooks, the browser, server and build tests, the other BLAS
# kernels and the costly sweeps (tests/conftest.py's SLOW); its size and time measured: CONTRIBUTING.md,
# "Running the tests". `make test` before you push.
test-fast: $(STAMP) $(TEST_NPM) $(FRONT_NPM)
	$(PY) -m pytest $(PARALLEL) -m "not slow"

# Line coverage of chutes_edu/ and chutes_teacher/ over the fast tier (ALL=1: the whole suite),
# counting every Python the tests start: xdist's workers, the notebooks' kernels, nbgrader's judge.
# (The sandboxed kernels run with a cleared environment: what runs inside them is not counted.)
ALL ?=
coverage: $(STAMP) $(TEST_NPM) $(FRONT_NPM)
	@rm -f .coverage .coverage.*
	-$(PY) -m coverage run -m pytest $(PARALLEL) $(if $(ALL),,-m "not slow")
	@$(PY) -m coverage combine -q
	@$(PY) -m coverage report
	@for p in chutes_edu chutes_teacher; do printf '%s: ' $$p; \
		$(PY) -m coverage report --include="$$p/*" | tail -1 | awk '{print $$NF}'; done

$(TEST_NPM): tests/js/package.json tests/js/package-lock.json
	@cd tests/js && STAGE_LOG=$(STAGE_LOG) ../../tools/stage.sh "set-up: npm tools for the tests" \
		npm ci --no-audit --no-fund --ignore-scripts --prefer-offline

$(FRONT_NPM): package.json package-lock.json
	@STAGE_LOG=$(STAGE_LOG) tools/stage.sh "set-up: npm tools for the front end" \
		npm ci --no-audit --no-fund --ignore-scripts --prefer-offline

$(SITE_NPM): book/package.json book/package-lock.json
	cd book && npm ci --no-audit --no-fund --ignore-scripts --prefer-offline

# The course website in _build/html, from the executed notebooks, with every asset served locally.
site: $(STAMP) $(SITE_NPM)
	SOLUTIONS="$(SOLUTIONS)" BINDER_URL="$(BINDER_URL)" HUB_URL="$(HUB_URL)" \
	REPO_URL="$(REPO_URL)" BRANCH="$(BRANCH)" $(PY) book/build.py

# The course on paper in _build/pdf: the website (built again, as `make site` does, with the same
# SOLUTIONS) printed by Debian's Chromium: course.pdf and one PDF per lesson, exercise set (and
# worked solutions). Tagged, with bookmarks, a title and a language (book/pdf.py says how).
PAPER ?= a4
pdf: site
	SOLUTIONS="$(SOLUTIONS)" PAPER="$(PAPER)" $(PY) book/pdf.py

# The whole benchmark ends with a class's autograde (BENCH_AUTOGRADE=120 submissions, 0 skips it;
# BENCH_JOBS=2); `make bench-autograde N=120 JOBS=2` runs only that (benchmarks/bench_autograde.py).
N ?= 120
bench: $(STAMP)
	$(PY) benchmarks/bench.py

bench-autograde: $(STAMP)
	$(PY) benchmarks/bench_autograde.py --submissions $(N) --jobs $(JOBS)

exercises: $(STAMP)
	$(PY) tools/make_exercises.py --verify

# The Spanish course (issue 53): the catalogs follow the English (fuzzy on change, obsolete on
# removal), es/ is generated from them (never edited), and `check` names what is left to translate.
translations: $(STAMP)
	$(PY) tools/translations.py update
	$(PY) tools/translations.py build
	$(PY) tools/translations.py check

# Execute notebooks (NB: one or more paths, e.g. NB="lessons/0*.ipynb") and save them with their
# outputs as the course keeps them (CONTRIBUTING.md): the kernel's metadata, no per-cell timing,
# each picture once as a palette PNG and no explorer's program in the widget state.
NB ?=
resave: $(STAMP)
	@test -n "$(NB)" || { echo "say which notebooks: make resave NB=lessons/05_exact_answers.ipynb"; exit 2; }
	@for nb in $(NB); do echo "executing $$nb"; \
		$(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; done
	@$(PY) tools/notebook_metadata.py $(NB)
	@$(PY) tools/slim_notebook.py $(NB)

# The student copy for a graded class (TEACHING.md): a branch built from main's last commit with
# git plumbing (the working tree and the current branch are not touched). SOURCE=<commit> builds
# from another commit; `$(PY) tools/student_copy.py --check` says whether the branch is up to date.
# STUDENT_REPO=<url> publishes it as the main of a repository of its own, the students' (the hub
# image and the students' link come from there: nothing of main's history reaches them).
SOURCE ?= main
# It needs git and Python only (no .venv).
student:
	$(check_python)
	$(PYTHON) tools/student_copy.py --source $(SOURCE) --branch student \
		$(if $(STUDENT_REPO),--publish "$(STUDENT_REPO)")

clean:
	rm -rf $(VENV) $(LAB_VENV) $(TEACHER_VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache tests/artifacts \
		_build book/node_modules tests/js/node_modules node_modules
