"""Protests, rulings and the score card at the reference CLI (R-ROUND-7, R-ROUND-8): the typed
lines that become commands, the words for their events, and the what-if preview.

The language (the same at the student's `protest>` line and the proctor's prompt):

    protest [SEAT] SEQ[,SEQ...] REASON          dispute recorded events by their seq
    rule N uphold|reject TEXT [| CORRECTION; ...]   rule on protest N (proctor)
    preview N uphold|reject TEXT [| CORRECTION; ...] what the ruling would do: never recorded
    sign INITIALS                               sign the score card (proctor, after the round)
    reopen REASON                               reopen a signed score card (director)

A correction is `rescind SEAT FLAG_SEQ`, `rescind SEAT slap` (a slap's disqualification
lifted, R-PLAY-3), `award SEAT CARD`, `revoke SEAT CARD` or `adjust SEAT +N|-N WHY`. The seqs
are the numbers the feed and `t24 replay` show on the left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from clients.reference_cli.games.challenge.words import WORDS, help_usage
from clients.reference_cli.words import say, view_seat_names


class HearingLineError(ValueError):
    """A hearing line that cannot become a command; the message says why, in words."""


# The hearing's lines in the proctor's `help` list, by the catalogue's `help.<name>` keys
# (`rule_fixes` continues `rule`'s line: no usage of its own).
HEARING_HELP = ("protest", "rule", "rule_fixes", "preview", "sign", "reopen", "help")
CONTINUED = ("rule_fixes",)
VERDICT_WORDS = {"uphold": True, "upheld": True, "reject": False, "rejected": False}

Resolve = Callable[[str], "str | None"]  # a seat named by id, number or name -> its id


def parse_seqs(word: str) -> list[int]:
    """`57` or `57,58` -> [57, 58]; anything else is refused."""
    parts = [part for part in word.split(",") if part]
    if not parts or not all(part.isdigit() for part in parts):
        raise HearingLineError(say(WORDS, "line.seqs", word=repr(word)))
    return [int(part) for part in parts]


def protest_args(words: list[str], resolve: Resolve | None) -> dict[str, Any]:
    """`[SEAT] SEQ[,SEQ] REASON` -> the `file_protest` args (a seat only when `resolve`, the
    proctor's prompt, reads one; a student protests for its own seat)."""
    args: dict[str, Any] = {}
    if resolve is not None and words and not words[0][:1].isdigit():
        seat = resolve(words[0])
        if seat is None:
            raise HearingLineError(say(WORDS, "line.no_seat", seat=repr(words[0])))
        args["seat"], words = seat, words[1:]
    if len(words) < 2:
        raise HearingLineError(say(WORDS, "line.usage", usage=help_usage("protest")))
    args["seqs"] = parse_seqs(words[0])
    args["reason"] = " ".join(words[1:])
    return args


def _correction(text: str, resolve: Resolve) -> dict[str, Any]:
    words = text.split()
    if len(words) < 3:
        raise HearingLineError(say(WORDS, "line.correction_example", text=repr(text)))
    kind, seat_word, value = words[0].lower(), words[1], words[2]
    seat = resolve(seat_word)
    if seat is None:
        raise HearingLineError(
            say(WORDS, "line.correction_no_seat", text=repr(text), seat=repr(seat_word))
        )
    if kind == "rescind" and value.isdigit():
        return {"kind": "rescind_flag", "seat": seat, "flag": int(value)}
    if kind == "rescind" and value.lower() == "slap":
        return {"kind": "rescind_slap", "seat": seat}
    if kind in ("award", "revoke"):
        card: Any = int(value) if value.isdigit() else value
        return {"kind": f"{kind}_card", "seat": seat, "card": card}
    if kind == "adjust" and value.lstrip("+-").isdigit() and len(words) > 3:
        return {
            "kind": "adjust_score",
            "seat": seat,
            "delta": int(value),
            "why": " ".join(words[3:]),
        }
    raise HearingLineError(say(WORDS, "line.corrections", text=repr(text)))


def ruling_args(words: list[str], resolve: Resolve) -> dict[str, Any]:
    """`N uphold|reject TEXT [| CORRECTION; CORRECTION]` -> the `rule_protest` args."""
    if len(words) < 3 or not words[0].isdigit() or words[1].lower() not in VERDICT_WORDS:
        raise HearingLineError(say(WORDS, "line.usage", usage=help_usage("rule")))
    text, _, fixes = " ".join(words[2:]).partition("|")
    if not text.strip():
        raise HearingLineError(say(WORDS, "line.say_why"))
    corrections = [_correction(part, resolve) for part in fixes.split(";") if part.strip()]
    return {
        "protest": int(words[0]),
        "upheld": VERDICT_WORDS[words[1].lower()],
        "ruling_text": text.strip(),
        "corrections": corrections,
    }


def hearing_line(
    verb: str, words: list[str], resolve: Resolve
) -> tuple[str, dict[str, Any], bool] | None:
    """A proctor's hearing line -> (command or query name, args, is_query); None when `verb`
    is not one of the hearing words."""
    if verb == "protest":
        return "file_protest", protest_args(words, resolve), False
    if verb in ("rule", "preview"):
        name = "rule_protest" if verb == "rule" else "preview_ruling"
        return name, ruling_args(words, resolve), verb == "preview"
    if verb == "sign":
        if len(words) != 1:
            raise HearingLineError(say(WORDS, "line.usage", usage=say(WORDS, "help.sign.one_word")))
        return "sign_score_card", {"initials": words[0]}, False
    if verb == "reopen":
        if not words:
            raise HearingLineError(say(WORDS, "line.usage", usage=help_usage("reopen")))
        return "reopen_score_card", {"reason": " ".join(words)}, False
    return None


# -- words ------------------------------------------------------------------------------------


def _correction_words(correction: Mapping[str, Any], who: Callable[[Any], str]) -> str:
    key = f"correction.{correction.get('kind')}"
    if key not in WORDS:
        return say(WORDS, "correction.unknown")
    return say(
        WORDS,
        key,
        who=who(correction.get("seat")),
        flag=correction.get("flag"),
        card=correction.get("card"),
        delta=f"{correction.get('delta', 0):+d}",
        why=correction.get("why"),
    )


def by_words(data: Mapping[str, Any]) -> str:
    """Who ruled or reopened, in words: a role (`the proctor`, `the director`)."""
    key = f"role.{data.get('by', 'director')}"
    return say(WORDS, key) if key in WORDS else say(WORDS, "role.director")


def describe_hearing(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    """A hearing event in words (None for any other event), from the game's table."""
    if kind not in HEARING_EVENTS:
        return None

    def who(seat: Any) -> str:
        return names.get(seat, str(seat)) if seat is not None else say(WORDS, "nobody")

    fields: dict[str, Any] = {
        "who": who(data.get("by") if kind == "ProtestFiled" else data.get("seat")),
        "count": data.get("dots", 0),
        "card": data.get("card"),
        "flag": data.get("flag"),
        "protest": data.get("protest"),
        "reason": data.get("reason"),
    }
    key = f"event.{kind}"
    if kind == "ProtestFiled":
        fields["seqs"] = ", ".join(f"#{seq}" for seq in data.get("seqs", []))
    elif kind == "ProtestRuled":
        key += ".upheld" if data.get("upheld") else ".rejected"
        ruling = say(
            WORDS, key, protest=data.get("protest"), by=by_words(data), text=data.get("ruling_text")
        )
        fixes = [_correction_words(c, who) for c in data.get("corrections", [])]
        if not fixes:
            return ruling
        return say(
            WORDS, "event.ProtestRuled.corrections", ruling=ruling, corrections=", ".join(fixes)
        )
    elif kind == "FlagRescinded":
        fields["count"] = data.get("flags")
    elif kind == "PlayerReinstated":
        fields["from_play"] = data.get("from_play")
    elif kind == "ScoreAdjusted":
        fields.update(delta=f"{data.get('delta', 0):+d}", why=data.get("why"))
    elif kind == "ScoreCardSigned":
        scores = data.get("scores", {})
        fields["initials"] = data.get("initials")
        fields["scores"] = ", ".join(
            say(WORDS, "score", name=who(seat), points=points) for seat, points in scores.items()
        )
    elif kind == "ScoreCardReopened":
        fields["by"] = by_words(data)
    return say(WORDS, key, **fields)


def describe_preview(result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The answer to `preview_ruling` in words: what would change, nothing recorded."""
    before, after = result.get("before", {}), result.get("after", {})
    changes = []
    for seat, points in after.get("scores", {}).items():
        old_points = before.get("scores", {}).get(seat)
        old_flags = before.get("flags", {}).get(seat)
        flags = after.get("flags", {}).get(seat)
        if (old_points, old_flags) != (points, flags):
            changes.append(
                say(
                    WORDS,
                    "preview.change",
                    who=names.get(seat, seat),
                    before=old_points,
                    after=points,
                    flags_before=old_flags,
                    flags_after=flags,
                )
            )
    out = set(before.get("disqualified", [])) - set(after.get("disqualified", []))
    changes += [say(WORDS, "preview.reinstated", who=names.get(seat, seat)) for seat in sorted(out)]
    body = "; ".join(changes) or say(WORDS, "preview.none")
    return say(WORDS, "preview", changes=body)


# -- t24 replay: protests and corrections marked ----------------------------------------------

CORRECTION_EVENTS = frozenset(
    {"FlagRescinded", "PlayerReinstated", "CardAwarded", "CardAwardRevoked", "ScoreAdjusted"}
)
HEARING_EVENTS = CORRECTION_EVENTS | {
    "ProtestFiled",
    "ProtestRuled",
    "ScoreCardSigned",
    "ScoreCardReopened",
}


def disputed_seqs(events: list[tuple[str, Mapping[str, Any]]]) -> dict[int, tuple[int, ...]]:
    """seq -> the protests (by number) that dispute it, over a whole log of (type, data)."""
    disputed: dict[int, tuple[int, ...]] = {}
    for kind, data in events:
        if kind == "ProtestFiled":
            for seq in data.get("seqs", []):
                disputed[seq] = disputed.get(seq, ()) + (data.get("protest"),)
    return disputed


def replay_marks(events: Sequence[tuple[int, str, Mapping[str, Any]]]) -> dict[int, str]:
    """seq -> its margin mark in `t24 replay` (the game part's `event_marks`)."""
    disputed = disputed_seqs([(kind, data) for _seq, kind, data in events])
    marks = {seq: mark(kind, disputed.get(seq, ())) for seq, kind, _data in events}
    return {seq: text for seq, text in marks.items() if text}


def describe_answer(name: str, result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A query's answer in words (the game part's `describe_answer`)."""
    if name == "preview_ruling":
        return describe_preview(result, names)
    return f"{name}: {result}"


def mark(kind: str, protests: tuple[int, ...]) -> str:
    """The replay's margin mark: `PROTEST`, `RULING`, `CORRECTION`, or the protests that
    dispute this event (`<- disputed by protest 1`)."""
    tags = []
    if kind == "ProtestFiled":
        tags.append(say(WORDS, "mark.protest"))
    elif kind == "ProtestRuled":
        tags.append(say(WORDS, "mark.ruling"))
    elif kind in CORRECTION_EVENTS:
        tags.append(say(WORDS, "mark.correction"))
    if protests:
        tags.append(say(WORDS, "mark.disputed", protests=", ".join(map(str, protests))))
    return "  ".join(tags)


def protest_summary(
    events: Sequence[tuple[int, str, Mapping[str, Any]]], lines: Mapping[int, str]
) -> list[str]:
    """Every protest of the log with its status and the disputed events as the replay shows
    them (their times relative to the reveal): the evidence a ruling quotes."""
    status: dict[Any, str] = {}
    for _seq, kind, data in events:
        if kind == "ProtestFiled":
            status[data.get("protest")] = "open"
        elif kind == "ProtestRuled":
            status[data.get("protest")] = "upheld" if data.get("upheld") else "rejected"
    out: list[str] = []
    for seq, kind, data in events:
        if kind != "ProtestFiled":
            continue
        if not out:
            out.append(say(WORDS, "summary.title"))
        number = data.get("protest")
        out.append(
            say(
                WORDS,
                "summary.protest",
                protest=number,
                seq=seq,
                status=say(WORDS, f"summary.status.{status[number]}"),
                reason=data.get("reason"),
            )
        )
        out += [f"    {lines.get(disputed, f'#{disputed}')}" for disputed in data.get("seqs", [])]
    return out


def hearing_lines(view: Mapping[str, Any]) -> list[str]:
    """The pending protests and the score card as lines under the table (empty when there
    is nothing to hear): `protest 1 open: Bo disputes #7, #9`, `score card signed by PK`."""
    names = view_seat_names(view)
    lines = [
        say(
            WORDS,
            "hearing.open",
            protest=protest.get("protest"),
            who=names.get(protest.get("by"), protest.get("by")),
            seqs=", ".join(say(WORDS, "hearing.seq", seq=seq) for seq in protest.get("seqs", [])),
        )
        for protest in view.get("protests", [])
        if protest.get("status") == "open"
    ]
    card = view.get("score_card") or {}
    if card.get("signed"):
        lines.append(say(WORDS, "hearing.signed", initials=card.get("initials")))
    return lines
