"""Mutation testing of the security checks: break one check at a time, the tests must notice.

    python scripts/mutation.py [--tests PATH ...] [--jobs N] MODULE.py [MODULE.py ...]
    python scripts/mutation.py --preset session   # core/session with tests/session
    python scripts/mutation.py --preset deck      # core/deck with tests/deck and tests/session
    python scripts/mutation.py --preset net       # net/framing.py and net/wire.py with tests/net

It runs cosmic-ray (install it: ``pip install cosmic-ray``) over the given modules, but
only on the lines that make up a check: the condition of an ``if`` whose body refuses
(``raise`` or ``return False``/``None``), and what a ``verify``/``check``/``is_``/``valid``
function returns. Every mutant of such a line that the tests do not kill is printed
with its diff. The rest of the code is left alone: a mutant there says little about
security and costs a whole test run.

**Run it in a scratch clone**: cosmic-ray edits the files in place while it works (and
puts them back), so a crash or Ctrl-C can leave a mutant behind. Slow: minutes per
module; not part of CI.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRESETS = {
    "session": (
        ["core/session/session.py", "core/session/envelope.py", "core/session/header.py"],
        ["tests/session"],
    ),
    "deck": (["core/deck"], ["tests/deck", "tests/session"]),
    "net": (
        ["net/framing.py", "net/wire.py"],
        ["tests/net/test_wire_limits.py", "tests/net/test_framing.py", "tests/net/test_wire.py"],
    ),
}

#: The operators that turn a check into a broken check.
OPERATORS = [
    "core/AddNot",
    "core/ReplaceAndWithOr",
    "core/ReplaceOrWithAnd",
    "core/ReplaceTrueWithFalse",
    "core/ReplaceFalseWithTrue",
    "core/ZeroIterationForLoop",
    "core/NumberReplacer",
    *(
        f"core/ReplaceComparisonOperator_{a}_{b}"
        for a, b in [
            ("Eq", "NotEq"),
            ("NotEq", "Eq"),
            ("Lt", "LtE"),
            ("LtE", "Lt"),
            ("Gt", "GtE"),
            ("GtE", "Gt"),
            ("Lt", "Gt"),
            ("Gt", "Lt"),
            ("Is", "IsNot"),
            ("IsNot", "Is"),
            ("In", "NotIn"),
            ("NotIn", "In"),
        ]
    ),
]

_CHECKING = ("verify", "check", "is_", "valid", "_need", "expected")


def check_lines(path: Path) -> set[int]:
    """The lines of ``path`` that make up a security check (1-based)."""
    tree = ast.parse(path.read_text(), str(path))
    lines: set[int] = set()

    def refuses(body: list[ast.stmt]) -> bool:
        for stmt in body:
            if isinstance(stmt, ast.Raise):
                return True
            if isinstance(stmt, ast.Return) and (
                stmt.value is None
                or (isinstance(stmt.value, ast.Constant) and stmt.value.value in (False, None))
            ):
                return True
        return False

    def span(node: ast.AST) -> range:
        end = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
        return range(node.lineno, end + 1)  # type: ignore[attr-defined]

    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        checking = any(word in fn.name for word in _CHECKING)
        for node in ast.walk(fn):
            if isinstance(node, ast.If) and refuses(node.body):
                lines.update(span(node.test))
            elif isinstance(node, ast.Return) and checking and node.value is not None:
                lines.update(span(node.value))
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and _is_reason(node.elts[1]):
                lines.update(span(node.elts[0]))  # a table of (condition, "reason") checked in a loop
            elif isinstance(node, ast.For) and any(isinstance(x, ast.Raise) for x in ast.walk(node)):
                lines.add(node.lineno)  # a loop that checks every item
    return lines


def _is_reason(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)


def files_of(modules: list[str]) -> list[Path]:
    out: list[Path] = []
    for m in modules:
        p = ROOT / m
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return [p for p in out if p.name != "__init__.py"]


def run(modules: list[str], tests: list[str], timeout: float) -> int:
    try:
        import cosmic_ray  # noqa: F401
        from cosmic_ray.work_db import use_db
        from cosmic_ray.work_item import WorkerOutcome, WorkResult
    except ImportError:
        print("cosmic-ray is not installed: pip install cosmic-ray", file=sys.stderr)
        return 2
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()  # fmt: skip
    if dirty:
        print("the working tree has changes: run this in a clean scratch clone", file=sys.stderr)
        return 2
    survivors: list[dict[str, object]] = []
    totals = {"mutants": 0, "killed": 0, "survived": 0, "skipped": 0}
    work = Path(tempfile.mkdtemp(prefix="fairdeal-mutation-"))
    for path in files_of(modules):
        wanted = check_lines(path)
        rel = path.relative_to(ROOT)
        config = work / f"{rel.as_posix().replace('/', '_')}.toml"
        session = config.with_suffix(".sqlite")
        command = f"{sys.executable} -m pytest -x -q -p no:cacheprovider -p no:randomly {' '.join(tests)}"
        config.write_text(
            "[cosmic-ray]\n"
            f'module-path = "{rel.as_posix()}"\n'
            f"timeout = {timeout}\n"
            "excluded-modules = []\n"
            f"test-command = {json.dumps(command)}\n"
            "[cosmic-ray.distributor]\n"
            'name = "local"\n'
            "[cosmic-ray.filters.operators-filter]\n"
            "exclude-operators = []\n"
        )
        subprocess.run(["cosmic-ray", "init", str(config), str(session)], cwd=ROOT, check=True)
        with use_db(str(session)) as db:
            for item in db.work_items:
                keep = all(m.operator_name in OPERATORS for m in item.mutations) and any(
                    line in wanted for m in item.mutations for line in range(m.start_pos[0], m.end_pos[0] + 1)
                )
                if not keep:
                    db.set_result(
                        item.job_id,
                        WorkResult(
                            output=None, test_outcome=None, diff=None, worker_outcome=WorkerOutcome.SKIPPED
                        ),
                    )
                    totals["skipped"] += 1
        print(f"== {rel}: {len(wanted)} check lines", flush=True)
        subprocess.run(["cosmic-ray", "exec", str(config), str(session)], cwd=ROOT, check=True)
        with use_db(str(session)) as db:
            for item, result in db.completed_work_items:
                if result.worker_outcome == WorkerOutcome.SKIPPED:
                    continue
                totals["mutants"] += 1
                if result.is_killed:
                    totals["killed"] += 1
                    continue
                totals["survived"] += 1
                m = item.mutations[0]
                survivors.append({"file": str(rel), "line": m.start_pos[0], "operator": m.operator_name,
                                  "occurrence": m.occurrence, "diff": result.diff})  # fmt: skip
    print()
    killed, survived = totals["killed"], totals["survived"]
    print(f"{totals['mutants']} mutants of check lines: {killed} killed, {survived} survived")
    for s in survivors:
        print(f"\n-- SURVIVED {s['file']}:{s['line']} {s['operator']} #{s['occurrence']}")
        print(s["diff"])
    return 1 if survivors else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="files or folders to mutate")
    parser.add_argument("--tests", nargs="+", default=["tests"], help="the tests to run against each mutant")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="a module set with its tests")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for one test run")
    parser.add_argument("--lines", action="store_true", help="only print each module's check lines")
    args = parser.parse_args(argv)
    modules, tests = list(args.modules), list(args.tests)
    if args.preset:
        modules, tests = PRESETS[args.preset]
    if not modules:
        parser.error("give modules to mutate, or --preset")
    if args.lines:
        for path in files_of(modules):
            print(path.relative_to(ROOT), sorted(check_lines(path)))
        return 0
    return run(modules, tests, args.timeout)


if __name__ == "__main__":
    sys.exit(main())
