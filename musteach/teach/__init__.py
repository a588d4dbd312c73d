"""Teaching: questions, verdicts, quiz sessions, learner progress, and the wording a learner reads.

Modules:

- :mod:`.quiz`: lance questions (who wins Grande, Chica, Pares, Juego, Punto), verdicts and quiz sessions.
- :mod:`.diagnosis`: which misconception explains a wrong "who wins this lance?" answer (§1–§5; issue 12).
- :mod:`.count_quiz`: betting and count questions (RULES.md §6–§8).
- :mod:`.mus_quiz`: best-discard questions (§3, with the advisor of :mod:`musteach.odds`).
- :mod:`.odds_quiz`: reading-the-odds questions.
- :mod:`.senas_quiz`: which seña, and what a seña means (§11).
- :mod:`.progress`: skills, spaced repetition (fsrs) and the progress store.
- :mod:`.wording`: learner-facing wording helpers.
"""
