"""`mutmut` with a faster type-check filter (bench/mutate.py runs mutmut through this).

Why: mutmut 3.8 maps each of mypy's errors to the mutant whose function holds its line by
parsing every mutated file with libcst, which took about three minutes of one core for the
rules core (the mutated copies are some 20,000 lines a file), longer than mypy itself. The
standard library's `ast` finds the same functions' line spans in about a second. Everything
else is mutmut's own: `mutmut_fast.py run ...` is `mutmut run ...`.

Same rule as mutmut's: an error inside a mutant's function marks that mutant caught by the
type checker (exit code 37); an error anywhere else means the mutated copy is broken in a way
no mutant explains, and the run stops, as mutmut's own filter does.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import mutmut.__main__ as mutmut_main
from mutmut.configuration import config
from mutmut.mutation.file_mutation import FailedTypeCheckMutant, MutatedMethodLocation
from mutmut.type_checking import run_type_checker
from mutmut.utils.file_utils import change_cwd
from mutmut.utils.format_utils import get_mutant_name, is_mutated_method_name


def _mutant_spans(path: Path) -> list[MutatedMethodLocation]:
    """Every mutant function of a mutated file with its first and last line (the mutants
    are plain functions or methods; none is nested in another function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        MutatedMethodLocation(path, node.name, node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and is_mutated_method_name(node.name)
    ]


def filter_mutants_with_type_checker() -> dict[str, FailedTypeCheckMutant]:
    """mutmut's `filter_mutants_with_type_checker`, with `ast` instead of libcst."""
    with change_cwd(Path("mutants")):
        caught: dict[str, FailedTypeCheckMutant] = {}
        spans_by_path: dict[Path, list[MutatedMethodLocation]] = {}
        for error in run_type_checker(config().type_check_command):
            path = error.file_path
            if path not in spans_by_path:
                spans_by_path[path] = _mutant_spans(path)
            spans = spans_by_path[path]
            mutant = next(
                (s for s in spans if s.line_number_start <= error.line_number <= s.line_number_end),
                None,
            )
            if mutant is None:
                raise Exception(
                    f"type error outside every mutant: {path}:{error.line_number} "
                    f"({error.error_description})"
                )
            name = get_mutant_name(path.relative_to(Path(".").absolute()), mutant.function_name)
            caught.setdefault(name, FailedTypeCheckMutant(mutant, name, error))
        return caught


if __name__ == "__main__":
    mutmut_main.filter_mutants_with_type_checker = filter_mutants_with_type_checker
    sys.exit(mutmut_main.cli())
