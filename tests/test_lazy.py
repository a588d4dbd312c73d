"""musteach.lazy: a module stands in until first use, then is the real one."""

from __future__ import annotations

import subprocess
import sys

import pytest

from musteach.lazy import lazy_module


def test_the_module_is_imported_on_first_use_only():
    code = (
        "import sys\n"
        "from musteach.lazy import lazy_module\n"
        "m = lazy_module('xml.dom.minidom')\n"
        "before = 'xml.dom.minidom' in sys.modules\n"
        "doc = m.parseString('<a/>')\n"
        "print(before, 'xml.dom.minidom' in sys.modules, doc.documentElement.tagName)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "a"]


def test_names_read_are_the_module_s_own():
    import json

    lazy = lazy_module("json")
    assert lazy.dumps is json.dumps


def test_an_unknown_module_is_named_at_once():
    with pytest.raises(ModuleNotFoundError, match="no_such_mus_module"):
        lazy_module("no_such_mus_module")
