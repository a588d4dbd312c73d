"""The PlayTable and the MusQuiz, driven by simulated clicks (musteach_widgets.table).

As in test_widgets.py, the autouse fixture makes ipywidgets call click handlers directly, so an exception
in a handler fails the test, and any widget left with recorded handler errors fails it too.
"""

from __future__ import annotations

import html
import re

import musteach_widgets as mw
import pytest
from musteach_widgets import table as table_module

from musteach.odds import advise_discard
from musteach.play.game import Declare, MusCall
from musteach.rules import Rules
from musteach.rules.betting import Action
from musteach.rules.errors import MusError
from musteach.rules.lances import team_of
from musteach.rules.senas import catalogue

pytestmark = pytest.mark.usefixtures("strict_widgets")


def classes(w) -> set[str]:
    return set(w._dom_classes)


def text_of(value: str) -> str:
    """The visible text of an HTML value (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", value))


def legal_kinds(table) -> set[str]:
    """The action kinds the rules allow the learner now, from the game itself."""
    out = set()
    for a in table.game.legal_actions(table.seat):
        if isinstance(a, MusCall):
            out.add("mus" if a.wants else "no-hay-mus")
        elif isinstance(a, Declare):
            out.add("declare-si" if a.holds else "declare-no")
        elif isinstance(a, Action):
            out.add(a.kind.replace("_", "-"))
    return out


def table_with_discards(bot: str = "rule", **kwargs):
    """A seeded table where everybody answers the learner's "mus" with mus (so cards are changed)."""
    for seed in range(300):
        t = mw.PlayTable(seed=seed, bot=bot, background=False, **kwargs)
        if not t.my_turn or t.game.hand.phase != "mus":
            continue
        t.button("mus").click()
        if t.game.hand.phase == "discard" and t.my_turn:
            return t
    raise AssertionError("no seed in 0..299 gives a discard round")


def answer_betting(table, prefer=("paso", "no-quiero")) -> str:
    kinds = table.enabled_kinds()
    kind = next(k for k in (*prefer, "quiero", "paso", "no-quiero") if k in kinds)
    table.button(kind).click()
    return kind


# ----------------------------------------------------------------------------------------------


def test_structure_and_classes():
    t = mw.PlayTable(seed=3, background=False)
    assert "musteach-table-widget" in classes(t)
    for kind, b in t.buttons.items():
        assert {"musteach-action", f"musteach-action-{kind}"} <= classes(b)
    assert {"musteach-action-mus", "musteach-action-paso", "musteach-action-quiero"} <= set().union(
        *(classes(b) for b in t.buttons.values())
    )
    cards = [w for col in t.card_box.children for w in col.children if "musteach-mycard" in classes(w)]
    assert len(cards) == 4
    view = t.game.view(t.seat)
    assert set(t.shown_cards) == set(view.cards)
    for c, pic in zip(t.shown_cards, cards, strict=True):
        assert f'data-card="{c.code}"' in pic.value
    for w, cls in ((t.log_view, "musteach-log"), (t.coach_view, "musteach-coach"), (t.count_view, "musteach-count")):
        assert cls in classes(w)
    assert "musteach-next-hand" in classes(t.next_button)
    # the other three seats are face down before the reveal: no card faces, twelve backs
    assert "data-card=" not in t.seats_view.value
    assert t.seats_view.value.count('class="musteach-card-back"') == 12


def test_one_whole_hand_by_clicks_with_discards_bets_reveal_and_count():
    t = table_with_discards()
    g = t.game
    assert t.comments, "the coach commented on the learner's mus"
    assert "musteach-coach-text" in t.coach_view.value
    before = list(t.shown_cards)
    assert set(before) == set(g.view(t.seat).cards)
    assert t.buttons["discard"].disabled, "nothing marked yet"
    t.card_toggles[0].value = True
    t.card_toggles[2].value = True
    assert not t.buttons["discard"].disabled and t.buttons["discard"].description == "Discard 2"
    view_before = g.view(t.seat)
    t.button("discard").click()
    after = g.view(t.seat).cards
    assert before[1] in after and before[3] in after, "the cards not marked are kept"
    assert before[0] not in after and before[2] not in after, "the marked cards were thrown"
    assert t.comments[-1].startswith("The discard: you said changing")
    # the exact advisor's figures on this very hand, for the change made and the best one, rounded once
    advice = advise_discard(view_before.hand, view_before.seat, view_before.mano, view_before.rules)
    thrown = sorted(c.index for c in (before[0], before[2]))
    mine = next(o for o in advice.options if sorted(c.index for c in o.discard) == thrown)
    best = advice.best("balanced")
    assert f"{round(float(mine.balanced), 1):+.1f} stone" in t.comments[-1]
    assert f"{round(float(best.balanced), 1):+.1f} stone" in t.comments[-1]
    assert t.coach_comments[-1].grade is not None
    decisions = 2
    bet_once = False
    for _ in range(60):
        if g.hand.is_over:
            break
        assert t.my_turn
        assert set(t.enabled_kinds()) - {"signal"} == legal_kinds(t), "only the legal actions are enabled"
        phase = g.hand.phase
        if phase == "mus":
            t.button("no-hay-mus").click()
        elif phase == "discard":
            t.card_toggles[3].value = True
            t.button("discard").click()
        elif "envido" in t.enabled_kinds() and not bet_once:
            t.envido_amount.value = 3
            t.button("envido").click()
            bet_once = True
            assert any(e.action == "envido 3" and e.seat == t.seat for e in g.history), "the box's amount was bet"
        else:
            answer_betting(t)
        decisions += 1
        assert len(t.comments) == decisions, "one coach comment per decision"
    assert g.hand.is_over
    result = g.hand.result
    assert result is not None
    # the count shown is the game's count, step by step, in order
    shown = text_of(t.count_view.value)
    positions = [shown.find(step) for step in result.explanation]
    assert -1 not in positions and positions == sorted(positions), "every count step, in order"
    fa, fb = result.final_score["A"], result.final_score["B"]
    assert f"After this hand: team A {fa}, team B {fb}" in shown
    assert f'data-score-a="{fa}"' in t.score_view.value and f'data-score-b="{fb}"' in t.score_view.value
    # the reveal: every hand is shown face up
    for hand in g.view(t.seat).shown:
        for c in hand:
            assert f'data-card="{c.code}"' in t.count_view.value
    assert "musteach-card-back" not in t.seats_view.value
    # a coach comment grounded in numbers, and the log of the hand
    assert "musteach-coach-text" in t.coach_view.value
    assert any(re.search(r"[+-]\d+\.\d stones", c) for c in t.comments), "some comment quotes its figures in stones"
    log = text_of(t.log_view.value)
    for line in g.texts(t.seat)[-3:]:
        assert line in log
    assert all(t.buttons[k].disabled for k in t.buttons), "no action once the hand is over"
    assert not t.next_button.disabled and "musteach-next-hand" in classes(t.next_button)
    number = g.hand.number
    t.next_button.click()
    assert g.hand.number == number + 1
    assert t.count_view.value == ""


def test_betting_buttons_follow_the_rules_and_amounts_are_used():
    # a seat facing a bet may answer; before any bet quiero and no quiero are disabled
    for seed in range(200):
        t = mw.PlayTable(seed=seed, bot="rule", background=False)
        t.button("no-hay-mus").click()
        if t.my_turn and t.game.hand.phase == "bet:grande" and not t.game.hand.betting.stakes:
            break
    else:
        raise AssertionError("no seed leaves the learner to open Grande")
    kinds = set(t.enabled_kinds())
    assert {"paso", "envido", "ordago"} <= kinds and not {"quiero", "no-quiero", "reenvido"} & kinds
    assert not t.envido_amount.disabled and t.raise_amount.disabled


def test_illegal_actions_are_refused_kindly_and_change_nothing():
    t = mw.PlayTable(seed=4, background=False)
    g = t.game
    n = len(g.history)
    # a click on a button the rules do not allow now (scripts can click disabled buttons)
    step = t.step
    t.buttons["quiero"].click()
    assert len(g.history) == n and isinstance(t.last_refusal, MusError)
    assert t.step == step + 1 and f'data-step="{t.step}"' in t.header.value, "the page can tell it was answered"
    assert "musteach-error" in t.message.value and "not allowed" in t.message.value
    assert "Traceback" not in t.message.value
    assert t.play("órdago") is False and len(g.history) == n
    assert t.play("something silly") is False and "unknown action" in t.message.value
    assert t.play("discard 12o") is False
    # Discard without any card marked is refused with the rule's words
    t.button("mus").click()
    if g.hand.phase == "discard" and t.my_turn:
        m = len(g.history)
        t.buttons["discard"].click()
        assert len(g.history) == m and "1 to 4" in t.message.value
    # a legal action clears the message
    legal = g.legal_actions(t.seat)
    if legal:
        assert t.play(legal[0]) is True and t.message.value == ""
    assert t.errors == []


def test_unexpected_errors_show_a_friendly_message_and_go_on_recovers(monkeypatch, strict_widgets):
    for seed in range(100):
        t = mw.PlayTable(seed=seed, bot="rule", background=False)
        if t.my_turn and t.game.hand.phase == "mus":
            break
    calls = {"n": 0}

    def broken(*args, **kwargs):
        calls["n"] += 1
        raise RuntimeError("injected bot failure")

    with monkeypatch.context() as m:
        for bot in t.bots.values():
            m.setattr(bot, "decide", broken)
        t.button("mus").click()  # the learner is mano: the next seat must now say mus or no hay mus
    assert calls["n"] == 1
    assert len(t.errors) == 1 and isinstance(t.errors[0], RuntimeError)
    assert "Something went wrong" in t.message.value and "injected" not in t.message.value
    assert "Traceback" not in t.message.value
    assert t.stalled and not t.next_button.disabled and t.next_button.description == "Go on"
    assert strict_widgets and any(w.errors for w in strict_widgets)
    t.errors.clear()
    t.next_button.click()
    assert not t.stalled and (t.my_turn or t.game.hand.is_over)


def test_partner_senas_are_shown_and_the_learner_can_signal():
    for seed in range(200):
        t = mw.PlayTable(seed=seed, bot="rule", background=False)
        if not t.my_turn or t.game.hand.phase != "mus":
            continue
        t.button("no-hay-mus").click()
        view = t.game.view(t.seat)
        if view.partner_senas and not t.sena_choice.disabled:
            break
    else:
        raise AssertionError("no seed gives both a partner seña and one for the learner")
    shown = t.partner_view.value
    for s in view.partner_senas:
        assert f'data-sena="{s.key}"' in shown, "the partner's face"
        assert html.escape(s.meaning) in shown or s.meaning in text_of(shown)
        assert "Your partner" in shown
    key = t.sena_choice.value
    assert key in {s.key for s in t.game.legal_senas(t.seat)}
    t.signal_button.click()
    assert key in {s.key for s in t.game.view(t.seat).my_senas}
    assert key not in [v for _, v in t.sena_choice.options], "a seña already made is not offered again"
    partner = (t.seat + 2) % 4
    assert any(r.seat == t.seat for r in t.game.hand.senas)
    # a seña that is not true of the cards is refused with the rule's words, and nothing changes
    n = len(t.game.history)
    false_key = next(s.key for s in catalogue() if s.kind == "hand" and not t.game.can_signal(t.seat, s.key))
    t.sena_choice.options = [*t.sena_choice.options, ("a lie", false_key)]
    t.sena_choice.value = false_key
    t.signal_button.click()
    assert len(t.game.history) == n and "cannot be made" in t.message.value and "truthful" in t.message.value
    assert any(e.kind == "signal" and e.seat == t.seat and e.audience == (t.seat, partner) for e in t.game.history)


def test_a_whole_game_and_match_can_be_played_then_a_new_game():
    t = mw.PlayTable(seed=11, bot="rule", target=30, background=False)
    assert t.rules.target == 30
    games_seen = set()
    for _ in range(400):
        g = t.game
        if g.hand.is_over:
            res = g.hand.result
            if res.game_over:
                games_seen.add(g.hand.game_number)
                assert f"Game {g.hand.game_number} is over: " in text_of(t.review_view.value)
                assert f"(team {res.game_winner}) won it" in text_of(t.review_view.value)
            if g.is_over:
                break
            t.next_button.click()
            continue
        if g.hand.phase == "mus":
            t.button("no-hay-mus").click()
        elif g.hand.phase == "discard":
            t.card_toggles[0].value = True
            t.button("discard").click()
        else:
            answer_betting(t, prefer=("quiero", "paso"))
    assert t.game.is_over, "the match finished"
    assert len(games_seen) >= 2, "a match is at least two games"
    assert "The match is over: " in text_of(t.review_view.value)
    assert f"(team {t.game.winner}) won it" in text_of(t.review_view.value).split("The match is over: ")[1]
    assert t.next_button.disabled and "match is over" in t.status.value
    t.new_button.click()
    assert not t.game.is_over and t.game.hand.number == 1 and t.game.score == {"A": 0, "B": 0}
    assert t.comments == []


def test_learner_not_mano_and_other_seats_and_bots():
    t = mw.PlayTable(seed=2, learner_seat=1, bot="odds", background=False)
    assert t.my_turn or t.game.hand.is_over, "the bots before the learner have spoken"
    assert "seat 1" in t.header.value and team_of(1) == "B"
    with pytest.raises(MusError):
        mw.PlayTable(bot="clever")
    with pytest.raises(MusError):
        mw.PlayTable(learner_seat=4)
    with pytest.raises(MusError):
        mw.PlayTable(target=33)
    with pytest.raises(MusError):
        mw.PlayTable(rules="8 reyes")
    with pytest.raises(MusError):
        mw.PlayTable(first_mano=7)
    with pytest.raises(MusError):
        mw.PlayTable(seed="seven")


def test_same_seed_same_clicks_same_game():
    def play(seed):
        t = mw.PlayTable(seed=seed, bot="odds", background=False)
        while not t.game.hand.is_over:
            if t.game.hand.phase == "mus":
                t.button("no-hay-mus").click()
            else:
                answer_betting(t)
        return [e.text for e in t.game.history], t.comments

    assert play(21) == play(21)


def test_declarations_when_asked():
    t = mw.PlayTable(seed=5, bot="rule", ask_declarations=True, background=False)
    seen = False
    while not t.game.hand.is_over:
        phase = t.game.hand.phase
        if phase == "mus":
            t.button("no-hay-mus").click()
        elif phase.startswith("declare:"):
            seen = True
            kinds = set(t.enabled_kinds()) - {"signal"}
            assert len(kinds) == 1 and kinds <= {"declare-si", "declare-no"}, "only the truthful answer"
            lance = phase.split(":")[1]
            assert t.buttons["declare-si"].description == f"{lance} sí"
            t.button(kinds.pop()).click()
        else:
            answer_betting(t)
    assert seen


def test_mus_quiz_grades_with_the_exact_advisor():
    q = mw.MusQuiz(n=10, seed=3, tries=1)
    assert {"musteach-quiz", "musteach-mus-quiz"} <= classes(q)
    question = q.question
    assert len(q.answer_buttons) == 4
    best = max(question.scores, key=question.scores.get)
    assert best == question.answer
    wrong = next(k for k, _ in question.choices if k != question.answer)
    q.button_for(wrong).click()
    assert q.session.score_text() == "Score: 0/1 · streak 0"
    fb = text_of(q.feedback.value)
    assert "Not quite" in fb and question.answer_text in fb
    q.next_button.click()
    q.button_for(q.question.answer).click()
    assert q.session.score_text() == "Score: 1/2 · streak 1"
    assert "Right!" in text_of(q.feedback.value)


def test_warm_up_is_shared():
    assert table_module.warm_up(Rules(), background=False) is None
    t1 = table_module.warm_up(Rules())
    assert t1 is table_module.warm_up(Rules()), "one warm-up per process and deck"


def _finish_first_game(t) -> None:
    """Let a RuleBot play the learner's seat of table ``t`` (clicking Next hand) until the first game ends."""
    from musteach.play.bots import RuleBot

    learner = RuleBot()
    for _ in range(600):
        g = t.game
        if g.hand.is_over:
            if g.hand.result.game_over:
                return
            t.next_button.click()
            continue
        t.play(learner.decide(g.view(t.seat)))


def test_a_finished_game_shows_its_review_worst_first_and_replays_a_decision():
    t = mw.PlayTable(seed=5, bot="rule", target=30, background=False)
    _finish_first_game(t)
    g = t.game
    assert g.hand.result.game_over, "the first game finished"
    review = t.reviews[1]
    shown = text_of(t.review_view.value)
    assert review.banner in shown and review.summary() in shown
    assert len(review.decisions) == len(t.coach_comments) - sum(c.grade is None for c in t.coach_comments)
    points = [d.points_lost for d in review.decisions]
    assert points == sorted(points, reverse=True), "worst first, in the one unit: points of win chance"
    lost = [d.stones_lost for d in review.decisions]
    assert review.error_rate == pytest.approx(sum(lost) / len(lost))
    for d in review.decisions[:3]:
        assert d.line() in shown
    if lost[0] > 0:
        worst = review.decisions[0]
        assert t.replay_box.children, "a button replays the worst decisions"
        label = t.replay_box.children[0].description
        assert label == worst.replay_label() and f"hand {worst.hand_number}, " in label
        from musteach.teach.coach import action_words

        said = action_words(worst.grade.action, kings=worst.kings)  # as the live comment names it
        assert said in label, "the button says which decision it replays"
        t.replay_box.children[0].click()
        assert not t.errors
        # back at the learner's decision (facing a bet either partner may answer: the learner among them)
        assert t.game.to_act is not None and t.seat in t.game.to_act.seats, "back at the learner's decision"
        assert t.game.hand.number == worst.hand_number and t.view.cards == worst.cards
        assert len(t.game.history) == worst.event_index
        assert t.play(worst.best_action), "the better action can be tried"


def test_finished_games_are_kept_in_the_progress_store_with_the_best_one():
    from musteach.teach.progress import MemoryStore, Progress

    store = MemoryStore()
    t = mw.PlayTable(seed=8, bot="beginner", target=30, background=False, store=store)
    _finish_first_game(t)
    review = t.reviews[1]
    kept = store.load().games
    assert len(kept) == 1 and kept[0].decisions == len(review.decisions)
    assert kept[0].stones_lost == pytest.approx(review.stones_lost) and kept[0].level == "beginner"
    assert "Your best game so far" in text_of(t.best_view.value)
    said = text_of(t.review_view.value) + text_of(t.best_view.value)
    assert said.count("Your best game so far") == 1, "said once, above the table (a cold reader saw it twice)"
    # what is kept survives a reload: the JSON document reads back the same games
    again = Progress.from_json(store.load().to_json())
    assert again.games == kept and again.best_game() == kept[0]


def test_the_focus_stays_in_the_table_when_the_pressed_button_goes_away(monkeypatch):
    """A click that hides or disables its own button moves the focus to the next usable control, not the page."""
    focused: list[object] = []
    monkeypatch.setattr(table_module.widgets.Button, "focus", lambda self: focused.append(self))
    for seed in range(200):
        t = mw.PlayTable(seed=seed, bot="rule", background=False)
        if t.my_turn and t.game.hand.phase == "mus":
            break
    else:
        raise AssertionError("no seed in 0..199 gives the learner the first mus decision")
    t.button("no-hay-mus").click()  # the mus round ends: its buttons are hidden
    assert t.button("no-hay-mus").layout.display == "none"
    assert focused, "the focus was not moved"
    target = focused[-1]
    assert not target.disabled and target.layout.display != "none", "the focus went to a control one cannot use"
    assert target in (*t.buttons.values(), t.next_button, t.new_button)
    # a click that leaves its button usable does not move the focus
    focused.clear()
    if not t.signal_button.disabled and len([v for _, v in t.sena_choice.options if v]) > 1:
        t.signal_button.click()
        assert not t.signal_button.disabled and focused == []


def test_a_start_score_or_the_test_only_variable_starts_the_match_near_its_end(monkeypatch):
    t = mw.PlayTable(seed=1, bot="rule", background=False, start_score={"A": 38, "B": 37})
    assert t.game.hands[0].start_score == {"A": 38, "B": 37}
    _finish_first_game(t)
    review = t.reviews[1]
    assert review.game_number == 1 and max(review.score) >= 40 and t.game.hands[-1].number == 1, "one hand ends it"
    assert "Your best game so far" in t.best_view.value or not review.decisions
    monkeypatch.setenv("MUSTEACH_TABLE_START", "36-39")
    assert mw.PlayTable(seed=1, bot="rule", background=False).game.hands[0].start_score == {"A": 36, "B": 39}
    monkeypatch.setenv("MUSTEACH_TABLE_START", "38:38")
    with pytest.raises(MusError, match="38:38"):
        mw.PlayTable(seed=1, bot="rule", background=False)


def test_the_learner_picks_the_opponents_level_and_a_new_match_starts_against_it():
    t = mw.PlayTable(seed=3, bot="club", background=False)
    assert [v for _, v in t.level_choice.options] == ["beginner", "club", "strong"]
    assert t.level_choice.value == "club" and all(b.name.startswith("Club player") for b in t.bots.values())
    before = t.game
    t.level_choice.value = "beginner"
    assert t.bot_kind == "beginner" and t.game is not before, "a new match starts"
    assert all(b.name.startswith("Beginner") for b in t.bots.values())
    assert t.game.hand.number == 1 and t.errors == []
    scripted = mw.PlayTable(seed=3, bot="rule", background=False)  # a script's own bots stay choosable
    assert scripted.level_choice.value == "rule"



def _centre_heading(t) -> str:
    found = re.search(r'<div class="musteach-centre"><b>([^<]*)</b>', t.seats_view.value)
    assert found is not None, t.seats_view.value
    return html.unescape(found.group(1))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_centre_heads_the_phase_as_musteach_titles_it(lang):
    """The table shows musteach's phase_title as given (no re-casing in the widget), in the table's language."""
    from musteach.teach.coach import phase_title

    t = table_with_discards(lang=lang)  # the learner's discard
    seen = [t.game.hand.phase]
    assert _centre_heading(t) == phase_title(t.game.hand.phase, lang=lang)
    for seed in range(40):  # the mus, then a lance's betting after "no hay mus"
        t = mw.PlayTable(seed=seed, bot="rule", background=False, lang=lang)
        if t.my_turn and t.game.hand.phase == "mus":
            assert _centre_heading(t) == phase_title(t.game.hand.phase, lang=lang)
            t.button("no-hay-mus").click()
            if not t.game.hand.is_over:
                seen += ["mus", t.game.hand.phase]
                assert _centre_heading(t) == phase_title(t.game.hand.phase, lang=lang)
                break
    assert len(set(seen)) == 3, seen


def test_a_replay_is_a_sandbox_that_says_replay_until_the_learner_goes_back():
    """A replayed hand never changes the game's record, its review, the next hand or the best game
    (issue 23 item 7)."""
    from musteach.play.bots import RuleBot
    from musteach.teach.progress import MemoryStore

    store = MemoryStore()
    t = mw.PlayTable(seed=5, bot="rule", target=30, background=False, store=store)
    _finish_first_game(t)
    game, n, review = t.game, len(t.game.history), t.reviews[1]
    kept, best = store.load().games, t.best_game
    shown = text_of(t.review_view.value)
    worst = review.decisions[0]
    assert worst.stones_lost > 0 and len(kept) == 1
    t.replay_box.children[0].click()
    assert not t.errors
    assert "Replay of hand" in text_of(t.review_view.value) and "musteach-replay-banner" in t.review_view.value
    assert [b.description for b in t.replay_box.children] == ["Back to the game"]
    assert t.play(worst.best_action)
    learner = RuleBot()
    while not t.game.hand.is_over:
        assert t.play(learner.decide(t.view))
        assert "Replay of hand" in text_of(t.review_view.value), "it says Replay until the learner goes back"
    assert t.next_button.disabled, "no next hand from a replay"
    t.next_button.click()  # a script may click it anyway: refused kindly
    assert "replay" in t.message.value and not t.errors
    assert t.reviews == {1: review} and store.load().games == kept and t.best_game == best
    assert len(game.history) == n
    t.replay_box.children[0].click()  # Back to the game
    assert t.game is game and len(game.history) == n
    assert text_of(t.review_view.value) == shown and "Replay of hand" not in text_of(t.review_view.value)
    hand = game.hand.number
    t.next_button.click()
    assert t.game is game and game.hand.number == hand + 1 and store.load().games == kept


# ----------------------------------------------------------------------------------------------
# A match at the table survives a reload: kept after each decision, resumed by a new table
# ----------------------------------------------------------------------------------------------


def _decide(table, n: int, seed: int = 0) -> None:
    """The learner makes ``n`` random legal decisions through the table (dealing the next hand when one is over)."""
    import random

    rng = random.Random(seed)
    s = table.session
    for _ in range(n):
        if s.game.is_over:
            return
        if not s.my_turn:
            table.next_button.click()
            continue
        c = rng.choice(s.choices())
        assert table.play(c.record(cards=s.my_cards()[: rng.randint(1, 4)] if c.takes_cards else ()))


def test_a_reload_resumes_the_match_in_progress():
    from musteach.teach.progress import MemoryStore
    from musteach.teach.table import TABLE_GAME

    for _ in range(30):  # a random deal: eight decisions may end a game, and a hand that ends one is not kept
        store = MemoryStore()
        t = mw.PlayTable(bot="club", background=False, store=store)
        _decide(t, 6)
        if store.load().setting(TABLE_GAME) is None:
            continue
        assert store.load().setting(TABLE_GAME)["moves"] == t.session.moves
        again = mw.PlayTable(bot="club", background=False, store=store)  # the page reloaded
        assert again.game.history == t.game.history and again.shown_cards == t.shown_cards
        assert again.my_turn == t.my_turn and again.enabled_kinds() == t.enabled_kinds()
        assert again.comments == t.comments and not again.errors and not text_of(again.message.value).strip()
        _decide(again, 2, seed=1)
        if store.load().setting(TABLE_GAME) is not None:
            break
    else:
        raise AssertionError("no deal of 30 kept its match going for eight decisions")
    third = mw.PlayTable(bot="club", background=False, store=store)
    assert third.game.history == again.game.history


def test_a_reload_resumes_the_opponents_of_the_match():
    from musteach.teach.progress import MemoryStore

    store = MemoryStore()
    t = mw.PlayTable(bot="club", background=False, store=store)
    t.level_choice.value = "beginner"
    _decide(t, 3)
    again = mw.PlayTable(bot="club", background=False, store=store)
    assert again.bot_kind == "beginner" and again.level_choice.value == "beginner"
    assert again.game.history == t.game.history


def test_an_abandoned_match_is_not_resumed():
    from musteach.teach.progress import MemoryStore

    store = MemoryStore()
    t = mw.PlayTable(bot="club", background=False, store=store)
    _decide(t, 4)
    left = list(t.game.history)
    t.new_button.click()
    again = mw.PlayTable(bot="club", background=False, store=store)
    assert again.game.history[: len(left)] != left and again.session.moves == []
    assert again.game.history == t.game.history  # the new match, not yet played


def test_a_finished_match_is_not_resumed():
    from musteach.teach.progress import MemoryStore
    from musteach.teach.table import TABLE_GAME

    store = MemoryStore()
    rules = Rules(target=30, games_per_vaca=1, vacas_per_match=1)
    t = mw.PlayTable(seed=1, rules=rules, bot="club", background=False, store=store, start_score={"A": 29, "B": 29})
    for i in range(200):
        if t.game.is_over:
            break
        _decide(t, 1, seed=i)
    assert t.game.is_over and store.load().setting(TABLE_GAME) is None
    again = mw.PlayTable(rules=rules, bot="club", background=False, store=store)
    assert not again.game.is_over and again.session.moves == []


def test_a_kept_match_that_no_longer_replays_is_dropped_kindly():
    from musteach.teach.progress import MemoryStore, Progress
    from musteach.teach.table import TABLE_GAME

    store = MemoryStore()
    t = mw.PlayTable(bot="club", background=False, store=store)
    _decide(t, 3)
    bad = Progress()
    bad.set_setting(TABLE_GAME, t.session.saved_game() | {"cards": ["1o", "1c", "1e", "1b"]})  # a changed engine
    store.save(bad)
    again = mw.PlayTable(bot="club", background=False, store=store)
    assert "could not be brought back" in text_of(again.message.value) and not again.errors
    assert again.session.moves == [] and again.my_turn
    assert store.load().setting(TABLE_GAME) == again.session.saved_game()  # the bad one is dropped


def test_the_browser_store_resumes_the_match_once_it_has_loaded(monkeypatch):
    from musteach_widgets.storage import BrowserStore

    from musteach.teach.progress import MemoryStore
    from musteach.teach.table import TABLE_GAME

    for _ in range(30):  # a random deal: five decisions may end a game, and a hand that ends one is not kept
        store = MemoryStore()
        t = mw.PlayTable(bot="club", background=False, store=store)
        _decide(t, 5)
        if store.load().setting(TABLE_GAME) is not None:
            break
    kept = [r.to_json() for r in store.load().records()]
    browser = BrowserStore()
    monkeypatch.setattr(browser, "send", lambda msg, buffers=None: None)
    again = mw.PlayTable(bot="club", background=False, store=browser)
    assert again.session.moves == []  # nothing known yet: a deal of its own, not kept over the browser's
    browser._handle_custom_msg({"type": "records", "items": kept, "reason": "load"}, [])
    browser._handle_custom_msg({"type": "stored", "value": None, "reason": "load", "error": ""}, [])
    assert again.game.history == t.game.history and again.shown_cards == t.shown_cards and not again.errors


def test_a_kept_match_dropped_is_said_in_spanish_too():
    from musteach.teach.progress import MemoryStore, Progress
    from musteach.teach.table import TABLE_GAME

    store = MemoryStore()
    t = mw.PlayTable(bot="club", background=False, store=store, lang="es")
    bad = Progress()
    bad.set_setting(TABLE_GAME, t.session.saved_game() | {"moves": ["órdago", "órdago"]})
    store.save(bad)
    again = mw.PlayTable(bot="club", background=False, store=store, lang="es")
    assert "No se ha podido recuperar la partida" in text_of(again.message.value) and not again.errors


def test_the_raise_button_says_the_amount_typed():
    t = mw.PlayTable(seed=3, bot="club", background=False)
    t.raise_amount.value = 5
    assert t.buttons["reenvido"].description.startswith("5")
