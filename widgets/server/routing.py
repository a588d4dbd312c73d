"""One routing rule for lesson pages (issue 26, item 1): which ``/voila/render/<path>`` requests are lessons.

Pure Python (no Voilà import). Voilà's page handler renders any path whose *suffix* is ``.ipynb``, and
:class:`pathlib.Path` ignores a trailing ``/``: ``03-grande-chica.ipynb/``, ``//03-…``, ``es%2F03-…/`` and
``/tmp/x.ipynb`` all started a kernel, some past every check of the lesson handler. Here a request is a lesson
only when its path, as tornado decoded it, *is* the path of a served lesson, character for character; every
other spelling of a notebook (slashes, dots, case, absolute or out-of-tree paths, whether a file exists there
or not) is refused with the same 404; a path that is not a notebook may only be a picture or stylesheet, which
Voilà's ``/voila/files/`` handler (and its allowlist) decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

__all__ = ["FILE_SUFFIXES", "LessonRequest", "RequestKind", "lesson_request"]

#: Suffixes of the files a ``/voila/render/`` address may be redirected to ``/voila/files/`` for.
FILE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".css")


class RequestKind(Enum):
    """What a ``/voila/render/<path>`` request is (see :func:`lesson_request`)."""

    LESSON = "lesson"  # a served lesson, by its exact path: the gated page handler
    FILE = "file"  # a picture or stylesheet: redirected to /voila/files/, whose allowlist decides
    REFUSED = "refused"  # anything else: 404, the same answer whether a file exists there or not


@dataclass(frozen=True)
class LessonRequest:
    """The answer of :func:`lesson_request`: its kind and, for a lesson, its path (as served)."""

    kind: RequestKind
    path: str = ""


def lesson_request(path: str | None, served: Iterable[str]) -> LessonRequest:
    """What ``/voila/render/<path>`` is. ``path``: the part after ``/voila/render/``, %-decoded (tornado's
    path argument; None when empty); ``served``: the paths of the served lessons, relative to the lessons
    folder (``03-grande-chica.ipynb``, ``es/03-grande-chica.ipynb``). Never raises.

    >>> served = ["03-grande-chica.ipynb", "es/03-grande-chica.ipynb"]
    >>> lesson_request("es/03-grande-chica.ipynb", served)
    LessonRequest(kind=<RequestKind.LESSON: 'lesson'>, path='es/03-grande-chica.ipynb')
    >>> [lesson_request(p, served).kind.value for p in ("03-grande-chica.ipynb/", "/tmp/x.ipynb", "03-GRANDE-chica.ipynb")]
    ['refused', 'refused', 'refused']
    >>> lesson_request("picture.png", served).kind.value, lesson_request("/etc/x.png", served).kind.value
    ('file', 'refused')
    """
    if not path:
        return LessonRequest(RequestKind.REFUSED)
    if path in set(served):
        return LessonRequest(RequestKind.LESSON, path)
    plain = "\\" not in path and "\x00" not in path and not path.startswith("/") and not path.endswith("/")
    parts = path.split("/")
    if plain and all(p not in ("", ".", "..") for p in parts) and ".ipynb" not in path.lower():
        if path.lower().endswith(FILE_SUFFIXES):
            return LessonRequest(RequestKind.FILE, path)
    return LessonRequest(RequestKind.REFUSED)
