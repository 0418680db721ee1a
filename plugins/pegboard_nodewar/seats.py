"""Node War's seat names, in seat order (a module of its own: registering the plugin needs
them, not the rules)."""

SEATS = ("Blue", "Red")
