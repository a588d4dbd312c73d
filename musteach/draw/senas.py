"""Drawn faces for the señas (RULES.md §11), as SVG strings (no Jupyter import).

Each seña is a friendly cartoon face (and shoulders) making the gesture: a bitten lip, the tongue out,
a wink, raised eyebrows, lips twisted to one side, pushed out or blowing a kiss, a shrug, closed eyes,
a tilted, raised or turned head. The root carries ``role="img"``, an ``aria-label`` and a ``<title>``
with the gesture and its meaning; no element has an ``id``, so any number of faces fit in one page.

>>> svg = sena_svg("morder_labio")
>>> svg.startswith("<svg") and 'aria-label="Bite the lower lip: two kings"' in svg
True
>>> 'data-sena="cejas"' in sena_svg("duples", width=80) and 'width="80"' in sena_svg("duples", width=80)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from ..i18n import Text, translator
from ..rules.errors import MusError
from ..rules.options import Rules
from ..rules.senas import Sena, catalogue, get_sena, meaning

__all__ = ["SENA_WIDTH", "catalogue_html", "sena_html", "sena_svg"]

#: Default width of a face, in CSS pixels (the height is 7/6 of it).
SENA_WIDTH = 120

_VW, _VH = 120, 140
_SKIN = "#F4D4B2"
_SKIN_EDGE = "#9A6B4F"
_HAIR = "#5B3A29"
_INK = "#3B2A20"
_LIP = "#C65D6B"
_TONGUE = "#E8848F"
_TEETH = "#FFFFFF"
_SHIRT = "#0072B2"
_SHIRT_EDGE = "#004F7C"
_CHEEK = "#F2A7A0"
_ACCENT = "#D55E00"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Face geometry (head centre and eyes).
_CX, _CY, _R = 60, 58, 36
_EYE_Y = 54
_EYE_L, _EYE_R = 47, 73
_MOUTH_Y = 78


def _attr(text: str) -> str:
    return escape(text, quote=True)


# --- pieces ---------------------------------------------------------------------------------------


def _body(shrug: str = "") -> str:
    """Shoulders and neck; ``shrug`` is "", "both" or "one" (the right shoulder, on the viewer's left)."""
    left = 104 if shrug else 112  # y of the shoulder line (smaller = raised)
    right = 104 if shrug == "both" else 112
    parts = [
        f'<rect x="52" y="88" width="16" height="20" fill="{_SKIN}" stroke="{_SKIN_EDGE}" stroke-width="1.5"/>',
        f'<path d="M14 140 C14 {left} 30 {left - 6} 50 {left - 8} L70 {right - 8} C90 {right - 6} 106 {right} 106 140 Z" '
        f'fill="{_SHIRT}" stroke="{_SHIRT_EDGE}" stroke-width="2"/>',
    ]
    if shrug:
        parts.append(_motion(22, left - 12))
        if shrug == "both":
            parts.append(_motion(98, right - 12))
    return "".join(parts)


def _motion(x: float, y: float) -> str:
    """Little lines showing movement (a shoulder going up)."""
    return (
        f'<path d="M{x - 6} {y} l0 -8 M{x} {y - 2} l0 -10 M{x + 6} {y} l0 -8" stroke="{_ACCENT}" '
        'stroke-width="2" stroke-linecap="round" fill="none"/>'
    )


def _head() -> str:
    return (
        f'<circle cx="{_CX - _R + 1}" cy="{_CY + 2}" r="6" fill="{_SKIN}" stroke="{_SKIN_EDGE}" stroke-width="1.5"/>'
        f'<circle cx="{_CX + _R - 1}" cy="{_CY + 2}" r="6" fill="{_SKIN}" stroke="{_SKIN_EDGE}" stroke-width="1.5"/>'
        f'<circle cx="{_CX}" cy="{_CY}" r="{_R}" fill="{_SKIN}" stroke="{_SKIN_EDGE}" stroke-width="2"/>'
        f'<path d="M{_CX - _R + 2} {_CY - 8} C{_CX - _R + 4} {_CY - _R - 8} {_CX + _R - 4} {_CY - _R - 8} '
        f'{_CX + _R - 2} {_CY - 8} C{_CX + 20} {_CY - 26} {_CX - 14} {_CY - 18} {_CX - _R + 2} {_CY - 8} Z" fill="{_HAIR}"/>'
        f'<circle cx="{_EYE_L - 6}" cy="{_EYE_Y + 14}" r="5" fill="{_CHEEK}" opacity="0.6"/>'
        f'<circle cx="{_EYE_R + 6}" cy="{_EYE_Y + 14}" r="5" fill="{_CHEEK}" opacity="0.6"/>'
    )


def _nose(dx: float = 0) -> str:
    return f'<path d="M{_CX + dx} {_EYE_Y + 4} q-4 9 1 10" stroke="{_SKIN_EDGE}" stroke-width="2" fill="none" stroke-linecap="round"/>'


def _eye_open(x: float, dx: float = 0) -> str:
    return (
        f'<ellipse cx="{x}" cy="{_EYE_Y}" rx="4.2" ry="5.2" fill="{_INK}"/>'
        f'<circle cx="{x + 1.4 + dx}" cy="{_EYE_Y - 1.8}" r="1.4" fill="#FFFFFF"/>'
    )


def _eye_closed(x: float) -> str:
    return f'<path d="M{x - 6} {_EYE_Y} q6 6 12 0" stroke="{_INK}" stroke-width="2.4" fill="none" stroke-linecap="round"/>'


def _eyes(kind: str = "open", dx: float = 0) -> str:
    if kind == "closed":
        return _eye_closed(_EYE_L) + _eye_closed(_EYE_R)
    if kind == "wink":  # the viewer's right eye winks
        return _eye_open(_EYE_L) + _eye_closed(_EYE_R)
    return _eye_open(_EYE_L + dx, dx / 3) + _eye_open(_EYE_R + dx, dx / 3)


def _brows(raised: bool = False, dx: float = 0) -> str:
    y = _EYE_Y - (17 if raised else 11)
    curve = -6 if raised else -2
    return "".join(
        f'<path d="M{x - 7 + dx} {y} q7 {curve} 14 0" stroke="{_HAIR}" stroke-width="3" fill="none" stroke-linecap="round"/>'
        for x in (_EYE_L, _EYE_R)
    )


def _smile(dx: float = 0) -> str:
    return f'<path d="M{_CX - 10 + dx} {_MOUTH_Y} q10 8 20 0" stroke="{_INK}" stroke-width="2.4" fill="none" stroke-linecap="round"/>'


def _bite(side: str = "") -> str:
    """Upper teeth over the lower lip: across the mouth, or on one side (``side`` "left"/"right")."""
    lip = (
        f'<path d="M{_CX - 12} {_MOUTH_Y} q12 9 24 0 q-12 3 -24 0 Z" fill="{_LIP}" stroke="{_INK}" stroke-width="1.5"/>'
    )
    if side:
        x = _CX - 11 if side == "left" else _CX + 1
        teeth = f'<rect x="{x}" y="{_MOUTH_Y - 3}" width="10" height="5" rx="1" fill="{_TEETH}" stroke="{_INK}" stroke-width="1"/>'
    else:
        teeth = (
            f'<rect x="{_CX - 9}" y="{_MOUTH_Y - 3}" width="18" height="5" rx="1" fill="{_TEETH}" stroke="{_INK}" stroke-width="1"/>'
            f'<path d="M{_CX} {_MOUTH_Y - 3} v5" stroke="{_INK}" stroke-width="0.8"/>'
        )
    upper = f'<path d="M{_CX - 13} {_MOUTH_Y - 3} q13 -4 26 0" stroke="{_INK}" stroke-width="2" fill="none" stroke-linecap="round"/>'
    return lip + teeth + upper


def _tongue(side: str = "") -> str:
    x = {"": _CX, "left": _CX - 8, "right": _CX + 8}[side]
    return (
        f'<path d="M{_CX - 12} {_MOUTH_Y - 2} q12 10 24 0 Z" fill="{_INK}"/>'
        f'<ellipse cx="{x}" cy="{_MOUTH_Y + 6}" rx="6" ry="7" fill="{_TONGUE}" stroke="{_INK}" stroke-width="1.2"/>'
        f'<path d="M{x} {_MOUTH_Y + 2} v7" stroke="{_LIP}" stroke-width="1"/>'
        f'<path d="M{_CX - 13} {_MOUTH_Y - 2} q13 -3 26 0" stroke="{_INK}" stroke-width="2" fill="none" stroke-linecap="round"/>'
    )


def _twisted() -> str:
    """Closed lips pushed to one side, with a dimple."""
    return (
        f'<path d="M{_CX - 2} {_MOUTH_Y + 1} q8 -2 14 -6" stroke="{_INK}" stroke-width="2.6" fill="none" stroke-linecap="round"/>'
        f'<path d="M{_CX + 13} {_MOUTH_Y - 8} q3 2 1 5" stroke="{_SKIN_EDGE}" stroke-width="1.5" fill="none"/>'
    )


def _pout() -> str:
    return (
        f'<ellipse cx="{_CX}" cy="{_MOUTH_Y}" rx="6" ry="5" fill="{_LIP}" stroke="{_INK}" stroke-width="1.6"/>'
        f'<ellipse cx="{_CX}" cy="{_MOUTH_Y}" rx="2" ry="1.6" fill="{_INK}"/>'
    )


def _heart(x: float, y: float, s: float = 1.0) -> str:
    return (
        f'<path d="M{x} {y + 6 * s} c-7 -5 -9 -10 -5 -13 c3 -2 5 0 5 2 c0 -2 2 -4 5 -2 c4 3 2 8 -5 13 Z" '
        f'fill="{_ACCENT}" stroke="#8E2B00" stroke-width="1"/>'
    )


def _badge(text: str) -> str:
    """A round badge in the top corner (``×2`` for a gesture made twice)."""
    return (
        f'<circle cx="102" cy="18" r="13" fill="{_ACCENT}" stroke="#8E2B00" stroke-width="1.5"/>'
        f'<text x="102" y="23" font-family="{_FONT}" font-size="14" font-weight="bold" fill="#FFFFFF" '
        f'text-anchor="middle">{escape(text)}</text>'
    )


def _arrow_up(x: float, y: float) -> str:
    return f'<path d="M{x} {y + 16} v-14 m-6 6 l6 -6 l6 6" stroke="{_ACCENT}" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/>'


def _arrow_side(x: float, y: float) -> str:
    return f'<path d="M{x} {y} h16 m-6 -6 l6 6 l-6 6" stroke="{_ACCENT}" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/>'


def _face(eyes: str = "open", brows: bool = False, mouth: str = "", dx: float = 0) -> str:
    return _head() + _brows(brows, dx) + _eyes(eyes, dx) + _nose(dx) + (mouth or _smile(dx))


# --- the gestures -----------------------------------------------------------------------------


def _drawing(key: str) -> str:
    """The inner SVG of a seña's face."""
    if key == "morder_labio":
        return _body() + _face(mouth=_bite())
    if key == "morder_labio_lado":
        return _body() + _face(mouth=_bite("right"))
    if key == "morder_labio_dos_veces":
        return _body() + _face(mouth=_bite()) + _badge("×2")
    if key == "lengua":
        return _body() + _face(mouth=_tongue())
    if key == "lengua_lado":
        return _body() + _face(mouth=_tongue("right"))
    if key == "lengua_dos_veces":
        return _body() + _face(mouth=_tongue()) + _badge("×2")
    if key == "labios_torcidos":
        return _body() + _face(mouth=_twisted())
    if key == "cejas":
        return _body() + _face(brows=True, mouth=_smile())
    if key == "guino":
        return _body() + _face(eyes="wink", mouth=_smile())
    if key == "morritos":
        return _body() + _face(mouth=_pout())
    if key == "solomillo":
        return _body() + _face(eyes="closed", mouth=_pout()) + _heart(96, 66) + _heart(106, 50, 0.7)
    if key == "hombros":
        return _body("both") + _face(brows=True, mouth=_twisted())
    if key == "hombro":
        return _body("one") + _face(mouth=_twisted())
    if key == "girar_cabeza":
        return _body() + _face(dx=9, mouth=_smile(9)) + _arrow_side(90, 20)
    if key == "ciego":
        return _body() + _face(eyes="closed", mouth=_smile())
    if key == "inclinar_cabeza":
        return _body() + f'<g transform="rotate(-18 {_CX} {_CY + 30})">{_face()}</g>'
    if key == "levantar_cabeza":
        return _body() + f'<g transform="translate(0 -6)">{_face(mouth=_smile())}</g>' + _arrow_up(102, 8)
    raise MusError(Text("no drawing for the seña {key}", key=repr(key)))  # pragma: no cover - every catalogued seña has one


def sena_svg(
    sena: Sena | str, width: int = SENA_WIDTH, rules: Rules | str | None = None, *, with_meaning: bool = True
) -> str:
    """A face making the seña's gesture, as an SVG string (RULES.md §11).

    sena: a :class:`~musteach.rules.senas.Sena` or its key / alias (``"morder_labio"``, ``"dos reyes"``).
    width: CSS pixels (height = 7/6 of it). rules: the table's rules or seña set, for the meaning
    spoken in the ``aria-label`` (the kiss means three kings and an ace in the ``kiss_three_kings`` set).
    with_meaning: False names only the gesture in the ``aria-label`` and tooltip (a quiz must not give away
    the meaning before it is answered).
    Raises :class:`~musteach.rules.senas.SenaError` for an unknown seña, :class:`MusError` for a bad width.
    """
    s = get_sena(sena)
    if isinstance(width, bool) or not isinstance(width, int | float) or width <= 0:
        raise MusError(Text("width must be a positive number of pixels, not {value}", value=repr(width)))
    _ = translator()
    if with_meaning:
        label = _("{gesture}: {meaning}", gesture=s.gesture_text(_.lang), meaning=meaning(s, rules, _.lang))
    else:
        label = s.gesture_text(_.lang)
    h = round(width * _VH / _VW, 1)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" viewBox="0 0 {_VW} {_VH}" '
        f'role="img" aria-label="{_attr(label)}" class="musteach-sena" data-sena="{s.key}">'
        f"<title>{escape(label)}</title>"
        f'<rect x="1" y="1" width="{_VW - 2}" height="{_VH - 2}" rx="14" fill="#FFF8EC" stroke="#E5D3B3" stroke-width="2"/>'
        f"{_drawing(s.key)}</svg>"
    )


def sena_html(sena: Sena | str, width: int = SENA_WIDTH, rules: Rules | str | None = None) -> str:
    """The face with a caption (gesture, meaning), as an HTML ``<figure>``."""
    s = get_sena(sena)
    _ = translator()
    gesture, means = s.gesture_text(_.lang), meaning(s, rules, _.lang)
    return (
        f'<figure class="musteach-sena-card" style="display:inline-block;margin:4px;width:{width + 16}px;'
        f'text-align:center;vertical-align:top">{sena_svg(s, width, rules)}'
        f'<figcaption style="font-family:{_attr(_FONT)};font-size:13px"><strong>{escape(gesture)}</strong>'
        f"<br>{escape(means)}</figcaption></figure>"
    )


def catalogue_html(rules: Rules | str | None = None, width: int = 100, senas: Iterable[Sena | str] | None = None) -> str:
    """Every seña of the table's set (or the given ones) as captioned faces, in one HTML block."""
    items = list(senas) if senas is not None else list(catalogue(rules))
    if not items:
        _ = translator()
        none = escape(_("Señas are not used at this table."))
        return f'<div class="musteach-senas"><p>{none}</p></div>'
    return '<div class="musteach-senas">' + "".join(sena_html(s, width, rules) for s in items) + "</div>"
