"""One fresh install of the tutor, built as mybinder.org builds it, shared by the slow install tests.

repo2docker copies the repository, makes a fresh environment and runs ``pip install -r binder/requirements.txt``
from the copy's root; that installs ``.[tutor]`` as a built (not editable) package, i.e. what a pip user gets.
Building it once per test session saves two full installs: the Binder tests (test_binder.py, test_serve.py) and the
wheel test (test_serve.py) all run against it. pip's download cache is reused, so the build takes about a minute.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = (".venv", ".git", "test-artifacts", "build", "dist", "*.egg-info", "__pycache__", ".ipynb_checkpoints",
        ".pytest_cache", ".ruff_cache", ".hypothesis")


@dataclass(frozen=True)
class FreshInstall:
    """A copy of the repository (``repo``) and a venv (``venv``) holding only what binder/requirements.txt installs.

    ``env`` runs that venv's tools with Jupyter kept away from the user's own kernels and config.
    """

    base: Path
    repo: Path
    venv: Path
    env: dict[str, str]

    def bin(self, name: str) -> str:
        """The path of a command installed in the venv (``python``, ``jupyter``, ``musteach``...)."""
        return str(self.venv / "bin" / name)

    def run(self, argv: list[str], cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` with the venv's environment; fail with its output when it exits non-zero."""
        proc = subprocess.run(argv, cwd=cwd or self.repo, env=self.env, capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, (
            f"{' '.join(map(str, argv))} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
        )
        return proc


def build(base: Path) -> FreshInstall:
    """Copy the repository into ``base/repo``, make ``base/venv`` and install binder/requirements.txt into it."""
    repo = base / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*SKIP))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER", "CONDA"))}
    env |= {
        "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "JUPYTER_DATA_DIR": str(base / "jupyter-data"),
        "JUPYTER_CONFIG_DIR": str(base / "jupyter-config"),
        "JUPYTER_RUNTIME_DIR": str(base / "jupyter-runtime"),
        "IPYTHONDIR": str(base / "ipython"),
    }
    fresh = FreshInstall(base, repo, venv, env)
    fresh.run([fresh.bin("python"), "-m", "pip", "install", "--quiet", "--no-compile", "-r", "binder/requirements.txt"],
              timeout=900)
    return fresh
