"""Pictures: every SVG the tutor shows. Drawing reads the rules; the rules never import drawing (except lazily,
for ``_repr_svg_``).

Modules:

- :mod:`.xml`: the shared XML helper (namespace, compact numbers, escaped text).
- :mod:`.cards`: Spanish-suited cards and hands (RULES.md §1).
- :mod:`.table`: the four hands around the table, and a judged deal (§0, §2).
- :mod:`.stones`: the piedras and amarracos of the score (§7).
- :mod:`.senas`: the faces of the señas (§11).
- :mod:`.odds`: odds bars.

The pictures' public functions are importable from here too (``from musteach.draw import table_svg``).
Their words (titles, ``aria-label``, legends) are in the language being spoken (:func:`musteach.i18n.speaking`),
or in the ``lang=`` they are given; the card names are Spanish in every language.
"""

from .cards import CARD_RATIO, CARD_WIDTH, SUIT_COLORS, TEAM_COLORS, card_html, card_svg, hand_html, hand_svg
from .odds import decimal_text, odds_bars_svg, odds_label, percent_text
from .senas import catalogue_html, sena_html, sena_svg
from .stones import stones_label, stones_svg, team_stones_text
from .table import deal_html, table_svg

__all__ = [
    "CARD_RATIO",
    "CARD_WIDTH",
    "SUIT_COLORS",
    "TEAM_COLORS",
    "card_html",
    "card_svg",
    "catalogue_html",
    "deal_html",
    "hand_html",
    "hand_svg",
    "odds_bars_svg",
    "odds_label",
    "decimal_text",
    "percent_text",
    "sena_html",
    "sena_svg",
    "stones_label",
    "stones_svg",
    "table_svg",
    "team_stones_text",
]
