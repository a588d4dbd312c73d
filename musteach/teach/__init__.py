"""Teaching: questions, verdicts, quiz sessions, the coach, learner progress, and the wording a learner reads.

Modules, and the RULES.md sections they implement:

- :mod:`.verdict`: :class:`~.verdict.Verdict`, the one grade every quiz gives.
- :mod:`.quiz`: lance questions (who wins Grande, Chica, Pares, Juego, Punto; §4, §5), their generators and
  quiz sessions.
- :mod:`.diagnosis`: which misconception explains a wrong "who wins this lance?" answer (§1–§5; issue 12).
- :mod:`.count_quiz`: betting and count questions (§6 dejes, §7 scoring, §8 the count).
- :mod:`.betting_script`: betting as a lesson writes it (``"0 envido, 1 quiero"``), read and played (§6).
- :mod:`.mus_quiz`: best-discard questions (§3, with the advisor of :mod:`musteach.odds`).
- :mod:`.odds_quiz`: reading-the-odds questions (§4, §5).
- :mod:`.senas_quiz`: which seña, and what a seña means (§11).
- :mod:`.coach`: the coach's advice and its structured comment on a learner's decision (§3, §4, §6).
- :mod:`.progress`: skills, spaced repetition (fsrs) and the progress store.
- :mod:`.wording`: learner-facing wording helpers.
"""
