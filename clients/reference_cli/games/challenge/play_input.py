"""The player's keys in `t24 play`: touch, then the pattern, then the steps, then fix.

The rules it follows (shared/rules/24-challenge.md):
- R-PLAY-2: one key touches the card (space or `t`, one fingertip). The server decides who
  was first. A touch with more fingertips (more than three draws a flag, R-PLAY-3) takes a
  deliberate key, `f`, then the count: a digit alone never touches, since a student who
  starts typing the answer (`8*3`) before the touch must not be flagged for a slip; it is
  ignored with a hint.
- R-PLAY-4: right after the touch the pattern is typed (`3*8`, `3 x 8`, `15+9`) and sent
  with Enter. Typing may start before the server has confirmed the touch: the keys are kept.
  Enter moves on to the steps at once, before the server confirms the pattern (a student
  types fast, and a script pipes every line at once): the lines typed next are steps, never
  the pattern again. Only a refusal (a pattern that cannot be read, too late...) brings the
  pattern prompt back; the server has then refused the steps sent meanwhile too
  (`pattern_first`), so nothing typed ahead is judged against a pattern never declared.
- R-PLAY-5: then three steps, one per line; each Enter states the steps so far (the table
  sees them), any step can be typed again (keys 1, 2, 3 once all three are in: the new text
  replaces the step; Enter on an empty line keeps it) until Enter fixes the solution. The
  pattern cannot change once declared.
- R-PLAY-7: `s` declares stumped while the card is revealed and nobody holds it.
- R-ROUND-8: `p` opens the protest line, during the round or after it until the score card
  is signed: ↑ and ↓ pick the disputed event in the feed (every feed line shows its number,
  `#12`; the picked one is marked ▶), then the reason is typed; or the numbers are typed
  first (`12,13 REASON`, as piped lines do). Enter files the protest for the player's own
  seat, Esc leaves the line. The proctor rules on it.

States (`mode`): `idle` (keys are commands), `fingertips` (after `f`: the count),
`pattern`, `step` (with `index` 0..2), `review` (all three steps typed) and `protest` (the
protest line). `reconcile` brings the state back to what the table says (another student was
first, the card left play, a reconnect found the pattern declared).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from clients.reference_cli.games.challenge.hearing import HearingLineError, protest_args
from clients.reference_cli.games.challenge.phases import ENDED, PLACED, REVEALED, SOLVING
from clients.reference_cli.games.challenge.words import WORDS
from clients.reference_cli.keyboard import (
    CTRL_D,
    ENTER,
    ESC,
    Effect,
    Notice,
    Quit,
    Send,
    edit_line,
)
from clients.reference_cli.words import say

STEP_COUNT = 3  # R-PUZ-2

# The examples the help texts show (`t24 play --help`, the key help line): patterns as a
# student types them (R-PUZ-3), and the three steps of card 3 3 8 8 with the pattern 8 / 1/3,
# one operation per step (R-PUZ-2). A unit test judges them with server/puzzles.
PATTERN_EXAMPLES = ("3*8", "3 x 8", "15+9")
EXAMPLE_CARD = (3, 3, 8, 8)
EXAMPLE_PATTERN = "8 / 1/3"
EXAMPLE_STEPS = ("8/3", "3 - 8/3 = 1/3", "8 / 1/3")
TOUCH_KEYS = {" ": 1, "t": 1}
FINGERTIPS_KEY = "f"
FINGERTIP_COUNTS = {str(n): n for n in range(1, 6)}  # 5: a whole hand (a slap, R-PLAY-3)
DIGIT_HINT = "input.digit_hint"  # keys of the catalogue: said in the language spoken then
NO_PICK_HINT = "input.no_pick_hint"


@dataclass(frozen=True)
class PlayInput:
    """What the player is typing, and for which card play (see module doc)."""

    mode: str = "idle"  # idle | fingertips | pattern | step | review | protest
    buffer: str = ""
    steps: tuple[str, ...] = ()
    index: int = 0
    play: Any = None
    touching: bool = False  # a touch is on its way; its reply has not come yet
    declaring: bool = False  # the pattern is on its way; its reply has not come yet
    fixing: bool = False  # the fix is on its way: a second Enter must not send it twice
    pick: int | None = None  # the feed's event picked for the protest (its seq)

    def prompt(self) -> str:
        """The input line under the table, cursor at its end."""
        if self.mode == "fingertips":
            return say(WORDS, "input.fingertips")
        if self.mode == "pattern":
            return say(WORDS, "input.pattern", typed=self.buffer)
        if self.mode == "step":
            if self.index < len(self.steps):
                was = self.steps[self.index]
                return say(
                    WORDS, "input.step.again", index=self.index + 1, was=was, typed=self.buffer
                )
            return say(WORDS, "input.step", index=self.index + 1, typed=self.buffer)
        if self.mode == "review":
            return say(WORDS, "input.review")
        if self.mode == "protest":
            picked = f" #{self.pick}" if self.pick is not None else ""
            return say(WORDS, "input.protest", picked=picked, typed=self.buffer)
        return ""

    def keys_help(self, view: Mapping[str, Any] | None) -> str:
        """The key help line for the current state."""
        if self.mode == "protest":
            if self.pick is None:
                return say(WORDS, "keys.protest_pick")
            return say(WORDS, "keys.protest_why", seq=self.pick)
        if view is not None and view.get("mode") == "proctored":
            return say(WORDS, "keys.proctored")
        if self.mode == "fingertips":
            return say(WORDS, "keys.fingertips")
        if self.mode == "pattern":
            first, _, last = PATTERN_EXAMPLES
            return say(WORDS, "keys.pattern", first=first, last=last)
        if self.mode == "step":
            first, second, _ = EXAMPLE_STEPS
            return say(WORDS, "keys.step", first=first, second=second)
        if self.mode == "review":
            return say(WORDS, "keys.review")
        if view is None:
            return say(WORDS, "keys.quit")  # not joined yet: nothing to touch
        if view.get("phase") == ENDED:
            return say(WORDS, "keys.round_over")
        if view.get("paused"):
            return say(WORDS, "keys.paused")
        if view.get("phase") not in (PLACED, REVEALED, SOLVING):
            return say(WORDS, "keys.waiting")
        if view.get("phase") == PLACED:
            return say(WORDS, "keys.placed")
        return say(WORDS, "keys.play")


def _card(view: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    return view.get("card") if view is not None else None


def press(state: PlayInput, key: str, view: Mapping[str, Any] | None) -> tuple[PlayInput, list]:
    """One key: the new state and the effects for the shell."""
    effects: list[Effect] = []
    if key == CTRL_D:
        return state, [Quit()]
    if state.mode == "idle":
        return _idle_key(state, key, view)
    if state.mode == "protest":
        return _protest_key(state, key)
    if state.mode == "fingertips":
        return _fingertips_key(key, view)
    if key == ESC:
        return replace(state, buffer=""), effects
    edited = edit_line(state.buffer, key)
    if state.mode == "review":
        if key in ENTER:
            if state.fixing:
                return state, effects
            fixing = replace(state, fixing=True)
            return fixing, [Send("fix_solution", {"steps": list(state.steps)}, "fix")]
        if key in ("1", "2", "3"):
            # Retyping replaces the step (the old text is shown in the prompt, not appended to).
            return replace(state, mode="step", index=int(key) - 1, buffer=""), effects
        return state, effects
    if edited is not None:
        return replace(state, buffer=edited), effects
    if key not in ENTER:
        return state, effects
    if not state.buffer.strip():
        if state.mode == "step" and len(state.steps) == STEP_COUNT:
            return replace(state, mode="review", buffer=""), effects  # the step is kept
        return state, effects
    text = state.buffer.strip()
    if state.mode == "pattern":
        # Optimistic (see module doc): the next line typed is step 1, whatever the reply.
        stepping = replace(state, mode="step", index=0, steps=(), buffer="", declaring=True)
        return stepping, [Send("declare_pattern", {"pattern": text}, "pattern")]
    steps = list(state.steps) + [""] * (STEP_COUNT - len(state.steps))
    steps[state.index] = text
    filled = tuple(step for step in steps if step)
    effects.append(Send("state_steps", {"steps": list(filled)}, "steps"))
    if len(filled) == STEP_COUNT:
        return replace(state, mode="review", steps=filled, buffer=""), effects
    following = len(filled)
    return replace(state, mode="step", steps=filled, index=following, buffer=""), effects


def _protest_key(state: PlayInput, key: str) -> tuple[PlayInput, list]:
    """The protest line (R-ROUND-8): `SEQ[,SEQ] REASON`, filed for the player's own seat."""
    if key == ESC:
        return PlayInput(), []
    edited = edit_line(state.buffer, key)
    if edited is not None:
        return replace(state, buffer=edited), []
    if key not in ENTER or not state.buffer.strip():
        return state, []
    words = state.buffer.split()
    if state.pick is not None and not words[0][:1].isdigit():
        words = [str(state.pick), *words]  # the picked event, then the reason typed
    elif not words[0][:1].isdigit():
        return state, [Notice(say(WORDS, NO_PICK_HINT), True)]
    try:
        args = protest_args(words, None)
    except HearingLineError as error:
        return state, [Notice(str(error), True)]
    return PlayInput(), [Send("file_protest", args, "protest")]


def pick(state: PlayInput, seq: int | None) -> PlayInput:
    """The feed's event `seq` picked for the protest being typed (the shell's ↑ ↓)."""
    return replace(state, pick=seq)


def picking(state: PlayInput) -> bool:
    """Whether the protest line is open, where ↑ ↓ pick an event of the feed."""
    return state.mode == "protest"


def picked(state: PlayInput) -> int | None:
    return state.pick


def _idle_key(state: PlayInput, key: str, view: Mapping[str, Any] | None) -> tuple[PlayInput, list]:
    if key == "q":
        return state, [Quit()]
    if view is None:
        return state, []
    if key == "p":
        return PlayInput(mode="protest"), []
    proctored = view.get("mode") == "proctored"
    touching = key in TOUCH_KEYS or key == FINGERTIPS_KEY
    if key.isdigit() and len(key) == 1:
        return state, [Notice(say(WORDS, DIGIT_HINT))]
    if touching or key == "s":
        if proctored:
            return state, [Notice(say(WORDS, "input.proctored"), True)]
        if view.get("paused"):
            return state, [Notice(say(WORDS, "input.paused"), True)]
    card = _card(view)
    if touching:
        if card is None or view.get("phase") not in (PLACED, REVEALED, SOLVING):
            return state, [Notice(say(WORDS, "input.no_card"), True)]
        if key == FINGERTIPS_KEY:
            return PlayInput(mode="fingertips", play=card.get("play")), []
        return _touch(card, TOUCH_KEYS[key])
    if key == "s":
        if view.get("phase") != REVEALED:
            return state, [Notice(say(WORDS, "input.stumped_when"), True)]
        return state, [Send("declare_stumped", {}, "stumped")]
    return state, []


def _touch(card: Mapping[str, Any], fingertips: int) -> tuple[PlayInput, list]:
    touched = PlayInput(mode="pattern", play=card.get("play"), touching=True)
    return touched, [Send("touch_card", {"fingertips": fingertips}, "touch")]


def _fingertips_key(key: str, view: Mapping[str, Any] | None) -> tuple[PlayInput, list]:
    """After `f`: a count from 1 to 5 touches with it; anything else cancels, with words."""
    card = _card(view)
    if key in FINGERTIP_COUNTS and card is not None:
        return _touch(card, FINGERTIP_COUNTS[key])
    if key == ESC or card is None:
        return PlayInput(), []
    return PlayInput(), [Notice(say(WORDS, "input.no_fingertips"))]


def refused_words(tag: str, error: str) -> str:
    """A refused request of the typing line in words: what was refused (never its tag)."""
    key = f"input.refused.{tag}"
    return say(WORDS, key if key in WORDS else "input.refused.other", why=error)


def replied(state: PlayInput, tag: str, error: str | None, code: str | None = None):
    """The server answered the request tagged `tag` (error: its words, or None when accepted)."""
    if tag == "touch":
        if error is not None:
            return PlayInput(), [Notice(error, True)]
        return replace(state, touching=False), []
    if tag == "fix":
        state = replace(state, fixing=False)
    if tag != "pattern":
        return state, [] if error is None else [Notice(refused_words(tag, error), True)]
    if error is None:
        return replace(state, declaring=False), []
    if code == "pattern_cannot_change":
        # Declared already (a reconnect, a proctor's record): the steps are what is left.
        if state.mode == "pattern":
            state = replace(state, mode="step", index=0, buffer="")
        return replace(state, declaring=False), [Notice(error, True)]
    if not state.declaring:  # the card left play meanwhile, or a reconnect reset the typing
        return state, [Notice(refused_words("pattern", error), True)]
    # Back to the pattern prompt: the steps typed ahead were refused with it (pattern_first).
    retry = replace(state, mode="pattern", index=0, steps=(), buffer="", declaring=False)
    return retry, [Notice(refused_words("pattern", error), True)]


def reconcile(state: PlayInput, view: Mapping[str, Any] | None, me: str | None) -> PlayInput:
    """Bring the typing state in line with the table after a push or a snapshot."""
    if view is None:
        return state
    card = _card(view)
    toucher = view.get("toucher")
    if state.mode == "protest":
        return state  # a protest is typed whatever the card in play does
    if state.mode == "idle":
        if card is not None and toucher == me and me is not None:
            # A reconnect (or a proctor's ruling, R-PLAY-2) put the card in our hands.
            if view.get("pattern") is None:
                return PlayInput(mode="pattern", play=card.get("play"))
            steps = tuple(view.get("steps", []))[:STEP_COUNT]
            mode = "review" if len(steps) == STEP_COUNT else "step"
            return PlayInput(mode=mode, play=card.get("play"), steps=steps, index=len(steps) % 3)
        return state
    if card is None or card.get("play") != state.play:
        return PlayInput()
    if state.mode == "fingertips":  # nothing sent yet: the count is still to come
        return state if toucher is None else PlayInput()
    if toucher is None:
        return state if state.touching else PlayInput()
    if toucher != me:
        return PlayInput()
    if state.mode == "pattern" and view.get("pattern") is not None:
        return replace(state, mode="step", index=0, buffer="")
    return state


def lost_card_notice(before: PlayInput, after: PlayInput, view: Mapping[str, Any]) -> str:
    """Why the typing stopped, when `reconcile` took the card away (empty if it did not)."""
    if before.mode == "idle" or after.mode != "idle":
        return ""
    toucher = view.get("toucher")
    if toucher is not None:
        for seat in view.get("seats", []):
            if seat["seat"] == toucher:
                return say(WORDS, "input.touched_first", who=seat.get("name") or toucher)
    return ""
