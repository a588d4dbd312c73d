"""The class pages as HTML: the teacher's classes and dashboard, a learner's mistakes, the join page, the CSV.

Layout only: every word comes from :mod:`musteach.teach.classes` (the ``classes`` catalogs) in the page's
language; every name a teacher or learner typed is escaped. The heat map of learners × skills is an SVG built
with :mod:`musteach.draw.xml`'s helpers, like the tutor's other pictures.
"""

from __future__ import annotations

import csv
import io
import ipaddress
import re
from collections.abc import Sequence
from html import escape
from urllib.parse import urlsplit

from musteach.draw.xml import SVG_NS, escaped, number
from musteach.teach.classes import (
    join_heading,
    learners_count,
    lesson_name,
    misconception_line,
    mistake_name,
    practice_skills,
    skill_name,
    stars_text,
    words,
    you_are_in,
)

from .db import ClassInfo, Dashboard, LearnerInfo, LearnerRow, Mistake

__all__ = [
    "classes_page",
    "csv_text",
    "dashboard_page",
    "heatmap_svg",
    "join_page",
    "joined_page",
    "learner_page",
    "message_page",
    "password_page",
]

_CSS = """
body{font-family:system-ui,sans-serif;margin:0;background:#fafafa;color:#1b1b1b}
main{max-width:72rem;margin:0 auto;padding:1rem 1.5rem}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left}
th{background:#eee}.musteach-code{font-size:2rem;letter-spacing:.2em;font-family:monospace}
.musteach-note{color:#444}input,select,button{font-size:1rem;padding:.3rem}
.musteach-scroll{overflow-x:auto;max-width:100%}.musteach-join{overflow-wrap:anywhere}
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _page(title: str, body: str, lang: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{_e(lang)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>{body}</main></body></html>\n")


def message_page(title: str, message: str, lang: str, back: tuple[str, str] | None = None) -> str:
    """A page of one message (and a link back: (address, text))."""
    link = f'<p><a href="{_e(back[0])}">{_e(back[1])}</a></p>' if back else ""
    return _page(title, f"<h1>{_e(title)}</h1><p>{_e(message)}</p>{link}", lang)


def password_page(action: str, xsrf: str, lang: str, wrong: bool = False) -> str:
    """The password form of a teacher link that has one."""
    w = words(lang)
    note = f'<p role="alert">{_e(w["wrong_password"])}</p>' if wrong else ""
    return _page(w["password_title"], (
        f'<h1>{_e(w["password"])}</h1>{note}<form method="post" action="{_e(action)}">{xsrf}'
        f'<label>{_e(w["password"])} <input type="password" name="password" autocomplete="current-password" '
        f'required></label> <button type="submit">{_e(w["enter"])}</button></form>'), lang)


def classes_page(teacher: str, classes: Sequence[tuple[ClassInfo, int]], base: str, xsrf: str, lang: str,
                 error: str | None = None) -> str:
    """The teacher's page: their classes (each with its number of learners and its dashboard) and the form
    that opens a new one (``error`` above it when the last one sent was refused)."""
    w = words(lang)
    alert = f'<p role="alert">{_e(error)}</p>' if error else ""
    items = "".join(
        f'<li><a href="{_e(base)}teach/class/{c.id}">{_e(c.name)}</a>: {_e(learners_count(n, lang))}, '
        f'<span class="musteach-code">{_e(c.code)}</span></li>' for c, n in classes)
    listing = f"<ul>{items}</ul>" if items else f'<p>{_e(w["no_classes"])}</p>'
    form = (f'<form method="post" action="{_e(base)}teach/classes">{xsrf}<label>{_e(w["class_name"])} '
            f'<input name="name" maxlength="80" required></label> <button type="submit">{_e(w["open_class"])}'
            f"</button></form>")
    return _page(w["classes_title"], f'<h1>{_e(w["classes_heading"])}</h1><p>{_e(teacher)}</p>{listing}{alert}{form}',
                 lang)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 60 else f"{seconds:.0f} s"


def _percent(share: float | None) -> str:
    return "–" if share is None else f"{share * 100:.0f}%"


def dashboard_page(d: Dashboard, base: str, join_url: str, xsrf: str, lang: str) -> str:
    """The dashboard of one class: join link and code, learners × lessons (stars), first-try accuracy and
    time, the misconceptions, the heat map of skills, the practice setting and the CSV export."""
    w = words(lang)
    c = d.klass
    here = f"{base}teach/class/{c.id}"
    body = [f'<p><a href="{_e(base)}teach/">{_e(w["back_to_classes"])}</a></p><h1>{_e(c.name)}</h1>',
            f'<p>{_e(w["join_link"])}: <a href="{_e(join_url)}" class="musteach-join">{_e(join_url)}</a></p>',
            _local_note(join_url, lang),
            f'<p>{_e(w["join_code"])}: <span class="musteach-code">{_e(c.code)}</span></p>',
            f'<h2>{_e(w["learners"])}</h2>']
    if not d.learners:
        body.append(f'<p>{_e(w["no_learners"])}</p>')
    else:
        head = "".join(f'<th scope="col">{_e(lesson_name(ls, lang))}</th>' for ls in d.lessons)
        rows = []
        for r in d.learners:
            cells = "".join(_lesson_cell(r, ls) for ls in d.lessons)
            rows.append(f'<tr data-learner="{r.id}"><th scope="row"><a href="{_e(here)}/learner/{r.id}">{_e(r.name)}'
                        f'</a></th>{cells}<td class="musteach-first-try">{_percent(r.accuracy)}</td>'
                        f"<td>{_minutes(r.seconds)}</td></tr>")
        body.append(f'<div class="musteach-scroll"><table class="musteach-learners"><thead><tr><th scope="col">{_e(w["learner"])}</th>{head}'
                    f'<th scope="col">{_e(w["first_try"])}</th><th scope="col">{_e(w["time_spent"])}</th></tr>'
                    f'</thead><tbody>{"".join(rows)}</tbody></table></div>')
    body.append(f'<h2>{_e(w["misconceptions"])}</h2>')
    if d.misconceptions:
        total = len(d.learners)
        items = "".join(f'<li data-tag="{_e(tag)}">{_e(misconception_line(tag, len(names), total, lang))}: '
                        f'{_e(", ".join(names))}</li>' for tag, names in d.misconceptions)
        body.append(f'<ul class="musteach-misconceptions">{items}</ul>')
    else:
        body.append(f'<p>{_e(w["no_misconceptions"])}</p>')
    if d.skills and d.learners:
        body.append(f'<h2>{_e(w["skills"])}</h2><div class="musteach-scroll">{heatmap_svg(d, lang)}</div>')
    options = [f'<option value="">{_e(w["practice_own"])}</option>'] + [
        f'<option value="{_e(s)}"{" selected" if s == c.practice_skill else ""}>{_e(skill_name(s, lang))}</option>'
        for s in practice_skills()]
    body.append(f'<h2>{_e(w["practice"])}</h2><form method="post" action="{_e(here)}/practice">{xsrf}'
                f'<select name="skill" aria-label="{_e(w["practice"])}">{"".join(options)}</select> '
                f'<button type="submit">{_e(w["practice_set"])}</button></form><p class="musteach-note">'
                f'{_e(w["practice_note"])}</p>')
    body.append(f'<p><a href="{_e(here)}/csv" download>{_e(w["export"])}</a></p>')
    return _page(c.name, "".join(body), lang)


def _local_note(join_url: str, lang: str) -> str:
    """A note under a join link that names the loopback address (the teacher opened their page on the server's
    own machine): the learners' devices need the machine's network address instead. Empty otherwise."""
    host = urlsplit(join_url).hostname or ""
    try:
        local = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = False
    return f'<p class="musteach-note musteach-local">{_e(words(lang)["join_link_local"])}</p>' if local else ""


def _lesson_cell(r: LearnerRow, lesson: str) -> str:
    """A learner's cell for one lesson: their best stars, and under them the share right at the first try and
    the time spent there (when known)."""
    n, right = r.lesson_answers.get(lesson, (0, 0))
    seconds = r.lesson_seconds.get(lesson, 0.0)
    extra = " · ".join(x for x in (_percent(right / n) if n else "", _minutes(seconds) if seconds else "") if x)
    under = f'<br><small class="musteach-cell-detail">{_e(extra)}</small>' if extra else ""
    return (f'<td data-lesson="{_e(lesson)}"><span class="musteach-stars">{_e(stars_text(r.stars.get(lesson)))}'
            f"</span>{under}</td>")


def heatmap_svg(d: Dashboard, lang: str) -> str:
    """Learners (rows) × skills (columns), each cell shaded by the share of answers right at the first try
    (red 0% to green 100%; blank: no answer), the figure written in it."""
    cell_w, cell_h, left, top = 72.0, 26.0, 150.0, 110.0
    width = left + cell_w * len(d.skills) + 160  # room for the last skill's slanted name
    height = top + cell_h * len(d.learners) + 10
    parts = [f'<svg xmlns="{SVG_NS}" class="musteach-heatmap" role="img" width="{number(width)}" '
             f'height="{number(height)}" viewBox="0 0 {number(width)} {number(height)}" font-size="12" '
             f'font-family="sans-serif">']
    for j, skill in enumerate(d.skills):
        x = left + cell_w * j + cell_w / 2
        parts.append(f'<text x="{number(x)}" y="{number(top - 8)}" text-anchor="start" '
                     f'transform="rotate(-30 {number(x)} {number(top - 8)})">{escaped(skill_name(skill, lang))}</text>')
    for i, r in enumerate(d.learners):
        y = top + cell_h * i
        parts.append(f'<text x="{number(left - 6)}" y="{number(y + cell_h * 0.65)}" text-anchor="end">'
                     f"{escaped(_short(r.name))}<title>{escaped(r.name)}</title></text>")
        for j, skill in enumerate(d.skills):
            n, right = r.skills.get(skill, (0, 0))
            x = left + cell_w * j
            if not n:
                fill, label = "#f2f2f2", ""
            else:
                share = right / n
                fill = f"hsl({number(share * 120)},65%,{number(80 - share * 15)}%)"
                label = f"{share * 100:.0f}%"
            parts.append(f'<rect x="{number(x)}" y="{number(y)}" width="{number(cell_w - 2)}" '
                         f'height="{number(cell_h - 2)}" fill="{fill}"><title>{escaped(r.name)}, '
                         f"{escaped(skill_name(skill, lang))}: {escaped(label or '–')}</title></rect>")
            if label:
                parts.append(f'<text x="{number(x + cell_w / 2 - 1)}" y="{number(y + cell_h * 0.65)}" '
                             f'text-anchor="middle">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


#: The most characters of a learner's name the heat map writes in its left margin (a longer one is cut, with "…").
HEATMAP_NAME_CHARS = 18


def _short(name: str) -> str:
    return name if len(name) <= HEATMAP_NAME_CHARS else name[:HEATMAP_NAME_CHARS - 1].rstrip() + "…"


def learner_page(klass: ClassInfo, learner: LearnerInfo, mistakes: Sequence[Mistake], base: str, lang: str) -> str:
    """One learner's wrong answers, in the order made."""
    w = words(lang)
    back = f'<p><a href="{_e(base)}teach/class/{klass.id}">{_e(w["back_to_class"])}</a></p>'
    head = f'<h1>{_e(learner.name)}</h1><h2>{_e(w["mistakes_heading"])}</h2>'
    if not mistakes:
        return _page(learner.name, f'{back}{head}<p>{_e(w["no_mistakes"])}</p>', lang)
    rows = "".join(
        f'<tr><td>{_e(m.at.strftime("%Y-%m-%d %H:%M"))}</td><td>{_e(lesson_name(m.lesson, lang) if m.lesson else "–")}'
        f'</td><td>{_e(m.quiz or "–")}</td><td>{_e(skill_name(m.skill, lang) if m.skill else "–")}</td>'
        f'<td data-tag="{_e(m.diagnosis or "")}">{_e(mistake_name(m.diagnosis, lang) if m.diagnosis else "–")}'
        f'{" (" + _e(w["second_try"]) + ")" if (m.tries or 1) > 1 else ""}</td></tr>' for m in mistakes)
    table = (f'<div class="musteach-scroll"><table class="musteach-mistakes"><thead><tr><th>{_e(w["when"])}</th><th>{_e(w["lesson"])}</th>'
             f'<th>{_e(w["quiz"])}</th><th>{_e(w["skill"])}</th><th>{_e(w["diagnosis"])}</th></tr></thead>'
             f"<tbody>{rows}</tbody></table></div>")
    return _page(learner.name, back + head + table, lang)


def join_page(klass: ClassInfo | None, action: str, xsrf: str, lang: str, error: str | None = None) -> str:
    """The join page: the class's code (when the link did not name the class) and the learner's name."""
    w = words(lang)
    heading = join_heading(klass.name, lang) if klass else w["join_heading"]
    alert = f'<p role="alert">{_e(error)}</p>' if error else ""
    code = "" if klass else (f'<p><label>{_e(w["code"])} <input name="code" maxlength="12" autocomplete="off" '
                             f'required></label></p>')
    form = (f'<form method="post" action="{_e(action)}">{xsrf}{code}<p><label>{_e(w["your_name"])} '
            f'<input name="name" maxlength="40" autocomplete="nickname" required></label></p>'
            f'<button type="submit">{_e(w["join"])}</button></form>')
    return _page(w["join_title"], f"<h1>{_e(heading)}</h1>{alert}{form}", lang)


def joined_page(class_name: str, name: str, base: str, xsrf: str, lang: str) -> str:
    """What a learner in a class reads at ``/class/``: which class, as whom, the lessons, and leaving."""
    w = words(lang)
    return _page(w["joined_title"], (
        f'<h1>{_e(class_name)}</h1><p>{_e(you_are_in(class_name, name, lang))}</p><p>{_e(w["records_here"])}</p>'
        f'<p><a href="{_e(base)}">{_e(w["to_lessons"])}</a></p><form method="post" action="{_e(base)}class/leave">'
        f'{xsrf}<button type="submit">{_e(w["leave"])}</button></form>'), lang)


#: The CSV export's columns (ids, the same in every language).
CSV_COLUMNS = ("learner", "lesson", "stars", "answers", "first_try_right", "first_try_share", "seconds",
               "misconceptions")


def csv_text(d: Dashboard) -> str:
    """The dashboard as CSV: one row per learner and lesson (stars, answers, right at the first try, time),
    then one row per learner with ``lesson`` empty holding their totals and misconception tags."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in d.learners:
        name = _csv_safe(r.name)
        for ls in d.lessons:
            n, right = r.lesson_answers.get(ls, (0, 0))
            stars = r.stars.get(ls)
            writer.writerow([name, ls, "" if stars is None else stars, n, right,
                             f"{right / n:.2f}" if n else "", f"{r.lesson_seconds.get(ls, 0):.0f}", ""])
        writer.writerow([name, "", "", r.answers, r.first_try, "" if r.accuracy is None else f"{r.accuracy:.2f}",
                         f"{r.seconds:.0f}", " ".join(sorted(r.mistakes))])
    return out.getvalue()


#: Where a spreadsheet may start a cell inside a name: its start, and after a ';' (the list separator a Spanish
#: spreadsheet splits a .csv at), a ',' or a tab; a formula character there gets a quote mark before it.
_FORMULA_START = re.compile(r"(^|[;,\t])(\s*)([=+\-@\t\r])")


def _csv_safe(text: str) -> str:
    """A name that a spreadsheet will not run as a formula, whether it splits the file at ',' or at ';' (a
    formula character (= + - @) that would start a cell gets a quote mark before it)."""
    return _FORMULA_START.sub(r"\1\2'\3", text)
