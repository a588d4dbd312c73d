"""mybinder.org builds the tutor from ``binder/`` alone: check that, without docker.

As repo2docker does, a copy of the repository gets a fresh virtual environment, ``pip install -r
binder/requirements.txt`` runs from the copy's root (the session's ``fresh_install``, see fresh_venv.py), and
then every lesson is executed with that environment's Jupyter.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

PROBE = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "probe",
            "metadata": {},
            "outputs": [],
            "source": "import sys, musteach, musteach_widgets\nprint(sys.prefix)\nprint(musteach_widgets.__file__)",
        }
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_binder_files_are_those_repo2docker_reads():
    reqs = (ROOT / "binder" / "requirements.txt").read_text().split("\n")
    lines = [ln.split("#", 1)[0].strip() for ln in reqs]
    assert ".[tutor]" in lines, "binder/requirements.txt must install the project itself with its tutor extra"
    assert (ROOT / "binder" / "runtime.txt").read_text().strip().startswith("python-3.")


def test_lessons_run_in_a_venv_built_from_binder_files_only(fresh_install):
    """Every code cell of every lesson runs in the fresh venv's kernel: one notebook holds them all, lesson after
    lesson (one kernel start instead of thirteen; nbval runs each lesson on its own in the project's venv)."""
    repo, venv = fresh_install.repo, fresh_install.venv
    out = fresh_install.base / "executed"
    lessons = sorted((repo / "lessons").glob("[0-9][0-9]-*.ipynb"))
    assert len(lessons) >= 6
    cells, origin = [], []
    for path in lessons:
        for i, cell in enumerate(c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"):
            cells.append({**cell, "id": f"{path.stem}-{i}", "outputs": [], "execution_count": None})
            origin.append(f"{path.name}, code cell {i + 1}")
    together = {**PROBE, "cells": [*cells, *PROBE["cells"]]}
    source = fresh_install.base / "all-lessons.ipynb"  # beside the copy: the copy stays what the wheel test builds
    source.write_text(json.dumps(together))
    fresh_install.run(
        [fresh_install.bin("jupyter"), "nbconvert", "--to", "notebook", "--execute", "--output-dir", str(out),
         "--ExecutePreprocessor.timeout=180", "--ExecutePreprocessor.kernel_name=python3", str(source)],
        cwd=repo / "lessons", timeout=900,
    )
    ran = json.loads((out / source.name).read_text())["cells"]
    for where, cell in zip(origin, ran, strict=False):
        errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
        assert not errors, f"{where}: {errors[0]['ename']}: {errors[0]['evalue']}"
        assert cell["outputs"], f"{where} showed nothing"
    # the kernel that ran them was the fresh venv's, with musteach installed there (not the repo's sources)
    printed = ran[-1]["outputs"][0]["text"]
    prefix, widgets_file = "".join(printed).split()
    assert Path(prefix).resolve() == venv.resolve()
    assert Path(widgets_file).resolve().is_relative_to(venv.resolve())


def test_binder_opens_musteach_serve_through_the_server_proxy():
    """binder/postBuild installs binder/jupyter_server_config.py, whose server-proxy entry runs ``musteach serve``
    under the Binder session's base URL (the live check is in test_serve's binder test)."""
    from traitlets.config.loader import PyFileConfigLoader

    assert os.access(ROOT / "binder" / "postBuild", os.X_OK)
    assert "jupyter_server_config.py" in (ROOT / "binder" / "postBuild").read_text()
    reqs = [ln.split("#", 1)[0].strip() for ln in (ROOT / "binder" / "requirements.txt").read_text().splitlines()]
    assert any(ln.startswith("jupyter-server-proxy") for ln in reqs)
    config = PyFileConfigLoader("jupyter_server_config.py", path=str(ROOT / "binder")).load_config()
    entry = config.ServerProxy.servers["musteach"]
    command = entry["command"]
    assert command[:2] == ["musteach", "serve"] and "{port}" in command and entry["absolute_url"] is True
    assert command[command.index("--base-url") + 1] == "{base_url}musteach/"
