"""Wording for a learner's screen.

The core's messages cite their rule's source, e.g. "(RULES.md §6)", for developers and the command line.
A learner has no RULES.md: the lessons name the rule instead, so the widgets drop those citations.

>>> for_learner("Team B takes the deje of 1 stone at once (RULES.md §6).")
'Team B takes the deje of 1 stone at once.'
>>> for_learner("a raise must be 2 or more (RULES.md §6, §12 #8): 1 is too small")
'a raise must be 2 or more: 1 is too small'
"""

from __future__ import annotations

import re

__all__ = ["for_learner"]

_CITATION = re.compile(r"\s*\((?:see )?RULES\.md[^()]*\)")


def for_learner(text: str) -> str:
    """``text`` without its "(RULES.md §…)" citations. Idempotent; other text is left as it is."""
    return _CITATION.sub("", str(text))
