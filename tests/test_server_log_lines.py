"""The server's refusal log line (``musteach_server.logs.log_request``): one short line, whatever the path."""

from __future__ import annotations

import logging

import pytest

pytest.importorskip("tornado")

from musteach_server.logs import LOGGED_URI_CHARS, log_request
from tornado.httputil import HTTPServerRequest


class _Refused:
    """The little of a tornado handler that log_request reads: its request, its status and reason."""

    def __init__(self, uri: str, status: int) -> None:
        self.request = HTTPServerRequest(method="GET", uri=uri)
        self._status = status
        self._reason = "Not Found"

    def get_status(self) -> int:
        return self._status


def test_a_huge_path_is_cut_in_the_log_line(caplog):
    uri = "/" + "a" * 10_000
    with caplog.at_level(logging.WARNING, logger="musteach.serve"):
        log_request(_Refused(uri, 404))  # type: ignore[arg-type]
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith("refused GET /aaa") and line.endswith(": 404 Not Found")
    assert "(10001 characters)" in line
    assert len(line) < LOGGED_URI_CHARS + 100


def test_a_short_path_is_logged_whole(caplog):
    with caplog.at_level(logging.WARNING, logger="musteach.serve"):
        log_request(_Refused("/voila/render/99-x.ipynb", 404))  # type: ignore[arg-type]
    assert [r.getMessage() for r in caplog.records] == ["refused GET /voila/render/99-x.ipynb: 404 Not Found"]
