"""Pictures: every SVG the tutor shows. Drawing reads the rules; the rules never import drawing (except lazily,
for ``_repr_svg_``).

Modules:

- :mod:`.cards`: Spanish-suited cards, hands, a deal and the table (RULES.md §1, §2).
- :mod:`.stones`: the piedras and amarracos of the score (§7).
- :mod:`.senas`: the faces of the señas (§11).
- :mod:`.odds`: odds bars.
"""
