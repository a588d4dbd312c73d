"""Señas (signals): the agreed gestures partners use to tell each other what they hold (RULES.md §11).

Señas are legal in Mus, but only the agreed ones, and a seña must be **truthful**. Each seña is a frozen
:class:`Sena` with its gesture, its meaning and notes on where it comes from. :func:`senas_for` says which
señas truthfully fit a hand; :func:`meaning` gives a seña's meaning under the table's rules; the drawn
faces are in :mod:`musteach.draw.senas`.

>>> from musteach import Hand, Rules
>>> [s.key for s in senas_for(Hand("12o 3c 7e 5b"))]  # two kings (a 3 is a king), 32
['morder_labio', 'morritos', 'girar_cabeza']
>>> [s.key for s in senas_for(Hand("12o 12c 1e 1b"))]  # duples gallegos: kings and aces, 22
['morder_labio', 'lengua', 'cejas', 'girar_cabeza']
>>> [s.key for s in senas_for(Hand("4o 5c 6e 7b"))]
['ciego']
>>> meaning(SENAS["guino"])
'31 (the best juego)'
>>> SENAS["morder_labio"].gesture
'Bite the lower lip'

Which señas a table uses is the rules option ``senas`` (RULES.md §13): ``"standard"`` (the FEM set),
``"kiss_three_kings"`` (the regional set where blowing a kiss means three kings and an ace, the
*solomillo*) or ``"off"`` (no señas at all).

>>> [s.key for s in catalogue(Rules(senas="kiss_three_kings")) if s.key not in catalogue_keys(Rules())]
['solomillo']
>>> catalogue(Rules(senas="off"))
()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..i18n import N_, Text, translator
from .cards import Card, Hand, parse_hand
from .errors import IllegalActionError
from .lances import HandInfo, analyse, effective_rank
from .options import Rules

__all__ = [
    "CONTEXTS",
    "HAND_TESTS",
    "ODDS_NAMES",
    "SENAS",
    "Sena",
    "SenaError",
    "best_senas",
    "catalogue",
    "catalogue_keys",
    "check_sena",
    "get_sena",
    "is_truthful",
    "kings_and_aces",
    "meaning",
    "senas_for",
    "why_not",
]

#: When a seña is made: ``"mus"`` (after the deal, while cards may still change), ``"lances"`` (the cards
#: are final, before Grande), ``"after_grande"`` (once the Grande betting is over) and ``"punto"`` (after
#: everybody said "juego no", so Punto is played).
CONTEXTS: tuple[str, ...] = ("mus", "lances", "after_grande", "punto")
Context = Literal["mus", "lances", "after_grande", "punto"]

_SETS = ("standard", "kiss_three_kings")


class SenaError(IllegalActionError):
    """A seña that is unknown, not in the table's set, or not true of the hand (RULES.md §11, §13)."""


@dataclass(frozen=True, slots=True)
class Sena:
    """One agreed signal (RULES.md §11).

    key: a short identifier (``"morder_labio"``). name: its Spanish name (the same in every language).
    gesture: what the player does. meaning: what it tells the partner, in the standard set.
    notes: variants and sources. gesture, meaning and notes are the English msgids of the catalogs: show
    them with :meth:`gesture_text`, :meth:`meaning_text` and :meth:`notes_text` (or :func:`meaning`), which
    give them in the learner's language.
    kind: ``"hand"`` (a fact about the cards, which must be true) or ``"intent"`` (what the player wants
    to do: cut the mus, bet more). sets: the rule sets (``Rules.senas``) that use it.

    >>> SENAS["guino"].gesture_text("es"), SENAS["guino"].meaning_text("es")
    ('Guiñar un ojo', '31 (el mejor juego)')
    """

    key: str
    name: str
    gesture: str
    meaning: str
    notes: str = ""
    kind: str = "hand"
    sets: tuple[str, ...] = _SETS

    def gesture_text(self, lang: str | None = None) -> str:
        """What the player does, in ``lang`` (None: the language being spoken)."""
        return translator(lang)(self.gesture)

    def meaning_text(self, lang: str | None = None) -> str:
        """What the seña tells the partner in the standard set, in ``lang`` (see :func:`meaning` for a table's set)."""
        return translator(lang)(self.meaning)

    def notes_text(self, lang: str | None = None) -> str:
        """Variants and sources, in ``lang``; ``""`` when there are none."""
        return translator(lang)(self.notes) if self.notes else ""

    def __str__(self) -> str:
        _ = translator()
        return _("{gesture} ({meaning})", gesture=_(self.gesture), meaning=_(self.meaning))

    def _repr_svg_(self) -> str:
        from ..draw.senas import sena_svg

        return sena_svg(self)


def _s(key: str, name: str, gesture: str, meaning_: str, notes: str = "", kind: str = "hand", sets: Iterable[str] = _SETS) -> Sena:
    return Sena(key, name, gesture, meaning_, notes, kind, tuple(sets))


#: Every seña known, by key, in the order they are shown. ``sets`` says which tables use each one.
SENAS: dict[str, Sena] = {
    s.key: s
    for s in (
        _s(
            "morder_labio",
            "dos reyes",
            N_("Bite the lower lip"),
            N_("two kings"),
            N_("FEM, acanomas, seed 002. In 8 reyes the 3s are kings too."),
        ),
        _s(
            "morder_labio_lado",
            "tres reyes",
            N_("Bite one side of the lower lip"),
            N_("three kings"),
            N_("hablandodepoker. Three kings are also medias de reyes, the FEM's lips-to-one-side sign."),
        ),
        _s(
            "morder_labio_dos_veces",
            "cuatro reyes",
            N_("Bite the lower lip twice"),
            N_("four kings"),
            N_("acanomas, seed 002. Four kings are duples too (raise the eyebrows)."),
        ),
        _s(
            "lengua",
            "dos ases",
            N_("Put the tip of the tongue out"),
            N_("two aces"),
            N_("FEM, acanomas. In 8 reyes the 2s are aces too."),
        ),
        _s(
            "lengua_lado",
            "tres ases",
            N_("Put the tongue out to one side"),
            N_("three aces"),
            N_("FEM: medias de ases."),
        ),
        _s(
            "lengua_dos_veces",
            "cuatro ases",
            N_("Put the tongue out twice"),
            N_("four aces"),
            N_("acanomas, seed 002. Four aces are duples too (raise the eyebrows)."),
        ),
        _s(
            "labios_torcidos",
            "medias",
            N_("Twist the closed lips to one side"),
            N_("medias (three of a kind)"),
            N_("FEM: medias de reyes. Medias of any other rank may only be signalled after Grande."),
        ),
        _s(
            "cejas",
            "duples",
            N_("Raise the eyebrows"),
            N_("duples (two pairs, or four of a kind)"),
            N_("FEM, acanomas, mustembleque, seed 002."),
        ),
        _s(
            "guino",
            "treinta y una",
            N_("Wink"),
            N_("31 (the best juego)"),
            N_("FEM, mustembleque. After everybody has said 'juego no', a wink means punto 30."),
        ),
        _s(
            "morritos",
            "juego",
            N_("Push the lips out"),
            N_("juego, but not 31"),
            N_("FEM: lips pushed out; hablandodepoker blows a kiss. Where the kiss means three kings and an "
            "ace, juego is shown with the lips only."),
        ),
        _s(
            "solomillo",
            "solomillo",
            N_("Blow a kiss"),
            N_("three kings and an ace (solomillo, la bonita)"),
            N_("musdocemas; Wikipedia links it to *musu*, 'kiss' in Basque. Only in the kiss_three_kings set."),
            sets=("kiss_three_kings",),
        ),
        _s(
            "hombros",
            "treinta",
            N_("Shrug both shoulders"),
            N_("punto 30 (no juego)"),
            N_("FEM."),
        ),
        _s(
            "hombro",
            "veintinueve",
            N_("Shrug one shoulder"),
            N_("punto 29 (no juego)"),
            N_("FEM."),
        ),
        _s(
            "girar_cabeza",
            "pares",
            N_("Turn the head to one side"),
            N_("pares (some pair)"),
            N_("FEM only; most tables show the exact pares instead."),
        ),
        _s(
            "ciego",
            "ciego",
            N_("Close both eyes"),
            N_("nothing: no pares and no juego"),
            N_("FEM: not allowed when the hand has a play that can be signalled (punto 30 or 29)."),
        ),
        _s(
            "inclinar_cabeza",
            "corta",
            N_("Tilt the head to one side"),
            N_("cut the mus (say no hay mus)"),
            N_("FEM. An intention, not a hand."),
            kind="intent",
        ),
        _s(
            "levantar_cabeza",
            "envida más",
            N_("Raise the head"),
            N_("bet more"),
            N_("FEM. An intention, not a hand."),
            kind="intent",
        ),
    )
}


# ----------------------------------------------------------------------------------------------
# What each hand seña says about the cards (the truth test).
# ----------------------------------------------------------------------------------------------


def _counts(info: HandInfo) -> Counter[int]:
    return Counter(info.ranks)


def _kings(info: HandInfo) -> int:
    return _counts(info)[12]


def _aces(info: HandInfo) -> int:
    return _counts(info)[1]


#: The test of each hand seña (by key) on the signalling hand's :class:`~musteach.rules.lances.HandInfo`:
#: True when the seña describes the hand (context rules such as medias before Grande aside, RULES.md §11).
HAND_TESTS: dict[str, Callable[[HandInfo], bool]] = {
    "morder_labio": lambda i: _kings(i) == 2,
    "morder_labio_lado": lambda i: _kings(i) == 3,
    "morder_labio_dos_veces": lambda i: _kings(i) == 4,
    "lengua": lambda i: _aces(i) == 2,
    "lengua_lado": lambda i: _aces(i) == 3,
    "lengua_dos_veces": lambda i: _aces(i) == 4,
    "labios_torcidos": lambda i: i.pares is not None and i.pares.kind == "medias",
    "cejas": lambda i: i.pares is not None and i.pares.kind == "duples",
    "guino": lambda i: i.is_juego and i.total == 31,
    "morritos": lambda i: i.is_juego and i.total != 31,
    "solomillo": lambda i: sorted(i.ranks) == [1, 12, 12, 12],
    "hombros": lambda i: i.total == 30,
    "hombro": lambda i: i.total == 29,
    "girar_cabeza": lambda i: i.pares is not None,
}

#: Keys a bot prefers, most informative first; ``girar_cabeza`` (plain pares) only when nothing else says it.
_PREFERENCE = (
    "solomillo",
    "morder_labio_dos_veces",
    "lengua_dos_veces",
    "cejas",
    "morder_labio_lado",
    "lengua_lado",
    "labios_torcidos",
    "morder_labio",
    "lengua",
    "guino",
    "morritos",
    "hombros",
    "hombro",
    "girar_cabeza",
    "ciego",
)

# Stable short aliases (the gloss in plain words) accepted by get_sena.
_ALIASES = {
    "dos_reyes": "morder_labio",
    "tres_reyes": "morder_labio_lado",
    "cuatro_reyes": "morder_labio_dos_veces",
    "dos_ases": "lengua",
    "tres_ases": "lengua_lado",
    "cuatro_ases": "lengua_dos_veces",
    "medias": "labios_torcidos",
    "duples": "cejas",
    "treinta_y_una": "guino",
    "31": "guino",
    "juego": "morritos",
    "treinta": "hombros",
    "veintinueve": "hombro",
    "pares": "girar_cabeza",
    "corta": "inclinar_cabeza",
    "envida_mas": "levantar_cabeza",
    # the names musteach.odds uses for the same señas
    "2_reyes": "morder_labio",
    "3_reyes": "morder_labio_lado",
    "4_reyes": "morder_labio_dos_veces",
    "2_ases": "lengua",
    "3_ases": "lengua_lado",
    "4_ases": "lengua_dos_veces",
    "punto_30": "hombros",
    "punto_29": "hombro",
}

#: The name :data:`musteach.odds.SENAS` gives each hand seña (the odds engine conditions on them).
ODDS_NAMES: dict[str, str] = {
    "morder_labio": "2 reyes",
    "morder_labio_lado": "3 reyes",
    "morder_labio_dos_veces": "4 reyes",
    "lengua": "2 ases",
    "lengua_lado": "3 ases",
    "lengua_dos_veces": "4 ases",
    "labios_torcidos": "medias",
    "cejas": "duples",
    "guino": "31",
    "morritos": "juego",
    "hombros": "punto 30",
    "hombro": "punto 29",
    "girar_cabeza": "pares",
    "ciego": "ciego",
}


def _set_of(rules: Rules | str | None) -> str:
    if rules is None:
        return "standard"
    if isinstance(rules, Rules):
        return rules.senas
    if rules in (*_SETS, "off"):
        return rules
    raise SenaError(Text("unknown set of señas {value}: 'standard', 'kiss_three_kings' or 'off' (RULES.md §13)", value=repr(rules)))


def catalogue(rules: Rules | str | None = None) -> tuple[Sena, ...]:
    """The señas a table uses: ``rules`` is a :class:`Rules` or a set name (RULES.md §11, §13).

    ``"off"`` gives ``()``. Raises :class:`SenaError` for an unknown set name.
    """
    s = _set_of(rules)
    if s == "off":
        return ()
    return tuple(x for x in SENAS.values() if s in x.sets)


def catalogue_keys(rules: Rules | str | None = None) -> tuple[str, ...]:
    """The keys of :func:`catalogue`."""
    return tuple(s.key for s in catalogue(rules))


def get_sena(key: str | Sena, rules: Rules | str | None = None) -> Sena:
    """A seña by key (``"morder_labio"``), alias (``"dos_reyes"``) or Spanish name (``"dos reyes"``).

    With ``rules``, the seña must belong to the table's set. Raises :class:`SenaError` naming the key.

    >>> get_sena("dos reyes").key, get_sena("duples").gesture
    ('morder_labio', 'Raise the eyebrows')
    >>> get_sena("solomillo", Rules())
    Traceback (most recent call last):
    ...
    musteach.rules.senas.SenaError: the seña 'solomillo' (Blow a kiss) is not used at this table (señas: standard; RULES.md §11, §13)
    """
    if isinstance(key, Sena):
        sena = key
    else:
        k = str(key).strip().lower().replace(" ", "_").replace("-", "_").replace("ñ", "n")
        k = _ALIASES.get(k, k)
        found = SENAS.get(k) or next((s for s in SENAS.values() if s.name.replace(" ", "_") == k), None)
        if found is None:
            raise SenaError(Text("unknown seña {key}: known señas are {senas} (RULES.md §11)", key=repr(key), senas=", ".join(SENAS)))
        sena = found
    if rules is not None:
        s = _set_of(rules)
        if s == "off":
            raise SenaError(Text("señas are not used at this table (rules option senas='off', RULES.md §13)"))
        if s not in sena.sets:
            raise SenaError(
                Text(
                    "the seña {key} ({gesture}) is not used at this table (señas: {set}; RULES.md §11, §13)",
                    key=repr(sena.key),
                    gesture=Text(sena.gesture),
                    set=s,
                )
            )
    return sena


def meaning(sena: Sena | str, rules: Rules | str | None = None, lang: str | None = None) -> str:
    """What a seña tells the partner at a table using ``rules`` (RULES.md §11), in ``lang`` (None: the
    language being spoken). Raises :class:`SenaError` for an unknown seña or set.

    >>> meaning("morritos", lang="es")
    'juego, pero no 31'

    >>> meaning("morritos"), meaning("morritos", "kiss_three_kings")
    ('juego, but not 31', 'juego, but not 31 (lips pushed out; the kiss means three kings and an ace here)')
    """
    _ = translator(lang)
    s = get_sena(sena)
    if s.key == "morritos" and _set_of(rules) == "kiss_three_kings":
        return _("{meaning} (lips pushed out; the kiss means three kings and an ace here)", meaning=_(s.meaning))
    return _(s.meaning)


def _info(hand: Hand | HandInfo | str | Sequence[Card | str], rules: Rules) -> HandInfo:
    if isinstance(hand, HandInfo):
        return hand
    return analyse(parse_hand(hand), rules)


def _check_context(context: str) -> str:
    if context not in CONTEXTS:
        raise SenaError(Text("unknown seña context {context}: one of {contexts}", context=repr(context), contexts=", ".join(CONTEXTS)))
    return context


def _true(key: str, info: HandInfo, context: str, keys: Iterable[str]) -> bool:
    if key == "ciego":
        if info.pares is not None or info.is_juego:
            return False
        return not any(_true(k, info, context, ()) for k in keys if k != "ciego" and k in HAND_TESTS)
    test = HAND_TESTS.get(key)
    if test is None:
        return False
    if not test(info):
        return False
    if key == "labios_torcidos" and context in ("mus", "lances"):
        # FEM: only medias de reyes may be shown before Grande is played.
        assert info.pares is not None
        return info.pares.high == 12
    return True


def why_not(
    sena: Sena | str, hand: Hand | HandInfo | str, rules: Rules | None = None, context: str = "lances", lang: str | None = None
) -> str:
    """``""`` if the seña is truthful for the hand in this context, else the reason in words (RULES.md §11).

    lang: the language of the reason (None: the one being spoken). Raises :class:`SenaError` for an unknown
    seña or context, or one the table does not use.
    """
    reason = _why_not(sena, hand, rules, context)
    return reason.render(lang) if reason is not None else ""


def _why_not(sena: Sena | str, hand: Hand | HandInfo | str, rules: Rules | None, context: str) -> Text | None:
    rules = rules or Rules()
    s = get_sena(sena, rules)
    _check_context(context)
    if s.kind == "intent":
        return None
    info = _info(hand, rules)
    keys = catalogue_keys(rules)
    if _true(s.key, info, context, keys):
        return None
    if s.key == "ciego" and info.pares is None and not info.is_juego:
        return Text(
            "'{gesture}' (ciego) is not allowed: the hand has a play that can be signalled (punto {total})",
            gesture=Text(s.gesture),
            total=info.total,
        )
    if s.key == "labios_torcidos" and info.pares is not None and info.pares.kind == "medias":
        return Text("plain medias (not of kings) may only be signalled after Grande")
    return Text("the hand {hand} does not hold {meaning}", hand=info.grande_str, meaning=Text(s.meaning))


def is_truthful(sena: Sena | str, hand: Hand | HandInfo | str, rules: Rules | None = None, context: str = "lances") -> bool:
    """True if making ``sena`` with ``hand`` tells the truth (intents always do). RULES.md §11.

    >>> is_truthful("guino", "12o 11c 10e 1b"), is_truthful("guino", "12o 11c 10e 2b", Rules(kings=4))
    (True, False)
    """
    return _why_not(sena, hand, rules, context) is None


def check_sena(
    sena: Sena | str, hand: Hand | HandInfo | str, rules: Rules | None = None, context: str = "lances", seat: int | None = None
) -> Sena:
    """Return the :class:`Sena` if it may be made with ``hand``; else raise :class:`SenaError` (RULES.md §11).

    >>> check_sena("cejas", "12o 12c 5e 5b").key
    'cejas'
    >>> check_sena("cejas", "12o 12c 5e 4b", seat=2)
    Traceback (most recent call last):
    ...
    musteach.rules.senas.SenaError: seat 2 cannot make the seña 'Raise the eyebrows': the hand R-R-5-4 does not hold duples (two pairs, or four of a kind); a seña must be truthful (RULES.md §11)
    """
    rules = rules or Rules()
    s = get_sena(sena, rules)
    reason = _why_not(s, hand, rules, context)
    if reason is not None:
        if seat is not None:
            raise SenaError(
                Text(
                    "seat {seat} cannot make the seña '{gesture}': {reason}; a seña must be truthful (RULES.md §11)",
                    seat=seat,
                    gesture=Text(s.gesture),
                    reason=reason,
                )
            )
        raise SenaError(
            Text(
                "you cannot make the seña '{gesture}': {reason}; a seña must be truthful (RULES.md §11)",
                gesture=Text(s.gesture),
                reason=reason,
            )
        )
    return s


def senas_for(
    hand: Hand | HandInfo | str | Sequence[Card | str], rules: Rules | None = None, context: str = "lances"
) -> tuple[Sena, ...]:
    """Every hand seña of the table's set that truthfully fits ``hand`` in ``context`` (RULES.md §11).

    hand: a :class:`Hand` (or its text, or its :class:`HandInfo`). rules: the table's :class:`Rules`
    (``kings`` decides what a king is; ``senas`` the set). context: one of :data:`CONTEXTS`.
    Intents (cut the mus, bet more) are never listed: they say nothing about the cards.
    ``ciego`` is listed only when nothing else fits. Returns ``()`` when señas are off.

    >>> [s.key for s in senas_for("12o 3c 12e 1b", Rules(senas="kiss_three_kings"))]
    ['morder_labio_lado', 'labios_torcidos', 'guino', 'solomillo', 'girar_cabeza']
    >>> [s.key for s in senas_for("5o 5c 5e 4b")], [s.key for s in senas_for("5o 5c 5e 4b", context="after_grande")]
    (['girar_cabeza'], ['labios_torcidos', 'girar_cabeza'])
    """
    rules = rules or Rules()
    _check_context(context)
    info = _info(hand, rules)
    keys = catalogue_keys(rules)
    return tuple(SENAS[k] for k in keys if SENAS[k].kind == "hand" and _true(k, info, context, keys))


def best_senas(
    hand: Hand | HandInfo | str | Sequence[Card | str], rules: Rules | None = None, context: str = "lances", limit: int = 2
) -> tuple[Sena, ...]:
    """The señas a player would make: the ``limit`` most informative truthful ones (RULES.md §11).

    Kings or aces counts, duples and medias come first, then juego, punto, plain pares, and ciego.
    Señas that repeat what an earlier one already says (plain pares after a kings sign) are skipped.

    >>> [s.key for s in best_senas("12o 12c 5e 5b")]
    ['cejas', 'morder_labio']
    >>> [s.key for s in best_senas("12o 11c 10e 1b")]
    ['guino']
    """
    fits = {s.key for s in senas_for(hand, rules, context)}
    out: list[Sena] = []
    for k in _PREFERENCE:
        if k in fits:
            if k == "girar_cabeza" and out:
                continue
            out.append(SENAS[k])
            if len(out) >= limit:
                break
    return tuple(out)


def kings_and_aces(hand: Hand | Iterable[Card], rules: Rules | None = None) -> tuple[int, int]:
    """``(kings, aces)`` in a hand, counting 3s as kings and 2s as aces in 8 reyes (RULES.md §1)."""
    kings = (rules or Rules()).kings
    eff = [effective_rank(c.rank, kings) for c in hand]
    return eff.count(12), eff.count(1)
