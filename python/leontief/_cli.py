"""The command line's calling convention, shared by every command's function.

Each public function of the package builds the CLI's command line from its keywords (the
flag names with ``_`` for ``-``, ``None`` and ``False`` left out) and hands it, with the
instances and trees held in memory, to the extension module, which runs the command's own
code. This module holds that translation, :func:`run` for any command as the CLI takes it,
and :func:`dumps`/:func:`loads` for the CLI's JSON with exact numbers as Fractions.

See Also
--------
leontief : the package, which re-exports the public names.
"""

from __future__ import annotations

import os as _os
from typing import AbstractSet, Any, Dict, Iterable, List, Mapping, Optional, Tuple

from . import _leontief
from ._leontief import InvalidInput

__all__ = ["dumps", "loads", "run"]


# The name under which an in-memory instance or tree is handed to the command.
_INPUT = "<input>"


def dumps(value: Any) -> str:
    """JSON text of ``value`` as the CLI reads it.

    Parameters
    ----------
    value : object
        Dicts, lists, ints, strings, Fractions (written ``"p/q"``) and Decimals (their
        digits); a non-integral float is refused.

    Returns
    -------
    str
        Compact JSON text.

    Raises
    ------
    InvalidInput
        On a non-integral float, naming its field.

    Examples
    --------
    >>> dumps({"capacity": [Fraction(7, 3), 2]})
    '{"capacity":["7/3",2]}'
    """
    return _leontief.dumps(value)


def loads(text: str) -> Any:
    """Parses the CLI's JSON: exact ``"p/q"`` strings become Fractions (names stay strings).

    Parameters
    ----------
    text : str
        JSON text as the CLI prints it.

    Returns
    -------
    object
        Dicts, lists and Fractions.

    Examples
    --------
    >>> loads('{"name": "3", "tasks": "7/3"}')
    {'name': '3', 'tasks': Fraction(7, 3)}
    """
    return _leontief.loads(text)


def _source(value: Any) -> Tuple[str, Dict[str, Any]]:
    """The FILE argument and in-memory inputs for an instance/tree given as a dict, JSON text
    or path."""
    if isinstance(value, str):
        if value.lstrip().startswith(("{", "[")):
            return _INPUT, {_INPUT: value}
        return value, {}
    if isinstance(value, _os.PathLike):
        return _os.fspath(value), {}
    if isinstance(value, Mapping):
        return _INPUT, {_INPUT: dict(value)}
    raise InvalidInput(
        f"input: expected a dict in the CLI's JSON schema, JSON text or a path, found {type(value).__name__}"
    )


def _flag_value(name: str, value: Any) -> str:
    if isinstance(value, bool):
        raise InvalidInput(f"{name}: expected a value, found {value!r}")
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        raise InvalidInput(
            f"{name}: expected an exact number (int, str, Fraction or Decimal), found the float {value!r} (a float is not exact)"
        )
    # A set has no order to keep, so it is not joined (the CLI refuses its text, as before).
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping, AbstractSet)):
        return ",".join(_flag_value(name, v) for v in value)
    return str(value)


def _flags(**kw: Any) -> List[str]:
    """CLI flags from keyword arguments: ``None``/``False`` omitted, ``True`` as a switch,
    sequences (a str is one value) comma-joined."""
    argv: List[str] = []
    for key, value in kw.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        else:
            argv += [flag, _flag_value(flag, value)]
    return argv


def _run_file(command: str, given: Mapping[str, Any], background: bool = False) -> Any:
    """What ``command`` prints (as Python objects) on the instance or tree ``given["tree"]``
    (see :func:`_source`) with the other arguments as flags (see :func:`_command_argv`);
    ``background`` runs it with Ctrl-C honoured."""
    flags = dict(given)
    file, inputs = _source(flags.pop("tree"))
    return _leontief.run(_command_argv(command, flags, file), inputs, True, background)


def _command_argv(command: str, given: Mapping[str, Any], *positional: str) -> List[str]:
    """``command``'s command line, after the ``positional`` arguments, from a function's
    arguments (its ``locals()``, in order): ``properties`` as ``--property``, the keywords of
    ``**flags`` (under ``flags``) spread, ranges as ``2..4``, a shard as ``i/n``, a time in
    seconds as ``"Ns"``."""
    flags = {("property" if k == "properties" else k): v for k, v in given.items() if k != "flags"}
    flags.update(given.get("flags", {}))
    for key, separator in (("shard", "/"), ("users", ".."), ("resources", ".."), ("pools", "..")):
        value = flags.get(key)
        if isinstance(value, tuple) and len(value) == 2:
            flags[key] = f"{value[0]}{separator}{value[1]}"
    seconds = flags.get("time")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
        flags["time"] = f"{seconds}s"
    return [command, *positional] + _flags(**flags)


def run(*argv: str, inputs: Optional[Mapping[str, Any]] = None, json: bool = True) -> Any:
    """Runs any command as the CLI takes it and returns what it prints.

    Parameters
    ----------
    *argv : str
        The command line without the program name, e.g. ``"solve", "x.json", "--trace"``.
    inputs : mapping, optional
        Names used as FILE arguments, each mapped to a dict or a text held in memory.
    json : bool, default True
        Parse the printed JSON into Python objects (Fractions for exact numbers); ``False``
        returns the text.

    Returns
    -------
    object
        The printed JSON as Python objects, or the text.

    Raises
    ------
    InvalidInput
        Bad input or flags, with the CLI's message.

    Examples
    --------
    >>> out = run("solve", "paper", inputs={"paper": {"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}})
    >>> [u["tasks"] for u in out["users"]]
    [Fraction(3, 1), Fraction(2, 1)]
    """
    return _leontief.run(list(argv), dict(inputs or {}), json, True)

