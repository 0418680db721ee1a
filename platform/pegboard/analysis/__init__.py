"""Post-game analysis on the game contract alone: every game gets it without code of its own.

- :mod:`.winchance`: scores to win chances, marks by win-chance drop, accuracy;
- :mod:`.search`: the analysis's own alpha-beta, its budget counted in nodes;
- :mod:`.engine`: judging one position (the chosen bot's ``search``, else the alpha-beta);
- :mod:`.review`: the rows and per-side summaries built from those verdicts;
- :mod:`.explain`: what a marked move cost, in the evaluator's terms;
- :mod:`.analyse`: whole records, in this process or spread over the executors;
- :mod:`.annotate`: the review written back into a record; :mod:`.graph`: the evaluation graph.

The public front is :func:`pegboard.analyse` and ``pegboard analyse``.
"""
