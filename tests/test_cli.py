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
