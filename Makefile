# musteach: `make tutor` serves the lessons, `make test` runs every test. Both set up .venv first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8866
HOST   ?= 127.0.0.1
STAMP  := $(VENV)/.installed
AXE    := $(VENV)/npm/node_modules/axe-core/axe.min.js

.PHONY: install tutor lab test lint typecheck browser-deps proxy-deps axe bench tables strategy catalogs site clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[tutor,test]'
	touch $(STAMP)

install: $(STAMP)

## Serve the lessons with Voilà on http://localhost:$(PORT)
## (for a class: make tutor HOST=0.0.0.0 SERVE_ARGS="--pool 03=30 --max-kernels 40"; see musteach serve --help)
tutor: $(STAMP)
	@echo ""
	@echo "  musteach tutor: open http://localhost:$(PORT)/  (Ctrl-C stops it)"
	@echo ""
	$(VENV)/bin/musteach serve --port $(PORT) --host $(HOST) $(SERVE_ARGS)

## Open the lessons in JupyterLab (as root too: JupyterLab refuses root without --allow-root)
lab: $(STAMP)
	$(VENV)/bin/jupyter lab $$([ "$$(id -u)" = 0 ] && echo --allow-root) lessons/00-welcome.ipynb

## Debian's Chromium for the browser tests (installed with apt when we are root and it is missing)
browser-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else \
	    echo "chromium is missing: browser tests will fail under CI=true and skip otherwise"; \
	  fi; \
	fi

## Debian's nginx for the two-instance test behind a reverse proxy (installed with apt when we are root)
proxy-deps:
	@if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's nginx for the reverse-proxy test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null 2>&1 \
	      || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
	  else \
	    echo "nginx is missing: the reverse-proxy test will fail under CI=true and skip otherwise"; \
	  fi; \
	fi

## axe-core (npm) for the accessibility browser tests, kept inside the venv folder
$(AXE):
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --silent --no-audit --no-fund --prefix $(VENV)/npm axe-core@4; \
	else \
	  echo "npm is missing: the axe browser tests will fail under CI=true and skip otherwise"; \
	fi

axe: $(AXE)

lint: $(STAMP)
	$(VENV)/bin/ruff check musteach widgets tests benchmarks

## mypy --strict over the core and the widgets (part of `make test`; the server joins once it is strict too)
typecheck: $(STAMP)
	$(PY) -m mypy --strict musteach widgets --exclude '^widgets/server/'

## Every test: unit, properties, vectors, doctests, widgets, nbval on the lessons, and the browser tests
test: $(STAMP) browser-deps proxy-deps axe lint typecheck
	$(PY) -m pytest -q -p no:randomly -n 2 --dist loadgroup --durations=25 tests musteach --nbval-lax lessons

## Solve the strong level's betting strategy by CFR+ and write musteach/play/data/strategy-8reyes.bin
## (the full solve: about 100 CPU-minutes; STRATEGY_ARGS=--quick gives the smaller solve shipped from a shared machine)
strategy: $(STAMP)
	$(PY) -m musteach.play.strategy.solver $(STRATEGY_ARGS)

## Count the tables shipped in musteach/rules/data/ (standings, seconds) and musteach/odds/data/ (every hand,
## 8 and 4 reyes; about 10 CPU-minutes), and sample the strong level's hand values shipped in musteach/play/data/
## (about 1 CPU-minute)
tables: $(STAMP)
	$(PY) -m musteach.rules.standings
	$(PY) -m musteach.odds.tables --kings 8 4
	$(PY) -m musteach.play.write_tables --kings 8 4

## Update the translation catalogs from the source and compile them, then the lessons' catalogs and the lessons
## of every language, lessons/<lang>/ (see musteach/locale/TRANSLATING.md)
catalogs: $(STAMP)
	$(PY) -m musteach.locale.catalogs
	$(PY) -m musteach.locale.lessons

## The tutorial as a static site in site/ (JupyterLite + Pyodide, runs in the browser with no server): Pyodide from
## npm, wheels from PyPI, cached in .venv/site-cache so a second build fetches nothing (see README, "A static site")
site: $(STAMP)
	$(VENV)/bin/musteach site site --cache $(VENV)/site-cache --project . --lessons lessons

bench: $(STAMP)
	$(PY) benchmarks/bench_evaluator.py

clean:
	rm -rf $(VENV) test-artifacts site
