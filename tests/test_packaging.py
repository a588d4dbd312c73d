"""The wheel holds every package of the source tree: a sub-package left out of pyproject's list installs a
musteach that fails on import (``musteach.teach.progress`` did, in a venv built from the binder files)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_in_pyproject():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(conf["packages"])
    dirs = {name: Path(folder) for name, folder in conf["package-dir"].items()}
    roots = {(ROOT / folder).resolve() for folder in dirs.values()}
    found = set()
    for name, folder in dirs.items():
        base = (ROOT / folder).resolve()
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            if any(part.startswith((".", "__")) for part in rel.parts):
                continue
            # a folder that is itself another package's root (widgets/server is musteach_server) is that package's
            if any(r != base and r in (init.parent, *init.parent.parents) and base in r.parents for r in roots):
                continue
            found.add(".".join((name, *rel.parts)))
    assert found - listed == set(), f"packages missing from pyproject's [tool.setuptools] packages: {sorted(found - listed)}"
