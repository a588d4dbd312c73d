"""Teaching: questions, verdicts, quiz sessions, the coach, learner progress, and the wording a learner reads.

Modules, and the RULES.md sections they implement:

- :mod:`.verdict`: :class:`~.verdict.Verdict`, the one grade every quiz gives.
- :mod:`.quiz`: lance questions (who wins Grande, Chica, Pares, Juego, Punto; §4, §5), jugada, total and order
  questions, their generators and their grading.
- :mod:`.diagnosis`: which misconception explains a wrong "who wins this lance?" answer (§1–§5; issue 12).
- :mod:`.diagnosis_batch`: the same diagnosis for many answers at once, word for word (``musteach grade``).
- :mod:`.mistakes`: one diagnosis for every quiz: each wrong answer's tags (a string enum per quiz kind) and the
  sentence naming the mistake (§1–§8, §11; issue 23).
- :mod:`.count_quiz`: betting and count questions (§6 dejes, §7 scoring, §8 the count).
- :mod:`.betting_script`: betting as a lesson writes it (``"0 envido, 1 quiero"``), read and played (§6).
- :mod:`.mus_quiz`: best-discard questions (§3, with the advisor of :mod:`musteach.odds`).
- :mod:`.odds_quiz`: reading-the-odds questions (§4, §5).
- :mod:`.senas_quiz`: which seña, and what a seña means (§11).
- :mod:`.coach`: the coach's advice and its structured comment on a learner's decision (§3, §4, §6).
- :mod:`.hints`: two-step hints per question kind, the deciding cards as data (§1–§8, §11; issue 12).
- :mod:`.scoring`: one question's attempt (hints, a second try, its outcome), its points, and a run's 0–3 stars.
- :mod:`.why_wrong`: why the learner's own answer is wrong in the betting, count and señas quizzes (§6–§8, §11).
- :mod:`.tutor`: hints and the message before a second try, for every question kind.
- :mod:`.session`: a run of questions (score, streak, tries, hints, points, stars).
- :mod:`.path`: the lessons, their quizzes, the map with stars and "continue here", and what is recorded.
- :mod:`.progress`: skills, spaced repetition (fsrs), finished quiz runs and the progress store (schema 3).
- :mod:`.wording`: learner-facing wording helpers.
"""
