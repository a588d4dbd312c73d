"""The lesson page's Jinja templates, compiled once for the server's life instead of once per page.

Voilà renders every lesson page, a preheated one included, with a new nbconvert exporter, and every exporter
builds a new Jinja environment that parses and compiles the page's fourteen templates (``musteach`` extends
Voilà's ``lab``, which extends nbconvert's ``lab`` and ``base``...) again: about 200 ms of CPU in the
server's event loop, in one piece, before the page's first cell runs. While a lesson's pool refilled after a
visitor took its kernel, that piece held up the websocket messages of every visitor's clicks (issue 16: one
click in five quiz kinds waited 170-250 ms for its verdict).

:class:`CompiledTemplates` keeps each template's compiled code in memory, keyed by its name and file and
checked against its source (a template edited while the server runs is compiled again); every exporter's
environment reads it through :class:`SharedTemplatesExporter`, which :func:`share_compiled_templates` puts in
Voilà's place when the server starts. A page's rendering then costs about 30 ms, in pieces of at most about
30 ms between the cells it runs.
"""

from __future__ import annotations

from typing import Any

import jinja2
import voila.notebook_renderer
from voila.exporter import VoilaExporter

__all__ = ["COMPILED_TEMPLATES", "CompiledTemplates", "SharedTemplatesExporter", "share_compiled_templates"]


class CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's bytecode cache in memory: the compiled code of each template (marshalled, as Jinja's own file
    cache keeps it), keyed by template name and file. Jinja checks a cached template against its source's
    checksum before using it, and compiles it again when the source changed."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        self._code.clear()

    def __len__(self) -> int:
        """Templates compiled so far."""
        return len(self._code)


#: The server's one cache, shared by every page's exporter.
COMPILED_TEMPLATES = CompiledTemplates()


class SharedTemplatesExporter(VoilaExporter):  # type: ignore[misc]  # voila is untyped
    """Voilà's exporter, whose Jinja environment (new for each page) reads and stores its compiled templates
    in :data:`COMPILED_TEMPLATES`."""

    @property
    def environment(self) -> Any:
        env = super().environment
        env.bytecode_cache = COMPILED_TEMPLATES
        return env


def share_compiled_templates() -> None:
    """Make Voilà render every page (preheated or not) with :class:`SharedTemplatesExporter`: Voilà's page
    renderer builds its exporter from the name ``VoilaExporter`` of its module, so that name is replaced
    there. Called once when the server starts; calling it again changes nothing."""
    voila.notebook_renderer.VoilaExporter = SharedTemplatesExporter
