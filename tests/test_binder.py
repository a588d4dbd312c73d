"""mybinder.org builds the tutor from ``binder/`` alone: check that, without docker.

As repo2docker does, a copy of the repository gets a fresh virtual environment, ``pip install -r
binder/requirements.txt`` runs from the copy's root, and then every lesson is executed with that
environment's Jupyter. pip's download cache is reused, so a second run takes well under a minute.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = (".venv", ".git", "test-artifacts", "build", "dist", "*.egg-info", "__pycache__", ".ipynb_checkpoints",
        ".pytest_cache", ".ruff_cache", ".hypothesis")

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


def _run(argv, cwd, env, timeout):
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, argv))} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    return proc


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory):
    """A copy of the repository and a venv holding only what binder/requirements.txt installs."""
    base = tmp_path_factory.mktemp("binder")
    repo = base / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*SKIP))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER", "CONDA"))}
    env |= {
        "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # keep Jupyter away from the user's own kernels and config: only the venv's python3 kernel is found
        "JUPYTER_DATA_DIR": str(base / "jupyter-data"),
        "JUPYTER_CONFIG_DIR": str(base / "jupyter-config"),
        "JUPYTER_RUNTIME_DIR": str(base / "jupyter-runtime"),
        "IPYTHONDIR": str(base / "ipython"),
    }
    _run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-compile", "-r", "binder/requirements.txt"], repo, env, 600)
    return repo, venv, env


def test_binder_files_are_those_repo2docker_reads():
    reqs = (ROOT / "binder" / "requirements.txt").read_text().split("\n")
    lines = [ln.split("#", 1)[0].strip() for ln in reqs]
    assert ".[tutor]" in lines, "binder/requirements.txt must install the project itself with its tutor extra"
    assert (ROOT / "binder" / "runtime.txt").read_text().strip().startswith("python-3.")


def test_lessons_run_in_a_venv_built_from_binder_files_only(binder_env):
    repo, venv, env = binder_env
    out = repo.parent / "executed"
    lessons = sorted((repo / "lessons").glob("[0-9][0-9]-*.ipynb"))
    assert len(lessons) >= 6
    probe = repo / "lessons" / "zz-probe.ipynb"
    probe.write_text(json.dumps(PROBE))
    _run(
        [venv / "bin" / "jupyter", "nbconvert", "--to", "notebook", "--execute", "--output-dir", str(out),
         "--ExecutePreprocessor.timeout=180", "--ExecutePreprocessor.kernel_name=python3", *map(str, [*lessons, probe])],
        repo,
        env,
        900,
    )
    for path in lessons:
        nb = json.loads((out / path.name).read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        errors = [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
        assert not errors, f"{path.name}: {errors[0]['ename']}: {errors[0]['evalue']}"
        assert all(c["outputs"] for c in code), f"{path.name}: a code cell showed nothing"
    # the kernel that ran them was the fresh venv's, with musteach installed there (not the repo's sources)
    printed = json.loads((out / probe.name).read_text())["cells"][0]["outputs"][0]["text"]
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
