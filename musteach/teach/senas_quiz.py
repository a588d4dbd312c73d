"""Señas quizzes: which seña fits this hand, and what does this seña tell you (pure logic, no Jupyter).

Two kinds of question, both graded by :mod:`musteach.rules.senas` (RULES.md §11):

* ``"fit"``: you see your four cards and when the seña is made; pick the one gesture among four that
  truthfully fits the hand. The other three choices are all untrue of it (a seña must be truthful), and
  the explanation says why each is wrong.
* ``"meaning"``: you see your partner's face making a gesture; pick what it tells you among four meanings.

>>> q = fit_question("12o 3c 7e 5b", seed=1)
>>> q.answer, q.answer_text
('morder_labio', 'Bite the lower lip')
>>> from musteach.rules.senas import is_truthful
>>> sum(is_truthful(k, q.hand) for k, _ in q.choices)  # exactly one choice tells the truth
1
>>> q.grade("morder_labio").correct, q.grade("lengua").correct
(True, False)
>>> q.grade("wink")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
musteach.teach.errors.AnswerError: answer with one of the señas shown (...), not 'wink'

>>> m = meaning_question("cejas", seed=2)
>>> m.prompt
'Your partner raises the eyebrows. What does this seña tell you?'
>>> m.grade("cejas").headline
'Right!'

Generated runs (:class:`SenaQuestionGenerator`) are reproducible from their seed and go through the
table's señas in a shuffled cycle, so ten questions rarely repeat a seña.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from ..i18n import N_, SOURCE_LANG, Text, check_lang, speaking, translator
from ..rules.cards import DECK, Card, Hand, parse_hand
from ..rules.lances import HandInfo, analyse, effective_rank
from ..rules.options import Rules
from ..rules.senas import (
    CONTEXTS,
    SENAS,
    Sena,
    best_senas,
    catalogue,
    check_sena,
    get_sena,
    meaning,
    senas_for,
    why_not,
)
from .mistakes import Diagnosed, diagnose_sena
from .quiz import KeyedChoices, QuizError
from .verdict import Verdict
from .why_wrong import why_meaning_wrong

__all__ = [
    "MODES",
    "SenaQuestion",
    "SenaQuestionGenerator",
    "fit_question",
    "gesture_words",
    "meaning_question",
    "questions",
    "third_person",
]

#: The two kinds of question.
MODES: tuple[str, ...] = ("fit", "meaning")

#: When a "fit" question's seña is made, in words (the contexts of :data:`musteach.rules.senas.CONTEXTS`).
_WHEN = {
    "mus": N_("The cards were just dealt and may still change in the mus."),
    "lances": N_("The mus is over: the cards are final and the Grande betting is about to begin."),
    "after_grande": N_("The Grande betting is over; the other lances are still to come."),
    "punto": N_("Everybody said 'juego no', so Punto is played."),
}

# Señas a learner easily mixes up with each one: preferred as wrong choices, so each question teaches.
_RELATED: dict[str, tuple[str, ...]] = {
    "morder_labio": ("morder_labio_lado", "morder_labio_dos_veces", "lengua"),
    "morder_labio_lado": ("morder_labio", "morder_labio_dos_veces", "labios_torcidos"),
    "morder_labio_dos_veces": ("morder_labio", "morder_labio_lado", "cejas"),
    "lengua": ("lengua_lado", "lengua_dos_veces", "morder_labio"),
    "lengua_lado": ("lengua", "lengua_dos_veces", "labios_torcidos"),
    "lengua_dos_veces": ("lengua", "lengua_lado", "cejas"),
    "labios_torcidos": ("cejas", "morritos", "morder_labio_lado"),
    "cejas": ("labios_torcidos", "girar_cabeza", "levantar_cabeza"),
    "guino": ("morritos", "hombros", "solomillo"),
    "morritos": ("guino", "solomillo", "hombros"),
    "solomillo": ("morritos", "morder_labio_lado", "guino"),
    "hombros": ("hombro", "guino", "morritos"),
    "hombro": ("hombros", "ciego", "guino"),
    "girar_cabeza": ("inclinar_cabeza", "cejas", "labios_torcidos"),
    "ciego": ("hombro", "girar_cabeza", "inclinar_cabeza"),
    "inclinar_cabeza": ("girar_cabeza", "levantar_cabeza", "ciego"),
    "levantar_cabeza": ("inclinar_cabeza", "cejas", "girar_cabeza"),
}

# In "meaning" questions, a wrong choice must not be something the seña also implies (three aces are
# medias too, two kings are pares): those meanings are left out of its choices.
_IMPLIED: dict[str, frozenset[str]] = {
    "morder_labio": frozenset({"girar_cabeza"}),
    "lengua": frozenset({"girar_cabeza"}),
    "morder_labio_lado": frozenset({"girar_cabeza", "labios_torcidos"}),
    "lengua_lado": frozenset({"girar_cabeza", "labios_torcidos"}),
    "morder_labio_dos_veces": frozenset({"girar_cabeza", "cejas", "labios_torcidos"}),
    "lengua_dos_veces": frozenset({"girar_cabeza", "cejas", "labios_torcidos"}),
    "labios_torcidos": frozenset({"girar_cabeza"}),
    "cejas": frozenset({"girar_cabeza"}),
    "solomillo": frozenset({"girar_cabeza", "labios_torcidos", "morder_labio_lado", "morritos"}),
}

_ES_ENDINGS = ("sh", "ch", "s", "x", "z")


def third_person(gesture: str, *, lang: str | None = None) -> str:
    """A seña's gesture as "your partner ___": ``"Bite the lower lip"`` → ``"bites the lower lip"``.

    English grammar: in another language (``lang``, None for the one being spoken) the gesture is kept as it
    is written, its first letter lowered, and the sentences around it are written to take it so.

    >>> third_person("Push the lips out"), third_person("Wink")
    ('pushes the lips out', 'winks')
    """
    if translator(lang).lang != SOURCE_LANG:
        return _lower(gesture.strip())
    verb, _, rest = gesture.strip().partition(" ")
    verb = verb.lower()
    verb = verb + ("es" if verb.endswith(_ES_ENDINGS) else "s")
    return f"{verb} {rest}".strip()


def gesture_words(gesture: str) -> str:
    """A seña's gesture inside a sentence, as "You signalled: ___ (its meaning)" lists the señas made: its first
    letter lowered, in every language (``gesture``: :meth:`~musteach.rules.senas.Sena.gesture_text`).

    >>> gesture_words("Bite the lower lip")
    'bite the lower lip'
    """
    return _lower(gesture.strip())


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise QuizError(Text("rules must be a musteach Rules, not {value}", value=repr(rules)))
    return rules


def _check_mode(mode: str) -> str:
    m = str(mode).strip().lower()
    if m not in MODES:
        raise QuizError(Text("unknown señas quiz mode {mode}: use 'fit' or 'meaning'", mode=repr(mode)))
    return m


def _check_context(context: str) -> str:
    if context not in CONTEXTS:
        raise QuizError(
            Text("unknown seña context {context}: one of {contexts}", context=repr(context), contexts=", ".join(CONTEXTS))
        )
    return context


# ----------------------------------------------------------------------------------------------
# Facts about a hand, in words (for the explanations)
# ----------------------------------------------------------------------------------------------


def _kings_aces(hand: Hand, rules: Rules) -> tuple[int, int]:
    eff = [effective_rank(c.rank, rules.kings) for c in hand]
    return eff.count(12), eff.count(1)


#: A count of kings or aces in words (the señas of kings and aces show 2, 3 or 4 of them).
_NUMBER_WORDS: tuple[str, ...] = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"))


def _number(n: int) -> str:
    return translator()(_NUMBER_WORDS[n])


def _fact(key: str, hand: Hand, info: HandInfo, rules: Rules, context: str) -> str:
    """Why a seña fits the hand, in one clause: ``"R-R-7-5 holds exactly two kings (...)"``."""
    if key.startswith(("morder_labio", "lengua")):
        return _count_fact(key, hand, info, rules)
    if key in ("labios_torcidos", "cejas", "girar_cabeza"):
        return _pares_fact(key, info, context)
    _ = translator()
    h = info.grande_str
    if key == "guino":
        return _("{hand} adds up to 31, the best juego", hand=h)
    if key == "morritos":
        return _("{hand} adds up to {total}: juego, but not 31", hand=h, total=info.total)
    if key == "solomillo":
        return _("{hand} is three kings and an ace", hand=h)
    if key in ("hombros", "hombro"):
        return _("{hand} adds up to {total}: no juego, and a punto of {total}", hand=h, total=info.total)
    if key == "ciego":
        return _(
            "{hand} has no pares, no juego (it adds up to {total}) and nothing else a seña could show", hand=h, total=info.total
        )
    return _("{hand} fits it", hand=h)  # pragma: no cover - every hand seña is listed above


def _count_fact(key: str, hand: Hand, info: HandInfo, rules: Rules) -> str:
    """Why a seña of two or three kings (morder_labio...) or aces (lengua...) fits the hand."""
    _ = translator()
    h = info.grande_str
    kings, aces = _kings_aces(hand, rules)
    eight = rules.kings == 8
    if key.startswith("morder_labio"):
        if eight and any(c.rank == 3 for c in hand):
            return _("{hand} holds exactly {count} kings (in 8 reyes every 3 is a king)", hand=h, count=_number(kings))
        return _("{hand} holds exactly {count} kings", hand=h, count=_number(kings))
    if eight and any(c.rank == 2 for c in hand):
        return _("{hand} holds exactly {count} aces (in 8 reyes every 2 is an ace)", hand=h, count=_number(aces))
    return _("{hand} holds exactly {count} aces", hand=h, count=_number(aces))


def _pares_fact(key: str, info: HandInfo, context: str) -> str:
    """Why a seña of pares (labios_torcidos: medias, cejas: duples, girar_cabeza: any pares) fits the hand."""
    _ = translator()
    h = info.grande_str
    assert info.pares is not None
    if key == "labios_torcidos":
        if context in ("mus", "lances"):
            return _(
                "{hand} holds {pares} (before Grande only medias of kings may be shown)", hand=h, pares=info.pares.describe()
            )
        return _("{hand} holds {pares} (after Grande any medias may be shown)", hand=h, pares=info.pares.describe())
    if key == "cejas":
        return _("{hand} holds {pares}", hand=h, pares=info.pares.describe())
    return _("{hand} holds pares ({pares})", hand=h, pares=info.pares.describe())


def _why_wrong(key: str, hand: Hand, info: HandInfo, rules: Rules, context: str) -> str:
    """Why a seña does not fit the hand, in one clause (ciego and intents get their own words)."""
    _ = translator()
    s = SENAS[key]
    if s.kind == "intent":
        return _(
            "'{gesture}' says what you want to do ({meaning}), not what you hold", gesture=_gesture(s), meaning=s.meaning_text()
        )
    if key == "ciego":
        if info.pares is not None:
            return _(
                "'{gesture}' (ciego) says you hold nothing, but {hand} has pares", gesture=_gesture(s), hand=info.grande_str
            )
        if info.is_juego:
            return _(
                "'{gesture}' (ciego) says you hold nothing, but {hand} has juego ({total})",
                gesture=_gesture(s), hand=info.grande_str, total=info.total,
            )  # fmt: skip
        return _(
            "'{gesture}' (ciego) is only for a hand with nothing to show, and punto {total} can be shown",
            gesture=_gesture(s), total=info.total,
        )  # fmt: skip
    reason = why_not(s, hand, rules, context)
    if not reason:
        return ""
    return _("'{gesture}' would say {meaning}: {reason}", gesture=_gesture(s), meaning=meaning(s, rules), reason=reason)


# ----------------------------------------------------------------------------------------------
# Questions
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SenaQuestion(KeyedChoices):
    """One señas question (see the module docstring).

    mode: ``"fit"`` or ``"meaning"``. prompt: the question sentence. sena: the :class:`~musteach.rules.senas.Sena`
    that answers it. hand: the cards shown (``"fit"``), or None. context: when the seña is made (one of
    :data:`musteach.rules.senas.CONTEXTS`). rules: the :class:`~musteach.rules.Rules` (which kings, which set of
    señas). choices: ``(key, label)`` pairs, four of them: gestures (``"fit"``) or meanings (``"meaning"``).
    answer: the right key; answer_text: its label. explanation: shown after any answer.
    reasons: for each wrong choice's key, why it is wrong. highlight: always None (no seat to light up).
    """

    mode: str
    prompt: str
    sena: Sena
    hand: Hand | None
    context: str
    rules: Rules
    choices: tuple[tuple[str, str], ...]
    answer: str
    answer_text: str
    explanation: str
    reasons: dict[str, str] = field(default_factory=dict, compare=False)
    highlight: int | None = None

    def key_of(self, response: Any) -> str | None:
        """The choice key a response names: a key, a :class:`Sena`, or a choice's label."""
        return super().key_of(response.key if isinstance(response, Sena) else response)

    def refusal(self, response: Any) -> str:
        _ = translator()
        return _(
            "answer with one of the señas shown ({keys}), not {value}",
            keys=", ".join(k for k, _ in self.choices), value=repr(response),
        )  # fmt: skip

    def diagnosis(self, given: Any) -> Diagnosed | None:
        """The diagnosis of ``given`` (:func:`~musteach.teach.mistakes.diagnose_sena`; RULES.md §11), or None when it is
        right; raises like :meth:`grade`."""
        return diagnose_sena(self, given)

    def grade(self, response: Any) -> Verdict:
        """A :class:`~musteach.teach.quiz.Verdict`; a wrong answer's explanation starts with why it is wrong."""
        _ = translator()
        given = self.verify_response(response)
        correct = given == self.answer
        if correct:
            return Verdict(True, self.answer, given, self.explanation, None, _("Right!"))
        why = self.reasons.get(given, "")
        text = f"{why[:1].upper()}{why[1:]}. {self.explanation}" if why else self.explanation
        return Verdict(False, self.answer, given, text, None, _("Not quite: {answer}.", answer=self.answer_text))


def _pick_distractors(answer: str, pool: Sequence[str], rng: random.Random, k: int = 3) -> list[str]:
    related = [x for x in _RELATED.get(answer, ()) if x in pool]
    rng.shuffle(related)
    chosen = related[: min(2, len(related))]
    rest = [x for x in pool if x not in chosen and x != answer]
    rng.shuffle(rest)
    chosen += rest[: k - len(chosen)]
    if len(chosen) < k:
        raise QuizError(Text("not enough señas to choose from for {answer}", answer=repr(answer)))
    return chosen


def _as_rng(seed: int | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def fit_question(
    hand: Hand | str | Sequence[Card | str],
    rules: Rules | None = None,
    context: str = "lances",
    *,
    answer: Sena | str | None = None,
    seed: int | random.Random | None = None,
    lang: str | None = None,
) -> SenaQuestion:
    """The question "which seña may you make with this hand?" (RULES.md §11), in ``lang`` (None: the language
    being spoken, :func:`musteach.i18n.speaking`).

    hand: 4 cards. rules: the table's :class:`~musteach.rules.Rules`. context: when the seña is made.
    answer: the seña to ask for (it must fit the hand); default: the most informative one that fits
    (:func:`musteach.rules.senas.best_senas` order). seed: for the choice and order of the wrong answers.
    Raises the card errors of :func:`~musteach.rules.cards.parse_hand`, :class:`~musteach.rules.senas.SenaError` for
    an answer that does not fit, :class:`QuizError` when señas are off.
    """
    with speaking(lang):
        return _fit_question(hand, rules, context, answer, seed)


def _fit_question(
    hand: Hand | str | Sequence[Card | str],
    rules: Rules | None,
    context: str,
    answer: Sena | str | None,
    seed: int | random.Random | None,
) -> SenaQuestion:
    _ = translator()
    r = _rules(rules)
    context = _check_context(context)
    rng = _as_rng(seed)
    h = parse_hand(hand)
    info = analyse(h, r)
    fits = senas_for(info, r, context)
    if not fits:
        raise QuizError(Text("no seña fits: señas are not used at this table (senas='off')"))
    if answer is None:
        target = best_senas(info, r, context, limit=1)[0]
    else:
        target = get_sena(answer, r)
        if target not in fits:
            check_sena(target, info, r, context)  # raises, naming why it does not fit
    fit_keys = {s.key for s in fits}
    pool = [s.key for s in catalogue(r) if s.kind == "hand" and s.key not in fit_keys]
    wrong = _pick_distractors(target.key, pool, rng)
    keys = [target.key, *wrong]
    rng.shuffle(keys)
    choices = tuple((k, _gesture(SENAS[k])) for k in keys)
    reasons = {k: _why_wrong(k, h, info, r, context) for k in wrong}
    prompt = _(
        "You hold {hand} ({kings} reyes). {when} Which seña may you truthfully make to your partner?",
        hand=info.grande_str, kings=r.kings, when=_(_WHEN[context]),
    )  # fmt: skip
    explanation = _(
        "{fact}: '{gesture}' tells your partner {meaning}.",
        fact=_cap(_fact(target.key, h, info, r, context)), gesture=_gesture(target), meaning=meaning(target, r),
    )  # fmt: skip
    others = [s for s in fits if s.key != target.key]  # every other seña that fits, the plain pares one too
    if others:
        also = ", ".join(_("'{gesture}'", gesture=_gesture(s)) for s in others)
        explanation += " " + _("With this hand you could also show {senas}.", senas=also)
    return SenaQuestion("fit", prompt, target, h, context, r, choices, target.key, _gesture(target), explanation, reasons)


def _example_hand(key: str, rules: Rules, rng: random.Random) -> tuple[Hand, str] | None:
    """A random plain hand the seña fits, and its context, or None (intents, or nothing fits).

    Plain: among the hands it fits, one that fits the fewest other señas, so "some pair" is shown with a
    par, not with duples (which have a seña of their own)."""
    for context in ("lances", "after_grande"):
        table = _fit_table(rules.kings, rules.senas, context)
        rows = [((len(keys), 4 - len(set(ms))), ms) for ms, keys in table if key in keys]
        if rows:
            fewest = min(n for n, _ in rows)
            return _realise(rng.choice([ms for n, ms in rows if n == fewest]), rules, rng), context
    return None


def meaning_question(
    sena: Sena | str,
    rules: Rules | None = None,
    *,
    seed: int | random.Random | None = None,
    lang: str | None = None,
) -> SenaQuestion:
    """The question "your partner makes this gesture: what does it tell you?" (RULES.md §11), in ``lang``
    (None: the language being spoken, :func:`musteach.i18n.speaking`).

    sena: a seña of the table's set (key, alias or :class:`~musteach.rules.senas.Sena`). rules: the table's
    :class:`~musteach.rules.Rules`. seed: for the wrong answers, their order and the example hand.
    Raises :class:`~musteach.rules.senas.SenaError` for an unknown seña or one not used at this table.
    """
    with speaking(lang):
        return _meaning_question(sena, rules, seed)


def _meaning_question(sena: Sena | str, rules: Rules | None, seed: int | random.Random | None) -> SenaQuestion:
    _ = translator()
    r = _rules(rules)
    rng = _as_rng(seed)
    target = get_sena(sena, r)
    implied = _IMPLIED.get(target.key, frozenset())
    pool = [s.key for s in catalogue(r) if s.key not in implied]
    wrong = _pick_distractors(target.key, pool, rng)
    keys = [target.key, *wrong]
    rng.shuffle(keys)
    choices = tuple((k, _cap(meaning(SENAS[k], r))) for k in keys)
    reasons = {k: why_meaning_wrong(target.key, k, r).rstrip(".") for k in wrong}
    prompt = _("Your partner {gesture}. What does this seña tell you?", gesture=third_person(_gesture(target)))
    explanation = _("'{gesture}' means {meaning}.", gesture=_gesture(target), meaning=meaning(target, r))
    more: list[str] = []
    if target.kind == "intent":
        more.append(_("It is an intention, not a fact about the cards: it says what your partner wants to do."))
    else:
        ex = _example_hand(target.key, r, rng)
        if ex is not None:
            hand, context = ex
            info = analyse(hand, r)
            if context == "lances":
                more.append(_("For example, your partner could show it holding {hand}.", hand=info.grande_str))
            else:
                more.append(
                    _("For example, your partner could show it holding {hand} (once Grande has been played).", hand=info.grande_str)
                )
        if target.key == "guino":
            more.append(_("After everybody has said 'juego no', some tables read the wink as punto 30."))
    explanation = " ".join((explanation, *more))
    answer_text = _cap(meaning(target, r))
    return SenaQuestion(
        "meaning", prompt, target, None, "lances", r, choices, target.key, answer_text, explanation, reasons
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _gesture(sena: Sena) -> str:
    """A seña's gesture in the language being spoken (:meth:`~musteach.rules.senas.Sena.gesture_text`)."""
    return sena.gesture_text()


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


# ----------------------------------------------------------------------------------------------
# Which señas fit which hands: every multiset of ranks, once per kings / set / context
# ----------------------------------------------------------------------------------------------


def _rank_classes(kings: int) -> dict[int, tuple[Card, ...]]:
    out: dict[int, list[Card]] = {}
    for c in DECK:
        out.setdefault(effective_rank(c.rank, kings), []).append(c)
    return {r: tuple(cs) for r, cs in sorted(out.items())}


@lru_cache(maxsize=16)
def _fit_table(kings: int, senas: str, context: str) -> tuple[tuple[tuple[int, ...], frozenset[str]], ...]:
    """Every multiset of effective ranks (4 cards) with the keys of the señas that fit it."""
    rules = Rules(kings=kings, senas=senas)  # type: ignore[arg-type]
    classes = _rank_classes(kings)
    rows = []
    for ms in combinations_with_replacement(sorted(classes), 4):
        counts = Counter(ms)
        if any(n > len(classes[r]) for r, n in counts.items()):
            continue
        cards: list[Card] = []
        for r, n in counts.items():
            cards.extend(classes[r][:n])
        keys = frozenset(s.key for s in senas_for(Hand(cards), rules, context))
        rows.append((ms, keys))
    return tuple(rows)


def _realise(ms: Sequence[int], rules: Rules, rng: random.Random) -> Hand:
    """Random distinct cards with these effective ranks, shown high to low (in 8 reyes a king may be a 3)."""
    classes = _rank_classes(rules.kings)
    cards: list[Card] = []
    for r, n in Counter(ms).items():
        cards.extend(rng.sample(classes[r], n))
    cards.sort(key=lambda c: (-effective_rank(c.rank, rules.kings), -c.rank))
    return Hand(cards)


class SenaQuestionGenerator:
    """An endless, reproducible source of :class:`SenaQuestion`.

    mode: ``"fit"`` (which seña fits this hand) or ``"meaning"`` (what does this seña tell you).
    seed: an int (the same seed gives the same questions) or None. rules: the table's
    :class:`~musteach.rules.Rules` (the kings and the set of señas). The señas asked about go round the
    table's set in a shuffled cycle; in ``"fit"`` mode a medias question is sometimes asked after Grande,
    when plain medias may be shown. lang: the language of the questions (None: the one being spoken when each
    is asked, :func:`musteach.i18n.speaking`). Raises :class:`QuizError` for a bad mode or when señas are off,
    ``LanguageError`` for a language the tutor does not speak.
    """

    def __init__(
        self, mode: str = "fit", seed: int | None = None, rules: Rules | None = None, *, lang: str | None = None
    ):
        self.lang = check_lang(lang) if lang is not None else None
        self.mode = _check_mode(mode)
        self.rules = _rules(rules)
        if self.rules.senas == "off":
            raise QuizError(Text("señas are not used at this table (senas='off'): there is nothing to ask"))
        self.rng = random.Random(seed)
        if self.mode == "fit":
            table = _fit_table(self.rules.kings, self.rules.senas, "lances")
            self.keys: tuple[str, ...] = tuple(
                s.key for s in catalogue(self.rules) if s.kind == "hand" and any(s.key in k for _, k in table)
            )
        else:
            self.keys = tuple(s.key for s in catalogue(self.rules))
        self._cycle: list[str] = []

    def _next_key(self) -> str:
        if not self._cycle:
            self._cycle = list(self.keys)
            self.rng.shuffle(self._cycle)
        return self._cycle.pop()

    def next(self) -> SenaQuestion:
        """The next question."""
        with speaking(self.lang):
            return self._next()

    def _next(self) -> SenaQuestion:
        key = self._next_key()
        if self.mode == "meaning":
            return meaning_question(key, self.rules, seed=self.rng)
        context = "after_grande" if key == "labios_torcidos" and self.rng.random() < 0.5 else "lances"
        rows = [ms for ms, keys in _fit_table(self.rules.kings, self.rules.senas, context) if key in keys]
        hand = _realise(self.rng.choice(rows), self.rules, self.rng)
        return fit_question(hand, self.rules, context, answer=key, seed=self.rng)

    def __next__(self) -> SenaQuestion:
        return self.next()

    def __iter__(self) -> Iterator[SenaQuestion]:
        return self


def questions(
    mode: str = "fit", n: int = 10, seed: int | None = None, rules: Rules | None = None, *, lang: str | None = None
) -> list[SenaQuestion]:
    """``n`` questions from a :class:`SenaQuestionGenerator` (a convenience for tests and scripts), in ``lang``
    (None: the language being spoken)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise QuizError(Text("a quiz needs a whole number of questions, 1 or more, not {value}", value=repr(n)))
    gen = SenaQuestionGenerator(mode, seed, rules, lang=lang)
    return [gen.next() for _ in range(n)]
