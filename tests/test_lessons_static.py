"""The lessons as files: clean nbformat 4, no outputs or widget state, short code cells, linked in order.

These checks read the notebooks without running them (nbval and the browser tests run them).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import nbformat
import pytest

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
NOTEBOOKS = sorted(LESSONS.glob("[0-9][0-9]-*.ipynb"))
INDEX = LESSONS / "00-welcome.ipynb"
LINK = re.compile(r"\]\(([^)\s]+\.ipynb)\)")
QUIZ_MIN_QUESTIONS = 10


def _ids(paths):
    return [p.stem for p in paths]


def _read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=nbformat.NO_CONVERT)


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _links(text: str) -> list[str]:
    return LINK.findall(text)


def test_the_lessons_are_there():
    stems = [p.stem for p in NOTEBOOKS]
    assert stems[0] == "00-welcome", stems
    numbers = [int(s[:2]) for s in stems]
    assert len(set(numbers)) == len(numbers), f"two lessons share a number: {stems}"
    assert numbers[:6] == list(range(6)), f"lessons 00 to 05 come first, in order: {stems}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_valid_nbformat4_python3(path):
    json.loads(path.read_text(encoding="utf-8"))  # plain JSON first: a clearer error than nbformat's
    nb = _read(path)
    nbformat.validate(nb)
    assert nb.nbformat == 4
    assert nb.metadata.kernelspec.name == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_committed_clean(path):
    nb = _read(path)
    assert "widgets" not in nb.metadata, "widget state saved in the notebook metadata"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"cell {i} has outputs"
            assert cell.execution_count is None, f"cell {i} has an execution count"
        assert "widgets" not in cell.metadata, f"cell {i} carries widget metadata"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_code_cells_are_an_import_and_one_call(path):
    nb = _read(path)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "a lesson shows at least one example or quiz"
    for cell in code:
        lines = [ln for ln in cell.source.splitlines() if ln.strip()]
        assert 1 <= len(lines) <= 3, f"code cell too long:\n{cell.source}"
        tree = ast.parse(cell.source)
        imports = [s for s in tree.body if isinstance(s, ast.Import | ast.ImportFrom)]
        calls = [s for s in tree.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)]
        assert len(imports) + len(calls) == len(tree.body), f"only imports and calls belong in a lesson:\n{cell.source}"
        assert len(calls) == 1, f"one call per cell, found {len(calls)}:\n{cell.source}"
        for imp in imports:
            module = imp.module if isinstance(imp, ast.ImportFrom) else imp.names[0].name
            assert module.split(".")[0] in {"musteach", "musteach_widgets"}, f"lessons import only musteach: {module}"


def _quiz_calls(nb) -> list[ast.Call]:
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("Quiz"):
                out.append(node)
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_each_lesson_has_a_quiz_of_ten(path):
    quizzes = _quiz_calls(_read(path))
    assert quizzes, "every lesson ends with a quiz"
    for q in quizzes:
        n = next((k.value for k in q.keywords if k.arg == "n"), None)
        assert isinstance(n, ast.Constant) and n.value >= QUIZ_MIN_QUESTIONS, (
            f"{q.func.id} must ask at least {QUIZ_MIN_QUESTIONS} questions (write n=... explicitly)"
        )


def test_index_links_every_lesson_in_order():
    """The index is the map of the lessons (issue 12): a LessonMap, whose links come from musteach's list of
    the lessons, which must be every notebook in order."""
    from musteach.teach.path import LESSONS as PATH

    code = "\n".join(c.source for c in _read(INDEX).cells if c.cell_type == "code")
    assert "LessonMap()" in code, "the index draws the map of the lessons"
    wanted = [p.name for p in NOTEBOOKS]
    listed = [lesson.notebook for lesson in PATH]
    assert listed == wanted, f"the map must list {wanted} in order, found {listed}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_links_are_relative_and_exist(path):
    twins = {f"{d.name}/{path.name}" for d in LESSONS.iterdir() if d.is_dir()}  # the same lesson in lessons/<lang>/
    for link in _links(_markdown(_read(path))):
        assert "/" not in link or link in twins, (
            f"{link}: link lessons by file name so it works in Voilà and JupyterLab alike"
        )
        assert (LESSONS / link).is_file(), f"{link} does not exist"


@pytest.mark.parametrize("i", range(len(NOTEBOOKS)), ids=_ids(NOTEBOOKS))
def test_last_cell_links_next_and_back(i):
    nb = _read(NOTEBOOKS[i])
    last = nb.cells[-1]
    assert last.cell_type == "markdown"
    links = _links(last.source)
    if i + 1 < len(NOTEBOOKS):
        assert NOTEBOOKS[i + 1].name in links, f"the last cell must link to {NOTEBOOKS[i + 1].name}"
    if i > 0:
        assert INDEX.name in links, "the last cell must link back to the index"
