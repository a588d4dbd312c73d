"""``import musteach`` and ``musteach judge`` load only what they use (issue 16), and every re-exported name
still comes from ``musteach``."""

from __future__ import annotations

import subprocess
import sys

import musteach


def loaded_after(code: str) -> set[str]:
    """The musteach modules loaded in a fresh interpreter after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('musteach')))"],
        capture_output=True, text=True, check=True,
    ).stdout
    return set(out.split())


def test_every_public_name_is_reexported() -> None:
    for name in musteach.__all__:
        assert getattr(musteach, name) is not None
    assert set(musteach.__all__) <= set(dir(musteach))
    exec("from musteach import evaluate, Game, senas_for, Rules", {})


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        musteach.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("musteach.no_such_name did not raise")


def test_import_musteach_loads_no_subpackage() -> None:
    assert loaded_after("import musteach") == {"musteach"}


def test_judge_loads_neither_play_nor_teach_nor_other_commands() -> None:
    loaded = loaded_after("from musteach.cli import build_parser\nbuild_parser('judge')")
    assert "musteach.commands.judge" in loaded
    assert not {m for m in loaded if m.startswith(("musteach.play", "musteach.teach", "musteach.draw"))}
    assert "musteach.commands.count" not in loaded and "musteach.commands.grade" not in loaded
