"""Loading plugins and looking up what they provide.

Built-in games are found through the ``pegboard`` entry-point group, exactly
like third-party plugins. Single-file plugins come from ``--plugin FILE`` or
``PEGBOARD_PLUGINS``. A plugin that fails to import is reported as a warning
naming it, and the others still load.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import pluggy

from pegboard import hookspecs
from pegboard.errors import PluginError, UnknownId
from pegboard.plugins import entrypoints
from pegboard.specs import BotSpec, GameSpec, RuleModSpec, RulesetDir, as_list

if TYPE_CHECKING:
    import importlib.machinery

    from pegboard.toolspecs import BenchSpec, EvaluatorSpec, RendererSpec

# by name: the evaluator, renderer and bench specs are imported only by the look-ups that need them
_Spec = TypeVar("_Spec", "BotSpec", "EvaluatorSpec", "RendererSpec", "RuleModSpec", "BenchSpec")

ENTRY_POINT_GROUP = "pegboard"
ENV_PLUGINS = "PEGBOARD_PLUGINS"


def _natural(name: str) -> list[str | int]:
    """Sort key putting numbered ids in number order (skill-20 before skill-100)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


class PluginWarning(UserWarning):
    """A plugin was skipped; the message says which and why."""


class PluginShadowed(PluginWarning):
    """A ``--plugin`` folder is used instead of the installed package of the same name."""


# A NamedTuple, not a frozen dataclass: the same fields, repr and equality, but a dataclass
# generates and compiles its methods in every process that imports it (~4 M instructions).
class PluginInfo(NamedTuple):
    """One loaded plugin, as ``pegboard plugins`` shows it."""

    name: str
    version: str
    source: str
    hooks: tuple[str, ...]


class Plugins:
    """The plugin manager plus typed look-ups of what plugins provide.

    Use :func:`get_plugins` for the process-wide instance; tests build their
    own with ``Plugins(load_entry_points=False)`` and :meth:`register`.
    """

    def __init__(
        self, *, load_entry_points: bool = True, plugin_files: Iterable[str | Path] = (), builtins: bool = True
    ) -> None:
        self.pm = pluggy.PluginManager("pegboard")
        self.pm.add_hookspecs(hookspecs)
        self.failures: list[str] = []
        self._versions: dict[str, tuple[str, str]] = {}
        self._games: dict[str, GameSpec] | None = None
        self._ruleset_dirs: list[RulesetDir] | None = None
        if builtins:
            from pegboard.plugins import builtins as builtin_plugin

            self.register(builtin_plugin.BuiltIns(self), name="pegboard.builtins", version=_version(), source="built in")
        plugin_files = list(plugin_files)
        if load_entry_points:
            self._load_entry_points(_package_folders(plugin_files))
        for path in plugin_files:
            self.load_file(path)

    # -- loading --------------------------------------------------------------------

    def _warn(self, message: str) -> None:
        self.failures.append(message)
        warnings.warn(message, PluginWarning, stacklevel=3)

    def _load_entry_points(self, folders: dict[str, Path]) -> None:
        """Load every ``pegboard`` entry point, except those whose package a ``--plugin``
        folder of the same name replaces (``folders``: package name -> folder)."""
        for ep in entrypoints.entry_points(ENTRY_POINT_GROUP):
            if self.pm.has_plugin(ep.name):
                continue
            package = ep.value.split(":")[0].split(".")[0]
            if package in folders:
                if not _installed_from(package, folders[package]):
                    warnings.warn(
                        f"plugin folder {folders[package]} replaces the installed package {package!r} (entry point {ep.name!r})",
                        PluginShadowed,
                        stacklevel=3,
                    )
                continue
            try:
                module = ep.load()
            except Exception as exc:  # noqa: BLE001 - any import failure is the plugin's fault
                self._warn(f"plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}")
                continue
            try:
                self.register(module, name=ep.name, version=ep.version, source=f"entry point {ep.value}")
            except PluginError as exc:
                self._warn(str(exc))

    def load_file(self, path: str | Path) -> ModuleType:
        """Import one ``.py`` file, or a package folder, as a plugin.

        A folder holding ``__init__.py`` is imported under its own name, so the
        package's relative imports work (a game shipped as a package can be tried
        with ``--plugin`` before it is installed). Raises :class:`PluginError`
        with one clear line.
        """
        import importlib.util  # only for --plugin files: not on every start-up

        file = Path(path)
        if not file.exists():
            raise PluginError(f"plugin file not found: {file}")
        if file.is_dir():
            init = file / "__init__.py"
            if not init.is_file():
                raise PluginError(f"plugin folder is not a Python package (no __init__.py): {file}")
            name = file.resolve().name
            if not name.isidentifier():
                raise PluginError(f"plugin folder name is not a Python package name: {file}")
            spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(file.resolve())])
        elif not file.is_file():
            raise PluginError(f"plugin path is not a file: {file}")
        else:
            name = f"pegboard_local_{file.stem}"
            spec = importlib.util.spec_from_file_location(name, file)
        if spec is None or spec.loader is None:
            raise PluginError(f"plugin file is not a Python module: {file}")
        module = self._loaded_package(spec) if file.is_dir() else None
        module = module or self._import(spec, file)
        self.register(module, name=file.resolve().name if file.is_dir() else file.stem, version="local", source=str(file))
        return module

    @staticmethod
    def _loaded_package(spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        """The package already imported from this folder (imported once, like any package), if any."""
        loaded = sys.modules.get(spec.name)
        if loaded is None:
            return None
        where = loaded.__spec__.origin if loaded.__spec__ is not None else None
        if where is None or spec.origin is None or Path(where).resolve() != Path(spec.origin).resolve():
            raise PluginError(f"plugin folder {Path(spec.origin or '').parent}: a package named {spec.name!r} is already imported from {where}")
        return loaded

    @staticmethod
    def _import(spec: importlib.machinery.ModuleSpec, file: Path) -> ModuleType:
        import importlib.util

        assert spec.loader is not None
        name = spec.name
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            for key in [key for key in sys.modules if key == name or key.startswith(f"{name}.")]:
                del sys.modules[key]
            if isinstance(exc, SyntaxError):
                raise PluginError(f"plugin {file}: syntax error at line {exc.lineno}: {exc.msg}") from exc
            if isinstance(exc, Exception):
                raise PluginError(f"plugin {file} raised on import: {type(exc).__name__}: {exc}") from exc
            raise
        return module

    def register(self, plugin: object, *, name: str | None = None, version: str = "?", source: str = "") -> None:
        """Register a module or object holding ``@hookimpl`` functions."""
        name = name or self.pm.get_canonical_name(plugin)
        try:
            self.pm.register(plugin, name=name)
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            if self.pm.is_registered(plugin):
                self.pm.unregister(plugin)
            raise PluginError(f"plugin {name!r}: {exc}") from exc
        except ValueError as exc:  # already registered under this name
            raise PluginError(f"plugin {name!r}: {exc}") from exc
        self._versions[name] = (version, source)
        self._games = None
        self._ruleset_dirs = None

    def info(self) -> list[PluginInfo]:
        """Every registered plugin with the hooks it implements."""
        rows = []
        for name, plugin in self.pm.list_name_plugin():
            hooks = tuple(sorted(impl.name for impl in self.pm.get_hookcallers(plugin) or ()))
            version, source = self._versions.get(name, ("?", ""))
            rows.append(PluginInfo(name=name, version=version, source=source, hooks=hooks))
        return sorted(rows, key=lambda row: row.name)

    # -- calling hooks safely ---------------------------------------------------------

    def _collect(self, hook: pluggy.HookCaller, **kwargs: Any) -> list[Any]:
        """Call a hook and flatten its results; a plugin that raises is skipped with a warning."""
        hook_name = hook.name
        results: list[Any] = []
        for impl in reversed(hook.get_hookimpls()):
            try:
                wanted = {k: v for k, v in kwargs.items() if k in impl.argnames}
                results.extend(as_list(impl.function(**wanted)))
            except Exception as exc:  # noqa: BLE001
                self._warn(f"plugin {impl.plugin_name!r} raised in {hook_name}: {type(exc).__name__}: {exc}")
        return results

    # -- games ------------------------------------------------------------------------

    def games(self) -> dict[str, GameSpec]:
        """Every registered game by id; a duplicate id is a warning and the first one wins."""
        if self._games is None:
            found: dict[str, GameSpec] = {}
            for spec in self._collect(self.pm.hook.pegboard_games):
                if not isinstance(spec, GameSpec):
                    self._warn(f"pegboard_games returned {type(spec).__name__}, not GameSpec; skipped")
                elif spec.id in found:
                    self._warn(f"two plugins provide the game {spec.id!r}; keeping the first")
                else:
                    found[spec.id] = spec
            self._games = found
        return self._games

    def game(self, game_id: str) -> GameSpec:
        games = self.games()
        if game_id not in games:
            raise UnknownId("game", game_id, games)
        return games[game_id]

    # -- per-game specs -----------------------------------------------------------------

    def _specs(self, hook: pluggy.HookCaller, kind: type[_Spec], game: str) -> dict[str, _Spec]:
        self.game(game)
        found: dict[str, _Spec] = {}
        for spec in self._collect(hook, game=game):
            if not isinstance(spec, kind):
                self._warn(f"{hook.name} returned {type(spec).__name__}, not {kind.__name__}; skipped")
                continue
            if spec.game not in (None, game):
                continue
            if spec.id in found:
                self._warn(f"two plugins provide the {kind.__name__[:-4].lower()} {spec.id!r} for {game}; keeping the first")
                continue
            found[spec.id] = spec
        return found

    def bots(self, game: str) -> dict[str, BotSpec]:
        return self._specs(self.pm.hook.pegboard_bots, BotSpec, game)

    def strongest_bot(self, game: str) -> str:
        """The id of the strongest bot ``game`` offers: plugins list their bots weakest first, so
        the last one that is the game's own; ``random`` when the game ships none."""
        own = [spec.id for spec in self.bots(game).values() if spec.game == game]
        return own[-1] if own else "random"

    def bot(self, game: str, bot_id: str) -> BotSpec:
        """The bot ``bot_id`` of ``game``; ids match case-insensitively, as seat options do ("Easy" is easy)."""
        bots = self.bots(game)
        if bot_id in bots:
            return bots[bot_id]
        folded = [spec for spec_id, spec in bots.items() if spec_id.casefold() == bot_id.casefold()]
        if len(folded) != 1:
            raise UnknownId(f"bot for {game}", bot_id, bots)
        return folded[0]

    def evaluators(self, game: str) -> dict[str, EvaluatorSpec]:
        from pegboard.toolspecs import EvaluatorSpec

        return self._specs(self.pm.hook.pegboard_evaluators, EvaluatorSpec, game)

    def evaluator(self, game: str, evaluator_id: str | None = None) -> EvaluatorSpec:
        evaluators = self.evaluators(game)
        if evaluator_id is None:
            if not evaluators:
                raise UnknownId(f"evaluator for {game}", "(any)", evaluators)
            return next(iter(evaluators.values()))
        if evaluator_id not in evaluators:
            raise UnknownId(f"evaluator for {game}", evaluator_id, evaluators)
        return evaluators[evaluator_id]

    def renderers(self, game: str) -> dict[str, RendererSpec]:
        from pegboard.toolspecs import RendererSpec

        return self._specs(self.pm.hook.pegboard_renderers, RendererSpec, game)

    def rule_mods(self, game: str) -> dict[str, RuleModSpec]:
        return self._specs(self.pm.hook.pegboard_rule_mods, RuleModSpec, game)

    def benchmarks(self, game: str) -> dict[str, BenchSpec]:
        from pegboard.toolspecs import BenchSpec

        return self._specs(self.pm.hook.pegboard_benchmarks, BenchSpec, game)

    def ruleset_dirs(self) -> list[RulesetDir]:
        """Every game's own ruleset folder, then the folders plugins add (checked once)."""
        if self._ruleset_dirs is None:
            extra: list[RulesetDir] = []
            for item in self._collect(self.pm.hook.pegboard_ruleset_dirs):
                if isinstance(item, (str, os.PathLike)):
                    item = RulesetDir(Path(item))
                if not isinstance(item, RulesetDir):
                    self._warn(f"pegboard_ruleset_dirs returned {type(item).__name__}, not a path or RulesetDir; skipped")
                elif not Path(item.path).is_dir():
                    self._warn(f"pegboard_ruleset_dirs: {item.path} is not a folder; skipped")
                else:
                    extra.append(item)
            self._ruleset_dirs = extra
        return [RulesetDir(Path(spec.ruleset_dir), spec.id) for spec in self.games().values()] + self._ruleset_dirs

    def extend_cli(self, app: Any) -> None:
        self._collect(self.pm.hook.pegboard_commands, app=app)

    def notify(self, session: Any, event: Any) -> None:
        self._collect(self.pm.hook.pegboard_match_event, session=session, event=event)


_current: Plugins | None = None


def _version() -> str:
    from pegboard.version import __version__

    return __version__


def env_plugin_files() -> list[str]:
    raw = os.environ.get(ENV_PLUGINS, "")
    return [part for part in raw.split(os.pathsep) if part.strip()]


def _package_folders(plugin_files: Iterable[str | Path]) -> dict[str, Path]:
    """The package folders among ``--plugin`` paths, by the package name each is imported as."""
    folders: dict[str, Path] = {}
    for path in map(Path, plugin_files):
        if path.is_dir() and (path / "__init__.py").is_file():
            folders[path.resolve().name] = path.resolve()
    return folders


def _installed_from(package: str, folder: Path) -> bool:
    """True when the installed ``package`` is this very folder (an editable install of it)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)  # a top-level name: finds it without importing it
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin is not None and Path(spec.origin).resolve().parent == folder


def get_plugins() -> Plugins:
    """The process-wide plugin manager (entry points plus ``PEGBOARD_PLUGINS``)."""
    global _current
    if _current is None:
        _current = Plugins(plugin_files=env_plugin_files())
    return _current


def set_plugins(plugins: Plugins | None) -> None:
    """Replace the process-wide manager (the CLI does this after reading --plugin)."""
    global _current
    _current = plugins
