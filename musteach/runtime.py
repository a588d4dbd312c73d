"""What the Python running musteach can do: threads, and numpy.

musteach runs in three places: a Jupyter kernel on a server or a laptop, the command line, and a visitor's browser
through Pyodide (the static site, ``musteach site``). Pyodide's Python has no threads, and numpy has no Pyodide
wheel on PyPI, so the site has neither. Whatever would start a thread asks :func:`threads_available` and does the
work in the caller instead; whatever counts with numpy asks :func:`numpy_available` (or catches
:class:`NeedsNumpyError` from :func:`require_numpy`) and says plainly that the feature needs the server version.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache

from .i18n import Text
from .rules.errors import MusError

__all__ = ["NeedsNumpyError", "in_browser", "numpy_available", "require_numpy", "threads_available"]


def in_browser() -> bool:
    """True when this Python runs in a web browser (Pyodide: ``sys.platform == "emscripten"``)."""
    return sys.platform == "emscripten"


def threads_available() -> bool:
    """True when this Python can start threads (False in the browser: Pyodide's Python has none)."""
    return not in_browser()


@cache
def numpy_available() -> bool:
    """True when numpy can be imported here (it cannot in the static site)."""
    return importlib.util.find_spec("numpy") is not None


class NeedsNumpyError(MusError):
    """A feature that counts with numpy was asked for where numpy is missing (the static site). ``feature`` names
    it in the learner's words; the message says to use the server version."""

    def __init__(self, feature: Text | str):
        super().__init__(Text("{feature}: this needs the server version of the tutor (it counts with numpy, which "
                              "this browser version does not have). Open the lesson with `musteach serve` or in "
                              "JupyterLab.", feature=feature))


def require_numpy(feature: Text | str) -> None:
    """Raise :class:`NeedsNumpyError` naming ``feature`` when numpy is missing; do nothing otherwise."""
    if not numpy_available():
        raise NeedsNumpyError(feature)
