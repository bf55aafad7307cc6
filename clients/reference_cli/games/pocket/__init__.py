"""The reference client's part for the `pocket` game (docs/games/pocket.md): what the screen
shows of a pocket view (`screen.py`), what a typed line sends (`screen.parse_line`) and what a
bot plays (`brain.py`). Pure functions over the view the server sends; no rules are judged
here (the server judges every answer).
"""

from clients.reference_cli.games import line_part
from clients.reference_cli.games.pocket import brain, screen

PART = line_part(
    "pocket",
    render_lines=lambda view: screen.render_lines(view),
    parse_line=lambda text, view: screen.parse_line(text),
    help_text=screen.HELP,
    next_move=brain.next_move,
)
