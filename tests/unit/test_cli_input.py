"""Keys -> commands for `t24 play` and `t24 proctor` (pure handlers, no terminal, no socket)."""

from __future__ import annotations

import pytest

from clients.reference_cli.games.challenge import play_input, proctor_input
from clients.reference_cli.games.challenge.play_input import PlayInput, press, reconcile, replied
from clients.reference_cli.games.challenge.words import WORDS
from clients.reference_cli.keyboard import Notice, Quit, Send, edit_line, printable, split_keys
from clients.reference_cli.words import say

SEATS = [
    {"seat": "s1", "name": "Ada", "score": 0, "flags": 0, "disqualified": False, "cards_won": []},
    {"seat": "s2", "name": "Bo", "score": 0, "flags": 0, "disqualified": False, "cards_won": []},
    {"seat": "s3", "name": "", "score": 0, "flags": 0, "disqualified": False, "cards_won": []},
]


def view(phase="revealed", toucher=None, pattern=None, steps=(), play=3, mode="networked", **more):
    card = None
    if phase in ("placed", "revealed", "solving"):
        revealed = None if phase == "placed" else 1
        card = {"play": play, "numbers": [3, 3, 8, 8], "dots": 3, "revealed_at": revealed}
    return {
        "phase": phase,
        "mode": mode,
        "seats": SEATS,
        "card": card,
        "toucher": toucher,
        "pattern": pattern,
        "steps": list(steps),
        "paused": False,
        **more,
    }


def typed(state, text, table):
    effects = []
    for key in split_keys(text):
        state, more = press(state, key, table)
        effects += more
    return state, effects


# -- keyboard ---------------------------------------------------------------------------------


def test_escape_sequences_are_one_key_and_never_typed():
    assert split_keys("3\x1b[A*8\x1b") == ["3", "\x1b[A", "*", "8", "\x1b"]
    assert split_keys("\x1bOP") == ["\x1bOP"]
    assert not printable("\x1b[A") and not printable("\n") and printable("×")
    assert edit_line("3*", "\x7f") == "3" and edit_line("3*8", "\x15") == ""
    assert edit_line("", "\n") is None
    assert edit_line("x" * 200, "y") == "x" * 200  # the server's limit


# -- play: touch, pattern, steps, fix (R-PLAY-2, R-PLAY-4, R-PLAY-5) ----------------------------


def test_one_key_touches_then_the_pattern_then_three_steps_then_fix():
    table = view()
    state, effects = press(PlayInput(), " ", table)
    assert effects == [Send("touch_card", {"fingertips": 1}, "touch")]
    assert state.mode == "pattern" and state.touching
    # The pattern can be typed before the server confirms the touch.
    state, effects = typed(state, "8 / 1/3\r", table)
    assert effects == [Send("declare_pattern", {"pattern": "8 / 1/3"}, "pattern")]
    held = view(phase="solving", toucher="s1")
    state = reconcile(state, held, "s1")
    state, _ = replied(state, "touch", None)
    state, _ = replied(state, "pattern", None)
    assert state.mode == "step" and state.index == 0
    assert state.prompt().startswith("step 1 of 3>")
    state, effects = typed(state, "8/3\r", held)
    assert effects == [Send("state_steps", {"steps": ["8/3"]}, "steps")]
    state, effects = typed(state, "3-8/3\r8/(1/3)\r", held)
    assert effects[-1] == Send("state_steps", {"steps": ["8/3", "3-8/3", "8/(1/3)"]}, "steps")
    assert state.mode == "review"
    # Steps stay editable until fixed (R-PLAY-5): retype step 2. The new text replaces the
    # step (issue 17: `6+1` then `6*1` was sent as `6+16*1`, a run-on step and a flag).
    state, _ = press(state, "2", held)
    assert state.mode == "step" and state.buffer == ""
    assert state.prompt() == "step 2 of 3 (was 3-8/3; Enter keeps it)> ▌"
    state, effects = typed(state, "3 - 8/3 = 1/3\r", held)
    assert effects[-1].args == {"steps": ["8/3", "3 - 8/3 = 1/3", "8/(1/3)"]}
    state, effects = press(state, "\r", held)
    assert effects == [Send("fix_solution", {"steps": ["8/3", "3 - 8/3 = 1/3", "8/(1/3)"]}, "fix")]


def test_lines_typed_before_the_pattern_reply_are_steps_not_the_pattern_again():
    """B2: a fast student types the steps before the server confirms the pattern (R-PLAY-5)."""
    held = view(phase="solving", toucher="s1")
    state, effects = typed(PlayInput(), "t3*8\r7-6\r", view())
    assert effects == [
        Send("touch_card", {"fingertips": 1}, "touch"),
        Send("declare_pattern", {"pattern": "3*8"}, "pattern"),
        Send("state_steps", {"steps": ["7-6"]}, "steps"),
    ]
    assert (state.mode, state.index, state.declaring) == ("step", 1, True)
    state, more = typed(state, "3*1\r3*8\r\r", held)
    assert more[-2:] == [
        Send("state_steps", {"steps": ["7-6", "3*1", "3*8"]}, "steps"),
        Send("fix_solution", {"steps": ["7-6", "3*1", "3*8"]}, "fix"),
    ]
    # The replies come afterwards and change nothing typed since.
    state = reconcile(state, view(phase="solving", toucher="s1", pattern="3*8"), "s1")
    state, _ = replied(state, "touch", None)
    state, notices = replied(state, "pattern", None)
    assert notices == [] and (state.mode, state.steps, state.declaring) == (
        "review",
        ("7-6", "3*1", "3*8"),
        False,
    )


def test_a_second_enter_does_not_send_the_fix_twice_until_its_reply():
    held = view(phase="solving", toucher="s1", pattern="3*8")
    state = PlayInput(mode="review", steps=("7-6", "3*1", "3*8"))
    state, first = press(state, "\r", held)
    state, second = press(state, "\r", held)
    assert first == [Send("fix_solution", {"steps": ["7-6", "3*1", "3*8"]}, "fix")]
    assert second == [] and state.fixing
    # A refused fix (say, a flaky connection's error) lets the student fix again.
    state, notices = replied(state, "fix", "the server is unavailable")
    assert not state.fixing and notices == [
        Notice("the solution was refused: the server is unavailable", True)
    ]
    state, again = press(state, "\r", held)
    assert again == first


def test_a_refused_pattern_brings_the_pattern_prompt_back_after_steps_typed_ahead():
    held = view(phase="solving", toucher="s1")
    state, _ = typed(PlayInput(mode="pattern", play=3), "3 x\r7-6\r3*", held)
    assert state.mode == "step" and state.buffer == "3*"
    state, effects = replied(state, "pattern", "pattern: cannot read (bad_pattern)", "bad_pattern")
    assert (state.mode, state.buffer, state.steps, state.declaring) == ("pattern", "", (), False)
    assert effects == [Notice("pattern refused: pattern: cannot read (bad_pattern)", True)]
    # The step typed ahead was refused with it (R-PLAY-4): words, the prompt stays.
    state, effects = replied(state, "steps", "announce the pattern first (pattern_first)")
    assert state.mode == "pattern" and effects[0].error and "pattern_first" in effects[0].text
    state, effects = typed(state, "3*8\r", held)
    assert effects == [Send("declare_pattern", {"pattern": "3*8"}, "pattern")]


def test_a_pattern_refused_after_the_card_left_play_only_says_why():
    state, _ = typed(PlayInput(mode="pattern", play=3), "3*8\r", view())
    state = reconcile(state, view(phase="between_cards"), "s1")
    assert state == PlayInput()
    state, effects = replied(state, "pattern", "too late (too_late)", "too_late")
    assert state == PlayInput() and effects == [
        Notice("pattern refused: too late (too_late)", True)
    ]


def test_a_pattern_already_declared_keeps_the_steps_typed_ahead():
    state, _ = typed(PlayInput(mode="pattern", play=3), "3*8\r7-6\r", view())
    state, effects = replied(
        state, "pattern", "declared (pattern_cannot_change)", "pattern_cannot_change"
    )
    assert (state.mode, state.steps, state.index, state.declaring) == ("step", ("7-6",), 1, False)
    assert effects == [Notice("declared (pattern_cannot_change)", True)]


def test_a_digit_typed_before_the_touch_is_a_hint_never_a_touch():
    """Issue 17: `8*3` typed right after the reveal drew the R-PLAY-3 flag (8 fingertips)."""
    for table in (view(), view(phase="placed")):
        state, effects = typed(PlayInput(), "8*3", table)
        assert state == PlayInput()
        assert not any(isinstance(effect, Send) for effect in effects)
        assert effects[0] == Notice(say(WORDS, play_input.DIGIT_HINT)) and not effects[0].error


def test_fingertips_come_from_a_deliberate_key_then_a_count():
    """R-PLAY-3: `f` then 1..5 touches with that many fingertips (more than 3: a flag)."""
    state, effects = press(PlayInput(), "f", view())
    assert (state.mode, effects) == ("fingertips", [])
    assert state.prompt() == "fingertips (1-5)> ▌" and "R-PLAY-3" in state.keys_help(view())
    assert reconcile(state, view(), "s1") == state  # a push meanwhile keeps the question
    touched, effects = press(state, "4", view())
    assert effects == [Send("touch_card", {"fingertips": 4}, "touch")]
    assert touched.mode == "pattern" and touched.touching
    for key, notices in (("\x1b", []), ("9", 1), ("x", 1)):
        cancelled, effects = press(state, key, view())
        assert cancelled == PlayInput() and not any(isinstance(e, Send) for e in effects)
        assert len(effects) == (notices if isinstance(notices, int) else 0)
    assert press(PlayInput(), "f", view(phase="between_cards"))[1][0].error


def test_retyping_a_step_then_enter_on_an_empty_line_keeps_it():
    state = PlayInput(mode="review", steps=("6+1", "6*1", "7-3"), play=3)
    state, _ = press(state, "1", view())
    state, effects = press(state, "\r", view())
    assert (state.mode, state.steps, effects) == ("review", ("6+1", "6*1", "7-3"), [])


def test_someone_else_first_ends_the_typing_and_says_who():
    state, _ = typed(PlayInput(), " 3*8", view())
    before = state
    state = reconcile(state, view(phase="solving", toucher="s2"), "s1")
    assert state == PlayInput()
    assert play_input.lost_card_notice(before, state, view(toucher="s2")) == (
        "Bo touched first (R-PLAY-2)"
    )
    assert play_input.lost_card_notice(state, state, view()) == ""


def test_a_refused_touch_clears_the_typing_and_shows_the_words():
    state, _ = typed(PlayInput(), " 3*8", view())
    state, effects = replied(state, "touch", "the table is paused (table_paused)")
    assert state == PlayInput()
    assert effects == [Notice("the table is paused (table_paused)", True)]


def test_a_refused_pattern_keeps_the_mode_and_says_why():
    state = PlayInput(mode="pattern", play=3)
    state, effects = typed(state, "3 x\r", view(phase="solving", toucher="s1"))
    state, effects = replied(state, "pattern", "pattern: cannot read (bad_pattern)", "bad_pattern")
    assert state.mode == "pattern" and state.buffer == ""
    assert effects[0].error and "bad_pattern" in effects[0].text
    # A pattern already declared (a reconnect) moves on to the steps.
    state, _ = replied(state, "pattern", "declared", "pattern_cannot_change")
    assert state.mode == "step"


def test_the_card_leaving_play_resets_and_a_reconnect_restores_the_hand():
    state = PlayInput(mode="review", steps=("a", "b", "c"), play=3)
    assert reconcile(state, view(phase="between_cards"), "s1") == PlayInput()
    assert reconcile(state, view(play=4, phase="solving", toucher="s1"), "s1").play is None
    restored = reconcile(PlayInput(), view(phase="solving", toucher="s1"), "s1")
    assert restored.mode == "pattern"
    restored = reconcile(
        PlayInput(), view(phase="solving", toucher="s1", pattern="3x8", steps=["1+1"]), "s1"
    )
    assert (restored.mode, restored.steps, restored.index) == ("step", ("1+1",), 1)
    full = view(phase="solving", toucher="s1", pattern="3x8", steps=["a", "b", "c"])
    assert reconcile(PlayInput(), full, "s1").mode == "review"
    # The pattern declared by a proctor's record (or a race) moves the typing on.
    assert reconcile(PlayInput(mode="pattern", play=3), full, "s1").mode == "step"
    # While the touch is in flight nobody holds the card yet: keep typing.
    touching = PlayInput(mode="pattern", play=3, touching=True, buffer="3")
    assert reconcile(touching, view(), "s1") == touching
    assert reconcile(PlayInput(mode="pattern", play=3), view(), "s1") == PlayInput()


@pytest.mark.parametrize(
    ("table", "key", "words"),
    [
        (view(phase="between_cards"), " ", "no card to touch"),
        (view(mode="proctored"), " ", "proctor records"),
        (view(paused=True), "t", "paused"),
        (view(phase="solving", toucher="s2"), "s", "R-PLAY-7"),
    ],
)
def test_keys_that_cannot_act_say_why(table, key, words):
    _state, effects = press(PlayInput(), key, table)
    assert len(effects) == 1 and effects[0].error and words in effects[0].text


def test_stumped_quit_and_other_keys():
    assert press(PlayInput(), "s", view())[1] == [Send("declare_stumped", {}, "stumped")]
    assert press(PlayInput(), "q", view())[1] == [Quit()]
    assert press(PlayInput(), "\x04", view())[1] == [Quit()]
    assert press(PlayInput(), "x", view())[1] == []
    assert press(PlayInput(), " ", None)[1] == []
    state = PlayInput(mode="pattern", buffer="3*")
    assert press(state, "\x1b", view())[0].buffer == ""
    assert press(state, "\r", view())[1] == [Send("declare_pattern", {"pattern": "3*"}, "pattern")]
    assert press(PlayInput(mode="pattern"), "\r", view())[1] == []  # nothing typed
    assert press(PlayInput(mode="review", steps=("a", "b", "c")), "x", view())[1] == []


def test_prompts_and_help_follow_the_mode():
    assert PlayInput().prompt() == ""
    assert "touch the card" in PlayInput().keys_help(view())
    # The footer offers only what applies (issue 17): no touch after the round, while
    # paused, or between cards; the keys it names are the keys that exist (docs/cli.md).
    assert "[f] touch with N fingertips" in PlayInput().keys_help(view())
    assert PlayInput().keys_help(view(phase="ended")) == "round over · [p] protest · [q] quit"
    assert PlayInput().keys_help(None) == "[q] quit"  # not joined yet
    assert "touch" not in PlayInput().keys_help(view(paused=True))
    assert "touch" not in PlayInput().keys_help(view(phase="between_cards"))
    assert "wait for the reveal" in PlayInput().keys_help(view(phase="placed"))
    assert "proctored" in PlayInput().keys_help(view(mode="proctored"))
    assert PlayInput(mode="pattern", buffer="3").prompt() == "pattern> 3▌"
    assert "pattern" in PlayInput(mode="pattern").keys_help(view())
    assert "step" in PlayInput(mode="step").keys_help(view())
    assert "fix" in PlayInput(mode="review").keys_help(view())
    assert "Enter fixes" in PlayInput(mode="review").prompt()
    # The proctor's footer too offers what applies (issue 17: `place, reveal` while paused).
    proctor = proctor_input.ProctorInput()
    assert "place, reveal" in proctor.keys_help(view())
    assert "place" not in proctor.keys_help(view(paused=True))
    assert "resume" in proctor.keys_help(view(paused=True))
    assert "place" not in proctor.keys_help(view(phase="ended"))
    assert "start" in proctor.keys_help(view(phase="setup"))


# -- proctor: one line, one command -----------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command", "args"),
    [
        ("start", "start_round", {}),
        ("p", "place_card", {}),
        ("reveal", "reveal_card", {}),
        ("touch 2", "touch_card", {"seat": "s2"}),
        ("t ada 4", "touch_card", {"seat": "s1", "fingertips": 4}),
        ("pattern s2 8 / 1/3", "declare_pattern", {"seat": "s2", "pattern": "8 / 1/3"}),
        ("pattern 3 x 8", "declare_pattern", {"seat": "s2", "pattern": "3 x 8"}),
        ("steps 8/3; 3-8/3", "state_steps", {"seat": "s2", "steps": ["8/3", "3-8/3"]}),
        ("fix", "fix_solution", {"seat": "s2"}),
        ("fix s2 a, b, c", "fix_solution", {"seat": "s2", "steps": ["a", "b", "c"]}),
        ("stumped s3", "declare_stumped", {"seat": "s3"}),
        ("flag 1 too_many", "issue_flag", {"seat": "s1", "cause": "too_many_fingertips"}),
        ("override bo", "override_first_touch", {"seat": "s2"}),
        ("pause fire drill", "pause_table", {"cause": "fire drill"}),
        ("pause", "pause_table", {}),
        ("resume", "resume_table", {}),
        ("end", "end_round", {}),
    ],
)
def test_proctor_lines_become_commands(line, command, args):
    assert proctor_input.parse_line(line, view(phase="solving", toucher="s2")) == (command, args)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("dance", "unknown command"),
        ("place now", "takes nothing more"),
        ("touch", "name the seat"),
        ("touch s9", "no seat 's9'"),
        ("touch 2 eleven", "fingertips"),
        ("flag 2", "one cause"),
        ("flag 2 no_", "one cause"),  # ambiguous: no_pattern, no_solution
        ("pattern 3x8", "nobody holds the card"),
        ("pattern s1", "usage"),
        ("steps s1", "usage"),
    ],
)
def test_proctor_lines_that_cannot_be_read_say_why(line, words):
    with pytest.raises(proctor_input.BadLine, match=words):
        proctor_input.parse_line(line, view())


def test_the_proctor_line_editor():
    state = proctor_input.ProctorInput()
    for key in "place":
        state, _ = proctor_input.press(state, key, view())
    assert state.prompt() == "proctor> place▌"
    cleared, effects = proctor_input.press(state, "\r", view())
    assert cleared.buffer == "" and effects == [Send("place_card", {}, "place")]
    assert proctor_input.press(state, "\r", None)[1][0].error  # not joined yet
    state, effects = proctor_input.press(proctor_input.ProctorInput("bogus"), "\n", view())
    assert state.buffer == "" and effects[0].error and "bogus" in effects[0].text
    assert proctor_input.press(proctor_input.ProctorInput("quit"), "\r", view())[1] == [Quit()]
    assert proctor_input.press(proctor_input.ProctorInput(), "\x04", view())[1] == [Quit()]
    helped = proctor_input.press(proctor_input.ProctorInput("help"), "\r", view())[1]
    assert "override SEAT" in helped[0].text and not helped[0].error
    assert proctor_input.press(proctor_input.ProctorInput("x"), "\x1b", view())[0].buffer == ""
    assert proctor_input.press(proctor_input.ProctorInput(), "\r", view())[1] == []
    assert proctor_input.press(proctor_input.ProctorInput("p"), "\x1b[A", view())[0].buffer == "p"
    refused = proctor_input.replied(state, "reveal", "no card (no_card_placed)")[1]
    assert refused == [Notice("reveal: no card (no_card_placed)", True)]
    assert proctor_input.replied(state, "reveal", None) == (state, [])
    assert proctor_input.reconcile(state, view(), None) is state
    assert "place" in state.keys_help(view())
