"""The words the widgets show themselves (catalog domain ``ui``): button labels, headings, tooltips,
placeholders, aria labels, dropdown options, status lines and the widgets' own messages.

The views in ``widgets/`` (``musteach_widgets``) hold no sentence and no word: they show these, put into the
learner's language where they are used, ``_(labels.NEXT)`` or ``_(labels.SEAT_WINS_TIP, seat=2, lance=...)``
with ``_ = translator()`` inside the widget's :func:`~musteach.i18n.speaking` block. Sentences whose shape
changes with a count are the small functions at the end (they read the language being spoken now).

Every constant is an English msgid marked with :func:`~musteach.i18n.N_`; the Spanish is in
``musteach/locale/es/LC_MESSAGES/ui.po`` (see the glossary next to it).

>>> from musteach.i18n import translator
>>> translator("en")(NEXT), translator("es")(NEXT)
('Next', 'Siguiente')
>>> answers_text(1, lang="en"), answers_text(3, lang="en")
('1 answer', '3 answers')
"""

from __future__ import annotations

from ..i18n import N_, SOURCE_LANG, plural_text, translator

# ----- shared by every quiz ------------------------------------------------------------------------------
FRIENDLY_ERROR = N_("Something went wrong with this question; press Next for another — your score is kept.")
QUIZ = N_("Quiz")
NEXT = N_("Next")
NEXT_TIP = N_("Go to the next question")
START_AGAIN = N_("Start again")
START_AGAIN_TIP = N_("Start a new run of questions; the score starts from 0")
HINT = N_("Hint")
HINT_TIP = N_("Show a hint (it lowers this question's points)")
CHECK = N_("Check")
CHECK_ANSWER_TIP = N_("Check your answer")
CHECK_TOTAL_TIP = N_("Check your total")
CHECK_ORDER_TIP = N_("Check your order")
TRY_AGAIN = N_("Try again:")
TRY_AGAIN_ERROR = N_("Try again: {error}")
UNDO = N_("Undo")
UNDO_TIP = N_("Take back the last card placed")
ANSWER_TIP = N_("Answer: {label}")
ANSWER_NOBODY_TIP = N_("Answer: nobody")
ANSWER_NOBODY_PARES_TIP = N_("Answer that nobody holds pares")
ANSWER_NOBODY_JUEGO_TIP = N_("Answer that nobody has juego")
SEAT_WINS_TIP = N_("Answer that seat {seat} wins {lance}")
TOTAL_IS_TIP = N_("Answer: the total is {label}")
TOTAL_PLACEHOLDER = N_("e.g. 31")
TOTAL_LABEL = N_("Total:")
TOTAL_TIP = N_("Type the hand's total of points")
PLACE_CARD_TIP = N_("Place {card} next")
ORDER_SO_FAR = N_("Your order so far ({placed} of {total}): {cards}")
PRESS_HIGHEST = N_("Press the highest card first.")
YOUR_HAND = N_("Your hand")
YOUR_HAND_WHERE = N_("Your hand, {where}")

# ----- quiz titles -------------------------------------------------------------------------------------
WHO_WINS = N_("Who wins {lance}?")
WHO_WINS_LANCE = N_("Who wins the lance?")
NAME_JUGADA = N_("Name the jugada")
COUNT_JUEGO = N_("Count the hand for Juego")
COUNT_PUNTO = N_("Count the punto")
ORDER_CARDS = N_("Order the cards, highest first")
SENA_FITS = N_("Which seña fits this hand?")
SENA_MEANS = N_("What does this seña tell you?")
ODDS_QUIZ = N_("How often does your team win?")
MUS_QUIZ = N_("Which cards do you change?")
WHO_TAKES_STONES = N_("Who takes stones now?")
COUNT_HAND = N_("Count the hand")
PRACTICE = N_("Practice")

# ----- the widgets' own errors (bad arguments) -----------------------------------------------------------
QUESTIONS_LIST_ERROR = N_("questions must be a non-empty list of musteach.teach.quiz.Question, not {value}")
QUESTION_SKILL_ERROR = N_("this quiz asks {skills}, not a {skill} question")
N_ERROR = N_("a quiz needs a whole number of questions, 1 or more, not {value}")
ROUND_N_ERROR = N_("a practice round needs a whole number of questions, 1 or more, not {value}")
TRIES_ERROR = N_("tries must be 1 or 2, not {value}")
NOT_A_LANCE_ERROR = N_("{value} is not a lance: use grande, chica, pares, juego or punto")
TOTAL_KIND_ERROR = N_("TotalQuiz kind must be 'juego' or 'punto', not {value}")
TOTAL_MODE_ERROR = N_("TotalQuiz mode must be 'entry' or 'choices', not {value}")
RULES_ERROR = N_("rules must be a musteach Rules, not {value}")
RULES_KINGS_ERROR = N_("rules must be a musteach Rules, not {value} (use Rules(kings=4) for 4 reyes)")
SEAT_ARG_ERROR = N_("{what} must be 0, 1, 2 or 3, not {value}")
LEARNER_SEAT_ERROR = N_("learner_seat must be a seat 0, 1, 2 or 3, not {value}")
NEAR_END_ERROR = N_("near_end_share must be a number from 0 to 1, not {value}")
AIM_ERROR = N_("unknown aim {value}: use one of {aims}")
HAND_SIZE_ERROR = N_("a hand holds 4 cards, not {n}")
HAND_SHAPE_ERROR = N_("a hand is 4 cards such as {example}, not {value}")
BOT_ERROR = N_(
    "unknown bot {value}: use a level (beginner, club, strong), 'odds' (it weighs its chances) or "
    "'rule' (simple thresholds)"
)
TABLE_START_ERROR = N_("MUSTEACH_TABLE_START must read A-B, such as 38-38, not {value}")
NOT_YOUR_TURN = N_("it is not your turn: {who}")
HAND_OVER = N_("the hand is over")
NO_REPLAY_ERROR = N_("there is no reviewed decision {index} to replay")
PICK_SENA_FIRST = N_("pick a seña first (only señas true of your cards are offered)")
CHOICE_NOT_LEGAL = N_("{choice} is not allowed now ({turn})")
REPLAY_NO_NEXT = N_("this is a replay: go back to your game to deal the next hand")
NOT_REPLAYING = N_("there is no replay to leave")
REPLAY_BANNER = N_(
    "Replay of hand {hand}, {where}: you said {action}. Try another way: nothing you play here changes your game, "
    "its review or your record."
)
BACK_TO_GAME = N_("Back to the game")
BACK_TO_GAME_TIP = N_("Leave the replay: your game comes back as it was")
SKILLS_TAKEN_ERROR = N_("skill name(s) already used by another source: {names}")
UNKNOWN_SKILLS_ERROR = N_("unknown practice skill(s) {names}: use {skills}")
NO_SKILLS_ERROR = N_("a practice needs at least one skill")
STORE_ERROR = N_("store must be 'auto', 'browser', 'file', 'memory' or a store object, not {value}")
STORE_NAME_ERROR = N_("store must be 'auto', 'browser', 'file' or 'memory', not {value}")

# ----- a judged deal (DealView) ----------------------------------------------------------------------------
ALL_LANCES = N_("All lances")
JUEGO_NOBODY = N_("Juego (nobody)")
DEAL_CANNOT_SHOW = N_("This deal cannot be shown: {error}")
LANCE_NOBODY = N_("{lance}: nobody")
LANCE_SEAT_WINS = N_("{lance}: seat {seat} wins")
SEAT_N = N_("Seat {seat}")
EACH_SEAT_IN = N_("Each seat in {lance}")
LANCE_OOPS = N_("Something went wrong showing this lance.")

# ----- señas -------------------------------------------------------------------------------------------------
WHAT_YOU_HOLD = N_("What you hold")
WHAT_YOU_WANT = N_("What you want to do")
FOUR_SENAS = N_("The four señas to choose from")
IT_MEANS_TIP = N_("Answer: it means {meaning}")

# ----- the learning path and the map -------------------------------------------------------------------------
NOT_SAVED = N_("Your progress could not be saved ({error}).")
MAP_TITLE = N_("Your path through the lessons")
RESET = N_("Reset progress")
RESET_TIP = N_("Forget every answer and every star")
CONFIRM_RESET = N_("Yes, forget everything")
CONFIRM_RESET_TIP = N_("Forget every answer and star")
LAB_NOTE = N_(
    "In JupyterLab your progress is kept in a file for your user; to read the lessons as web pages "
    "instead, run make tutor in the musteach folder."
)
CONTINUE_HERE = N_("Continue here →")
THE_LESSONS = N_("The lessons")
FORGET_EVERYTHING = N_("Forget everything?")
EVERYTHING_LOST = N_("Every answer and every star is lost.")
PROGRESS_RESET = N_("Your progress was reset.")
MAP_OOPS = N_("Something went wrong with the map; reload the page.")

# ----- betting and the count -----------------------------------------------------------------------------------
SEAT_OF_TEAM = N_("Seat {seat} (team {team})")
SEAT_OF_TEAM_ROLE = N_("Seat {seat} (team {team}, {role})")
THE_BETTING = N_("The betting")
NEVER_PLAYED = N_("never played: the game was already over")
NOBODY = N_("nobody")
SEAT_LOWER = N_("seat {seat}")
SEATS_LOWER = N_("seats {seats}")
DECLARED = N_("{lance} sí: {holders}")
LANCE_HEAD = N_("Lance")
SAID_HEAD = N_("What was said")
OUTCOME_HEAD = N_("Outcome")
BETTING_CANNOT_SHOW = N_("This betting cannot be shown: {error}")
LANCE_BETTING = N_("{lance} betting")
MANO_IS_SEAT = N_("mano is seat {seat}")
DECLARATIONS = N_("Declarations:")
BETTING_GOES_ON = N_("The betting goes on: seat {seat} speaks next.")
REFUSED_NOTE = N_("{outcome} (a refused first bet pays 1 stone, a refused raise the previous total)")
BACK = N_("Back")
BACK_TIP = N_("Go back one step")
NEXT_STEP = N_("Next step")
NEXT_STEP_TIP = N_("Count the next step")
SHOW_ALL = N_("Show all")
SHOW_ALL_TIP = N_("Show every step of the count")
HAND_CANNOT_COUNT = N_("This hand cannot be counted: {error}")
SEAT_SAID = N_("seat {seat}: {action}")
PRESS_NEXT_STEP = N_("Press {button} to count the hand one step at a time.")
STEP_OF = N_("Step {step} of {steps}")
STEP_OOPS = N_("Something went wrong showing this step.")
STONES_PLACEHOLDER = N_("stones")
TEAM_N = N_("Team {team}")
TEAM_N_COLON = N_("Team {team}:")
TEAM_LOWER = N_("team {team}")
TEAM_IN_LANCE = N_("team {team} in {lance}")
STONES_NOW_TIP = N_("Stones team {team} takes now, during the betting")
STONES_IN_TIP = N_("Stones team {team} takes in {lance}")
STONES_NOW_SHORT_TIP = N_("Stones team {team} takes now")
BETTING_INSTRUCTIONS = N_("Type each team's stones now (0 for a team that takes nothing), then press Check.")
COUNT_INSTRUCTIONS = N_(
    "Type the stones each team takes in each lance (0 where it takes none), counting a deje in the "
    "lance it was won in, then press Check."
)
SCORE_BEFORE = N_("The score before this hand:")
CHECK_STONES_TIP = N_("Check the stones")
CHECK_COUNT_TIP = N_("Check the count")
NO_BETTING = N_("no betting")
BETTING_PER_LANCE = N_("The betting per lance")

# ----- odds and the discard advisor --------------------------------------------------------------------------------
ODDS_EXPLORER = N_("Odds explorer")
DISCARD_ADVISOR = N_("Discard advisor")
CARD_N = N_("Card {n}")
PARTNER_CARD_N = N_("Partner card {n}")
CARD_OPTION = N_("{name} ({code})")
KINGS_8 = N_("8 reyes")
KINGS_4 = N_("4 reyes")
KINGS_8_TIP = N_("3s count as kings and 2s as aces")
KINGS_4_TIP = N_("3s and 2s keep their own rank")
KNOW_PARTNER = N_("I know my partner's cards")
PARTNER_CARDS = N_("Your partner's cards")
YOUR_CARDS = N_("Your cards")
YOU_SPEAK = N_("You speak")
DECK_LABEL = N_("Deck")
AIM_AT = N_("Aim at")
BALANCED = N_("Balanced (stones)")
EXAMPLE_UNUSABLE = N_("The example could not be used ({error}); showing another hand instead.")
PICK_ANOTHER_ODDS = N_("{error}. Pick another card to see the odds.")
PICK_ANOTHER_ADVICE = N_("{error}. Pick another card to get advice.")
PARTNER_HAND = N_("Your partner's hand")
BARS_TITLE = N_("Who wins each lance ({kings} reyes, {deals} deals counted)")
ODDS_OOPS = N_("Something went wrong counting these odds; pick a card again.")
ADVICE_OOPS = N_("Something went wrong with this advice; pick a card again — your score is kept.")
ODDS_CANNOT_SHOW = N_("These odds cannot be shown: {error}")
BEFORE_YOU_DECIDE = N_("Before you decide, your odds are…")
WHY_PER_LANCE = N_("Why? One sentence per lance")
STONES_HEAD = N_("Stones")
SCORE_HEAD = N_("Score ({lance})")
BEST_MARK = N_("★ best")
NOTHING = N_("nothing")
CHANGE_CARDS = N_("change {cards}")
KEEP_ALL = N_("keep all four (no mus)")
STONES_EN_PASO = N_("the stones expected en paso")
CHANCE_OF = N_("the chance of winning {lance}")
DISCARDS_RANKED = N_("The 15 discards, ranked by {aim}")
CHANGE_HEAD = N_("Change")
KEEP_HEAD = N_("Keep")
STONES_VALUE = N_("{value} stones")
TEAM_WINS_TIP = N_("Answer: your team wins {lance} {band} of the time")

# ----- practice -------------------------------------------------------------------------------------------------------
SKILL_LABELS = {
    "grande": N_("Who wins Grande"),
    "chica": N_("Who wins Chica"),
    "pares": N_("Who wins Pares"),
    "juego": N_("Who wins Juego"),
    "punto": N_("Who wins Punto"),
    "rank_order": N_("Card order"),
    "jugada": N_("Naming jugadas"),
    "juego_total": N_("Juego totals"),
    "punto_total": N_("Punto totals"),
    "betting": N_("Betting payments"),
    "count": N_("Counting a hand"),
}
"""The practice's skills by name, as the mastery rows name them."""
NEXT_QUESTION_TIP = N_("Next question")
NEXT_ROUND = N_("Next round")
EXPORT = N_("Export progress")
EXPORT_TIP = N_("Make a file of your progress to keep or move")
IMPORT = N_("Import progress")
IMPORT_TIP = N_("Add the answers from an exported progress file (nothing you have is removed)")
THE_FILE = N_("the file")
TOO_BIG_FILE = N_("{name} is too big to be a progress file ({size} bytes)")
NOT_READ = N_("Your saved progress could not be read ({error}); practice goes on, kept in memory.")
NOT_SAVED_KEPT = N_(
    "Your progress could not be saved ({error}); it is kept while this page is open. Use Export to keep a copy."
)
QUESTION_OF_ROUND = N_("Question {n} of {total} in this round")
KEEP_PRACTISING = N_("Press Next to keep practising. Your progress is kept {where}.")
DOWNLOAD = N_("Download {name}")
NOT_IMPORTED = N_("{name} could not be imported: {error}. Your progress is unchanged.")
NOT_IMPORTED_UNREADABLE = N_(
    "{name} could not be imported: it is not a progress file this tutor can read. Your progress is unchanged."
)
ROUND_SCORE = N_("Round: {right}/{answered} · streak {streak} · best streak {best}")
NO_ANSWERS_YET = N_("All time: no answers yet — your progress starts with this question.")
LOOKING_FOR_PROGRESS = N_("Looking for your saved progress in this browser…")
PROGRESS_KEPT = N_("Your progress is kept {where}.")
NEW_SKILL = N_("new")
RIGHT_OF = N_("{right}/{n} right · {due}")
MASTERY_ARIA = N_("{label}: mastery {percent}")
MASTERY_NOTE = N_(
    "Mastery: your share right of your last 10 answers on a skill (5 right fill the bar), fading as days "
    "pass without practice. Weak and due skills come up more often."
)
YOUR_SKILLS = N_("Your skills")

# ----- the browser's store ------------------------------------------------------------------------------------------
KEPT_PAGE_FULL = N_(
    "in this page only: NOT kept in this browser, whose storage for this site is full (use Export to keep a copy)"
)
KEPT_PAGE_ONLY = N_("in this page only (this browser does not let it be kept: use Export to keep a copy)")
KEPT_BROWSER = N_("in this browser (it stays here after a reload; other people's browsers never see it)")
UNKNOWN_ERROR = N_("unknown error")
BROWSER_NOT_SAVED = N_(
    "Your progress could not be saved in this browser ({error}); it is kept while this page is open. "
    "Use Export to keep a copy."
)
DAMAGED_PARTS = N_("the browser sent it in damaged parts")
BROWSER_UNREADABLE = N_(
    "The progress saved in this browser could not be read ({why}). It was kept aside (as {name}), "
    "and your progress starts afresh from here."
)
BROWSER_TOO_LARGE = N_(
    "The progress saved in this browser is too large to be read ({size}). It was kept aside "
    "(as {name}), and your progress starts afresh from here."
)
TOO_MANY_CHARACTERS = N_("too many characters")
BROWSER_REFUSES = N_(
    "This browser does not let the tutor keep your progress ({error}): it lasts while this page "
    "is open. Use Export to keep a copy."
)
TOO_LARGE_TEXT = N_("it is too large: {size}")
OTHER_VERSION = N_("it was saved by another version of musteach")
DAMAGED = N_("it is damaged")
BROWSER_UNREADABLE_WHY = N_(
    "The progress saved in this browser could not be read ({why}: {error}). It was kept aside "
    "(as {name}), and your progress starts afresh from here."
)

# ----- the table -------------------------------------------------------------------------------------------------------
FACE_DOWN = N_("a face-down card")
YOU = N_("you")
YOUR_PARTNER_SEAT = N_("your partner (seat {seat})")
ACTIONS = {
    "mus": (N_("Mus"), N_("Ask to change cards (mus)")),
    "no-hay-mus": (N_("No hay mus"), N_("Cut the mus: play with these cards")),
    "discard": (N_("Discard"), N_("Change the cards you marked")),
    "declare-si": (N_("Sí"), N_("Say that you hold it")),
    "declare-no": (N_("No"), N_("Say that you do not hold it")),
    "paso": (N_("Paso"), N_("Pass (or refuse a bet)")),
    "envido": (N_("Envido"), N_("Bet the stones in the box")),
    "quiero": (N_("Quiero"), N_("Accept the bet")),
    "no-quiero": (N_("No quiero"), N_("Refuse the bet")),
    "reenvido": (N_("más"), N_("Raise by the stones in the box")),
    "ordago": (N_("Órdago"), N_("Bet the whole game")),
}
"""Each action button's label and tooltip, by kind (the kinds of the ``musteach-action-<kind>`` classes)."""
ENVIDO_AMOUNT_TIP = N_("Stones for envido (2 or more)")
RAISE_AMOUNT_TIP = N_("Stones to raise by (2 or more)")
SENA_LABEL = N_("Seña:")
SIGNAL = N_("Signal")
SIGNAL_TIP = N_("Make this seña to your partner (at this table the opponents never watch for it)")
NEXT_HAND = N_("Next hand")
NEXT_HAND_TIP = N_("Deal the next hand")
GO_ON = N_("Go on")
GO_ON_TIP = N_("Let the other players go on")
NEW_GAME = N_("New game")
NEW_GAME_TIP = N_("Start a new match from 0-0")
OPPONENTS = N_("Opponents:")
OWN_BOTS = N_("{kind} bots")
NOT_ALLOWED = N_("That is not allowed now: {error}. Nothing has changed; try again.")
SENA_NOT_MADE = N_("That seña cannot be made now: {error}.")
MATCH_OVER_NEW = N_("The match is over: press New game to play another.")
HAND_NOT_OVER = N_("This hand is not over yet: finish it first.")
GAME_NOT_RESUMED = N_("The game you left could not be brought back, so a new one is dealt.")
MOVE_OOPS = N_("Something went wrong with this move; try again — the game is kept.")
COACH = N_("Coach.")
HEADER = N_("Hand {hand} · game {game} · you are seat {seat} ({team_dot}team {team}, seat {seat}{roles}) · mano: {mano}")
GAMES_WON = N_("Games won in this match: A {a}, B {b}.")
GAME_IS = N_("A game is {target} stones; you are team {team}.")
MATCH_OVER_TEAM = N_("The match is over: team {team} wins it. Press New game to play again.")
HAND_OVER_SHOWN = N_("The hand is over: the cards are shown and counted below. Press Next hand to go on.")
YOUR_PARTNER = N_("Your partner")
OPPONENT = N_("Opponent")
SEAT_HEAD = N_("{who} · seat {seat}{roles}")
TO_SPEAK = N_("◀ to speak")
CARDS_ON_TABLE = N_("Cards on the table")
MUS_ROUND = N_("mus round {n}")
ON_THE_TABLE = N_("on the table: {stake} (team {team})")
ORDAGO = N_("órdago")
LANCE_OUTCOME = N_("{lance}: {outcome}")
CHANGE = N_("Change")
MARK_TO_CHANGE = N_("Mark the {card} to change it")
NO_PARES = N_("no pares")
JUEGO_TOTAL = N_("juego ({total})")
NO_JUEGO_PUNTO = N_("no juego, punto {total}")
YOUR_HAND_INFO = N_("Your hand:")
PARTNER_SIGNALS = N_("Your partner {gesture}:")
SENA_OPTION = N_("{gesture} ({meaning})")
YOU_SIGNALLED = N_("You signalled: {senas}.")
NO_SENAS_YET = N_("No señas from your partner yet.")
NO_SENA_FITS = N_("no seña fits your cards now")
DECLARE_SI = N_("{lance} sí")
DECLARE_NO = N_("{lance} no")
RAISE_BY = N_("{n} más")
HANDS_AT_END = N_("The hands, shown at the end")
THE_COUNT = N_("The count")
COUNT_STEP_BY_STEP = N_("The count, step by step")
DECISIONS_WORST_FIRST = N_("Your decisions, worst first")
BEST_KEEP_BRIGHT = N_("Best: keep the bright cards, change the faded ones")

# ----- places at the table and the bots' levels ------------------------------------------------------------------------
POSITION_LABELS = (N_("mano"), N_("second"), N_("third"), N_("postre"))
"""The four places at the table by distance from mano (0..3), as the pickers name them."""
POSITION_TIPS = (N_("You speak first"), N_("You speak second"), N_("You speak third"), N_("You speak last (postre)"))
"""The pickers' tooltips, by distance from mano."""
LEVEL_LABELS = {"beginner": N_("Beginner"), "club": N_("Club player"), "strong": N_("Strong")}
"""The opponents' levels (:class:`~musteach.play.levels.Level` values) as the table's dropdown names them."""


def position_label(distance: int, lang: str | None = None) -> str:
    """The place at the table ``distance`` seats (0..3) after mano: ``"mano"``, ``"second"``... in ``lang``."""
    return translator(lang)(POSITION_LABELS[distance % 4])


def position_tip(distance: int, lang: str | None = None) -> str:
    """What the place ``distance`` (0..3) after mano means: ``"You speak first"``... in ``lang``."""
    return translator(lang)(POSITION_TIPS[distance % 4])


def level_label(level: str, lang: str | None = None) -> str:
    """The name of a bots' level (``"beginner"``, ``"club"``, ``"strong"``; another bot kind is named
    ``"<kind> bots"``) in ``lang``."""
    _ = translator(lang)
    return _(LEVEL_LABELS[level]) if level in LEVEL_LABELS else _(OWN_BOTS, kind=level)


def big_number(n: int, lang: str | None = None) -> str:
    """A whole number with the thousands grouped as ``lang`` writes them: ``"1,234,560"``, ``"1.234.560"``."""
    _ = translator(lang)
    if _.lang == SOURCE_LANG:
        return f"{n:,}"
    from babel.numbers import format_decimal  # here: babel's locale data is loaded only for other languages

    return str(format_decimal(n, format="#,##0", locale=_.lang))


def answers_text(n: int, lang: str | None = None) -> str:
    """``"1 answer"``, ``"12 answers"`` in ``lang``."""
    return plural_text("{n} answer", "{n} answers", n).render(lang)


def answers_line(n: int, right: int, percent: int, lang: str | None = None) -> str:
    """The practice's all-time line: ``"All time: 12 answers, 9 right (75%)."`` in ``lang``."""
    return plural_text(
        "All time: {n} answer, {right} right ({percent}).",
        "All time: {n} answers, {right} right ({percent}).",
        n,
        right=right,
        percent=translator(lang).percent(percent / 100),
    ).render(lang)


def imported_text(name: str, added: int, lang: str | None = None) -> str:
    """``"Imported f.json: 3 new answers added; nothing you had was removed."`` in ``lang``."""
    return plural_text(
        "Imported {name}: {n} new answer added; nothing you had was removed.",
        "Imported {name}: {n} new answers added; nothing you had was removed.",
        added,
        name=name,
    ).render(lang)


def stars_label(n: int, lang: str | None = None) -> str:
    """The accessible name of a lesson's stars: ``"1 star"``, ``"3 stars"`` in ``lang``."""
    return plural_text("{n} star", "{n} stars", n).render(lang)


def events_heading(n: int, lang: str | None = None) -> str:
    """The table's log heading: ``"What happened in this hand (5 events)"`` in ``lang``."""
    return plural_text("What happened in this hand ({n} event)", "What happened in this hand ({n} events)", n).render(
        lang
    )


def discard_label(n: int, lang: str | None = None) -> str:
    """The Discard button: ``"Discard"`` with no card marked, ``"Discard 2"`` with two, in ``lang``."""
    _ = translator(lang)
    return _("Discard {n}", n=n) if n else _(ACTIONS["discard"][0])


def characters_text(n: int, lang: str | None = None) -> str:
    """``"5,000,001 characters"`` in ``lang``."""
    return plural_text("{count} character", "{count} characters", n, count=big_number(n, lang)).render(lang)
