"""``musteach site DIR``: the tutorial as a static site that runs in the visitor's browser, with no server.

The site is JupyterLite's notebook view with the Pyodide kernel (Python compiled to WebAssembly), built from the
package registries alone and cached, so that a second build fetches nothing:

* **Pyodide** comes from npm (``npm pack pyodide@PYODIDE_VERSION``). Its tarball holds the runtime and the standard
  library but no package wheels, so the lock file it ships (``pyodide-lock.json``) is rewritten: it lists exactly the
  wheels this site hosts, with their own sha256 sums, and nothing else, so the runtime can never reach for a file
  on another host.
* **Every wheel** comes from PyPI: ``pip download`` for Pyodide's platform (:data:`WHEEL_REQUIREMENTS`: the kernel's
  packages, the widgets, and musteach's own dependencies but numpy, which has no Pyodide wheel on PyPI), the
  Pyodide kernel's own wheels from the ``jupyterlite-pyodide-kernel`` package, and the musteach wheel built from
  the project. All are loaded when a lesson's kernel starts (``loadPyodideOptions.packages``), so no lesson asks
  micropip for anything.
* **The lessons** of every language are copied with their code cells collapsed (``jupyter.source_hidden``), and a
  small JupyterLite extension (:func:`extension_js`, plain JavaScript written here, no bundler) runs each lesson's
  cells when it opens, hides the notebook's chrome, and adds the lesson bar of ``musteach serve``: the index, the
  previous and next lesson, and the same lesson in the other language. ``index.html`` lists the lessons.

What needs numpy (odds counted with a known partner, señas or dead cards; la real) says that it needs the server
version; what needs threads runs without them (:func:`musteach.platform.threads_available`). Progress is kept in
the browser's own storage, as under ``musteach serve``.

Pins, and why: ``pyodide`` :data:`PYODIDE_VERSION` is the release that ``jupyterlite-pyodide-kernel``
:data:`LITE_VERSION` was tested with (its ABI, ``pyemscripten_2026_0``, decides which compiled wheels fit, such as
msgspec's); ``jupyterlite-core`` is pinned to the same version because the kernel extension is built against its
application. The wheels are resolved by pip for Pyodide's platform on the first build and kept in the cache.

Raises :class:`SiteError` (a :class:`~musteach.rules.errors.MusError`) naming what is missing: npm, a download
that failed, a lesson folder without lessons.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from musteach.i18n import SOURCE_LANG, languages
from musteach.rules.errors import MusError
from musteach.teach.pages import index_page, language_link, language_name, lesson_bar, static_site_words

from .lessons import Lesson, list_lessons, list_translations

__all__ = [
    "LITE_VERSION",
    "PYODIDE_VERSION",
    "WHEEL_REQUIREMENTS",
    "LockEntry",
    "SiteError",
    "add_parser",
    "build_site",
    "extension_js",
    "fetch_pyodide",
    "fetch_wheels",
    "hidden_lesson",
    "index_html",
    "lock_entry",
    "rewrite_lock",
    "run",
]

#: The npm release of Pyodide (Python 3.14, ABI ``pyemscripten_2026_0``): what the Pyodide kernel was tested with.
PYODIDE_VERSION = "314.0.8"
#: ``jupyterlite-core`` and ``jupyterlite-pyodide-kernel``: one version for both.
LITE_VERSION = "0.8.6"
#: Pyodide's platform, for ``pip download``: the compiled wheels (msgspec) must match its ABI.
PYODIDE_PLATFORM = ("pyemscripten_2026_0_wasm32", "3.14", "cp314")

#: What the site's kernels import, resolved by pip for Pyodide's platform (their dependencies come along):
#: the Pyodide kernel's packages (its ``ipykernel`` and ``pyodide-kernel`` come from jupyterlite-pyodide-kernel),
#: the widgets, and musteach's dependencies but numpy (no Pyodide wheel of it on PyPI).
WHEEL_REQUIREMENTS = (
    "micropip",
    "comm",
    "ipython",
    "jedi",
    "ipywidgets",
    "anywidget",
    "fsrs>=6",
    "platformdirs>=4",
    "msgspec>=0.18",
    "babel>=2.14",
)
#: Downloaded with the rest but never loaded: a terminal's packages (no terminal in a browser) and the widget
#: packages that only carry JupyterLab's side (the site has JupyterLab's side already).
UNLOADED = ("pexpect", "ptyprocess", "widgetsnbextension", "jupyterlab-widgets")
#: The Pyodide kernel's own wheels, shipped inside jupyterlite-pyodide-kernel's JupyterLab extension.
KERNEL_WHEELS = ("piplite", "pyodide-kernel", "ipykernel")
#: What a lesson page needs of the Pyodide tarball (the source maps, type stubs and console pages are left out).
PYODIDE_FILES = ("pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.mjs", "pyodide.js", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")
#: The JupyterLite extension's name (an npm-style name, as JupyterLite expects).
EXTENSION_NAME = "musteach-lite"


class SiteError(MusError):
    """The static site could not be built; the message names what is missing."""


def _wheel_name(path: Path) -> str:
    """The normalised project name of a wheel file (``ipython_pygments_lexers-1.1.1-py3-none-any.whl`` →
    ``ipython-pygments-lexers``)."""
    return re.sub(r"[-_.]+", "-", path.name.split("-", 1)[0]).lower()


def _wheel_version(path: Path) -> str:
    return path.name.split("-")[1]


def _top_level(path: Path) -> list[str]:
    """The importable top-level names of a wheel: its ``top_level.txt`` if it has one, else its root folders and
    modules (``.dist-info`` and ``.data`` left out)."""
    with zipfile.ZipFile(path) as whl:
        names = whl.namelist()
        for n in names:
            if n.endswith(".dist-info/top_level.txt"):
                listed = [line.strip() for line in whl.read(n).decode().splitlines() if line.strip()]
                if listed:
                    return sorted(set(listed))
    tops: set[str] = set()
    for n in names:
        first = n.split("/", 1)[0]
        if first.endswith((".dist-info", ".data")):
            continue
        if "/" in n:
            tops.add(first)
        elif first.endswith(".py"):
            tops.add(first[:-3])
    return sorted(tops)


@dataclass(frozen=True, slots=True)
class LockEntry:
    """One package of the rewritten ``pyodide-lock.json``: a wheel hosted beside Pyodide, its sha256 and the names
    it can be imported as."""

    name: str
    version: str
    file_name: str
    sha256: str
    imports: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "file_name": self.file_name,
            "install_dir": "site",
            "sha256": self.sha256,
            "package_type": "package",
            "imports": list(self.imports),
            "depends": [],
            "unvendored_tests": False,
        }


def lock_entry(wheel: Path) -> LockEntry:
    """The lock entry of a wheel file: name, version, sha256 of its bytes, import names."""
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    return LockEntry(_wheel_name(wheel), _wheel_version(wheel), wheel.name, digest, tuple(_top_level(wheel)))


def rewrite_lock(lock: dict[str, Any], wheels: Iterable[Path]) -> dict[str, Any]:
    """Pyodide's lock with its packages replaced by ``wheels`` (hosted beside it): every other package is dropped,
    so the runtime can load nothing the site does not host. The lock's ``info`` (ABI, Python version) is kept.
    Raises SiteError for two wheels of one package."""
    packages: dict[str, Any] = {}
    for wheel in wheels:
        entry = lock_entry(wheel)
        if entry.name in packages:
            raise SiteError(f"two wheels of {entry.name}: {packages[entry.name]['file_name']} and {wheel.name}")
        packages[entry.name] = entry.as_json()
    return {"info": lock["info"], "packages": dict(sorted(packages.items()))}


def _run(cmd: Sequence[str | Path], what: str, cwd: Path | None = None) -> None:
    try:
        done = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise SiteError(f"{what}: {cmd[0]} is not installed") from exc
    if done.returncode:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise SiteError(f"{what} failed (exit {done.returncode}):\n{tail}")


def fetch_pyodide(cache: Path) -> Path:
    """Pyodide's npm tarball in ``cache`` (downloaded with ``npm pack`` the first time), unpacked; returns the
    folder that holds ``pyodide.mjs``. Raises SiteError when npm is missing or the download fails."""
    unpacked = cache / f"pyodide-{PYODIDE_VERSION}"
    if (unpacked / "package" / "pyodide.mjs").is_file():
        return unpacked / "package"
    cache.mkdir(parents=True, exist_ok=True)
    tgz = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.is_file():
        _run(["npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", cache],
             f"downloading pyodide {PYODIDE_VERSION} from npm")
    if not tgz.is_file():
        raise SiteError(f"npm pack wrote no {tgz.name}")
    tmp = unpacked.with_suffix(".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    with tarfile.open(tgz) as tar:
        tar.extractall(tmp, filter="data")
    shutil.rmtree(unpacked, ignore_errors=True)
    tmp.rename(unpacked)
    return unpacked / "package"


def fetch_wheels(cache: Path, python: str = sys.executable) -> list[Path]:
    """The wheels of :data:`WHEEL_REQUIREMENTS` for Pyodide's platform, downloaded by pip into ``cache`` the
    first time (a stamp names the requirements, so changing them downloads again). Raises SiteError when pip
    cannot find a wheel for the platform."""
    folder = cache / "wheels"
    stamp = folder / "requirements.txt"
    wanted = "\n".join(WHEEL_REQUIREMENTS) + "\n"
    if not (stamp.is_file() and stamp.read_text() == wanted):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        platform, version, abi = PYODIDE_PLATFORM
        _run([python, "-m", "pip", "download", "--quiet", "--dest", folder, "--only-binary=:all:",
              "--platform", platform, "--platform", "any", "--python-version", version,
              "--implementation", "cp", "--abi", abi, "--abi", "none", *WHEEL_REQUIREMENTS],
             "downloading the site's wheels from PyPI")
        stamp.write_text(wanted)
    return sorted(p for p in folder.glob("*.whl") if _wheel_name(p) not in UNLOADED)


def trimmed_babel(wheel: Path, folder: Path, langs: Sequence[str]) -> Path:
    """babel's wheel with only the locale data of ``langs`` (their regional variants and ``root`` included): the
    tutor formats numbers and names languages in the languages it speaks, and the other 700 locales are 10 of the
    wheel's 11 MB. The wheel's ``RECORD`` lists only what is kept. Written once into ``folder``."""
    out = folder / wheel.name
    if out.is_file():
        return out
    folder.mkdir(parents=True, exist_ok=True)

    def kept(name: str) -> bool:
        if "/locale-data/" not in name:
            return True
        stem = name.rsplit("/", 1)[1].removesuffix(".dat")
        return stem == "root" or any(stem == lang or stem.startswith(lang + "_") for lang in langs)

    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if not kept(info.filename):
                continue
            data = src.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                lines = [line for line in data.decode().splitlines() if kept(line.split(",", 1)[0])]
                data = ("\n".join(lines) + "\n").encode()
            dst.writestr(info, data)
    tmp.rename(out)
    return out


def kernel_wheels() -> list[Path]:
    """The Pyodide kernel's own wheels (``piplite``, ``pyodide-kernel``, its ``ipykernel``), from the
    jupyterlite-pyodide-kernel extension installed here. Raises SiteError when it is not installed."""
    for root in (Path(sys.prefix), Path(sys.base_prefix)):
        pypi = root / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
        if pypi.is_dir():
            found = [p for p in sorted(pypi.glob("*.whl")) if _wheel_name(p) in KERNEL_WHEELS]
            if {_wheel_name(p) for p in found} == set(KERNEL_WHEELS):
                return found
    raise SiteError(f"jupyterlite-pyodide-kernel {LITE_VERSION} is not installed (pip install 'musteach[site]')")


def build_wheel(project: Path, cache: Path, python: str = sys.executable) -> Path:
    """The musteach wheel built from ``project`` (a fresh build each time, into ``cache/dist``)."""
    dist = cache / "dist"
    if dist.is_file():  # a wheel moved onto the folder's name by a build that ran at the same time (before the lock)
        dist.unlink()
    shutil.rmtree(dist, ignore_errors=True)
    _run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", dist, project],
         "building the musteach wheel")
    wheels = sorted(dist.glob("musteach-*.whl"))
    if len(wheels) != 1:
        raise SiteError(f"expected one musteach wheel in {dist}, found {len(wheels)}")
    return wheels[0]


def hidden_lesson(notebook: dict[str, Any]) -> dict[str, Any]:
    """A lesson notebook as the site serves it: every code cell's source collapsed (``jupyter.source_hidden``,
    which JupyterLab honours) and no outputs; markdown cells as they are."""
    out: dict[str, Any] = json.loads(json.dumps(notebook))
    for cell in out.get("cells", []):
        if cell.get("cell_type") == "code":
            cell.setdefault("metadata", {}).setdefault("jupyter", {})["source_hidden"] = True
            cell["outputs"] = []
            cell["execution_count"] = None
        cell.setdefault("metadata", {}).update({"editable": False, "deletable": False})
    out.setdefault("metadata", {})["musteach"] = {"lesson": True}
    return out


def _lesson_url(lesson: Lesson, lang: str) -> str:
    path = lesson.name if lang == SOURCE_LANG else f"{lang}/{lesson.name}"
    return f"notebooks/index.html?path={path}"


def lesson_links(translations: dict[str, list[Lesson]]) -> dict[str, dict[str, Any]]:
    """What the lesson bar of each lesson page shows, keyed by the page's path (``"es/03-grande-chica.ipynb"``):
    its title, the index, the previous and next lesson, and the same lesson in the other languages."""
    out: dict[str, dict[str, Any]] = {}
    for lang, lessons in translations.items():
        bar = lesson_bar(lang)
        site_words = static_site_words(lang)
        index = "index.html" if lang == SOURCE_LANG else f"index.html#{lang}"
        for i, lesson in enumerate(lessons):
            path = lesson.name if lang == SOURCE_LANG else f"{lang}/{lesson.name}"
            twins = []
            for other, others in translations.items():
                twin = next((x for x in others if x.name == lesson.name), None)
                if other != lang and twin is not None:
                    link = language_link(other, lang)
                    twins.append({"href": _lesson_url(twin, other), "text": link.name, "title": link.lesson_tooltip,
                                  "lang": other})
            out[path] = {
                "lang": lang,
                "title": lesson.title,
                "index": {"href": index, "text": bar.lessons},
                "previous": ({"href": _lesson_url(lessons[i - 1], lang), "text": "← " + lessons[i - 1].title}
                             if i > 0 else None),
                "next": ({"href": _lesson_url(lessons[i + 1], lang), "text": lessons[i + 1].title + " →"}
                         if i + 1 < len(lessons) else None),
                "twins": twins,
                "wait": site_words.loading,
            }
    return out


def extension_js(links: dict[str, dict[str, Any]]) -> str:
    """The site's JupyterLite extension: a federated module written by hand (no bundler), with one plugin that,
    on each lesson page, adds the lesson bar, hides the notebook's chrome and runs the lesson's cells once its
    kernel is ready. ``links`` is :func:`lesson_links`."""
    return _EXTENSION_TEMPLATE.replace("__LINKS__", json.dumps(links, ensure_ascii=False, sort_keys=True))


_EXTENSION_TEMPLATE = r"""/* musteach-lite: the lesson pages of musteach's static site (written by musteach_server.site). */
var _JUPYTERLAB;
(function () {
  "use strict";
  var LINKS = __LINKS__;
  var STYLE = [
    "body.musteach-lesson .jp-InputPrompt, body.musteach-lesson .jp-OutputPrompt { display: none; }",
    "body.musteach-lesson .jp-Collapser, body.musteach-lesson .jp-cell-toolbar { display: none; }",
    "body.musteach-lesson .jp-Notebook-footer { display: none; }",
    "body.musteach-lesson .jp-CodeCell .jp-Cell-inputWrapper { display: none; }",
    "body.musteach-lesson .jp-Cell.jp-mod-selected, body.musteach-lesson .jp-Cell.jp-mod-active { background: transparent; }",
    "body.musteach-lesson .jp-Notebook .jp-Cell.jp-mod-active, body.musteach-lesson .jp-Notebook .jp-Cell.jp-mod-selected",
    "  { border-color: transparent; box-shadow: none; }",
    "body.musteach-lesson .jp-Notebook.jp-mod-commandMode .jp-Cell.jp-mod-active.jp-mod-selected:not(.jp-mod-multiSelected)",
    "  { border-color: transparent; }",
    ".musteach-bar { position: fixed; top: 0; left: 0; right: 0; z-index: 100; display: flex; flex-wrap: wrap;",
    "  gap: 0.3rem 1rem; align-items: center; padding: 0.45rem 1rem; background: #1b5e20; color: #fff;",
    "  font: 15px/1.4 system-ui, sans-serif; }",
    ".musteach-bar a { color: #fff; text-decoration: underline; }",
    ".musteach-bar .musteach-bar-title { font-weight: 600; margin-right: auto; }",
    ".musteach-bar .musteach-wait { flex-basis: 100%; background: #fffde7; color: #333; padding: 0.3rem 0.6rem;",
    "  border-radius: 4px; }",
    "body.musteach-ran .musteach-bar .musteach-wait { display: none; }",
  ].join("\n");

  function pathOf(widget) {
    var p = widget && widget.context && widget.context.path;
    return typeof p === "string" ? p.replace(/^\/+/, "") : null;
  }

  function link(info, rel) {
    var a = document.createElement("a");
    a.href = info.href;
    a.textContent = info.text;
    if (info.title) { a.title = info.title; }
    if (info.lang) { a.hreflang = info.lang; a.lang = info.lang; }
    if (rel) { a.rel = rel; }
    return a;
  }

  function fitMain() {
    var bar = document.querySelector(".musteach-bar");
    var main = document.getElementById("main");
    if (!bar || !main) { return; }
    var h = bar.getBoundingClientRect().height;
    if (main.style.top !== h + "px") {
      main.style.top = h + "px";
      window.dispatchEvent(new Event("resize"));
    }
  }

  function addBar(info) {
    if (document.querySelector(".musteach-bar")) { return; }
    var nav = document.createElement("nav");
    nav.className = "musteach-bar";
    nav.setAttribute("aria-label", info.index.text);
    var title = document.createElement("span");
    title.className = "musteach-bar-title";
    title.textContent = info.title;
    nav.appendChild(title);
    nav.appendChild(link(info.index));
    if (info.previous) { nav.appendChild(link(info.previous, "prev")); }
    if (info.next) { nav.appendChild(link(info.next, "next")); }
    info.twins.forEach(function (t) { nav.appendChild(link(t, "alternate")); });
    var wait = document.createElement("div");
    wait.className = "musteach-wait";
    wait.setAttribute("role", "status");
    wait.textContent = info.wait;
    nav.appendChild(wait);
    document.body.insertBefore(nav, document.body.firstChild);
    document.documentElement.lang = info.lang;
    fitMain();
    window.addEventListener("resize", function () { setTimeout(fitMain, 50); });
  }

  function simplify(app, widget) {
    if (widget.toolbar && widget.toolbar.hide) { widget.toolbar.hide(); }
    var done = Promise.resolve();
    ["application:toggle-top"].forEach(function (id) {
      if (app.commands.hasCommand(id) && app.commands.isToggled(id)) {
        done = done.then(function () { return app.commands.execute(id); }).catch(function () {});
      }
    });
    // the menu bar (File, Edit…) is no use in a lesson: Notebook 7's shell keeps it in a panel it exposes no
    // command for, so it is hidden through that panel when it is there (nothing happens otherwise)
    var menu = app.shell && app.shell._menuWrapper;
    if (menu && typeof menu.hide === "function") { menu.hide(); }
    return done;
  }

  function runLesson(app, widget) {
    return widget.context.ready
      .then(function () { return widget.sessionContext.ready; })
      .then(function () { return app.commands.execute("notebook:run-all-cells"); })
      .then(function () {
        var nb = widget.content;
        nb.activeCellIndex = 0;
        nb.mode = "command";
        if (nb.scrollToItem) { nb.scrollToItem(0, "start"); }
        document.body.classList.add("musteach-ran");
        setTimeout(fitMain, 50);
      });
  }

  // A lesson's own links to lessons (next, the index, the other language) are relative notebook paths, which
  // JupyterLab would open in a new tab of a file browser the site does not have: they open the lesson page instead.
  function lessonOfLink(a) {
    var url;
    try { url = new URL(a.href, window.location.href); } catch (e) { return null; }
    if (url.origin !== window.location.origin) { return null; }
    var at = url.pathname.indexOf("/files/");
    if (at < 0) { return null; }
    var path = decodeURIComponent(url.pathname.slice(at + "/files/".length));
    return LINKS[path] ? path : null;
  }

  function onLinkClick(event) {
    var a = event.target && event.target.closest ? event.target.closest(".jp-RenderedMarkdown a[href]") : null;
    var path = a ? lessonOfLink(a) : null;
    if (!path || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    event.preventDefault();
    event.stopPropagation();
    window.location.href = "index.html?path=" + path;
  }

  var seen = typeof WeakSet === "function" ? new WeakSet() : null;
  function onWidget(app, widget) {
    var path = pathOf(widget);
    if (!path || !LINKS[path] || (seen && seen.has(widget))) { return; }
    if (seen) { seen.add(widget); }
    document.body.classList.add("musteach-lesson");
    addBar(LINKS[path]);
    simplify(app, widget).then(function () { setTimeout(fitMain, 50); });
    runLesson(app, widget).catch(function (err) { console.error("musteach-lite", err); });
  }

  var plugin = {
    id: "musteach-lite:lessons",
    autoStart: true,
    activate: function (app) {
      var style = document.createElement("style");
      style.textContent = STYLE;
      document.head.appendChild(style);
      document.addEventListener("click", onLinkClick, true);
      var check = function () { onWidget(app, app.shell.currentWidget); };
      app.restored.then(function () {
        if (app.shell.currentChanged) { app.shell.currentChanged.connect(check); }
        check();
        var tries = 0;
        var timer = setInterval(function () { check(); if (++tries > 120) { clearInterval(timer); } }, 500);
      });
    }
  };

  var container = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module === "./extension" || module === "./index") {
        return Promise.resolve(function () { return { __esModule: true, "default": [plugin] }; });
      }
      return Promise.reject(new Error("Module " + module + " does not exist in __NAME__"));
    }
  };
  _JUPYTERLAB = typeof _JUPYTERLAB === "undefined" ? {} : _JUPYTERLAB;
  _JUPYTERLAB["__NAME__"] = container;
})();
""".replace("__NAME__", EXTENSION_NAME)


def write_extension(folder: Path, links: dict[str, dict[str, Any]]) -> Path:
    """Write the extension as a prebuilt JupyterLab extension folder (``package.json`` and ``static/``)."""
    js = extension_js(links).encode()
    digest = hashlib.sha256(js).hexdigest()[:16]
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "static").mkdir(parents=True)
    entry = f"static/remoteEntry.{digest}.js"
    (folder / entry).write_bytes(js)
    package = {"name": EXTENSION_NAME, "version": "1.0.0",
               "jupyterlab": {"_build": {"load": entry, "extension": "./extension"}}}
    (folder / "package.json").write_text(json.dumps(package, indent=1))
    return folder


def index_html(translations: dict[str, list[Lesson]], config_script: str = "") -> str:
    """The site's front page: the lessons of every language, each linking to its lesson page. ``config_script``:
    JupyterLite's ``<script id="jupyter-config-data">`` element, which every page of the site reads from the
    root ``index.html``."""
    sections = []
    for lang, lessons in translations.items():
        words = index_page(lang)
        intro = " ".join(words.paragraphs)
        items = "\n".join(f'    <li><a href="{escape(_lesson_url(x, lang))}">{escape(x.title)}</a></li>' for x in lessons)
        sections.append(f'<section id="{lang}" lang="{lang}">\n  <h2>{escape(language_name(lang))}</h2>\n'
                        f'  <p>{escape(intro)}</p>\n  <ol start="0">\n{items}\n  </ol>\n</section>')
    body = "\n".join(sections)
    return f"""<!doctype html>
<html lang="{SOURCE_LANG}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>musteach</title>
{config_script}
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 0 auto; padding: 1rem; color: #1a1a1a; }}
h1 {{ color: #1b5e20; }} a {{ color: #0b4f8a; }} li {{ margin: 0.3rem 0; }}
</style>
</head>
<body>
<h1>musteach</h1>
{body}
</body>
</html>
"""


def _lite_config(output: Path, contents: Path, extension: Path) -> dict[str, Any]:
    return {
        "LiteBuildConfig": {
            "contents": [str(contents)],
            "output_dir": str(output),
            "apps": ["notebooks"],
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
            "federated_extensions": [str(extension)],
            "ignore_sys_prefix": ["federated_extensions"],
        },
    }


def _kernel_settings(packages: Sequence[str]) -> dict[str, Any]:
    return {
        "@jupyterlite/pyodide-kernel-extension:kernel": {
            "disablePyPIFallback": True,
            "pipliteUrls": [],
            "loadPyodideOptions": {"packages": list(packages)},
        }
    }


def _sys_extensions() -> list[Path]:
    """The JupyterLab extensions the site needs from this environment: the widget manager, anywidget's and the
    Pyodide kernel's (the build's other installed extensions, such as Voilà's preview, are left out)."""
    wanted = ("@jupyter-widgets/jupyterlab-manager", "anywidget", "@jupyterlite/pyodide-kernel-extension")
    out = []
    for name in wanted:
        for root in (Path(sys.prefix), Path(sys.base_prefix)):
            folder = root / "share/jupyter/labextensions" / name
            if (folder / "package.json").is_file():
                out.append(folder)
                break
        else:
            raise SiteError(f"the JupyterLab extension {name} is not installed (pip install 'musteach[site]')")
    return out


def build_site(output: Path, *, lessons: Path, project: Path, cache: Path) -> dict[str, Any]:
    """Build the static site into ``output`` (replaced) from the lessons in ``lessons`` (and its language
    sub-folders), the musteach project at ``project`` and the downloads kept in ``cache``. Returns a summary:
    the lessons, the wheels and the site's size in bytes. Raises SiteError. Builds sharing a cache take turns
    (a lock file in it): each rebuilds the cache's wheel and work folders, and two at once broke each other's
    (a fresh-clone run: pip's wheel moved onto the folder's name the other build had just removed)."""
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_site(output, lessons=lessons, project=project, cache=cache)


def _build_site(output: Path, *, lessons: Path, project: Path, cache: Path) -> dict[str, Any]:
    source = list_lessons(lessons)
    if not source:
        raise SiteError(f"no lessons in {lessons}")
    translations = {SOURCE_LANG: source, **list_translations(lessons)}
    pyodide = fetch_pyodide(cache)
    wheels = [trimmed_babel(w, cache / "trimmed", languages()) if _wheel_name(w) == "babel" else w
              for w in fetch_wheels(cache)]
    wheels += [*kernel_wheels(), build_wheel(project, cache)]
    work = cache / "lite"
    shutil.rmtree(work, ignore_errors=True)
    static = work / "static" / "pyodide"
    static.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, static / name)
    for wheel in wheels:
        shutil.copyfile(wheel, static / wheel.name)
    lock = rewrite_lock(json.loads((pyodide / "pyodide-lock.json").read_text()), wheels)
    (static / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    contents = work / "contents"
    for lang, items in translations.items():
        folder = contents if lang == SOURCE_LANG else contents / lang
        folder.mkdir(parents=True, exist_ok=True)
        src = lessons if lang == SOURCE_LANG else lessons / lang
        for lesson in items:
            nb = json.loads((src / lesson.name).read_text(encoding="utf-8"))
            (folder / lesson.name).write_text(json.dumps(hidden_lesson(nb), ensure_ascii=False, indent=1),
                                              encoding="utf-8")
    extension = write_extension(work / "extension", lesson_links(translations))
    config = _lite_config(output.resolve(), contents, extension)
    config["LiteBuildConfig"]["federated_extensions"] = [str(p) for p in (*_sys_extensions(), extension)]
    (work / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1))
    packages = sorted(lock["packages"])
    (work / "jupyter-lite.json").write_text(json.dumps(
        {"jupyter-lite-schema-version": 0,
         "jupyter-config-data": {"litePluginSettings": _kernel_settings(packages), "disabledExtensions": [
             "@jupyterlab/notebook-extension:language-server", "@jupyterlite/application-extension:share-file"]}},
        indent=1))
    shutil.rmtree(output, ignore_errors=True)
    env = dict(os.environ)
    jupyter_lite = Path(sys.executable).with_name("jupyter-lite")
    cmd = [str(jupyter_lite) if jupyter_lite.exists() else "jupyter-lite", "build", "--lite-dir", str(work)]
    try:
        done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=env, check=False)
    except FileNotFoundError as exc:
        raise SiteError(f"jupyterlite-core {LITE_VERSION} is not installed (pip install 'musteach[site]')") from exc
    if done.returncode or not (output / "notebooks" / "index.html").is_file():
        tail = "\n".join((done.stderr + done.stdout).strip().splitlines()[-15:])
        raise SiteError(f"jupyter lite build failed (exit {done.returncode}):\n{tail}")
    root = output / "index.html"
    found = _CONFIG_SCRIPT.search(root.read_text(encoding="utf-8"))
    if found is None:
        raise SiteError(f"{root} holds no jupyter-config-data script: JupyterLite {LITE_VERSION} changed")
    root.write_text(index_html(translations, found.group(0)), encoding="utf-8")
    _strip_sourcemaps(output)
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    return {"lessons": sum(len(v) for v in translations.values()), "languages": list(translations),
            "wheels": [w.name for w in wheels], "bytes": size}


_CONFIG_SCRIPT = re.compile(r'<script[^>]*id="jupyter-config-data"[^>]*>.*?</script>', re.DOTALL)


def _strip_sourcemaps(output: Path) -> None:
    for p in output.rglob("*.map"):
        p.unlink()


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "site",
        help="build the tutorial as a static site that runs in the browser (JupyterLite and Pyodide)",
        description="Build DIR, a static site of every lesson in every language that runs in the visitor's "
        "browser with no server: publish DIR on any static host. Downloads (Pyodide from npm, wheels from PyPI) "
        "are kept in --cache, so a second build fetches nothing.",
    )
    p.add_argument("dir", metavar="DIR", help="folder to write the site into (replaced)")
    p.add_argument("--cache", default=".venv/site-cache", help="folder for the downloads (default: %(default)s)")
    p.add_argument("--project", default=".", help="the musteach project to build the wheel from (default: %(default)s)")
    p.add_argument("--lessons", default="lessons", help="the lessons folder (default: %(default)s)")
    return p


def run(args: argparse.Namespace) -> int:
    summary = build_site(Path(args.dir), lessons=Path(args.lessons), project=Path(args.project),
                         cache=Path(args.cache))
    print(f"built {args.dir}: {summary['lessons']} lessons in {', '.join(summary['languages'])}, "
          f"{len(summary['wheels'])} wheels, {summary['bytes'] / 1e6:.1f} MB")
    return 0
