"""The server's log (issue 24 item 4: moved out of :mod:`musteach_server.app`): one readable line per
refusal, and Voilà's, jupyter_server's and tornado's own lines tidied (:class:`TidyVoilaLog`).
"""

from __future__ import annotations

import logging
import re

import tornado.web

from .jupyter_compat import status_reason

__all__ = ["TidyVoilaLog", "log_request"]

log = logging.getLogger("musteach.serve")


#: The longest request target a refusal's log line repeats: a visitor's 10,000-character path is cut to this.
LOGGED_URI_CHARS = 200


def log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log, reduced to refusals: a line per 4xx/5xx answer (the busy page logs itself); the
    request's target is cut to :data:`LOGGED_URI_CHARS` characters, so that no visitor can fill the log."""
    status = handler.get_status()
    if status >= 400 and status != 503:
        uri = handler.request.uri or ""
        if len(uri) > LOGGED_URI_CHARS:
            uri = f"{uri[:LOGGED_URI_CHARS]}... ({len(uri)} characters)"
        log.warning("refused %s %s: %d %s", handler.request.method, uri, status, status_reason(handler))


_REQUEST_LINE = re.compile(r"^\d{3} (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ")


class TidyVoilaLog(logging.Filter):
    """Keeps Voilà's, jupyter_server's and tornado's warnings readable: rewrites the refused-message line,
    drops the culling line (the kernel manager logs its own), jupyter_server's line per refused request
    (:func:`log_request` logs one) and the "not trusted" notice (lessons are not signed)."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if msg.startswith(("Culling ", "wrote error:", "The websocket_ping_timeout")) or msg.endswith(" is not trusted"):
            return False
        if _REQUEST_LINE.match(msg):  # jupyter_server's own line for a refused request: ours says it
            return False
        if msg.startswith("Error at server while executing cell"):  # Voilà logs the whole cell and traceback
            err = record.exc_info[1] if record.exc_info else None
            what = f"{getattr(err, 'ename', 'Error')}: {getattr(err, 'evalue', '')}".strip(": ")
            record.msg, record.args = "a lesson cell failed (its page shows a note instead): %s", (what,)
            record.exc_info, record.exc_text = None, None
        if msg.startswith("Received message of type") and "not allowed" in msg:
            kind = msg.split('"')[1] if '"' in msg else "?"
            record.msg, record.args = "refused a page's %s message (only widget messages are allowed)", (kind,)
        return True
