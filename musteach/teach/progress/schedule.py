"""Which skill comes next (FSRS ratings and weights), and when a skill is due, in words."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ...i18n import Text, translator
from .base import ProgressError, as_utc, now_utc
from .document import Progress

# ----------------------------------------------------------------------------------------------
# Scheduling: which skill next
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick:
    """The skill chosen next, why (``"new"``, ``"weak"``, ``"due"`` or ``"ahead"``), and its weight."""

    skill: str
    reason: str
    weight: float

    @property
    def reason_text(self) -> str:
        """Why this skill comes next, in the language being spoken: ``"due for review"``."""
        _ = translator()
        return {
            "new": _("a new skill"),
            "weak": _("a weak spot, due again"),
            "due": _("due for review"),
            "ahead": _("extra practice"),
        }[self.reason]


#: Weight of a never-answered skill (a due, weak skill weighs up to 1 + 3 + 2 = 6; one not yet due ≤ 0.2).
NEW_WEIGHT = 1.5
#: The least share of the chances the new skills get together, while there are any.
NEW_SHARE = 0.25
_REPEAT_FACTOR = 0.1  # the skill just asked is seldom asked again at once


def skill_weights(
    progress: Progress, skills: Sequence[str], now: datetime | None = None, *, last: str | None = None
) -> dict[str, Pick]:
    """How likely each skill is to come next, and why.

    A due skill weighs ``1 + overdue + 2 × (1 − mastery)``, where overdue is the time past due over the last
    interval (at most 3). A skill not due yet weighs ``0.02 + 0.18 × (1 − mastery)`` (a little practice
    ahead, on weak skills first). A new skill weighs :data:`NEW_WEIGHT`, raised when needed so that the new
    skills together always get at least :data:`NEW_SHARE` of the chances (new skills are never starved).
    The skill just asked (``last``) weighs a tenth, when there are others.
    """
    now = as_utc(now or now_utc())
    if not skills:
        raise ProgressError(Text("there are no skills to practise"))
    out: dict[str, Pick] = {}
    for s in skills:
        if progress.is_new(s):
            pick = Pick(s, "new", NEW_WEIGHT)
        else:
            card = progress.card(s)
            weak = 1.0 - progress.mastery(s, now)
            if card.due <= now:
                interval = max((card.due - (card.last_review or card.due)).total_seconds(), 60.0)
                overdue = min((now - card.due).total_seconds() / interval, 3.0)
                pick = Pick(s, "weak" if weak > 0.5 else "due", 1.0 + overdue + 2.0 * weak)
            else:
                pick = Pick(s, "ahead", 0.02 + 0.18 * weak)
        out[s] = pick
    new = [p for p in out.values() if p.reason == "new"]
    old = math.fsum(p.weight for p in out.values() if p.reason != "new")
    if new and old:
        floor = NEW_SHARE / (1 - NEW_SHARE) * old / len(new)
        for p in new:
            out[p.skill] = Pick(p.skill, "new", max(p.weight, floor))
    if last in out and len(skills) > 1:
        p = out[last]
        out[last] = Pick(last, p.reason, p.weight * _REPEAT_FACTOR)
    return out


def choose_skill(
    progress: Progress,
    skills: Sequence[str],
    now: datetime | None = None,
    *,
    rng: random.Random | None = None,
    last: str | None = None,
) -> Pick:
    """Draw the next skill at random in proportion to :func:`skill_weights` (most overdue and weakest first,
    with some randomness). Raises :class:`ProgressError` when ``skills`` is empty.

    >>> p = Progress()
    >>> choose_skill(p, ["grande"]).skill
    'grande'
    """
    weights = skill_weights(progress, list(skills), now, last=last)
    picks = list(weights.values())
    r = (rng or random.Random()).random() * math.fsum(p.weight for p in picks)
    for p in picks:
        r -= p.weight
        if r < 0:
            return p
    return picks[-1]


def describe_due(due: datetime, now: datetime, *, lang: str | None = None) -> str:
    """``"due now"``, ``"in 8 min"``, ``"in 3 h"``, ``"in 4 days"``, in ``lang`` (None: the language being spoken).

    >>> from datetime import UTC, timedelta
    >>> t = datetime(2025, 1, 1, tzinfo=UTC)
    >>> describe_due(t, t), describe_due(t + timedelta(minutes=9, seconds=50), t), describe_due(t + timedelta(days=3), t)
    ('due now', 'in 10 min', 'in 3 days')
    """
    _ = translator(lang)
    s = (due - now).total_seconds()
    if s <= 0:
        return _("due now")
    if s < 3600:
        return _("in {minutes} min", minutes=max(1, round(s / 60)))
    if s < 86400:
        return _("in {hours} h", hours=round(s / 3600))
    return _.ngettext("in {n} day", "in {n} days", round(s / 86400))
