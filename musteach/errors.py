"""The errors below everything else: :class:`MusError` (the base of every error musteach raises on bad input),
:class:`LanguageError` (what :func:`musteach.i18n.check_lang` raises) and :func:`shown` (a bad value as a message
quotes it). Their public home is :mod:`musteach.rules.errors`, which re-exports them; this module imports no
other of musteach at run time (a message is a :class:`~musteach.i18n.Text` by its type only), so that
:mod:`musteach.i18n` can import it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .i18n import Text

__all__ = ["LanguageError", "MusError", "shown"]

_SHOWN_MAX = 40  # characters of a bad value quoted in a message


def shown(value: object) -> str:
    """A bad value as a message quotes it: as JSON when it is JSON (``true``, ``null``, ``"x"``), else its repr,
    cut to about 40 characters, since input often arrives as JSON and a huge value must not fill the screen.

    >>> shown(True), shown(None), shown("7"), shown(7), shown(10 ** 60)
    ('true', 'null', '"7"', '7', '1000000000000000000000000000000000000000… (61 digits)')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) <= _SHOWN_MAX:
        return text
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{text[:_SHOWN_MAX]}… ({len(text)} digits)"
    return f"{text[:_SHOWN_MAX]}…"


class MusError(ValueError):
    """Base class of every error musteach raises on bad input.

    message: a :class:`~musteach.i18n.Text` (or a plain English string). ``str(error)`` is the English;
    :meth:`message` puts it into the learner's language, for a command's ``--lang`` or a widget.
    """

    __module__ = "musteach.rules.errors"  # its public home (tracebacks and doctests name it there)

    def __init__(self, message: Text | str = "", /) -> None:
        self.text = None if isinstance(message, str) else message
        super().__init__(str(message))

    def message(self, lang: str | None = None) -> str:
        """The message in ``lang`` (None: the current language of :func:`musteach.i18n.speaking`); English where
        the catalog lacks it or the error was raised with a plain string."""
        return self.text.render(lang) if self.text is not None else str(self)

    @property
    def reason(self) -> Text | str:
        """The message as a placeholder of a longer one (``Text("deal 3: {reason}", reason=err.reason)``): its
        :class:`~musteach.i18n.Text`, rendered in the longer message's language, or the plain English string."""
        return self.text if self.text is not None else str(self)


class LanguageError(MusError):
    """A language the tutor has no catalog for (see ``musteach/locale/TRANSLATING.md``)."""

    __module__ = "musteach.rules.errors"
