"""Click to feedback (issue 16): while a pool refills, the server's event loop stays free for the visitors'
clicks, the lesson page's templates being compiled once for the server's life (:mod:`musteach_server.templates`),
not again for every page (~200 ms in one piece); and a click's messages go out to the page at once
(``TCP_NODELAY``), not ~40 ms late behind Nagle's algorithm."""

from __future__ import annotations

import asyncio
import types
from pathlib import Path
from unittest import mock

import jinja2
import nbformat
import pytest

pytest.importorskip("voila")

import voila.notebook_renderer
from musteach_server.app import (
    SHARE_DIR,
    TEMPLATE,
    VisitorWebsocketHandler,
)
from musteach_server.templates import CompiledTemplates, SharedTemplatesExporter, share_compiled_templates
from traitlets.config import Config
from voila.paths import collect_template_paths
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler


def _render(exporter: SharedTemplatesExporter, nb: nbformat.NotebookNode) -> str:
    """A whole page as Voilà renders it (its cells given back unexecuted, no kernel)."""

    async def kernel_start(nb: object) -> str:
        return "kernel"

    async def notebook_execute(nb: object, kernel_id: str) -> None:
        return None

    async def cell_generator(nb: nbformat.NotebookNode, kernel_id: str):  # type: ignore[no-untyped-def]
        for cell in nb.cells:
            yield cell

    async def page() -> str:
        resources = {"base_url": "/", "theme": "light", "template": TEMPLATE, "metadata": {"name": "lesson"},
                     "page_config": {}}
        context = {"frontend": "voila", "main_js": "voila.js", "kernel_start": kernel_start,
                   "notebook_execute": notebook_execute, "progressive_rendering": False,
                   "cell_generator": cell_generator}
        parts = [html async for html, _ in exporter.generate_from_notebook_node(
            nb, resources=resources, extra_context=context, page_config={})]
        return "".join(parts)

    return asyncio.run(page())


def test_every_page_renders_with_the_templates_compiled_for_the_first(monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", str(SHARE_DIR))
    monkeypatch.setattr("musteach_server.templates.COMPILED_TEMPLATES", CompiledTemplates())
    paths = collect_template_paths(["voila", "nbconvert"], TEMPLATE)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Grande\n\nThe highest cards win."),
                                         nbformat.v4.new_code_cell("1 + 1")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    compiled: list[str] = []  # names of the templates compiled, in order
    original = jinja2.Environment.compile

    def counting(env, source, name=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        compiled.append(name)
        return original(env, source, name, *args, **kwargs)

    pages, counts = [], []
    with mock.patch.object(jinja2.Environment, "compile", counting):
        for _ in range(3):  # a new exporter (and Jinja environment) for every page, as Voilà makes them
            exporter = SharedTemplatesExporter(template_paths=paths, template_name=TEMPLATE, config=Config(),
                                               theme="light", base_url="/")
            exporter.exclude_input = True
            before = len(compiled)
            pages.append(_render(exporter, nb))
            counts.append(len(compiled) - before)
    assert counts[0] >= 5 and "index.html.j2" in compiled  # musteach's template and the ones it extends
    assert counts[1:] == [0, 0]  # later pages compile nothing
    for page in pages:
        assert "The highest cards win." in page and "musteach" in page
    assert len({len(page) for page in pages}) == 1  # the same page each time


def test_a_template_edited_while_the_server_runs_is_compiled_again(tmp_path: Path):
    cache = CompiledTemplates()
    (tmp_path / "page.j2").write_text("first {{ x }}")

    def env() -> jinja2.Environment:
        return jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), bytecode_cache=cache)

    assert env().get_template("page.j2").render(x=1) == "first 1" and len(cache) == 1
    with mock.patch.object(jinja2.Environment, "compile", side_effect=AssertionError("compiled again")):
        assert env().get_template("page.j2").render(x=2) == "first 2"
    (tmp_path / "page.j2").write_text("second {{ x }}")
    assert env().get_template("page.j2").render(x=3) == "second 3"


def test_the_server_renders_its_pages_with_the_shared_templates(monkeypatch):
    monkeypatch.setattr(voila.notebook_renderer, "VoilaExporter", voila.notebook_renderer.VoilaExporter)
    share_compiled_templates()
    share_compiled_templates()
    assert voila.notebook_renderer.VoilaExporter is SharedTemplatesExporter


def test_a_page_websocket_sends_its_messages_without_delay():
    handler = object.__new__(VisitorWebsocketHandler)  # no request: only what open() does of its own
    handler.application = types.SimpleNamespace(settings={})  # type: ignore[assignment]
    with mock.patch.object(VisitorWebsocketHandler, "set_nodelay") as nodelay, \
            mock.patch.object(VoilaKernelWebsocketHandler, "open", mock.AsyncMock()) as voila_open:
        asyncio.run(handler.open("kernel-1"))
    nodelay.assert_called_once_with(True)
    voila_open.assert_awaited_once_with("kernel-1")
