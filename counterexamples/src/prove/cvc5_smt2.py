"""Decide an SMT-LIB 2 query with cvc5's Python bindings and answer like the z3 executable.

The cvc5 wheel on PyPI ships the bindings only, no executable, so ``leontief prove
--cross-check cvc5`` runs this text with a Python interpreter (``python -c``): the query is
read from standard input, z3's lines are made standard (``(check-sat-using TACTIC)`` becomes
``(check-sat)``, ``(set-option :pp.*)`` lines are dropped), and every command's output is
printed — ``sat``, ``unsat``, ``unknown``, or ``timeout`` when the time limit stopped the check.
Nonlinear real arithmetic is decided by cylindrical algebraic coverings (``nl-cov``), complete
for QF_NRA. It also runs by hand on a file written by ``--emit-smt``::

    python cvc5_smt2.py 60000 < case-000.smt2

Parameters (command line)
-------------------------
limit_ms : int
    The time limit of each check, in milliseconds (0: none).
"""

import re
import sys

import cvc5


def standard_smt_lib(text):
    """Return `text` with z3's own commands made standard SMT-LIB 2.

    Parameters
    ----------
    text : str
        An SMT-LIB 2 query, possibly with ``check-sat-using`` and ``pp.*`` options.

    Returns
    -------
    str
        The query with ``(check-sat)`` in place of ``(check-sat-using ...)`` and without
        ``(set-option :pp.*)`` lines.
    """
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("(set-option :pp."):
            continue
        if stripped.startswith("(check-sat-using"):
            line = "(check-sat)"
        lines.append(line)
    return "\n".join(lines) + "\n"


def main(argv):
    """Decide the query on standard input; print each command's output on standard output.

    Parameters
    ----------
    argv : list of str
        ``[limit_ms]``: the time limit of each check in milliseconds (default 0: none).

    Returns
    -------
    int
        0 when every command ran, 1 on an error (printed as ``(error "...")``).
    """
    limit_ms = int(argv[0]) if argv else 0
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("produce-models", "true")
    solver.setOption("nl-cov", "true")
    if limit_ms > 0:
        solver.setOption("tlimit-per", str(limit_ms))
    parser = cvc5.InputParser(solver)
    try:
        parser.setStringInput(
            cvc5.InputLanguage.SMT_LIB_2_6, standard_smt_lib(sys.stdin.read()), "query"
        )
        symbols = parser.getSymbolManager()
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            output = command.invoke(solver, symbols).strip()
            if output == "unknown" and "timeout" in str(
                solver.getInfo("reason-unknown")
            ).lower():
                output = "timeout"
            if output:
                print(output, flush=True)
    except Exception as error:  # cvc5 raises its own exception types; report any as SMT-LIB does
        message = re.sub(r"\s+", " ", str(error)).replace('"', "'")
        print(f'(error "{message}")', flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
