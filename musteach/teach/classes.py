"""The words of class mode (``musteach serve`` with classes): the teacher's pages and dashboard, the join page.

Pure Python, no Jupyter or database import: :mod:`musteach_server.classes` lays these words out as HTML and
never writes a sentence of its own. Every sentence goes through the catalogs of the ``classes`` domain (see
:mod:`musteach.i18n`); each function takes ``lang`` (None: the language being spoken now) and raises
:class:`~musteach.rules.errors.LanguageError` for a language the tutor does not speak.

>>> misconception_line("three_is_not_king", 7, 20)
'7 of 20 learners still miss that in 8 reyes every 3 is a king (worth 10 points)'
>>> misconception_line("three_is_not_king", 1, 3, "es")
'1 de 3 alumnos aún no ve que a 8 reyes cada 3 es un rey (vale 10 puntos)'
"""

from __future__ import annotations

from ..i18n import N_, translator

__all__ = [
    "WORDS",
    "join_heading",
    "learners_count",
    "lesson_name",
    "misconception_line",
    "mistake_name",
    "practice_skills",
    "skill_name",
    "stars_text",
    "words",
    "you_are_in",
]

#: The fixed words of the class pages, by key (msgids).
WORDS: dict[str, str] = {
    "classes_title": N_("musteach: your classes"),
    "classes_heading": N_("Your classes"),
    "no_classes": N_("You have no class yet: open one below."),
    "class_name": N_("Name of the class"),
    "open_class": N_("Open a class"),
    "bad_class_name": N_("Type a class name of 1 to 80 characters."),
    "password_title": N_("musteach: teacher's password"),
    "password": N_("Password"),
    "enter": N_("Enter"),
    "wrong_password": N_("Wrong password: try again."),
    "bad_teacher_link": N_("This teacher link is not valid. Ask the person running the tutor for yours."),
    "not_signed_in": N_("Open your teacher link to see your classes."),
    "join_link": N_("Join link"),
    "join_code": N_("Code to read out"),
    "join_link_local": N_("This link names this computer (localhost): on the learners' phones and computers, "
                          "put this computer's network address in its place."),
    "learners": N_("Learners"),
    "learner": N_("Learner"),
    "first_try": N_("Right at the first try"),
    "time_spent": N_("Time spent"),
    "no_learners": N_("Nobody has joined yet: give the learners the link or the code."),
    "misconceptions": N_("Most common misconceptions"),
    "no_misconceptions": N_("No misconception seen yet."),
    "skills": N_("Skills (share right at the first try)"),
    "practice": N_("Practice for the whole class"),
    "practice_own": N_("Each learner chooses"),
    "practice_set": N_("Apply"),
    "practice_note": N_("Applied when each learner next opens Practice."),
    "export": N_("Export to CSV"),
    "back_to_classes": N_("Back to your classes"),
    "back_to_class": N_("Back to the class"),
    "mistakes_heading": N_("Mistakes, in the order made"),
    "no_mistakes": N_("No mistake yet."),
    "when": N_("When"),
    "lesson": N_("Lesson"),
    "quiz": N_("Quiz"),
    "skill": N_("Skill"),
    "diagnosis": N_("Diagnosis"),
    "second_try": N_("right at a later try"),
    "join_title": N_("musteach: join a class"),
    "join_heading": N_("Join a class"),
    "code": N_("Class code"),
    "your_name": N_("Your name (only your teacher sees it)"),
    "join": N_("Join"),
    "no_such_class": N_("No class has this code or link. Check it with your teacher."),
    "not_yours": N_("This class or learner is not among yours."),
    "bad_name": N_("Type a name of 1 to 40 characters."),
    "joined_title": N_("musteach: your class"),
    "to_lessons": N_("Go to the lessons"),
    "leave": N_("Leave the class and delete my records"),
    "left": N_("You have left the class and your records in it are deleted."),
    "not_in_class": N_("You are not in a class."),
    "records_here": N_("Your answers in the lessons now reach your teacher too; they stay in this browser as well."),
}


def words(lang: str | None = None) -> dict[str, str]:
    """Every fixed word of the class pages (:data:`WORDS`) in ``lang``."""
    _ = translator(lang)
    return {key: _(msgid) for key, msgid in WORDS.items()}


def learners_count(n: int, lang: str | None = None) -> str:
    """``"3 learners"`` in ``lang``."""
    _ = translator(lang)
    return _.ngettext("{n} learner", "{n} learners", n)


def you_are_in(class_name: str, name: str, lang: str | None = None) -> str:
    """What a learner reads once in a class: ``"You are in the class 4B as Ane."``."""
    _ = translator(lang)
    return _("You are in the class {klass} as {name}.", klass=class_name, name=name)


def join_heading(class_name: str, lang: str | None = None) -> str:
    """The join page's heading for one class: ``"Join the class 4B"``."""
    _ = translator(lang)
    return _("Join the class {klass}", klass=class_name)


def mistake_name(tag: str, lang: str | None = None) -> str:
    """A diagnosis tag as the teacher reads it: the rule it breaks for a misconception of the lances
    (:data:`musteach.teach.diagnosis.MISTAKE_FACTS`), else the tag itself with spaces."""
    from .diagnosis import JUEGO_RANKS, MISTAKE_FACTS, Mistake

    _ = translator(lang)
    try:
        fact = MISTAKE_FACTS[Mistake(tag)]
    except ValueError:
        return tag.replace("_", " ")
    return _(fact, order=JUEGO_RANKS)


def misconception_line(tag: str, n: int, total: int, lang: str | None = None) -> str:
    """One line of the dashboard's misconceptions: ``n`` of the class's ``total`` learners show ``tag``."""
    _ = translator(lang)
    return _.ngettext("{n} of {total} learners still misses that {fact}",
                      "{n} of {total} learners still miss that {fact}", n, total=total, fact=mistake_name(tag, lang))


def stars_text(stars: int | None, lang: str | None = None) -> str:
    """Stars as the dashboard shows them (``"★★☆"``), or ``"–"`` for a lesson not finished."""
    if stars is None:
        return "–"
    return "★" * stars + "☆" * (3 - stars)


def skill_name(skill: str, lang: str | None = None) -> str:
    """A practice skill as the mastery rows name it (``"Who wins Grande"``), else its id with spaces."""
    from .labels import SKILL_LABELS

    _ = translator(lang)
    label = SKILL_LABELS.get(skill)
    return _(label) if label else skill.replace("_", " ")


def lesson_name(name: str, lang: str | None = None) -> str:
    """A lesson (``"03-grande-chica"``) as the dashboard heads its column: its heading, else its name."""
    from .pages import lesson_heading

    return lesson_heading(name, lang) or name


def practice_skills() -> tuple[str, ...]:
    """The skills a teacher may point the class's practice at (the practice's own)."""
    from .labels import SKILL_LABELS

    return tuple(SKILL_LABELS)
