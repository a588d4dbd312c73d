"""A lesson-10 session (the play table with its coach, a hand against the lesson's bots and one against the
strong level, then the mus quiz) never imports numpy: a visitor's kernel stays light (issue 16, item 5)."""

from __future__ import annotations

import subprocess
import sys

SESSION = """
import sys
from musteach_widgets.mus_quiz import MusQuiz
from musteach_widgets.table import PlayTable

def play(table, hands):
    for _ in range(hands):
        first_mus = True
        while not table.game.hand.is_over:
            phase = table.game.hand.phase
            if phase == "mus":
                table.button("mus" if first_mus else "no-hay-mus").click()
                first_mus = False
            elif phase == "discard":
                table.card_toggles[0].value = True
                table.button("discard").click()
            else:
                kinds = table.enabled_kinds()
                table.button(next(k for k in ("envido", "quiero", "paso") if k in kinds)).click()
        if table.game.is_over:
            break
        table.next_button.click()
    assert not table.errors, table.errors

table = PlayTable(seed=4, bot="club", background=False)
play(table, 1)
comments = list(table.coach_comments)
table.level_choice.value = "strong"  # a new match against the strong level
play(table, 1)
comments += table.coach_comments
quiz = MusQuiz(n=2, seed=1, aims="balanced")
quiz.button_for(quiz.question.answer).click()
kinds = sorted({c.grade.method.value for c in comments if c.grade is not None})
print("numpy" in sys.modules, len(comments), " ".join(k.replace(" ", "-") for k in kinds))
"""


def test_a_lesson_10_session_never_imports_numpy():
    out = subprocess.run([sys.executable, "-c", SESSION], capture_output=True, text=True, check=True, timeout=300)
    numpy_loaded, comments, *methods = out.stdout.split()
    assert int(comments) >= 4  # the coach commented on the learner's decisions
    assert {"exact-en-paso", "rollout"} <= set(methods)  # the exact advisor and the betting rollouts both ran
    assert numpy_loaded == "False", out.stdout
