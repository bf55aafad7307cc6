"""The reference client's part for the `deck40` game (docs/games/deck40.md): what the screen
shows of a deck40 view (`screen.py`), what a typed line sends (`screen.parse_line`) and what a
bot plays (`brain.py`). Pure functions over the view the server sends; the server judges.
"""

from clients.reference_cli.games import line_part
from clients.reference_cli.games.deck40 import brain, screen

PART = line_part(
    "deck40",
    render_lines=lambda view: screen.render_lines(view),
    parse_line=lambda text, view: screen.parse_line(text),
    help_text=screen.HELP,
    next_move=brain.next_move,
)
