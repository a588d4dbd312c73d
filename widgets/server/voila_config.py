"""The traitlets configuration of the production Voilà (:func:`build_config`): the ``musteach`` template and
the words its pages need, no sources or tracebacks, the files that may be downloaded, the pools of preheated
kernels, culling, and the page's language and expected wait (:data:`COLD_WAIT`).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

import contextvars
import logging
import os
from pathlib import Path
from typing import Any

from traitlets.config import Config

from musteach.i18n import SOURCE_LANG
from musteach.teach.pages import CELL_ERROR_NOTE, language_link, lesson_bar

from .guard import SECURITY_HEADERS
from .kernel_manager import ORPHAN_IDLE_SECONDS, TRACEBACK_REPLACEMENT, MusteachKernelManager
from .lessons import Lesson, lang_of
from .options import ServeOptions
from .websocket import VisitorConnection

__all__ = ["COLD_WAIT", "FILE_ALLOWLIST", "FILE_DENYLIST", "SHARE_DIR", "TEMPLATE", "build_config"]

log = logging.getLogger("musteach.serve")

#: The folder holding ``voila/templates/musteach`` (put first on ``JUPYTER_PATH``).
SHARE_DIR = Path(__file__).resolve().parent / "share"
TEMPLATE = "musteach"


#: Files of the lessons folder that may be downloaded (pictures and stylesheets a lesson links to).
FILE_ALLOWLIST = [r".*\.(png|jpe?g|gif|svg|webp|css)"]
#: Never downloaded, even if allowed above: notebooks, Python sources, hidden files and folders.
FILE_DENYLIST = [r".*\.(ipynb|py|pyc)", r"(.*/)?\..*"]


#: Seconds a page whose kernel is started for it (no preheated one) is expected to wait, set while such a
#: page is rendered (the page says it: ``musteachColdSeconds``); None for a preheated page.
COLD_WAIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("musteach_cold_wait", default=None)


def _log_cell_error(cell: Any, cell_index: int, execute_reply: dict[str, Any]) -> None:
    """nbclient's hook for a failed cell: one line for the host (the visitor sees CELL_ERROR_NOTE)."""
    c = execute_reply.get("content", {})
    log.warning("a lesson cell failed (its page shows a note instead): cell %d, %s: %s", cell_index + 1,
                c.get("ename", "Error"), c.get("evalue", ""))


def _lesson_resources(lessons: list[Lesson]) -> list[dict[str, Any]]:
    return [{"path": ls.path, "stem": ls.stem, "label": ls.label, "number": ls.number, "title": ls.title}
            for ls in lessons]


def _language_resources(o: ServeOptions, lang: str) -> dict[str, Any]:
    """What the ``musteach`` template needs for the pages of one language: its lessons, the words of its
    lesson bar and scripts (from :func:`musteach.teach.pages.lesson_bar`), the address of its index, and for
    each other language the link to it (its name, the tooltips, each lesson's path in it)."""
    bar = lesson_bar(lang)
    others = []
    for code in o.languages:
        if code == lang:
            continue
        link = language_link(code, lang)
        others.append({
            "lang": code, "name": link.name, "lesson_tooltip": link.lesson_tooltip,
            "index_tooltip": link.index_tooltip,
            "index": "en/" if code == SOURCE_LANG else f"{code}/",
            "paths": {ls.stem: ls.path for ls in o.lessons_in(code)},
        })
    return {
        "lang": lang,
        "index": "" if lang == SOURCE_LANG else f"{lang}/",
        "lessons": _lesson_resources(o.lessons_in(lang)),
        "words": {"lessons": bar.lessons, "skip": bar.skip, "ended": bar.ended, "reload": bar.reload,
                  "cell_error": bar.cell_error, "lost": bar.lost, "limit": bar.limit, "cold": bar.cold},
        "others": others,
    }


def _page_language_hook(o: ServeOptions) -> Any:
    """Voilà's ``page_config_hook``: puts the language of the lesson (``musteachLang``, from the folder of its
    path) in the page's config, where the ``musteach`` template reads it. Voilà calls it for preheated and
    started kernels alike, with the notebook's path relative to the lessons folder."""
    root = Path(o.lessons_dir).resolve()

    def hook(page_config: dict[str, Any], *args: Any, notebook_path: str | None = None, **kwargs: Any) -> dict[str, Any]:
        path = notebook_path or ""
        if os.path.isabs(path):
            try:
                path = Path(path).resolve().relative_to(root).as_posix()
            except ValueError:
                path = ""
        config = {**page_config, "musteachLang": lang_of(path, o.languages)}
        config.pop("appVersion", None)  # no version strings in pages
        cold = COLD_WAIT.get()
        if cold is not None:
            config["musteachColdSeconds"] = cold
        return config

    return hook


def build_config(o: ServeOptions) -> Config:
    """The traitlets configuration of the production Voilà for ``o``."""
    c = Config()
    c.Voila.ip = o.host
    c.Voila.port = o.port
    c.Voila.port_retries = 0  # the address printed is the address served, or a clear error
    c.Voila.open_browser = False
    c.Voila.log_level = logging.WARNING
    c.Voila.log_format = "[musteach %(asctime)s] %(message)s"
    c.Voila.log_datefmt = "%H:%M:%S"
    c.Voila.kernel_websocket_connection_class = VisitorConnection
    c.Voila.base_url = o.base_url
    c.Voila.tornado_settings = {"headers": dict(SECURITY_HEADERS)}

    vc = c.VoilaConfiguration
    vc.template = TEMPLATE
    vc.theme = "light"
    vc.allow_template_override = "NO"
    vc.allow_theme_override = "NO"
    vc.strip_sources = True
    vc.show_tracebacks = False
    vc.preheat_kernel = any(n > 0 for n in o.fitted_pools().values())
    vc.default_pool_size = o.pool_size
    vc.file_allowlist = FILE_ALLOWLIST
    vc.file_denylist = FILE_DENYLIST
    vc.multi_kernel_manager_class = MusteachKernelManager
    vc.resources = {
        "musteach": {
            "lessons": _lesson_resources(o.lessons),
            "languages": {lang: _language_resources(o, lang) for lang in o.languages},
        }
    }
    # the page of a lesson knows its language (the lesson bar, <html lang>) from its folder
    vc.page_config_hook = _page_language_hook(o)
    # only the lessons are preheated (a scratch notebook in the folder starts its kernel on demand)
    # (Voilà matches these against absolute paths: deny every path whose file name is not a lesson's)
    # every pool counts against --max-kernels: each lesson's is sized to fit (fitted_pools), others get none
    c.VoilaKernelManager.kernel_pools_config = {
        "default": {"pool_size": 0},
        **{path: {"pool_size": n} for path, n in o.fitted_pools().items()},
    }
    c.VoilaKernelManager.preheat_denylist = [r"(?!.*[/\\][0-9][0-9]-[^/\\]*\.ipynb$)"]
    c.VoilaExecutor.timeout = 120
    # a busy machine (a class's pools refilling at once) delays a cell's last outputs past nbclient's 4 s: the
    # page then lacked its widgets ("Timeout waiting for IOPub output"); wait for them as long as for a cell
    c.VoilaExecutor.iopub_timeout = 60
    c.VoilaExecutor.interrupt_on_timeout = True  # a stuck cell does not stop the rest of the lesson
    c.VoilaExecutor.allow_errors = True  # the cells after a failed one still run: the page is shown whole
    c.VoilaExecutor.on_cell_error = _log_cell_error
    c.VoilaExecutor.cell_error_instruction = CELL_ERROR_NOTE
    c.VoilaExecutor.cell_timeout_instruction = CELL_ERROR_NOTE

    # kernels listen on Unix sockets in Voilà's private connection folder, not on TCP ports
    c.KernelManager.transport = "ipc"
    # a kernel that dies is not restarted blank behind its page: it is stopped (its page says so)
    c.KernelRestarter.restart_limit = 0

    mk = c.MappingKernelManager
    mk.allow_tracebacks = False
    mk.traceback_replacement_message = TRACEBACK_REPLACEMENT
    # --cull-idle 0 means never for kernels with a page connected; orphans are still culled
    mk.cull_idle_timeout = o.cull_idle or 10**9
    mk.cull_interval = max(1, min(30, (o.cull_idle or 10**9) // 3, ORPHAN_IDLE_SECONDS // 4))
    mk.cull_connected = True  # a tab left open does not hold a place for ever
    mk.cull_busy = False
    return c
