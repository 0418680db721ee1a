"""Connect Four for Pegboard: an example game shipped as its own distribution.

The package is the plugin: its hooks are re-exported here, so the entry point
(``connect4 = "pegboard_connect4"``) and ``pegboard --plugin
plugins/examples/connect4/pegboard_connect4`` register the same module.
"""

from .plugin import pegboard_bots, pegboard_evaluators, pegboard_games, pegboard_renderers

__version__ = "0.1.0"

__all__ = ["pegboard_bots", "pegboard_evaluators", "pegboard_games", "pegboard_renderers"]
