"""The exit codes of every `t24` command, in one place so the docs and `--help` agree.

A script driving `t24` (a tournament's launcher, a test, `make run` demos) branches on these;
they are listed in `t24 --help`, in each networked command's help and in docs/cli.md.
"""

from __future__ import annotations

OK = 0  # success: a solvable card, a correct answer, a verified log, a round played
NEGATIVE = 1  # a negative answer: unsolvable card, wrong answer, broken chain, refused script
BAD_INPUT = 2  # arguments the command cannot use (argparse also exits with 2)
REFUSED = 3  # the server refused us for good: bad token, wrong role, unknown table
UNREACHABLE = 4  # no server answered at the URL (one-shot commands; `--retries` ran out)
INTERRUPTED = 130  # stopped by Ctrl-C / SIGINT (128 + signal 2, the shell convention)
TERMINATED = 143  # stopped by SIGTERM (128 + 15)
PIPE_CLOSED = 141  # the reader of our output went away (128 + SIGPIPE 13), e.g. `| head`

EXIT_CODES_HELP = """\
exit codes:
  0    success (a solvable card, a correct answer, a verified log, a round played)
  1    a negative answer (unsolvable card, wrong answer, broken chain; a piped
       play/proctor session whose commands the server refused)
  2    bad input (arguments the command cannot use)
  3    refused by the server (bad or expired token, wrong role, unknown table)
  4    no server reachable at the URL (one-shot commands, or --retries ran out)
  130  interrupted (Ctrl-C)
  141  output closed early by its reader (e.g. `| head`)
  143  terminated (SIGTERM)
"""
