"""What ``musteach serve`` was asked for (:class:`ServeOptions`), and how its pools of preheated kernels fit
under ``--max-kernels`` (:meth:`ServeOptions.fitted_pools`, :func:`pools_summary`).

Moved out of :mod:`musteach_server.app` (issue 24 item 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from musteach.i18n import SOURCE_LANG

from .lessons import Lesson
from .limits import DEFAULT_KERNEL_MEMORY_MB

__all__ = ["ServeOptions", "count", "pools_summary", "short_id"]


@dataclass(frozen=True)
class ServeOptions:
    """What ``musteach serve`` was asked for. ``lessons``: the lessons of ``lessons_dir`` in order (English);
    ``translations``: the same lessons in other languages (language -> lessons of ``lessons_dir/<language>``);
    ``cull_idle`` in seconds (0: never); ``pool_size`` kernels per lesson and language (0: no preheating),
    except for the lessons in ``pools`` (lesson path -> kernels)."""

    lessons_dir: Path
    lessons: list[Lesson] = field(default_factory=list)
    translations: dict[str, list[Lesson]] = field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 8866
    max_kernels: int = 40
    cull_idle: int = 900
    pool_size: int = 1
    pools: dict[str, int] = field(default_factory=dict)
    per_session: int = 3
    per_address: int | None = None
    waiting_per_address: int = 4
    connect_timeout: int = 25
    trusted_proxies: frozenset[str] = frozenset()
    secret: bytes | None = None
    base_url: str = "/"
    database: str | None = None  # classes: a SQLAlchemy URL (None: SQLite in the user's data folder)
    kernel_memory: int = DEFAULT_KERNEL_MEMORY_MB
    page_grace: int = 10
    socket: str | None = None

    @property
    def trusted(self) -> frozenset[str]:
        """The proxies whose ``X-Forwarded-*`` headers are believed: ``trusted_proxies``, and on a Unix socket
        its peer (tornado names it ``0.0.0.0``), which only the proxy can be."""
        return self.trusted_proxies | ({"0.0.0.0/32"} if self.socket else set())

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages served: English (``lessons``), then those of ``translations``."""
        return (SOURCE_LANG, *self.translations)

    def anonymous_per_address(self) -> int:
        """Most kernels one address holds without an admission token: ``per_address``, or by default (None)
        half the places (one client cannot take every place; a class behind one address brings a token); no
        limit (0) on a server of fewer than 4 places (a tutor for one or two).

        >>> ServeOptions(Path("."), max_kernels=40).anonymous_per_address(), ServeOptions(Path("."), max_kernels=2).anonymous_per_address()
        (20, 0)
        """
        if self.per_address is not None:
            return self.per_address
        return (self.max_kernels + 1) // 2 if self.max_kernels >= 4 else 0

    def lessons_in(self, lang: str) -> list[Lesson]:
        """The lessons of one language (none for a language not served)."""
        return self.lessons if lang == SOURCE_LANG else self.translations.get(lang, [])

    def all_lessons(self) -> list[Lesson]:
        """Every lesson served, English first, then each other language's."""
        return [*self.lessons, *(ls for lessons in self.translations.values() for ls in lessons)]

    def pool_for(self, lesson_path: str) -> int:
        """Kernels asked to be preheated for a lesson."""
        return self.pools.get(lesson_path, self.pool_size)

    def fitted_pools(self) -> dict[str, int]:
        """Kernels preheated per lesson, shrunk so that all the pools together fit under ``max_kernels``: the
        lessons named by ``--pool`` first, then one kernel a lesson in order, then the rest in order.

        >>> from .lessons import Lesson
        >>> ls = [Lesson.from_heading(f"0{i}-x.ipynb", None) for i in range(4)]
        >>> ServeOptions(Path("."), ls, max_kernels=5, pools={"03-x.ipynb": 4}).fitted_pools()
        {'00-x.ipynb': 1, '01-x.ipynb': 0, '02-x.ipynb': 0, '03-x.ipynb': 4}
        """
        room = self.max_kernels
        every = self.all_lessons()
        fitted = {ls.path: 0 for ls in every}
        for path, n in self.pools.items():
            fitted[path] = min(n, room)
            room -= fitted[path]
        for rounds in (1, None):
            for ls in every:
                if ls.path in self.pools:
                    continue
                wanted = self.pool_size if rounds is None else min(1, self.pool_size)
                add = min(max(0, wanted - fitted[ls.path]), room)
                fitted[ls.path] += add
                room -= add
        return fitted


def count(n: int, noun: str) -> str:
    """``n`` with ``noun``, plural when ``n`` is not 1: ``count(1, "kernel")`` is ``'1 kernel'``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def pools_summary(o: ServeOptions) -> str:
    """What the start-up log says of preheating: the kernels each lesson gets (after the pools shrank to fit
    under ``--max-kernels``), and how the pools shrank.

    >>> from .lessons import Lesson
    >>> ls = [Lesson.from_heading(f"0{i}-x.ipynb", None) for i in range(1, 4)]
    >>> print(pools_summary(ServeOptions(Path("."), ls, max_kernels=3, pools={"03-x.ipynb": 5})))
    3 kernels preheated: 3 for 03-x.ipynb; none for 01-x.ipynb, 02-x.ipynb (asked: 1 kernel per lesson, 5 for 03-x.ipynb, 7 in all; shrunk to fit under --max-kernels 3)
    >>> print(pools_summary(ServeOptions(Path("."), ls, pool_size=1)))
    3 kernels preheated: 1 for 01-x.ipynb, 1 for 02-x.ipynb, 1 for 03-x.ipynb
    >>> print(pools_summary(ServeOptions(Path("."), ls, pool_size=0)))
    no kernel preheated (kernels start when a page is opened)
    """
    fitted = o.fitted_pools()
    asked = {ls.path: o.pool_for(ls.path) for ls in o.all_lessons()}
    total = sum(fitted.values())
    if not sum(asked.values()):
        return "no kernel preheated (kernels start when a page is opened)"
    got = [f"{n} for {path}" for path, n in fitted.items() if n]
    none = [path for path, n in fitted.items() if not n]
    text = f"{count(total, 'kernel')} preheated: " + ", ".join(got)
    if none:
        text += "; none for " + ", ".join(none)
    if fitted != asked:
        wanted = f"{count(o.pool_size, 'kernel')} per lesson" + "".join(
            f", {n} for {path}" for path, n in o.pools.items())
        text += (f" (asked: {wanted}, {sum(asked.values())} in all; shrunk to fit under --max-kernels "
                 f"{o.max_kernels})")
    return text


def short_id(kernel_id: str) -> str:
    return kernel_id[:8]
