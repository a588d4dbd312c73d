"""The translator core (musteach.i18n) and the catalogs' health (musteach.locale.catalogs)."""

from __future__ import annotations

import threading

import pytest

from musteach.i18n import Text, check_lang, languages, placeholders, plural_text, translator
from musteach.locale import catalogs
from musteach.rules.errors import LanguageError, MusError


def test_catalogs_are_complete_and_up_to_date() -> None:
    # every msgid of the source is in each .po, Spanish translates all of them with the same placeholders,
    # and each .mo is the compiled .po: `make catalogs` fixes what this lists
    assert catalogs.check() == []


def test_spanish_is_spoken() -> None:
    assert languages()[:1] == ("en",)
    assert "es" in languages()
    assert check_lang("es_ES") == "es"
    assert check_lang("ES-es") == "es"


@pytest.mark.parametrize("bad", ["xx", "", 3, "french", ["es"]])
def test_unknown_language_is_named(bad: object) -> None:
    with pytest.raises(LanguageError) as err:
        translator(bad)  # type: ignore[arg-type]
    assert isinstance(err.value, MusError)
    assert "the tutor speaks en, es" in str(err.value)
    assert "el tutor habla" in err.value.message("es")


def test_untranslated_sentence_falls_back_to_english() -> None:
    _ = translator("es")
    assert _("A sentence no catalog holds, seat {seat}.", seat=3) == "A sentence no catalog holds, seat 3."
    assert _.ngettext("{n} thing nobody translated", "{n} things nobody translated", 2) == "2 things nobody translated"


def test_translation_is_used_and_placeholders_filled() -> None:
    msgid = "no language {lang}: the tutor speaks {languages}"
    es = translator("es")(msgid, lang="x", languages="en")
    assert es.startswith("no hay idioma x")
    assert translator("en")(msgid, lang="x", languages="en") == "no language x: the tutor speaks en"


def test_text_renders_in_each_language_and_nests() -> None:
    inner = Text("no language {lang}: the tutor speaks {languages}", lang="fr", languages="en, es")
    outer = Text("{why}", why=inner)
    assert str(outer) == "no language fr: the tutor speaks en, es"
    assert outer.render("es") == "no hay idioma fr: el tutor habla en, es"
    assert plural_text("{n} stone", "{n} stones", 1).render("en") == "1 stone"
    assert plural_text("{n} stone", "{n} stones", 5).render("en") == "5 stones"


def test_numbers_and_lists_follow_the_language() -> None:
    assert translator("en").percent(0.625, 1) == "62.5%"
    assert translator("es").number(62.5, 1) == "62,5"
    assert translator("en").join(["a", "b", "c"]) == "a, b and c"
    assert translator("es").join(["a", "b", "c"]) == "a, b y c"
    assert translator("es").join(["a"]) == "a"


def test_placeholders() -> None:
    assert placeholders("Seat {seat} wins {lance}: {why}.") == {"seat", "lance", "why"}
    assert placeholders("no field {{here}}") == frozenset()


def test_two_visitors_in_one_process_keep_their_language() -> None:
    # no process-wide language: threads that ask for different languages at once each get their own
    msgid = "no language {lang}: the tutor speaks {languages}"
    seen: dict[str, set[str]] = {"en": set(), "es": set()}

    def visitor(lang: str) -> None:
        for _ in range(200):
            seen[lang].add(translator(lang)(msgid, lang="x", languages="y"))

    threads = [threading.Thread(target=visitor, args=(lang,)) for lang in ("en", "es", "en", "es")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"en": {"no language x: the tutor speaks y"}, "es": {"no hay idioma x: el tutor habla y"}}


def test_speaking_sets_the_language_of_one_context_only() -> None:
    from musteach.i18n import current_lang, speaking

    msgid = "no language {lang}: the tutor speaks {languages}"
    seen_in_thread: list[str] = []
    with speaking("es"):
        assert translator()(msgid, lang="x", languages="y") == "no hay idioma x: el tutor habla y"
        assert Text(msgid, lang="x", languages="y").render().startswith("no hay idioma")
        # a new thread starts in English: the language is not process-wide
        t = threading.Thread(target=lambda: seen_in_thread.append(current_lang()))
        t.start()
        t.join()
        with speaking(None):
            assert current_lang() == "es"
    assert current_lang() == "en"
    assert seen_in_thread == ["en"]
    with pytest.raises(LanguageError):
        with speaking("klingon"):
            pass


def test_unshared_pieces_lists_english_left_untranslated_and_not_shared_terms() -> None:
    # the one place tests get "the English a Spanish text must not hold" from
    english = catalogs.unshared_pieces("rules")
    assert "the tutor speaks" in english  # "no language {lang}: the tutor speaks {languages}"
    assert not any("órdago" == p for p in english)
    spanish = catalogs.unshared_pieces("rules", translated=True)
    assert "el tutor habla" in spanish


def test_i18n_loads_below_the_rules() -> None:
    """Issue 24: i18n imports its error at load (musteach.errors, below it), not rules.errors on the error path;
    loading i18n alone loads no rules module, and check_lang still raises the one LanguageError of rules.errors."""
    import subprocess
    import sys

    code = (
        "import sys, musteach.i18n as i18n\n"
        "print(sorted(m for m in sys.modules if m.startswith('musteach.rules')))\n"
        "try:\n    i18n.check_lang('xx')\n"
        "except Exception as e:\n"
        "    from musteach.rules.errors import LanguageError, MusError\n"
        "    print(type(e) is LanguageError, isinstance(e, MusError), type(e).__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:2] == ["[]", "True True musteach.rules.errors"]
    err = MusError(Text("no language {lang}: the tutor speaks {languages}", lang='"xx"', languages="en, es"))
    assert err.text is not None and err.message("es") == 'no hay idioma "xx": el tutor habla en, es'
    assert MusError("plain").text is None and MusError("plain").reason == "plain"
