"""After the round: the analysis of tables and tournaments for students and coaches (issue 31).

A pure function of the events (and the solver): no store, no clock, no network, no Twisted.
The same events give the same analysis whether they come from the live store, an audit
export or an officials' bundle (docs/analysis.md).

- `table.py`: one 24 Challenge table: per card, per student, the timeline (`analyse_table`);
- `practice.py`: one practice table: each card, its result and the rating after it;
- `grades.py`: a tournament: each grade's students over every table they sat at;
- `log_ratings.py`: every student's rating and history across the log (tournament rounds,
  casual tables, practice) and every card's rating from every attempt at it;
- `ratings.py`: the ratings (openskill's Weng-Lin models): a student against a card, and
  the players of a table ranked by their scores;
- `cards.py`: what the solver and the difficulty model say of a card (the one other source);
- `log.py`: the four facts of an event the analysis reads.
"""
