"""What the game contract suite (tests/contract/test_game_contract.py) needs from each game.

One module per game, named after the game's `NAME` (`challenge.py` for the game "challenge"),
exposing:

    GAME                                   # the game package itself
    options(rng) -> dict                   # example table options; every choice from `rng`
    commands(state, rng) -> list[Command]  # commands worth trying now, most of them valid
                                           #   (the suite picks among them; refusals are fine)
    view_leaks(viewer, view, state) -> bool     # the view shows what HIDDEN says it must not
    event_leaks(viewer, event, state) -> bool   # the same for one event as `event_view` gave it

The suite fails for a registered game without its module here: a game joins by adding one.
"""
