"""What ``musteach serve`` adds to tornado's application settings (:meth:`MusteachVoila.init_settings
<musteach_server.app.MusteachVoila.init_settings>`), read with their types (:class:`ServerSettings`): tornado
keeps them in a ``dict[str, Any]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jupyter_server.base.handlers import JupyterHandler

from musteach.i18n import SOURCE_LANG

from .gate import KernelGate
from .lessons import Lesson

__all__ = ["MusteachHandler", "ServerSettings"]


class ServerSettings:
    """A typed view of one application's ``settings``. A setting the application lacks raises KeyError, except
    :attr:`gate_or_none`, :attr:`trusted` (none) and :attr:`languages` (English only), which a handler may
    need before the server is fully set up."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.settings = settings

    @property
    def gate(self) -> KernelGate:
        """The gate that counts the places."""
        gate: KernelGate = self.settings["musteach_gate"]
        return gate

    @property
    def gate_or_none(self) -> KernelGate | None:
        """The gate, or None before the server has one."""
        gate: KernelGate | None = self.settings.get("musteach_gate")
        return gate

    @property
    def kernel_manager(self) -> Any:
        """Voilà's kernel manager (its pools around :class:`~musteach_server.kernel_manager.MusteachKernelManager`;
        Voilà has no types)."""
        return self.settings["kernel_manager"]

    @property
    def secret(self) -> bytes:
        """The key that signs the session cookies and admission tokens."""
        secret: bytes = self.settings["musteach_secret"]
        return secret

    @property
    def trusted(self) -> frozenset[str]:
        """The proxies whose ``X-Forwarded-*`` headers are believed."""
        trusted: frozenset[str] = self.settings.get("musteach_trusted", frozenset())
        return trusted

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages served, English first."""
        languages: tuple[str, ...] = self.settings.get("musteach_languages", (SOURCE_LANG,))
        return languages

    def lessons(self, lang: str) -> list[Lesson]:
        """The lessons of one language served (KeyError for a language not served)."""
        if lang == SOURCE_LANG:
            english: list[Lesson] = self.settings["musteach_lessons"]
            return english
        translated: list[Lesson] = self.settings["musteach_translations"][lang]
        return translated

    @property
    def lessons_dir(self) -> Path:
        """The lessons folder."""
        folder: Path = self.settings["musteach_lessons_dir"]
        return folder

    @property
    def served(self) -> frozenset[str]:
        """The path of every lesson served (relative to :attr:`lessons_dir`)."""
        served: frozenset[str] = self.settings["musteach_served"]
        return served


class MusteachHandler(JupyterHandler):
    """A handler of the server's own: reads musteach's settings typed (:attr:`musteach`)."""

    @property
    def musteach(self) -> ServerSettings:
        """What musteach adds to the application's settings."""
        return ServerSettings(self.settings)
