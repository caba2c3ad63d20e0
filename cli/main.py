"""The ``fairdeal`` command: click group and the commands that need no game session."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from fairdeal import __version__, i18n
from fairdeal.core.errors import FairdealError
from fairdeal.core.rules import rules_in
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _

from .helptext import Translated

F = TypeVar("F", bound=Callable[..., Any])

i18n.route_click()  # click's usage, help and errors in the language spoken


def friendly_errors(func: F) -> F:
    """Turn fairdeal's own errors into one line on stderr and exit status 2 — never a traceback.

    An error may carry a ``hint`` attribute: what to do about it, printed on a second line.
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except FairdealError as exc:
            click.echo(f"fairdeal: {exc}", err=True)  # the error's own words (core and net: English)
            hint = getattr(exc, "hint", "") or _did_you_mean(str(exc))
            if hint:
                click.echo(f"  {hint}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


_UNKNOWN_GAME = re.compile(r"unknown game '([^']*)'; installed games: (.*)$")


def _did_you_mean(error: str) -> str:
    """For a game name mistyped (``play ecart``), the installed game it is nearest to, if any."""
    import difflib

    found = _UNKNOWN_GAME.search(error)
    if found is None:
        return ""
    near = difflib.get_close_matches(found.group(1), found.group(2).split(", "), n=1, cutoff=0.6)
    return _("Did you mean {game}?").format(game=near[0]) if near else ""


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a game name: the installed games."""
    from click.shell_completion import CompletionItem

    from fairdeal import registry

    try:
        reg = registry.load()
    except Exception:  # completion must never break the shell
        return []
    return [
        CompletionItem(name, help=reg.games[name].game.title)
        for name in sorted(reg.games)
        if name.startswith(incomplete)
    ]


def complete_seat(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a ``--seat`` kind: human, bot, and the game's bots as bot:NAME."""
    from click.shell_completion import CompletionItem

    from fairdeal import registry

    kinds = ["human", "bot"]
    game = ctx.params.get("game") or next(iter(ctx.args), None)  # click leaves it in args mid-option
    try:
        reg = registry.load()
        if game in reg.bots:
            kinds += [f"bot:{b}" for b in sorted(reg.bots[game])]
    except Exception:  # completion must never break the shell
        pass
    return [CompletionItem(k) for k in kinds if k.startswith(incomplete)]


def load_registry() -> Any:
    """Load the installed plugins, printing each plugin warning once on stderr."""
    from fairdeal import registry

    reg = registry.load()
    for w in reg.warnings:
        click.echo(_("warning: {warning}").format(warning=w), err=True)
    return reg


def _use_profile(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from fairdeal import storage

    if value is not None:
        try:
            storage.use_profile(value.strip())
        except FairdealError as exc:
            raise click.BadParameter(str(exc)) from None
    return value


_PROFILE_HELP = N_(
    "Use the identity and logs of profile NAME (created on first use), e.g. a second player "
    "on this machine. Also FAIRDEAL_PROFILE."
)
profile_option = click.option(
    "--profile",
    metavar="NAME",
    default=None,
    expose_value=False,
    is_eager=True,
    callback=_use_profile,
    help=_PROFILE_HELP,
)


#: The commands that live in their own modules, imported only when used (so ``fairdeal --help`` and
#: ``fairdeal games`` start fast): name -> (module, the first sentence of its help, which ``fairdeal
#: --help`` shortens as click would; a test checks it is the command's own).
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "play": (
        "fairdeal.cli.play",
        N_("Play GAME here against bots: every seat runs the full protocol in this process."),
    ),
    "host": (
        "fairdeal.cli.host",
        N_("Host GAME over the network: print an invite code, wait for the players, play."),
    ),
    "join": ("fairdeal.cli.join", N_("Join a game from the invite CODE the host gave you, and play.")),
    "verify": (
        "fairdeal.cli.logs",
        N_(
            "Check a game log: signatures, the hash chain, every proof, every shuffle, every move under "
            "the rules with every card known, and the result."
        ),
    ),
    "replay": (
        "fairdeal.cli.logs",
        N_("Step through a finished game entry by entry, showing the table as everyone saw it."),
    ),
    "id": (
        "fairdeal.cli.logs",
        N_(
            "Print your identity's fingerprint (made on first use and kept in your config folder), and "
            "the name the others see at the table."
        ),
    ),
    "lan": (
        "fairdeal.cli.lan",
        N_("List the games announced on the local network (a table that fills in as games answer)."),
    ),
    "new": (
        "fairdeal.cli.new",
        N_("Start a game plugin called NAME: a package with a tiny complete game, ready to change."),
    ),
    "resume": (
        "fairdeal.cli.resume",
        N_("Go on with an unfinished game: adjourned, or stopped by a crash or a lost connection."),
    ),
    "watch": (
        "fairdeal.cli.watch",
        N_("Watch a game from its invite CODE: the public table, live, and a log that verifies."),
    ),
}


def short_help(text: str, limit: int) -> str:
    """``text`` (the first sentence of a command's help) shortened to ``limit`` as click shortens a
    command's help for the list of commands."""
    return click.Command("", help=text).get_short_help_str(limit)


class LazyGroup(Translated, click.Group):
    """A click group whose commands in :data:`LAZY_COMMANDS` are imported when first used.

    Every command takes ``--profile NAME`` and ``--lang LANG`` as well as the group; the group's
    help and its commands' are said in the language spoken (:class:`~.helptext.Translated`).
    """

    command_class = Translated

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not any(p.name == "profile" for p in cmd.params):
            profile_option(cmd)
        if not any(p.name == "lang" for p in cmd.params):
            lang_option(_use_language)(cmd)
        super().add_command(cmd, name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.parent is None:  # a new run: its language before click words anything
            i18n.use(i18n.choose(_asked_language(args)))
            for cmd in (self, *self.commands.values()):
                if getattr(cmd, "_help_option", None) is not None:
                    cmd._help_option = None  # click keeps --help's words from its first run (8.1.8+)
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            import importlib

            importlib.import_module(LAZY_COMMANDS[cmd_name][0])  # its commands attach themselves to cli
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
            else:
                rows.append((name, short_help(_(LAZY_COMMANDS[name][1]), limit)))
        with formatter.section(i18n.click_gettext("Commands")):
            formatter.write_dl(rows)


def _asked_language(args: list[str]) -> str | None:
    """The language ``--lang`` asks for in a command line, read before click parses it (so that
    the help option's own words are in it too); None if it asks for none."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def _use_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--lang`` of the group or of a command: speak the language it asks for. Without it, the run
    speaks what LazyGroup.parse_args chose (FAIRDEAL_LANG's, else the system's)."""
    if value is not None:
        i18n.use(i18n.choose(value))
    return value


_LANG_HELP = N_(
    "Speak LANG: en, de, ru, el or fa (default: FAIRDEAL_LANG, else LANGUAGE, LC_ALL, "
    "LC_MESSAGES or LANG, else English). Logs and what other players receive never change."
)


def lang_option(callback: Callable[..., Any]) -> Callable[[F], F]:
    return click.option(
        "--lang",
        metavar="LANG",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=callback,
        help=_LANG_HELP,
    )


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fairdeal")
@lang_option(_use_language)
@profile_option
def cli() -> None:
    """Card games with friends, peer to peer, with no trusted dealer.

    Nobody can see a card they may not see, nobody can stack the deck, and every
    game leaves a signed log that anyone can check afterwards. Run
    "fairdeal COMMAND --help" for what each command does, with examples.

    \b
    Examples:
      fairdeal games                          list the installed games
      fairdeal rules ecarte                   read the rules of a game
      fairdeal play ecarte                    play Écarté against a bot
      fairdeal play spite-malice --seat human --seat bot
      fairdeal verify game.fdlog              check a finished game
      fairdeal replay game.fdlog              watch it again, move by move
      fairdeal host ecarte                    host a game; friends join with its code
      fairdeal lan                            the games on the local network
      fairdeal watch CODE                     watch a game, live
      fairdeal resume                         go on with an adjourned or interrupted game
      fairdeal --profile bob join CODE        a second identity on this machine
      fairdeal --lang de rules spite-malice   the rules in German (also FAIRDEAL_LANG=de)
      fairdeal new go-fish                    start writing a game of your own

    \b
    Shell completion (commands, options, game names), e.g. for bash:
      eval "$(_FAIRDEAL_COMPLETE=bash_source fairdeal)"
    (zsh: zsh_source, fish: fish_source; see click's shell completion docs)
    """


@cli.command()
@friendly_errors
def games() -> None:
    """List the installed games: players, a line about each, and where it comes from.

    The first column is the name the other commands take (play, rules).

    \b
    Example:
      fairdeal games
    """
    reg = load_registry()
    if not reg.games:
        click.echo(_("No games installed."))
        return
    for name in sorted(reg.games):
        e = reg.entry(name)
        g = e.game
        players = str(g.min_players) if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
        count = i18n.ngettext("{n} player", "{n} players", g.max_players).format(n=players.rjust(5))
        click.echo(f"{name:<14} {g.title:<16} {count}   {i18n.game_gettext(g, g.summary)}")
        click.echo(
            f"{'':<14} "
            + _("from {distribution} {version}").format(distribution=e.distribution, version=e.version)
        )
        default = reg.default_bots.get(name)
        bots = [
            _("{bot} (default)").format(bot=b) if b == default else b for b in sorted(reg.bots.get(name, {}))
        ]
        click.echo(f"{'':<14} " + _("bots: {bots}").format(bots=", ".join(bots)))


@cli.command()
@click.argument("game", required=False, shell_complete=complete_game)
@friendly_errors
def rules(game: str | None) -> None:
    """Print the rules of GAME as fairdeal plays them, options included.

    The options listed at the end are given to "fairdeal play" as --option NAME=VALUE.

    \b
    Examples:
      fairdeal rules snatch
      fairdeal rules ecarte | less
      fairdeal rules spite-malice --lang ru   in Russian (de, ru, el, fa)
    """
    reg = load_registry()
    if game is None:  # which rules? say which games there are
        click.echo(
            _("Which game? fairdeal rules GAME, one of: {games}").format(games=", ".join(sorted(reg.games))),
            err=True,
        )
        sys.exit(2)
    g = reg.game(game)
    text = rules_in(g, i18n.language()).rstrip()
    click.echo(text)
    if g.options and "(--option " not in text:  # rules that list their options say them once
        click.echo("\n" + _("Options (--option name=value):"))
        for o in g.options:
            click.echo(f"  {o.describe()}: {i18n.game_gettext(g, o.help)}")


def main() -> None:
    cli(prog_name="fairdeal")


if __name__ == "__main__":  # pragma: no cover - run as a script: use the registered group
    from fairdeal.cli.main import main as _main

    _main()
