"""The command line in Spanish, argparse's own words included (issue 28, item 4).

``musteach judge --lang es --help`` and ``LANG=es_ES.UTF-8 musteach grade --help`` show no English prose: the
option names, metavars, JSON keys and tag names stay as they are, every other word is Spanish.
"""

from __future__ import annotations

import gettext
import os
import re
import subprocess
import sys

import pytest

from musteach.cli import LOCALE_VARIABLES, main
from musteach.commands.help_words import ARGPARSE_WORDS, DESCRIPTIONS, argparse_speaking, description

#: English words that never belong in a Spanish help text (prose words, not names from the code).
ENGLISH = re.compile(
    r"(?<![\w-])(?:the|and|of|or|an|is|with|per|for|to|show|this|help|message|exit|usage|positional|arguments?"
    r"|options?|input|output|deals?|cases?|file|standard|default|language|sentences?|one|line|bad|status"
    r"|nobody|wins?|winner|hands?|seat|cards?|required|invalid|choice|choose|from|expected|see)(?![\w-])",
    re.IGNORECASE,
)


def _prose(text: str) -> str:
    """The help text without what stays English: option names, metavars, JSON keys and values in quotes, tag
    names (with "_"), ``RULES.md``, code words of the input (JSON, JSON Lines, null, FILE|-, LANG)."""
    text = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', " ", text)
    text = re.sub(r"-{1,2}[a-z][\w-]*|\{[\d,]+\}|\[[^\]\n]*\]|\w+(?:[._]\w+)+|FILE\|-|FILE|LANG|COMMAND", " ", text)
    text = re.sub(r"\b(?:JSON Lines|JSON|null|musteach|judge|count|grade|serve|lessons|uso:)\b", " ", text)
    # Mus terms and the names of the lances are the same words in both languages
    return re.sub(r"\b(?:mano|grande|chica|pares|juego|punto|reyes|rey|as|sota|órdago)\b", " ", text)


def _help(args: list[str], env: dict[str, str]) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    out = subprocess.run(
        [sys.executable, "-m", "musteach.cli", *args], capture_output=True, text=True, env={**clean, **env}, check=True
    )
    return out.stdout


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["judge", "--lang", "es", "--help"], {}),
        (["grade", "--help"], {"LANG": "es_ES.UTF-8"}),
        (["count", "--lang=es", "-h"], {"LANG": "C.UTF-8"}),
    ],
)
def test_spanish_help_has_no_english_prose(args: list[str], env: dict[str, str]) -> None:
    out = _help(args, env)
    assert out.startswith("uso: musteach "), out
    assert "argumentos posicionales:" in out and "opciones:" in out and "muestra esta ayuda y termina" in out
    for word in ("usage:", "positional arguments", "options:", "show this help message and exit", "Input", "Output"):
        assert word not in out
    left = sorted({m.group(0).lower() for m in ENGLISH.finditer(_prose(out))})
    assert left == [], f"English left in the Spanish help: {left}\n{out}"
    command = args[0]
    assert " ".join(description_es(command).split()) in " ".join(out.split())


def description_es(command: str) -> str:
    from musteach.i18n import speaking

    with speaking("es"):
        return description(command)


def test_english_help_stays_english() -> None:
    out = _help(["judge", "--help"], {"LANG": "C.UTF-8"})
    assert out.startswith("usage: musteach judge") and "show this help message and exit" in out
    assert " ".join(description("judge").split()) in " ".join(out.split())
    assert "Speed:" not in out and ":func:" not in out, "the description is for users, not the module's notes"


def test_argparse_errors_are_spanish(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit) as e:
        main(["grade", "--lang", "es", "--kings", "5"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("uso: musteach grade")
    assert "musteach grade: error: argumento --kings: valor no válido: 5 (elige entre 8, 4)" in err
    with pytest.raises(SystemExit):
        main(["judge", "--lang", "es", "a", "b"])
    assert "argumentos no reconocidos: b" in capsys.readouterr().err
    # the block put gettext and the environment back: English again
    assert gettext.gettext("usage: ") == "usage: " and "LANGUAGE" not in os.environ
    with pytest.raises(SystemExit):
        main(["grade", "--kings", "5"])
    assert "error: argument --kings: invalid choice: 5 (choose from 8, 4)" in capsys.readouterr().err


def test_argparse_speaking_restores_what_was_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "fr")
    before = gettext.textdomain()
    with argparse_speaking("es"):
        assert gettext.gettext("options") == "opciones"
        assert gettext.ngettext("expected %s argument", "expected %s arguments", 2) == "se esperaban %s argumentos"
    assert gettext.textdomain() == before and os.environ["LANGUAGE"] == "fr"
    with argparse_speaking("en"):
        assert gettext.gettext("options") == "options"
    with argparse_speaking("xx"):  # a language with no catalog: English, named later by --lang's check
        assert gettext.gettext("options") == "options"


def test_every_argparse_word_and_description_is_translated() -> None:
    from musteach.i18n import translator

    _ = translator("es")
    for word in ARGPARSE_WORDS:
        assert _(word) != word or word.startswith("%(prog)s: error"), word  # "error" is Spanish too
    for paragraphs in DESCRIPTIONS.values():
        for p in paragraphs:
            assert _(p) != p, p


@pytest.mark.parametrize(
    "args",
    [["serve", "--lang", "es", "--help"], ["lessons", "--lang", "es", "--help"], ["site", "--lang", "es", "--help"],
     ["teacher", "--help"], ["teacher", "add", "--help"], ["admit", "--lang", "es", "--help"]],
)
def test_the_plug_in_commands_help_is_spanish_too(args: list[str]) -> None:
    # the plug-ins (musteach_server) write their help in English; musteach.commands.plugin_words translates it
    out = _help(args, {"LANG": "es_ES.UTF-8"})
    assert out.startswith("uso: musteach "), out
    left = sorted({m.group(0).lower() for m in ENGLISH.finditer(_prose(out))})
    assert left == [], f"English left in the Spanish help: {left}\n{out}"


def test_every_plug_in_help_is_listed_for_the_catalogs() -> None:
    import argparse
    import importlib

    from musteach.commands.plugin_words import PLUGIN_WORDS

    def texts(p: argparse.ArgumentParser) -> list[str]:
        out = [p.description or ""]
        for a in p._actions:
            out.append(a.help or "")
            if isinstance(a, argparse._SubParsersAction):
                out += [c.help or "" for c in a._choices_actions]
                for sub in a.choices.values():
                    out += texts(sub)
        return out

    found: list[str] = []
    for name in ("command", "copy_lessons", "site", "classes.cli", "admit"):
        root = argparse.ArgumentParser()
        sub = root.add_subparsers()
        parser = importlib.import_module(f"musteach_server.{name}").add_parser(sub)
        found += [c.help or "" for c in sub._choices_actions] + texts(parser)
    missing = sorted({t for t in found if t and t not in PLUGIN_WORDS and t != "show this help message and exit"})
    assert missing == [], f"plug-in help not in musteach.commands.plugin_words.PLUGIN_WORDS: {missing}"
