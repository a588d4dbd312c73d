"""The five answer bands of the odds quiz (under 20%, 20 to 40%, ... 80% or more) and the band of a probability
(RULES.md §4, §5): below both the odds questions (:mod:`.odds_quiz`) and their diagnosis (:mod:`.mistakes`).

>>> band_of(0.0), band_of(0.2), band_of(0.79), band_of(1.0)
(0, 1, 3, 4)
"""

from __future__ import annotations

from ..i18n import N_, Text
from ..rules.errors import MusError

__all__ = ["BANDS", "BAND_EDGES", "band_of"]

#: The answer bands, as (value, label): value i covers probabilities from i/5 (included) to (i+1)/5. The labels
#: are English; a question's ``choices`` hold them in its language.
BANDS: tuple[tuple[int, str], ...] = (
    (0, N_("under 20%")),
    (1, N_("20 to 40%")),
    (2, N_("40 to 60%")),
    (3, N_("60 to 80%")),
    (4, N_("80% or more")),
)

#: The probabilities between two bands.
BAND_EDGES: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)


def band_of(p: float) -> int:
    """The band 0..4 of a probability (an edge belongs to the band above it).

    >>> band_of(0.0), band_of(0.2), band_of(0.79), band_of(1.0)
    (0, 1, 3, 4)
    """
    p = float(p)
    if not 0 <= p <= 1:
        raise MusError(Text("a probability runs from 0 to 1, not {value}", value=repr(p)))
    return min(sum(1 for e in BAND_EDGES if p >= e), len(BANDS) - 1)
