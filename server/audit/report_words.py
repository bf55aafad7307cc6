"""The words of the officials' report: one table per game, keyed by event type or code.

What it keeps: every sentence the report (server/audit/report.py) makes of a recorded event,
and the words of every code those sentences mention (flag causes, end reasons, rule ids,
roles). `CHALLENGE` words the 24 Challenge table's events, `TOURNAMENT` the tournament's.
A value is a format string whose `{placeholders}` name the values the report passes, or an
explicit (singular, plural) pair chosen by the count `n`. A key is the event type
(`CardWon`), the event type and a variant (`SolutionJudged.wrong`), or a code with its kind
(`flag_cause.no_pattern`, `rule.R-PLAY-4`).

Why tables and not f-strings in code: a shared gettext catalogue will replace them (one
vocabulary per game for the terminal, the pages and the report, docs/architecture.md), so
each entry is one msgid (with its plural) and moves as it is. The wording follows the
terminal's (clients/reference_cli/games/challenge/event_words.py), with names where it has
seat ids; the server never imports clients/, so the words are copied, not shared.

The report's own headings are not here: the template marks them `_("...")` and
`ngettext(...)` (Jinja's i18n extension, null translations today).
"""

from __future__ import annotations

from collections.abc import Mapping

Words = Mapping[str, "str | tuple[str, str]"]

CHALLENGE: Words = {
    # -- events -------------------------------------------------------------------------------
    "TableCreated": (
        "Table created with {n} seat: {seats}",
        "Table created with {n} seats: {seats}",
    ),
    "RoundStarted": (
        "Round {round} started with {n} card in the deck",
        "Round {round} started with {n} cards in the deck",
    ),
    "RoundStarted.removed": (
        "{n} two-dot card removed for a table of three (R-DECK-4)",
        "{n} two-dot cards removed for a table of three (R-DECK-4)",
    ),
    "CardPlaced": "Card {card} placed, cupped: {numbers}",
    "CardRevealed": (
        "Card {card} revealed: {numbers} ({n} dot)",
        "Card {card} revealed: {numbers} ({n} dots)",
    ),
    "CardTouched": ("{seat} touched with {n} fingertip", "{seat} touched with {n} fingertips"),
    "TouchRefused": "{seat} touched too, but {toucher} was first (R-PLAY-2)",
    "TouchRefused.claimed": "{seat} touched too, but the card was claimed already (R-PLAY-2)",
    "TouchClaimed": (
        "{seat} touched with {n} fingertip at {arrival}: network lag {delay}, credit {credit}, "
        "counted at {compensated} (R-PLAY-2, lag compensated)",
        "{seat} touched with {n} fingertips at {arrival}: network lag {delay}, credit {credit}, "
        "counted at {compensated} (R-PLAY-2, lag compensated)",
    ),
    "FirstTouchGranted": (
        "{seat} touched first, lag compensated (R-PLAY-2): in compensated order {by_time}; "
        "in arrival order {by_arrival}"
    ),
    "FirstTouchOverridden": "Ruling: {seat} touched first, not {previous} (R-PLAY-2)",
    "PatternDeclared": "{seat} declared the pattern {pattern}",
    "StepsStated": "{seat} stated: {steps}",
    "SolutionFixed": "{seat} fixed the solution: {steps}",
    "SolutionJudged.right": "{seat}'s solution is right",
    "SolutionJudged.wrong": "{seat}'s solution is wrong: {why}",
    "StumpedDeclared": "{seat} is stumped",
    "CardWon": ("{seat} won card {card} (+{n} point)", "{seat} won card {card} (+{n} points)"),
    "FlagIssued": "Penalty flag for {seat}: {cause}; flag {flags} of {limit}",
    "PlayerDisqualified.slap": "{seat} is disqualified: a slap with the whole hand (R-PLAY-3)",
    "PlayerDisqualified.flag_limit": (
        "{seat} is disqualified: {n} flag (R-FLAG-3)",
        "{seat} is disqualified: {n} flags (R-FLAG-3)",
    ),
    "CardReturnedToDeck": "Card {card} goes back under the deck (R-FLAG-2)",
    "CardStumped": "Card {card} set aside as stumped: {reason} (R-PLAY-7)",
    "StumpedCardsReturned": (
        "{n} stumped card back in play: {cards} (R-PLAY-7)",
        "{n} stumped cards back in play: {cards} (R-PLAY-7)",
    ),
    "TablePaused": "Table paused: {cause}",
    "TableResumed": "Table resumed: the windows start again in full",
    "RoundEnded": "Round over: {reason}. Scores: {scores}",
    "ProtestFiled": "Protest {protest} by {by} disputes {seqs}: “{reason}” (R-ROUND-8)",
    "ProtestRuled.upheld": "Ruling on protest {protest} by {by}: upheld, “{text}”",
    "ProtestRuled.rejected": "Ruling on protest {protest} by {by}: rejected, “{text}”",
    "ProtestRuled.corrections": "; corrections: {corrections}",
    "FlagRescinded": (
        "Correction: {seat}'s flag #{flag} rescinded, {n} flag left",
        "Correction: {seat}'s flag #{flag} rescinded, {n} flags left",
    ),
    "PlayerReinstated": "Correction: {seat} is reinstated from play {from_play}",
    "CardAwarded": (
        "Correction: {seat} is awarded card {card} (+{n} point)",
        "Correction: {seat} is awarded card {card} (+{n} points)",
    ),
    "CardAwardRevoked": (
        "Correction: card {card} is taken from {seat} (−{n} point)",
        "Correction: card {card} is taken from {seat} (−{n} points)",
    ),
    "ScoreAdjusted": "Correction: {seat} {delta}: {why}",
    "ScoreCardSigned": "Score card signed by {initials}: {scores} (R-ROUND-7)",
    "ScoreCardReopened": "Score card reopened by {by}: “{reason}”",
    "PlayBegan.students": "Play begins: every student is at the table",
    "PlayBegan.proctor": "Play begins: the proctor starts it",
    "PlayBegan.director": "Play begins: the director starts it",
    "PlayBegan.unknown": "Play begins",
    "SeatMarked.present": "{seat} is marked present",
    "SeatMarked.absent": "{seat} is marked absent: play does not wait for them",
    "unknown": "An event this report cannot word (see the stream's export)",
    # -- the parts of a sentence ----------------------------------------------------------------
    "score": "{name} {points}",
    "seq": "#{seq}",
    "ms": "{ms} ms",
    "stale": "unknown (stale)",
    "at_reveal": "{seconds} s after the reveal",
    "from_reveal": "{seconds} s",
    "correction.rescind_flag": "rescind {seat}'s flag #{flag}",
    "correction.award_card": "award card {card} to {seat}",
    "correction.revoke_card": "take card {card} from {seat}",
    "correction.adjust_score": "{seat} {delta} ({why})",
    "correction.unknown": "a correction this report cannot word",
    # -- codes ----------------------------------------------------------------------------------
    "flag_cause.no_pattern": "no pattern within the time (R-PLAY-4)",
    "flag_cause.no_solution": "no solution within the time (R-PLAY-5)",
    "flag_cause.incorrect_solution": "incorrect solution (R-PLAY-5)",
    "flag_cause.too_many_fingertips": "more than three fingertips (R-PLAY-3)",
    "flag_cause.touched_before_reveal": "touched before the reveal (R-PLAY-3)",
    "disqualified_cause.slap": "a slap with the whole hand (R-PLAY-3)",
    "disqualified_cause.flag_limit": "the flag limit (R-FLAG-3)",
    "end_reason.deck_empty": "the deck is played out",
    "end_reason.all_disqualified": "every student is disqualified",
    "end_reason.ended_by_proctor": "the proctor ended it",
    "end_reason.time_up": "the time is up, the card in play is void (R-ROUND-6)",
    "stumped_reason.no_touch": "nobody touched it in time",
    "stumped_reason.all_stumped": "everyone is stumped",
    "pause_cause.proctor": "the proctor paused it",
    "pause_cause.server_restart": "the server restarted mid-card",
    "pause_cause.store_failure": "the event store could not be written",
    "pause_cause.failover": "another server took the table over",
    "code.other": "“{value}”",
    "role.proctor": "the proctor",
    "role.director": "the director",
    "role.server": "the server",
    "role.auditor": "an auditor",
    "nobody": "nobody",
    "none": "none",
    "unknown_seat": "an unknown seat",
    "flag_limit.unknown": "the limit",
}

TOURNAMENT: Words = {
    # -- events -------------------------------------------------------------------------------
    "TableCreated": "Tournament {name} created for {date} under the {rules}; grades {grades}",
    "GradesMerged": "Grades {grades} play as one section, {section} (R-ROUND-2)",
    "StudentsRegistered": ("{n} student registered", "{n} students registered"),
    "StudentsRegistered.csv": (
        "{n} student registered from a CSV file",
        "{n} students registered from a CSV file",
    ),
    "StudentWithdrawn": "{student} withdrew",
    "StudentRenamed": "{previous} is now written {name}",
    "RegistrationClosed": (
        "Registration closed with {n} student",
        "Registration closed with {n} students",
    ),
    "RoundSeated": (
        "Round {round} seated at {n} table (R-ROUND-2)",
        "Round {round} seated at {n} tables (R-ROUND-2)",
    ),
    "SeatsSwapped": "Round {round}: {a} and {b} swap seats (R-ROUND-2)",
    "ProctorAssigned": "{name} ({initials}) proctors table {table}",
    "RoundStarted": (
        "Round {round} started at {n} table: {edition}, {half} of its deck, {side} side up "
        "(R-DECK-5)",
        "Round {round} started at {n} tables: {edition}, {half} of its deck, {side} side up "
        "(R-DECK-5)",
    ),
    "TableResultRecorded": (
        "Result of table {table} recorded (signed by {initials}, table event #{seq}): {scores}"
    ),
    "RoundClosed": "Round {round} closed: every table's score card is signed (R-ROUND-7)",
    "TieBreakSeated": (
        "Tie-break {number} seated for {section} in round {round}: {students} play for "
        "{n} place (R-ROUND-6)",
        "Tie-break {number} seated for {section} in round {round}: {students} play for "
        "{n} places (R-ROUND-6)",
    ),
    "Advanced": "Round {round} advanced: {advancing}",
    "Advanced.section": "{section}: {students}",
    "Advanced.champion": "champion of {section}: {student}",
    "RoundReopened": "Round {round} reopened for {sections} (R-ROUND-8)",
    "TournamentFinished": "Tournament finished: {champions} (R-ROUND-5)",
    "TableCreationFailed": "Table {table} could not be created: {reason}",
    "unknown": "An event this report cannot word (see the stream's export)",
    # -- the parts of a sentence ----------------------------------------------------------------
    "score": "{name} {points}",
    "nobody": "nobody",
    # -- codes ----------------------------------------------------------------------------------
    "rules.official": "Official Tournament Rules",
    "rules.guidelines": "Proctor Guidelines",
    "rules.special_instructions": "Official Rules, Special Instructions",
    "edition.single-digits": "Single Digits",
    "edition.double-digits": "Double Digits",
    "edition.variables": "Variables",
    "edition.mixed": "a mix of Single Digits, Double Digits and Variables",
    "half.1": "the first half",
    "half.2": "the second half",
    "side.red": "red",
    "side.white": "white",
    "stage.qualifying": "Rounds 1 and 2 (R-ROUND-3)",
    "stage.semi_final": "Semi-final, round 3 (R-ROUND-4)",
    "stage.final": "Final, round 4 (R-ROUND-5)",
    "advanced.top": "advanced",
    "advanced.tie_break": "advanced by tie-break {number}",
    "advanced.eliminated": "out",
    "advanced.withdrawn": "withdrew",
    "advanced.pending": "not decided yet",
    "withdrawn.before": "withdrew before round 1",
    "withdrawn.after": "withdrew after round {round} started",
    "label.round": "round {round}",
    "label.tie_break": "tie-break {number}",
    "label.table": "{label}, table {table}",
    "disqualified": "disqualified in {table}: {cause}",
    "disqualified.here": "disqualified: {cause}",
    "disqualified.reinstated": "disqualified in {table}, then reinstated",
    # -- the rules cited, in words (../shared/rules/24-challenge.md) ---------------------------
    "rule.R-PUZ-2": "a solution is exactly three steps",
    "rule.R-PUZ-3": "the pattern is the last step",
    "rule.R-DECK-4": "a table of three removes two 2-dot cards",
    "rule.R-DECK-5": "which half and side each round plays",
    "rule.R-PLAY-1": "the card is placed cupped, then revealed",
    "rule.R-PLAY-2": "the first touch with at most three fingertips may solve",
    "rule.R-PLAY-3": "too many fingertips or an early touch is a flag; a slap disqualifies",
    "rule.R-PLAY-4": "the pattern within 3 seconds of the touch",
    "rule.R-PLAY-5": "the full solution within 15 seconds",
    "rule.R-PLAY-6": "a right solution wins the card's dots",
    "rule.R-PLAY-7": "a card nobody touches, or everyone is stumped on, is set aside",
    "rule.R-FLAG-1": "the five causes of a penalty flag",
    "rule.R-FLAG-2": "a flagged card goes back under the deck",
    "rule.R-FLAG-3": "three flags disqualify in rounds 1 and 2, two in rounds 3 and 4",
    "rule.R-FLAG-4": "disqualified students keep their points",
    "rule.R-ROUND-1": "four rounds of a fixed number of cards",
    "rule.R-ROUND-2": "three or four to a table, by grade or section",
    "rule.R-ROUND-3": "rounds 1 and 2 added; the highest advance to the semi-final",
    "rule.R-ROUND-4": "the semi-final: the highest at each table goes to the final",
    "rule.R-ROUND-5": "the final: the highest is the champion",
    "rule.R-ROUND-6": "ties play a timed round",
    "rule.R-ROUND-7": "the proctor signs each score card",
    "rule.R-ROUND-8": "protests are settled by the table's proctor",
}


def say(words: Words, key: str, n: int | None = None, **values: object) -> str:
    """The entry `key` of `words` with its placeholders filled; a (singular, plural) entry
    takes the singular when `n` is 1 (English: the catalogue will bring each language's
    rule). Raises KeyError for a key the table lacks: a missing word is a bug, not a gap to
    fill with a code."""
    entry = words[key]
    if isinstance(entry, tuple):
        if n is None:
            raise ValueError(f"{key}: a plural entry needs its count n")
        entry = entry[0] if n == 1 else entry[1]
    return entry.format(n=n, **values)
