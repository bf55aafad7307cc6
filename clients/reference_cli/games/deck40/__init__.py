"""The reference client's part for the `deck40` game (docs/games/deck40.md): what the screen
shows of a deck40 view (`screen.py`), what a typed line sends (`screen.parse_line`) and what a
bot plays (`brain.py`). Pure functions over the view the server sends; the server judges.
"""
