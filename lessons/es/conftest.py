"""nbval on the Spanish lessons: a lesson whose widget calls cannot take ``lang=`` yet is skipped, naming them.

The Spanish lessons call every ``musteach_widgets`` name with ``lang="es"`` (built by
``python -m musteach.locale.lessons``). The widgets learn that keyword in their own part of issue 17; until a
widget has it, running the lesson could only raise ``TypeError``, so nbval skips that lesson and says which
widgets are missing it. Once every widget takes ``lang``, nothing is skipped and this file can go.
"""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _widget_names(notebook: Path) -> set[str]:
    names: set[str] = set()
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "musteach_widgets":
                names.update(alias.name for alias in node.names)
    return names


def _takes_lang(name: str) -> bool:
    """Whether a widget names ``lang`` among its parameters (a class: in any ``__init__`` of its bases); a
    ``**kwargs`` that passes words on does not count, as it cannot be seen to accept a language."""
    import musteach_widgets

    obj = getattr(musteach_widgets, name, None)
    inits = [c.__dict__["__init__"] for c in obj.__mro__ if "__init__" in c.__dict__] if isinstance(obj, type) else [obj]
    for f in inits:
        try:
            if "lang" in inspect.signature(f).parameters:
                return True
        except (TypeError, ValueError):
            continue
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing: dict[Path, list[str]] = {}
    for item in items:
        path = Path(str(item.path)).resolve()
        if path.parent != HERE or path.suffix != ".ipynb":
            continue
        if path not in missing:
            missing[path] = sorted(n for n in _widget_names(path) if not _takes_lang(n))
        if missing[path]:
            item.add_marker(pytest.mark.skip(reason=f"widgets without lang= yet: {', '.join(missing[path])}"))
