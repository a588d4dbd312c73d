"""The ``musteach`` command line: plug-in subcommands load only when chosen."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys; print('\\n'.join(sys.modules))"],
        capture_output=True, text=True, check=True,
    ).stdout
    return set(out.split())


def test_judge_and_count_never_import_the_jupyter_stack():
    mods = _modules_after("from musteach.cli import main\nmain(['judge', '/dev/null'])\nmain(['count', '/dev/null'])")
    assert "musteach.commands.judge" in mods
    assert not {m for m in mods if m.split(".")[0] in {"ipywidgets", "IPython", "voila", "jupyter_server", "tornado"}}


def test_help_lists_the_serve_plugin_without_loading_it():
    out = subprocess.run([sys.executable, "-m", "musteach.cli", "--help"], capture_output=True, text=True, check=True)
    assert "serve" in out.stdout and "judge" in out.stdout and "count" in out.stdout


def test_the_serve_plugin_loads_when_chosen():
    out = subprocess.run([sys.executable, "-m", "musteach.cli", "serve", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "--max-kernels" in out.stdout


@pytest.mark.parametrize("command", ["judge", "count"])
def test_absurdly_nested_input_is_one_line_and_status_2(command, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "musteach.cli", command, str(deep)], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "nested too deeply" in out.stderr


def _helps(lang: str) -> dict[str, str]:
    """Every help text of the parser and its built-in commands' parsers, built speaking ``lang``."""
    from musteach.cli import COMMANDS, build_parser
    from musteach.i18n import speaking

    with speaking(lang):
        parser = build_parser()
    found = {"musteach": parser.description or ""}
    sub = next(a for a in parser._actions if a.dest == "command")  # argparse keeps its subparsers here
    for choice in sub._choices_actions:
        found[choice.dest] = choice.help or ""
    for name in COMMANDS:
        for action in sub.choices[name]._actions:
            if action.dest != "help":  # argparse's own "-h"
                found[f"{name} {action.dest}"] = action.help or ""
    return found


def test_our_help_texts_are_translated():
    from musteach.i18n import translator

    english, spanish = _helps("en"), _helps("es")
    assert list(spanish) == list(english) and len(english) > 12
    for key, text in english.items():
        assert spanish[key] != text, key
        if translator("es")(text) != text:  # a help without placeholders: its catalog entry as it is
            assert spanish[key] == translator("es")(text), key


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--help", "--lang", "es"], {}), (["judge", "--help"], {"LANG": "es_ES.UTF-8"}), (["judge", "--lang=es", "-h"], {})],
)
def test_help_follows_lang_or_the_environment(args, env, monkeypatch, capsys):
    from musteach.cli import LOCALE_VARIABLES, main

    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 0
    out = capsys.readouterr().out
    spanish = _helps("es")
    shown = [spanish["judge"]] if args[0] == "--help" else [spanish["judge explain"], spanish["judge lang"][:40]]
    assert all(" ".join(text.split()) in " ".join(out.split()) for text in shown), out
    english = _helps("en")
    assert english["judge explain"] not in out and english["judge"] not in out


def test_help_stays_english_without_a_spoken_language(monkeypatch, capsys):
    from musteach.cli import LOCALE_VARIABLES, main

    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        main(["judge", "--help"])
    assert _helps("en")["judge explain"] in capsys.readouterr().out
