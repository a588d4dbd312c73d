"""Languages: every learner-facing sentence goes through a gettext catalog of ``musteach/locale``.

English is the source language: the msgids are the English sentences, so an untranslated sentence falls back
to English, never to an empty string or a crash. Other languages are catalogs in
``musteach/locale/<lang>/LC_MESSAGES/<domain>.mo`` (compiled from the ``.po`` next to them by
``python -m musteach.locale.catalogs``; see ``musteach/locale/TRANSLATING.md``).

The language is chosen per call, never by a process-wide global that two Voilà visitors could share. Code
that writes sentences asks for a :class:`Translator`::

    _ = translator(lang)        # lang: a code such as "es", or None for the language being spoken now
    _("Seat {seat} wins {lance}.", seat=2, lance=_("Grande"))
    _.ngettext("{n} stone", "{n} stones", 3)

"The language being spoken now" is a :class:`contextvars.ContextVar`, set for a block with
``with speaking("es"): ...`` (a widget wraps its handlers so; a command wraps its run). A context variable
belongs to one thread or task, so two visitors served at once each keep theirs; a new thread starts in English,
so work handed to a thread must carry its context (``contextvars.copy_context().run``). Entry points also take
an explicit ``lang=`` (``evaluate(...).explanations(lang="es")``, ``musteach judge --lang es``).

A Mus term that a sentence names (a lance: ``Lance.GRANDE.title``) is a :class:`Term`: it reads as its label
(``"Grande"``), and a translation may ask for the form its language says it in, by a format spec naming one of
:data:`TERM_FORMS`: ``{lance:the}`` is «la grande», «los pares»; ``{lance:at}`` is «a la grande», «a pares»;
``{lance:of}`` is «de la grande», «del punto». Each form is a catalog entry of the term's label in the context
``"<kind>:<form>"`` (marked with :func:`NC_`); a language without it gets the label. A seat that knows the
mano (:class:`musteach.rules.lances.Seat`) gives its role the same way: ``{seat:role}`` «el postre»,
``{seat:Role}`` «El postre» (see :class:`Worded`).

Sentences are whole units with named placeholders, never English fragments glued together. A sentence built
before its language is known is a :class:`Text`: a msgid with its parameters, put into words by
:meth:`Text.render` (``str(text)`` is the English). Module-level constants are marked with :func:`N_` and
translated where they are used. The catalog extractor knows the keywords ``_``, ``N_``, ``Text``, ``ngettext``
and ``plural_text``, so a sentence passed through any other name is not found.

>>> _ = translator("es")
>>> _("no language {lang}: the tutor speaks {languages}", lang='"xx"', languages="en, es")
'no hay idioma "xx": el tutor habla en, es'
>>> Text("Seat {seat} wins.", seat=2).render("en")
'Seat 2 wins.'
>>> translator("en").join(["seat 0", "seat 1", "seat 2"])
'seat 0, seat 1 and seat 2'
"""

from __future__ import annotations

import gettext as _gettext
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import LanguageError, shown

__all__ = [
    "DOMAINS",
    "LOCALE_DIR",
    "SOURCE_LANG",
    "N_",
    "NC_",
    "TERM_FORMS",
    "Term",
    "Text",
    "Translator",
    "Worded",
    "check_lang",
    "current_lang",
    "languages",
    "placeholders",
    "plural_text",
    "speaking",
    "translator",
]

SOURCE_LANG = "en"
"""The language the msgids are written in."""

LOCALE_DIR = Path(__file__).with_name("locale")
"""Where the catalogs live: ``<lang>/LC_MESSAGES/<domain>.po`` and ``.mo``."""

DOMAINS: tuple[str, ...] = ("rules", "betting", "play", "teach", "coach", "ui", "pages", "classes")
"""The catalogs of one language, by part of the package (see ``musteach/locale/catalogs.py`` for which source
files feed each one). A msgid is looked up in each domain in this order."""

_LANG_RE = re.compile(r"^[a-z]{2,3}$")

_SPOKEN: ContextVar[str] = ContextVar("musteach_lang", default="en")


def current_lang() -> str:
    """The language being spoken in this thread or task: set by :func:`speaking`, English otherwise."""
    return _SPOKEN.get()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` inside the block (None: keep the current language); yields the checked code.

    Raises ``LanguageError`` for a language with no catalog. Only this thread or task is affected.

    >>> with speaking("es"):
    ...     current_lang()
    'es'
    >>> current_lang()
    'en'
    """
    code = check_lang(lang) if lang is not None else current_lang()
    token = _SPOKEN.set(code)
    try:
        yield code
    finally:
        _SPOKEN.reset(token)


def N_(msgid: str) -> str:
    """Mark a module-level sentence for the catalogs; translate it where it is used with ``_(MSG)``."""
    return msgid


def NC_(context: str, msgid: str) -> str:
    """Mark a word in a context for the catalogs (``NC_("lance:the", "Grande")``: the form of a :class:`Term`);
    returns ``msgid``."""
    return msgid


TERM_FORMS: tuple[str, ...] = ("the", "at", "of")
"""The forms a translation may ask of a :class:`Term` placeholder: ``{lance:the}`` (with its article),
``{lance:at}`` (after "a", as players say «a pares»), ``{lance:of}`` (after "de")."""


class Worded:
    """A placeholder value that a translation may ask for in one of its forms, ``{name:form}``: a
    :class:`Term` (``{lance:the}``), a seat with its role at the table (``{seat:role}``,
    :class:`musteach.rules.lances.Seat`). Anywhere else it is its plain value."""

    def form(self, _: Translator, spec: str) -> str | None:
        """This value said in the form ``spec`` in ``_``'s language; None where the language has no such form
        (the plain value is written then)."""
        return None


class Term(str, Worded):
    """A Mus term named in sentences: a ``str`` (its label, ``"Grande"``, English and the same in every
    language) that also knows its ``kind`` (``"lance"``), so that a translation can ask for a form of it
    (``{lance:the}``; see :data:`TERM_FORMS`). Anywhere else it is the plain label."""

    def form(self, _: Translator, spec: str) -> str | None:
        if spec not in TERM_FORMS:
            return None
        said = _.pgettext(f"{self.kind}:{spec}", self.key)
        return None if said == self.key else said

    kind: str
    key: str

    def __new__(cls, label: str, kind: str, key: str | None = None) -> Term:
        """``label`` as it is shown; ``kind`` and ``key`` (default: ``label``) name its forms in the catalogs:
        the msgid ``key`` in the context ``"<kind>:<form>"``."""
        term = super().__new__(cls, label)
        term.kind = kind
        term.key = label if key is None else key
        return term

    def __reduce__(self) -> tuple[type[Term], tuple[str, str, str]]:
        return (Term, (str(self), self.kind, self.key))


class _Said(str):
    """A :class:`Worded` value as a sentence of one language fills it: ``format(said, "the")`` is its form."""

    def __new__(cls, value: Worded, translator: Translator) -> _Said:
        said = super().__new__(cls, str(value))
        said.value = value
        said.translator = translator
        return said

    value: Worded
    translator: Translator

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        said = self.value.form(self.translator, spec)
        if said is not None:
            return said
        return str(self) if spec.isalpha() else str.__format__(str(self), spec)


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The languages the tutor speaks: English, then every language with a compiled catalog, sorted.

    >>> languages()[0]
    'en'
    """
    found = sorted(
        d.name
        for d in LOCALE_DIR.iterdir()
        if d.is_dir() and _LANG_RE.match(d.name) and any((d / "LC_MESSAGES").glob("*.mo"))
    ) if LOCALE_DIR.is_dir() else []
    return (SOURCE_LANG, *[lang for lang in found if lang != SOURCE_LANG])


def check_lang(lang: object) -> str:
    """Return ``lang`` as a language code the tutor speaks (``"es"``; ``"es_ES"`` and ``"ES-es"`` read as ``"es"``).

    Raises :class:`~musteach.rules.errors.LanguageError` naming the value and the languages there are.
    """
    if isinstance(lang, str):
        code = lang.strip().replace("-", "_").split("_")[0].lower()
        if code in languages():
            return code
    raise LanguageError(
        Text(
            "no language {lang}: the tutor speaks {languages}",
            lang=shown(lang),
            languages=", ".join(languages()),
        )
    )


def placeholders(sentence: str) -> frozenset[str]:
    """The named placeholders of a sentence: ``placeholders("Seat {seat} wins {lance}") == {"seat", "lance"}``."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(sentence) if name)


class Translator:
    """The sentences of one language, from its catalogs, English where a sentence has no translation.

    Call it as ``_(msgid, **params)``: the translated sentence with its named placeholders filled. Parameters
    that are :class:`Text` are put into words in the same language first. Get one with :func:`translator`.
    """

    def __init__(self, lang: str, catalog: _gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def _fill(self, sentence: str, params: Mapping[str, object]) -> str:
        if not params:
            return sentence
        words = {k: self.word(v) for k, v in params.items()}
        try:
            return sentence.format_map(words)
        except ValueError:  # a form ({lance:the}, {seat:role}) asked of a plain word: the word itself
            return sentence.format_map({k: w if isinstance(w, _Said) else _Plain(w) for k, w in words.items()})

    def pgettext(self, context: str, msgid: str) -> str:
        """``msgid`` in ``context`` (a :class:`Term`'s form) in this language; ``msgid`` where it has none."""
        return self._catalog.pgettext(context, msgid)

    def word(self, value: object) -> str:
        """A parameter as it is written in this language: a :class:`Text` rendered, a :class:`Worded` value
        ready to give its forms, a float with this language's decimal mark, anything else as ``str()``."""
        if isinstance(value, Worded):
            return _Said(value, self)
        if isinstance(value, Text):
            return value.render(self.lang)
        if isinstance(value, float):
            return self.number(value, 1)
        return str(value)

    def __call__(self, msgid: str, /, **params: object) -> str:
        """The sentence ``msgid`` in this language, placeholders filled from ``params``."""
        return self._fill(self._catalog.gettext(msgid), params)

    def ngettext(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        """The singular or plural sentence for ``count``, by this language's plural rule; ``{n}`` is ``count``."""
        return self._fill(self._catalog.ngettext(singular, plural, count), {"n": count, **params})

    def number(self, value: float, digits: int = 0) -> str:
        """``value`` with ``digits`` decimals and this language's decimal mark: ``"62.5"``, ``"62,5"``.

        Rounded exactly as the English figure (``f"{value:.1f}"``), so both languages always state the same
        number; babel supplies the language's decimal and minus signs.
        """
        english = f"{value:.{digits}f}"
        if self.lang == SOURCE_LANG:
            return english
        from babel.numbers import get_decimal_symbol, get_minus_sign_symbol  # here: locale data costs memory

        return english.replace("-", get_minus_sign_symbol(self.lang)).replace(".", get_decimal_symbol(self.lang))

    def percent(self, fraction: float, digits: int = 0) -> str:
        """``fraction`` (0..1) as a percentage in this language: ``"62.5%"``, ``"62,5 %"`` (rounded as English)."""
        if self.lang == SOURCE_LANG:
            return f"{fraction * 100:.{digits}f}%"
        return _percent_layout(self.lang).replace("25", self.number(fraction * 100, digits), 1)

    def join(self, items: Iterable[str]) -> str:
        """Items joined as this language lists them: ``"a, b and c"``, ``"a, b y c"``."""
        words = list(items)
        if self.lang == SOURCE_LANG or len(words) < 2:
            if len(words) < 2:
                return "".join(words)
            return f"{', '.join(words[:-1])} and {words[-1]}"
        from babel.lists import format_list

        return str(format_list(words, locale=self.lang))


class _Plain(str):
    """A plain word in a sentence that asks for one of its forms: the word as it is."""

    def __format__(self, spec: str) -> str:
        return str(self) if spec.isalpha() else str.__format__(str(self), spec)


def translator(lang: str | None = None) -> Translator:
    """The :class:`Translator` of ``lang``, or of :func:`current_lang` when ``lang`` is None.

    Raises ``LanguageError`` (see :func:`check_lang`) for a language with no catalog.

    Each language's catalogs are read once per process and never change, so two visitors that share a process
    and speak different languages each get their own translator.
    """
    return _load(current_lang() if lang is None else check_lang(lang))


@lru_cache(maxsize=16)
def _percent_layout(code: str) -> str:
    """How ``code`` lays out a percentage, shown with 25: ``"25 %"`` (babel's locale data, read once)."""
    from babel.numbers import format_percent  # here: babel's locale data costs memory a lesson may not need

    return str(format_percent(0.25, locale=code))


@lru_cache(maxsize=16)
def _load(code: str) -> Translator:
    catalog: _gettext.NullTranslations = _gettext.NullTranslations()
    if code != SOURCE_LANG:
        for domain in reversed(DOMAINS):
            path = LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.mo"
            if path.is_file():
                with path.open("rb") as fp:
                    layer = _gettext.GNUTranslations(fp)
                layer.add_fallback(catalog)
                catalog = layer
    return Translator(code, catalog)


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence not yet put into words: its English msgid and named parameters.

    ``Text("Seat {seat} wins.", seat=2)``; parameters may be other :class:`Text` (rendered in the same language).
    ``render(lang)`` gives the sentence in ``lang``; ``str(text)`` is the English. Errors carry a Text so that a
    command or a widget can show them in the learner's language.
    """

    msgid: str
    params: tuple[tuple[str, object], ...]
    plural: str | None
    count: int | None

    def __init__(self, msgid: str, /, **params: object) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", tuple(params.items()))
        object.__setattr__(self, "plural", None)
        object.__setattr__(self, "count", None)

    def render(self, lang: str | None = None) -> str:
        """This sentence in ``lang`` (None: the current language; English where the catalog lacks it)."""
        _ = translator(lang)
        if self.plural is not None and self.count is not None:
            return _.ngettext(self.msgid, self.plural, self.count, **dict(self.params))
        return _(self.msgid, **dict(self.params))

    def __str__(self) -> str:
        return self.render(SOURCE_LANG)


def plural_text(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A :class:`Text` that is ``singular`` or ``plural`` by ``count`` (``{n}`` in the sentence is ``count``)."""
    text = Text(singular, **params)
    object.__setattr__(text, "plural", plural)
    object.__setattr__(text, "count", count)
    return text
