"""The small XML helper every picture shares: the SVG namespace, compact numbers and escaped text.

Pictures are built as strings (no Jupyter import, no XML library); these helpers keep the numbers short
and the text safe in XML and HTML alike.

>>> number(12.5), number(3.0), number(-0.001)
('12.5', '3', '0')
>>> escaped("rey de oros & <caballo>")
'rey de oros &amp; &lt;caballo&gt;'
>>> escaped("Señas")
'Se&#241;as'
"""

from __future__ import annotations

from html import escape

__all__ = ["SVG_NS", "escaped", "number"]

#: The SVG namespace, on the root of every standalone picture.
SVG_NS = "http://www.w3.org/2000/svg"


def number(x: float) -> str:
    """A compact number for an SVG attribute: at most 2 decimals, no trailing zeros, never ``-0``."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def escaped(value: str) -> str:
    """Text escaped for XML and HTML alike (quotes too, so it fits in an attribute), non-ASCII as character
    references, so the picture is safe in any page encoding."""
    return escape(value, quote=True).encode("ascii", "xmlcharrefreplace").decode("ascii")
