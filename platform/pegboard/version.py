"""The platform's version (a leaf module: the package, the plugin manager and the CLI read it)."""

__version__ = "0.1.0"
