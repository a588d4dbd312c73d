"""``musteach serve``: the lessons on one server for a class or a club, with Voilà in production settings.

This subpackage is the only place that imports Voilà, jupyter_server and tornado (``musteach`` never does):

* :mod:`musteach_server.command` is the ``serve`` subcommand, found by ``musteach`` through the
  ``musteach.commands`` entry point (``add_parser(sub)`` and ``run(args) -> int``);
* :mod:`musteach_server.lessons` lists the lessons, and their translations in sub-folders named by language
  (``es/``), served at ``/voila/render/es/...`` and indexed at ``/es/`` (pure Python, no Jupyter import; the
  words of the server's pages come from :mod:`musteach.teach.pages`, in the page's language);
* :mod:`musteach_server.app` is the Voilà application: preheated kernels, a cap on visitors' kernels
  with a "busy" page, idle kernels culled, sources and tracebacks hidden, only widget messages accepted from
  pages, a lesson bar on every page, one log line per event. It only builds the application from the modules
  of each job (issue 24): :mod:`~musteach_server.options` (what was asked, the pools fitted under the cap),
  :mod:`~musteach_server.kernel_manager` (starting, preheating, culling and stopping kernels),
  :mod:`~musteach_server.websocket` (the page's websocket), :mod:`~musteach_server.pages` (the server's plain
  HTML pages), :mod:`~musteach_server.cookies` (what a request's cookies say), the handlers
  (:mod:`~musteach_server.page_handlers`, :mod:`~musteach_server.lesson_handler`,
  :mod:`~musteach_server.api_handlers`), :mod:`~musteach_server.request_guard` (the checks before any handler)
  and :mod:`~musteach_server.voila_config` (Voilà's configuration); the gate (:mod:`~musteach_server.gate`),
  admission, ownership, proxies, limits, frames, routing and logs have modules of their own, and every private
  name of Jupyter, Voilà or tornado the server needs is read in :mod:`~musteach_server.jupyter_compat`;
* :mod:`musteach_server.templates` compiles the lesson page's templates once for the server's life (not again
  for every page: a pool refilling then leaves the server's event loop, and the visitors' clicks, alone);
* :mod:`musteach_server.guard` holds the rules of an open server: sessions, which requests may start a
  kernel, per-session and per-address limits, security headers (pure Python);
* :mod:`musteach_server.probe` simulates a visitor over the real protocol (tests, load test, smoke
  checks of a class server);
* :mod:`musteach_server.cluster` runs several instances behind Debian's nginx, sticky by session cookie;
* :mod:`musteach_server.copy_lessons` is ``musteach lessons DIR`` (the lessons ship in the wheel as the data
  package ``musteach_lessons``).

Hosting a class
---------------
Voilà runs one kernel (a Python process, about 75 MB RSS, 50 MB PSS) per open lesson page, and starting
one and running its lesson costs about a second of CPU. So, on the server, before the class::

    musteach serve --host 0.0.0.0 --max-kernels 40 --pool 03=40      # or: make tutor HOST=0.0.0.0 SERVE_ARGS=...

``--pool 03=40`` starts 40 kernels for lesson 3 (the one the class opens first) ahead of time, and
``--pool-size`` (default 1) keeps one ready for every other lesson; wait for the log's ``ready:`` line.
Learners then get their page at once; the 41st gets a "busy, try again shortly" page (HTTP 503) that
retries by itself. ``--max-kernels`` counts the preheated kernels too. A tab closed frees its kernel at once; a kernel idle for ``--cull-idle`` seconds (default
900) is stopped even if its tab is open, and one with no page connected after 2 minutes. Put a TLS proxy
in front for a public address (``--trusted-proxy``); the server has no login (any visitor may open any lesson),
but each kernel answers only to the visitor session that started it.
"""
