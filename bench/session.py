"""Whole games between default bots: the protocol today against a baseline revision, in one run.

For each built-in game (and the example plugin when installed), several seeded games are
played over the real protocol (every seat its own session and keys, signed entries, every
proof checked by every seat, the end-of-game check), each in a fresh process, alternately
on this tree and on the baseline revision checked out into a temporary folder (by
default main just before shuffle passes carried proofs; see ``_baseline.py``), and once
through the runner with the plain dealer (no cryptography, no log). Printed per game:
CPU per game (every seat's work, all in one process) here and on the baseline, their
ratio, the plain dealer's CPU, entries and log size.

    python bench/session.py [--games 5] [--only spite-malice] [--against REV] [--no-baseline]
    python bench/session.py --only spite-malice --breakdown     # where the time goes, here
    python bench/session.py --games 3 --also main                # and another revision, same run

The same seed makes different games on the two trees (their shuffles differ), so the
figures are means over several games; the machine is shared and noisy.

Each tree's built-in games are loaded from the entry points that tree's own pyproject.toml
declares (read with git for a revision), not from the installed distribution's metadata: that
names this tree's game classes, which an older revision's registry does not take (it found
"installed games: none"). Other installed plugins (the example game) come from the install.
It needs a git clone that holds the revisions (or ``--no-baseline``) and the ``test`` extra
(PyNaCl: the baseline computes through it), as ``./test.sh`` installs it; without them it says
so in one line.
Targets: a whole game with proofs at most 1.2 times the baseline's CPU, for Spite & Malice,
Écarté and Snatch! alike; a Spite & Malice game under 2 s of CPU, an Écarté game to 5 under
1 s. ``--also REV`` plays the same seeds on a third tree, alternating with the others: a
revision that deals the same cards (no change to the protocol's bytes) plays the very same
games, so its ratio to this tree is exact where the baseline's is a mean over other games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import time
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

GAMES: dict[str, tuple[int, dict[str, object]]] = {
    "spite-malice": (2, {"target": 1, "max_games": 1}),
    "ecarte": (2, {}),
    "snatch": (4, {}),
    "crazy-eights": (2, {}),
}
TARGETS = {"spite-malice": 2.0, "ecarte": 1.0}
RATIO_TARGET = {"spite-malice": 1.2, "ecarte": 1.2, "snatch": 1.2}
HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
GROUP = "fairdeal"


class Trouble(SystemExit):
    """What this benchmark needs and does not have: one line on stderr, exit status 1."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"bench/session.py: {reason}")


def _pyproject_of(rev: str) -> str:
    """The pyproject.toml of revision ``rev``, read with git; Trouble if git cannot give it."""
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:pyproject.toml"],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        raise Trouble(f"it needs git, to check out revision {rev[:12]} (or pass --no-baseline)") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["git failed"])[-1]
        raise Trouble(
            f"git cannot check out revision {rev[:12]} ({why}): it needs a git clone of fairdeal "
            "that holds it (or pass --no-baseline)"
        )
    return done.stdout


def tree_plugins(rev: str | None) -> dict[str, str]:
    """The built-in games' entry points (name -> ``module:object``) that the tree at revision
    ``rev`` declares in its pyproject.toml; ``rev`` None is this tree."""
    text = (ROOT / "pyproject.toml").read_text() if rev is None else _pyproject_of(rev)
    return dict(tomllib.loads(text)["project"]["entry-points"][GROUP])


def load_games(plugins: dict[str, str]) -> Any:
    """The registry of the tree this process runs on: ``plugins``, its own built-in games, and
    the plugins other distributions installed (the example game)."""
    from importlib import metadata

    from fairdeal import registry

    own = [metadata.EntryPoint(name, value, GROUP) for name, value in plugins.items()]
    others = [
        ep for ep in metadata.entry_points(group=GROUP) if ep.dist is None or ep.dist.name != "fairdeal"
    ]
    return registry.load(entry_points=own + [ep for ep in others if ep.name not in plugins])


# -- the worker: one game, in its own process, on whichever tree PYTHONPATH gives -----------------------
def worker(name: str, seed: int, breakdown: bool, plugins: dict[str, str]) -> dict[str, Any]:
    from _baseline import which_tree

    from fairdeal.core.dealer import PlainDealer
    from fairdeal.core.rng import SeededRng
    from fairdeal.core.runner import play_game
    from fairdeal.testing import play_with_protocol

    players, options = GAMES[name]
    reg = load_games(plugins)
    game, bot = reg.game(name), reg.bot(name)
    spent: defaultdict[str, float] = defaultdict(float)
    with timed(spent) if breakdown else nullcontext():
        w0, c0 = time.perf_counter(), time.process_time()
        played = play_with_protocol(game, players, seed, options, [bot.make() for _ in range(players)])
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    s = played.session
    config = game.config(players, dict(options))
    c0 = time.process_time()
    play_game(
        game,
        config,
        PlainDealer(players, SeededRng(seed)),
        [bot.make() for _ in range(players)],
        random.Random(seed),
    )
    plain = time.process_time() - c0
    return {
        "cpu": cpu,
        "wall": wall,
        "plain": plain,
        "entries": s.seq,
        "bytes": len(played.log),
        "fair": bool(s.verdict and s.verdict.fair),
        "tree": which_tree(),
        "spent": dict(spent),
    }


#: What --breakdown times: (where it is looked up, attribute, label). Nested timed calls count
#: in their own label only.
TIMED = (
    ("fairdeal.core.deck._shuffles", "prove_shuffle", "prove shuffle passes"),
    ("fairdeal.core.deck._shuffles", "verify_shuffle", "verify shuffle passes"),
    ("fairdeal.core.deck._shuffles.Shuffles", "apply", "build shuffle passes"),
    ("fairdeal.core.deck._group", "dleq_prove", "prove shares"),
    ("fairdeal.core.deck._group", "dleq_verify", "verify shares"),
    ("fairdeal.core.deck._keys.KeyRing", "share", "compute own shares"),
    ("fairdeal.core.deck._reveals.Reveals", "decrypt", "decrypt"),
    ("fairdeal.core.session.envelope.Envelope", "signed", "sign entries"),
    ("fairdeal.core.session.envelope.Envelope", "verify", "check signatures"),
    ("fairdeal.core.session.session", "knowing_every_card", "replay knowing every card"),
)


def _lookup(path: str) -> Any:
    import importlib

    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


@contextmanager
def timed(spent: defaultdict[str, float]) -> Iterator[None]:
    """Count CPU time per label in ``spent``, patching the functions of :data:`TIMED`."""
    stack: list[float] = []  # time spent in nested timed calls, to subtract from the caller
    saved = []
    for path, attr, label in TIMED:
        owner = _lookup(path)
        inner = getattr(owner, attr)
        saved.append((owner, attr, inner))
        setattr(owner, attr, _wrap(inner, label, spent, stack))
    try:
        yield
    finally:
        for owner, attr, inner in saved:
            setattr(owner, attr, inner)


def _wrap(
    inner: Callable[..., Any], label: str, spent: defaultdict[str, float], stack: list[float]
) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        stack.append(0.0)
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            total = time.process_time() - start
            nested = stack.pop()
            spent[label] += total - nested
            if stack:
                stack[-1] += total

    return run


# -- the driver --------------------------------------------------------------------------------------
def main() -> None:
    from _baseline import BASELINE

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="seeded games per game type")
    ap.add_argument("--only", default=None, help="one game name")
    ap.add_argument("--against", default=BASELINE, help="the baseline revision (default: %(default).12s)")
    ap.add_argument("--no-baseline", action="store_true", help="measure this tree only")
    ap.add_argument(
        "--also", default=None, metavar="REV", help="measure revision REV too (its games alternate with ours)"
    )
    ap.add_argument("--breakdown", action="store_true", help="where the CPU goes, on this tree")
    ap.add_argument("--worker", nargs=2, metavar=("GAME", "SEED"), help=argparse.SUPPRESS)
    ap.add_argument("--plugins", default="{}", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        game, seed = args.worker
        print(json.dumps(worker(game, int(seed), args.breakdown, json.loads(args.plugins))))
        return
    drive(args)


class Tree:
    """A tree the games are played on: this one (``path`` None) or a revision checked out."""

    def __init__(self, label: str, rev: str | None) -> None:
        self.label, self.rev = label, rev
        self.plugins = tree_plugins(rev)
        self.path: Path | None = None

    def play(self, name: str, seed: int, *flags: str) -> dict[str, Any]:
        """One game in a worker process on this tree; Trouble, in one line, if the worker fails."""
        from _baseline import run_worker

        args = ["--worker", name, str(seed), "--plugins", json.dumps(self.plugins), *flags]
        try:
            return run_worker(HERE, args, tree=self.path)
        except RuntimeError as exc:
            last = (str(exc).strip().splitlines() or ["no output"])[-1]
            need = " (it needs the test extra: pip install -e '.[test]')" if "No module named" in last else ""
            raise Trouble(f"{name} (seed {seed}) failed on {self.label}: {last}{need}") from None


def drive(args: argparse.Namespace) -> None:
    """Play every game on this tree and the revisions asked for, and print the table."""
    from _baseline import baseline_tree

    here = Tree("this tree", None)
    base = None if args.no_baseline else Tree(f"the baseline {args.against[:12]}", args.against)
    also = None if args.also is None else Tree(args.also, args.also)
    installed = load_games(here.plugins).games
    names = [n for n in GAMES if n in installed and (args.only is None or n == args.only)]
    if not names:
        raise Trouble(f"no game to measure: {args.only!r} is not one of {', '.join(sorted(installed))}")
    with (
        nullcontext(None) if base is None else baseline_tree(args.against) as old,
        nullcontext(None) if also is None else baseline_tree(args.also) as other,
    ):
        if base is not None:
            base.path = old
            print(f"baseline: {args.against[:12]} (checked out in {old})")
        if also is not None:
            also.path = other
            print(f"also: {args.also} (checked out in {other}), on the line below each game's")
        head = (
            f"{'game':<14}{'seats':>6}{'CPU/game':>10}{'baseline':>10}{'ratio':>7}{'plain':>9}"
            f"{'entries':>9}{'base':>6}{'log KiB':>9}{'base':>7}  fair   targets"
        )
        print(head)
        print("-" * len(head))
        for name in names:
            new, before, others = [], [], []
            flag = ["--breakdown"] if args.breakdown else []
            for seed in range(1, args.games + 1):
                new.append(here.play(name, seed, *flag))
                if base is not None:
                    before.append(base.play(name, seed))
                if also is not None:
                    others.append(also.play(name, seed))
            assert all(str(old) in r["tree"] for r in before) and all(str(ROOT) in r["tree"] for r in new)
            assert all(str(other) in r["tree"] for r in others)
            report(name, new, before)
            if also is not None:
                report(f"  {args.also[:12]}", others, before, GAMES[name][0])
            if args.breakdown:
                breakdown(new)


def report(
    name: str, new: list[dict[str, Any]], before: list[dict[str, Any]], seats: int | None = None
) -> None:
    def mean(rows: list[dict[str, Any]], key: str) -> float:
        return statistics.mean(r[key] for r in rows) if rows else float("nan")

    cpu, base = mean(new, "cpu"), mean(before, "cpu")
    ratio = cpu / base if before else float("nan")
    targets = []
    if name in TARGETS:
        worst = max(r["cpu"] for r in new)
        targets.append(f"< {TARGETS[name]:g} s: {'PASS' if worst < TARGETS[name] else 'FAIL'}")
    if name in RATIO_TARGET and before:
        targets.append(f"<= {RATIO_TARGET[name]:g}x: {'PASS' if ratio <= RATIO_TARGET[name] else 'FAIL'}")
    fair = sum(r["fair"] for r in new)
    print(
        f"{name:<14}{seats or GAMES[name][0]:>6}{cpu:>9.3f}s{base:>9.3f}s{ratio:>6.2f}x"
        f"{mean(new, 'plain') * 1e3:>7.1f}ms"
        f"{mean(new, 'entries'):>9.0f}{mean(before, 'entries'):>6.0f}"
        f"{mean(new, 'bytes') / 1024:>9.1f}{mean(before, 'bytes') / 1024:>7.1f}  {fair}/{len(new)}  "
        + "; ".join(targets)
    )


def breakdown(rows: list[dict[str, Any]]) -> None:
    total = statistics.mean(r["cpu"] for r in rows)
    spent: defaultdict[str, float] = defaultdict(float)
    for r in rows:
        for label, t in r["spent"].items():
            spent[label] += t
    parts = [(label, spent[label] / len(rows)) for _, _, label in TIMED]
    parts.append(("everything else (rules, bots, sessions, wire, trio)", total - sum(t for _, t in parts)))
    for label, t in parts:
        print(f"    {label:<54}{t:>7.3f}s {t / total:>6.1%}")


if __name__ == "__main__":
    main()
