"""The example plays of the games written before discovery (tests/example_plays.py says what
an example holds and where a game's own is found: `server/games/<name>/example.py`).

One module per game, named after the game's `NAME` (`challenge.py` for the game "challenge").
Each restates its game's HIDDEN as leak oracles (`view_leaks`, `event_leaks`) apart from the
game's code: an oracle that imports the code it checks agrees with that code's bugs.
"""
