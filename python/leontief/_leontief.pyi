"""Type stubs of the extension module (python/src/lib.rs): the CLI's commands in-process."""

from fractions import Fraction
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Union

__version__: str

class InvalidInput(ValueError):
    """Bad input: the command line's message (exit code 2), naming the field path."""

class Mismatch(RuntimeError):
    """A reproduction that did not match its source (the command line's exit code 1)."""

class Records(Iterator[Dict[str, Any]]):
    """The records of a running search or explore, yielded as the command writes them."""

    def __iter__(self) -> "Records": ...
    def __next__(self) -> Dict[str, Any]: ...
    def close(self) -> None:
        """Stops the command (between batches) and waits for its thread."""
    @property
    def summaries(self) -> Optional[List[str]]:
        """The summaries the CLI prints on standard error, once the iterator is exhausted."""

def run(
    argv: List[str],
    inputs: Optional[Mapping[str, Any]] = None,
    json: bool = True,
    background: bool = False,
    notes: bool = False,
) -> Any:
    """Runs a command as the CLI takes it (without the program name); `inputs` maps FILE
    names to texts or JSON-able values held in memory. Returns the printed JSON as Python
    objects (Fractions for exact numbers), or the text with `json=False`; a reproduction
    mismatch returns `(report, message)`. With `notes=True`, `verify`, `import` and `merge`
    return `(printed, notes)`: the lines they would write on standard error (verify's
    tallies, import's warnings, merge's tally)."""

class Answer:
    """An exact allocation as `solve` answers it, held in Rust: a read-only mapping of the
    CLI's JSON answer whose fields are made into Python objects when read (exact numbers as
    Fractions)."""

    def keys(self) -> List[str]:
        """The fields, in the CLI's order."""
    def get(self, key: str, default: Any = None) -> Any:
        """The field `key` (`default` when there is none)."""
    def __len__(self) -> int:
        """How many users."""

def solve(
    argv: List[str], inputs: Optional[Mapping[str, Any]] = None, threads: Optional[int] = None
) -> Union[Answer, Dict[str, Any]]:
    """`solve`'s answer: an exact allocation as an `Answer`, any other answer as its JSON as
    Python objects."""

def records(argv: List[str]) -> Records:
    """`search`'s or `explore`'s records as an iterator (flags validated before it returns)."""

def explore_distributed(argv: List[str],
                        evaluate: Callable[[List[str], Callable[[], bool]], List[str]]) -> Records:
    """`explore`'s records with each round's work items (JSON texts) evaluated by
    `evaluate(items, stopped)`, which returns one result per item (JSON texts, in order), e.g.
    `explore_evaluate` run elsewhere with the same flags; `stopped()` turns true once the run
    is being stopped (Ctrl-C, the iterator closed), so that a long wait can end early. An
    exception it raises is raised by the iterator."""

def explore_evaluate(argv: List[str], items: List[str],
                     stopped: Optional[Callable[[], bool]] = None) -> List[str]:
    """`explore` work items evaluated for the run `argv` describes: one result per item. Stops
    at its next item on Ctrl-C (KeyboardInterrupt) or once `stopped()` returns true (asked
    before each item; RuntimeError naming how many items were evaluated)."""

def flag_defaults(command: str) -> Dict[str, Optional[str]]:
    """The defaults of a command's flags (long names with `_`), as the CLI's parser holds them."""

def replay_search(logs: List[Dict[str, Any]], budget: Optional[int] = None,
                  max_found: Optional[int] = None) -> Dict[str, Any]:
    """One process's `search` rebuilt from its shards' unit logs (`search(..., unit_log=True)`):
    `{"records": [...], "summaries": [...]}`."""

def dumps(obj: Any, floats: bool = False) -> str:
    """JSON text as the CLI reads it: Fractions as "p/q", Decimals as digits; floats refused
    unless integral (or `floats`: written as they are, for records holding inexact figures)."""

def loads(text: str) -> Any:
    """JSON text with exact "p/q" strings as Fractions (names stay strings)."""
