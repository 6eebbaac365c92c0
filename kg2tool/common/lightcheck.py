"""Importing a library whose functions carry typeguard's `@typechecked` without typeguard's start-up cost.

`@typechecked` re-parses and recompiles each decorated function's source when the module is imported: for inflect
(23 decorated methods) that is ~2.7 s of a synth run's start-up, more than loading the bundled graph. `import_light`
imports such a module with a light `typechecked` in its place that keeps the checks callers can run into: an
argument annotated with one of `names` (for inflect `Word`: a string of at least one character) that is not one
raises typeguard's own `TypeCheckError`, with typeguard's wording, so `except` clauses behave as before. Other
annotations are not checked (typeguard's instrumented checks of them never fired for kg2tool's calls).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
import threading
from collections.abc import Callable
from types import ModuleType

_LOCK = threading.Lock()


def import_light(module: str, checks: dict[str, tuple[str, Callable[[object], bool]]]) -> ModuleType:
    """`import module` with typeguard's `typechecked` replaced, for the import, by one that checks only the
    arguments annotated exactly as a key of `checks` (annotation -> (its description, predicate)). A module
    already imported is returned as it is."""
    if module in sys.modules:
        return sys.modules[module]
    import typeguard

    with _LOCK:
        if module in sys.modules:
            return sys.modules[module]
        real = typeguard.typechecked
        typeguard.typechecked = functools.partial(_light, checks=checks)
        try:
            return importlib.import_module(module)
        finally:
            typeguard.typechecked = real


def _light(target=None, *, checks, **_options):
    """A stand-in for `typeguard.typechecked` (as a bare decorator, with options, or on a class)."""
    from typeguard import TypeCheckError

    if target is None:
        return functools.partial(_light, checks=checks)
    if inspect.isclass(target):
        for key, attr in list(vars(target).items()):
            if inspect.isfunction(attr):
                setattr(target, key, _light(attr, checks=checks))
        return target
    if isinstance(target, (classmethod, staticmethod)):
        return type(target)(_light(target.__func__, checks=checks))
    sig = inspect.signature(target)
    checked = [(name, i, checks[str(p.annotation)]) for i, (name, p) in enumerate(sig.parameters.items())
               if isinstance(p.annotation, str) and p.annotation in checks]  # fmt: skip
    if not checked:
        return target
    @functools.wraps(target)
    def wrapper(*args, **kwargs):
        for name, i, (what, ok) in checked:
            value = args[i] if i < len(args) else kwargs.get(name, ok)  # absent: its default, not checked
            if value is not ok and not ok(value):
                raise TypeCheckError(f'argument "{name}" ({type(value).__qualname__}) is not {what}')
        return target(*args, **kwargs)

    return wrapper
