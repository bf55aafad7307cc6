"""The reference CLI's Tjugoett parts: a bot's policy (`bot.py`), the screen drawn from the
server's view and the feed's words (`screen.py`), and `t24 tjugoett` (`app.py`).

They know the game only through what the server sends: the view (`your_commands`, the
seats' visible cards and sums) and the pushed events (docs/games/tjugoett.md).
"""
