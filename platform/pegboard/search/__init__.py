"""Game-independent search: the built-in ``mcts`` bot (:mod:`pegboard.search.mcts`), written on
the game contract alone so every game gets it."""
