"""Play, odds and pictures in Spanish (issue 17, domain ``play``): a bot game's log, the odds and advisor texts,
the bots' reasons, the errors and the SVG pictures' words, with the same facts as in English."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

from musteach.i18n import placeholders, speaking
from musteach.locale import catalogs
from musteach.odds import advise_discard, hand_odds
from musteach.odds.advisor import aim_hint, counting_note
from musteach.odds.hands import odds_in_words, position_name
from musteach.play.bots import RuleBot, run
from musteach.play.events import EventKind
from musteach.play.game import Discard, Game, MusCall, replay
from musteach.play.levels import BeginnerBot, Level, make_bot
from musteach.play.odds_bot import OddsBot
from musteach.rules.errors import IllegalActionError, MusError

SVG = "{http://www.w3.org/2000/svg}"
_FIELD = re.compile(r"\{[^{}]*\}")


@lru_cache(maxsize=1)
def english_pieces() -> frozenset[str]:
    """The English words of the play domain that must not survive into Spanish: the literal stretches of its
    msgids (10 characters or more) that their Spanish does not also hold (``"(RULES.md §3)"`` stays)."""
    return catalogs.unshared_pieces("play", min_words=1, min_chars=10, strip=" .,:;()")


def english_left(texts: list[str]) -> list[tuple[str, str]]:
    """(piece, text) for every English piece of the play domain found in ``texts``."""
    return [(p, t) for t in texts for p in english_pieces() if p in t]


def test_play_domain_is_fully_translated() -> None:
    problems = [p for p in catalogs.check() if p.startswith("es/play.po")]
    assert problems == []
    held = [m for m in catalogs.read("es", "play") if m.id]
    assert len(held) > 150 and len(english_pieces()) > 100
    for m in held:  # every entry has its Spanish, with the msgid's placeholders
        strs = (m.string,) if isinstance(m.string, str) else tuple(m.string)
        ids = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        assert all(strs), m.id
        assert placeholders(strs[0]) <= placeholders(ids[0]) | placeholders(ids[-1]) | {"n"}


def _bot_game(seed: int, hands: int = 3) -> Game:
    g = Game(seed=seed)
    bots = {0: RuleBot(name="a"), 1: BeginnerBot(name="b"), 2: RuleBot(name="c"), 3: BeginnerBot(name="d")}
    run(g, bots, hands=hands)
    return g


@pytest.mark.parametrize("seed", [3, 11])
def test_a_bot_game_replayed_in_spanish_speaks_spanish_with_the_same_events(seed: int) -> None:
    g = _bot_game(seed)
    kinds = {e.kind for e in g.history}
    assert {EventKind.DEAL, EventKind.CARDS, EventKind.ACTION, EventKind.COUNT, EventKind.NEXT_HAND} <= kinds
    with speaking("es"):
        es = replay(g.history)
    # the same events: seats, phases, actions, audiences, data (but the language)
    assert [e.facts() for e in es.history] == [e.facts() for e in g.history]
    assert es.lang == "es" and es.history[0].data["lang"] == "es" and "lang" not in g.history[0].data
    assert es.score == g.score and es.winner == g.winner
    texts = [t for e in es.history for t in (e.text, e.private) if t]
    assert english_left(texts) == []
    assert not any(_FIELD.search(t) for t in texts), "a placeholder left unfilled"
    # the play domain's own lines say the same numbers (seats, stones, hand numbers) in both languages
    for en, sp in zip(g.history, es.history, strict=True):
        ours = en.kind in (EventKind.START, EventKind.DEAL, EventKind.CARDS, EventKind.DRAW, EventKind.HAND_END)
        if ours or isinstance(en.record, MusCall | Discard):
            assert en.text != sp.text
            assert sorted(re.findall(r"\d+", en.text)) == sorted(re.findall(r"\d+", sp.text)), (en.text, sp.text)
    assert any(re.match(r"El (mano|segundo|tercero|postre) \(\d\) dice mus", t) for t in es.texts())  # named by role
    # and back: the Spanish history replays in English to the English game, word for word
    again = replay(es.history_dicts(), lang="en")
    assert again.history == g.history


def test_replay_across_languages_still_catches_an_edited_history() -> None:
    g = _bot_game(5, hands=1)
    dicts = g.history_dicts()
    assert dicts[1]["kind"] == "deal"
    dicts[1]["seat"] = (dicts[1]["seat"] + 1) % 4  # another dealer: the words may differ, the facts may not
    with pytest.raises(MusError) as err:
        replay(dicts, lang="es")
    assert "event 1" in str(err.value)
    dicts[1]["seat"] = g.history[1].seat
    dicts[1]["text"] = "anything at all"  # words of another language are not compared...
    assert replay(dicts, lang="es").history[1].text.startswith("Ronda 1")
    with pytest.raises(MusError):  # ...but words of the same language are
        replay(dicts, lang="en")


def test_a_game_keeps_its_language_whoever_drives_it() -> None:
    g = Game(seed=8, lang="es")
    g.act(0, "mus")  # driven from English code: the game still speaks Spanish
    assert g.history[-1].text == "El mano (0) dice mus."
    assert g.to_act is not None and g.to_act.describe(lang="es") == "Le toca al asiento 1 decir mus o no hay mus"
    assert g.to_act.describe() == "Seat 1 to say mus or no hay mus"


def test_errors_name_the_same_seat_in_both_languages() -> None:
    g = Game(seed=8)
    with pytest.raises(IllegalActionError) as err:
        g.act(2, "paso")
    english, spanish = str(err.value), err.value.message("es")
    assert english.startswith("seat 2 cannot say paso: it is seat 0's turn (Seat 0 to say mus or no hay mus;")
    assert spanish.startswith("el asiento 2 no puede decir paso: es el turno del asiento 0 (Le toca al asiento 0")
    with pytest.raises(IllegalActionError) as err2:
        Discard([])
    assert err2.value.message("es") == "un descarte es de 1 a 4 cartas, no de 0 (RULES.md §3)"
    with pytest.raises(MusError) as err3:
        Level.parse("grandmaster")
    assert "'grandmaster'" in err3.value.message("es") and err3.value.message("es").startswith("nivel desconocido")


def test_levels_and_bots_are_named_in_the_language_spoken() -> None:
    assert [lv.title for lv in Level] == ["Beginner", "Club player", "Strong"]
    assert [lv.title_in("es") for lv in Level] == ["Principiante", "De club", "Fuerte"]
    with speaking("es"):
        assert make_bot("club").name == "De club"
        assert BeginnerBot().name == "Principiante"
    assert make_bot("club").name == "Club player"


def test_odds_texts_use_the_decimal_comma_and_say_the_same_figures() -> None:
    o = hand_odds("12o 3c 11e 1b", seat=0, mano=0)
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        en, es = o.explain(lance, lang="en"), o.explain(lance, lang="es")
        assert english_left([es]) == [], es
        assert not re.findall(r"\d\.\d", es), es
        assert [x.replace(".", ",") for x in re.findall(r"\d+\.\d+", en)] == re.findall(r"\d+,\d+", es)
    assert re.findall(r"\d+,\d+", o.explain("pares", lang="es"))
    assert o.explanations(lang="es")["grande"] == o.explain("grande", lang="es")
    with speaking("es"):
        assert o.explain("grande") == o.explain("grande", lang="es")
        assert o.as_dict()["explanations"] == o.explanations(lang="es")
        assert position_name(0) == "siendo mano"
    assert o.explain("grande") == (
        "With R-R-C-A as mano, your team wins Grande about 9 times in 10 (0.95): you 0.92, your partner 0.03."
    )
    assert o.nobody_sentence(lang="es").startswith("Tú tienes pares")
    assert odds_in_words(0.5, lang="es") == "unas 5 veces de cada 10"


def test_the_advisor_speaks_spanish_with_the_same_discard() -> None:
    a = advise_discard("12o 11c 7e 4b", aim="grande")
    en, es = a.explain(), a.explain(lang="es")
    assert en.startswith("To aim at Grande, change 7-4, keep R-C from R-C-7-4")
    assert es.startswith("Para ir a la grande, cambia 7-4 y quédate con R-C de R-C-7-4")
    assert re.findall(r"\d+,\d+", es) == [x.replace(".", ",") for x in re.findall(r"\d+\.\d+", en)]
    likely = a.likely_sentence(lang="es")
    n = len(a.best().redraws)
    assert likely.startswith(f"Con ese descarte te pueden quedar {n} combinaciones de cartas nuevas")
    texts = [es, likely, a.explain("balanced", lang="es"), aim_hint("pares", lang="es"), counting_note(lang="es")]
    assert english_left(texts) == []


def test_the_strong_bot_gives_its_reasons_in_spanish() -> None:
    g = Game(seed=4)
    bot = OddsBot(n=60, seed=1)
    reasons = []
    for _ in range(12):
        turn = g.to_act
        if turn is None:
            break
        view = g.view(turn.seat)
        en = bot.advise(view)
        with speaking("es"):
            es = bot.advise(view)
        assert es.action == en.action
        reasons.append(es.reason)
        assert re.findall(r"\d+,\d+", es.reason) == [x.replace(".", ",") for x in re.findall(r"\d+\.\d+", en.reason)]
        g.act(turn.seat, en.action)
    assert len(reasons) >= 4
    assert english_left(reasons) == []


def _words(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    words = [root.get("aria-label") or ""]
    for el in root.iter():
        if el.tag in (SVG + "text", SVG + "title", SVG + "tspan"):
            words.append("".join(el.itertext()))
    return [w for w in words if w]


def test_pictures_say_their_words_in_spanish() -> None:
    from musteach.draw.odds import odds_bars_svg
    from musteach.draw.stones import stones_svg
    from musteach.draw.table import table_svg
    from musteach.rules import Rules

    hands = ["12o 3c 11e 1b", "7o 7c 5e 4b", "1o 2c 6e 6b", "10o 11c 12e 3b"]
    with speaking("es"):
        stones = stones_svg(13, 37)
        table = table_svg(hands, 1, rules=Rules(), caption="Un reparto")
        bars = odds_bars_svg(hand_odds(hands[0]))
    assert stones_svg(13, 37, lang="es") == stones and stones != stones_svg(13, 37)
    assert table_svg(hands, 1, rules=Rules(), caption="Un reparto", lang="es") == table
    pictures = {"stones": stones, "table": table, "bars": bars}
    for name, svg in pictures.items():
        words = _words(svg)
        assert english_left(words) == [], name
    assert _words(stones)[0].startswith("Pareja A: 2 amarracos y 3 piedras (13); pareja B: 7 amarracos")
    assert _words(table)[0].startswith("Un reparto. Mesa de mus, el asiento 1 es mano. Asiento 0, pareja A")
    assert "Pareja A (asientos 0 y 2)" in _words(table)
    assert _words(bars)[0].startswith("Probabilidades de tu pareja por lance: Grande 95\xa0%")
    assert "tu compañero" in _words(bars)

