"""The language fairdeal speaks, and its words in that language (gettext catalogs).

The language is chosen once per process (:func:`use`), from ``--lang``, else ``FAIRDEAL_LANG``,
else ``LANGUAGE`` / ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG`` as Python's :mod:`gettext` reads them
(the first that is set, a colon-separated list of preferences, ``C`` or ``POSIX`` meaning
English). It is one of :data:`LANGUAGES`; English when nothing else is asked or the language asked
has no catalog. :func:`gettext` and :func:`ngettext` translate through the catalog
``fairdeal/locale/LANG/LC_MESSAGES/fairdeal.mo``; placeholders are by name
(``_("{name} wins").format(name=...)``) and plural forms are the catalog's.

The catalogs are kept as ``.po`` sources beside their compiled ``.mo`` files (both committed;
``scripts/catalogs.py`` extracts, updates and compiles them with Babel, and a test checks that
every ``.mo`` is the compiled ``.po``). Nothing of the protocol or the log is ever translated.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

#: The languages fairdeal has catalogs for, English (the source) first.
LANGUAGES: tuple[str, ...] = ("en", "de", "ru", "el", "fa")
#: Languages written right to left.
RIGHT_TO_LEFT: frozenset[str] = frozenset({"fa"})
#: The variable that overrides the system's language (``--lang`` overrides it in turn).
ENV = "FAIRDEAL_LANG"
#: The variables gettext reads, in its order.
SYSTEM_ENV: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
DOMAIN = "fairdeal"
#: click's messages (usage, help, errors): click wraps them in gettext and ships no catalogs.
CLICK_DOMAIN = "click"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")

_current: str | None = None


def base(tag: str) -> str:
    """The language of a locale name: ``de_DE.UTF-8`` → ``de``, ``pt-BR`` → ``pt``, ``C`` → ``c``."""
    return tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()


def preferences(environ: Mapping[str, str]) -> list[str]:
    """The languages the system asks for, best first, as gettext reads them: the first of
    ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, split at colons."""
    for var in SYSTEM_ENV:
        if value := environ.get(var):
            return value.split(":")
    return []


def choose(asked: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``asked`` (``--lang``), else ``FAIRDEAL_LANG``, else the system's
    preferences; the first of them fairdeal has a catalog for, English if none (or ``C`` first)."""
    env = os.environ if environ is None else environ
    if asked:
        wanted = asked.split(":")
    elif env.get(ENV):
        wanted = env[ENV].split(":")
    else:
        wanted = preferences(env)
    for tag in wanted:
        code = base(tag)
        if code in ("c", "posix"):
            break
        if code in LANGUAGES:
            return code
    return "en"


def use(lang: str) -> str:
    """Speak ``lang`` (a language of :data:`LANGUAGES`, else English) from now on; returns it."""
    global _current
    _current = lang if lang in LANGUAGES else "en"
    return _current


def language() -> str:
    """The language spoken: the one :func:`use` set, else :func:`choose`'s from the environment."""
    return _current if _current is not None else use(choose())


def right_to_left(lang: str | None = None) -> bool:
    """Whether ``lang`` (default: the language spoken) is written right to left."""
    return (lang or language()) in RIGHT_TO_LEFT


@cache
def catalog(lang: str, domain: str = DOMAIN) -> _gettext.NullTranslations:
    """The translations of ``domain`` into ``lang``: fairdeal's catalog, else the system's (its
    default locale folder), else none (English)."""
    if lang == "en":
        return _gettext.NullTranslations()
    found = _gettext.translation(domain, LOCALE_DIR, languages=[lang], fallback=True)
    found.add_fallback(_gettext.translation(domain, languages=[lang], fallback=True))
    return found


def gettext(message: str) -> str:
    """``message`` in the language spoken (as it is, where the catalog has no translation)."""
    return catalog(language()).gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a message with a plural, as the catalog's plural rule picks it."""
    return catalog(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language spoken, as meant in ``context`` (a word that says different
    things in different places: a command typed, a key)."""
    return catalog(language()).pgettext(context, message)


def click_gettext(message: str) -> str:
    """One of click's messages in the language spoken (click's own catalog, ``click`` domain)."""
    return catalog(language(), CLICK_DOMAIN).gettext(message) if message else message


def click_ngettext(singular: str, plural: str, n: int) -> str:
    """One of click's messages with a plural, in the language spoken."""
    return catalog(language(), CLICK_DOMAIN).ngettext(singular, plural, n)


#: click's modules that translate what they say (each imported gettext's functions for itself).
_CLICK_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.shell_completion",
    "click.termui",
    "click.types",
    "click.utils",
    "click._termui_impl",
)


def route_click() -> list[str]:
    """Make click say its messages in the language spoken; returns the modules changed.

    click calls the standard library's ``gettext``/``ngettext`` (the process's default domain,
    languages from the environment only), bound in each of its modules at import. Where a module
    still holds those very functions, they are replaced by :func:`click_gettext` and
    :func:`click_ngettext`, so ``--lang`` reaches click too; a click that does otherwise is left
    as it is (a test says so).
    """
    import importlib

    changed = []
    for name in _CLICK_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for attr, ours, stdlib in (
            ("_", click_gettext, _gettext.gettext),
            ("ngettext", click_ngettext, _gettext.ngettext),
        ):
            if getattr(module, attr, None) is stdlib:
                setattr(module, attr, ours)
                changed.append(f"{name}.{attr}")
    return changed


def N_(message: str) -> str:
    """``message`` itself: marks a string for the catalog, to be translated where it is shown."""
    return message


_ = gettext


#: A placeholder of a message (``{name}``, ``{name!r}``, ``{name:>3}``): what :meth:`Catalog.again` fills.
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}")


class Catalog:
    """A game's own words in the language spoken: the gettext catalogs of one domain, kept beside
    the game's package as ``PACKAGE/locale/LANG/LC_MESSAGES/DOMAIN.mo``.

    ``package`` is the dotted name of the package (pass ``__package__`` or the package's
    ``__name__``); ``domain`` defaults to its last part (``fairdeal_crazy_eights``). The catalog of
    a language is read once, when first asked; a language it has no catalog for (or English) gives
    the English as written. The words are chosen when they are asked for, so a game says them in
    the language of whoever shows them: nothing that goes into the log may be translated (a
    :class:`~fairdeal.Result`'s ``reason`` and ``standing``: mark them with :func:`N_`; front ends
    show them in their language with :meth:`again`).
    """

    def __init__(self, package: str, domain: str | None = None) -> None:
        self.package = package
        self.domain = domain or package.rpartition(".")[2]

    def __repr__(self) -> str:
        return f"Catalog({self.package!r}, {self.domain!r})"

    @property
    def folder(self) -> Path | None:
        """The package's ``locale`` folder (None when the package cannot be found)."""
        import importlib.util

        try:
            spec = importlib.util.find_spec(self.package)
        except (ImportError, ValueError):
            return None
        if spec is None or not spec.origin:
            return None
        return Path(spec.origin).parent / "locale"

    def catalog(self, lang: str | None = None) -> _gettext.NullTranslations:
        """The translations into ``lang`` (default: the language spoken)."""
        return _game_catalog(self.package, self.domain, lang or language())

    def gettext(self, message: str) -> str:
        """``message`` in the language spoken (as written, where the catalog has none)."""
        return self.catalog().gettext(message) if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` of a message with a plural, in the language spoken."""
        return self.catalog().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` as meant in ``context``, in the language spoken."""
        return self.catalog().pgettext(context, message)

    def again(self, text: str) -> str:
        """An English text this game wrote with a marked message (``N_("seat {seat} won")``
        formatted) in the language spoken: the message it was made from is found by its words, and
        its translation filled with the same values. ``text`` as it is when no message makes it."""
        return said_again(self.catalog(), text)


@cache
def _game_catalog(package: str, domain: str, lang: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _gettext.NullTranslations()
    folder = Catalog(package, domain).folder
    if folder is None:
        return _gettext.NullTranslations()
    return _gettext.translation(domain, folder, languages=[lang], fallback=True)


def said_again(catalog: _gettext.NullTranslations, text: str) -> str:
    """``text``, made in English from a message of ``catalog`` (formatted with named
    placeholders), in the catalog's language: :meth:`Catalog.again`."""
    if not text:
        return text
    direct = catalog.gettext(text)
    if direct != text:
        return direct
    for pattern, message in _patterns(catalog):
        found = pattern.fullmatch(text)
        if found is None:
            continue
        translated = catalog.gettext(message)
        try:
            return translated.format(**found.groupdict())
        except (KeyError, IndexError, ValueError):
            return text
    return text


@cache
def _patterns(catalog: _gettext.NullTranslations) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The messages of ``catalog`` with placeholders, as patterns that match their formatted
    English, the most specific (most fixed characters) first."""
    messages = getattr(catalog, "_catalog", {})
    found = []
    for key in messages:
        if not isinstance(key, str) or not key or "\x04" in key or not _PLACEHOLDER.search(key):
            continue
        parts, names, fixed, last = [], set(), 0, 0
        for m in _PLACEHOLDER.finditer(key):
            literal = key[last : m.start()].replace("{{", "{").replace("}}", "}")
            parts.append(re.escape(literal))
            fixed += len(literal)
            name = m.group(1)
            parts.append(f"(?P={name})" if name in names else f"(?P<{name}>.+?)")
            names.add(name)
            last = m.end()
        tail = key[last:].replace("{{", "{").replace("}}", "}")
        parts.append(re.escape(tail))
        found.append((fixed + len(tail), re.compile("".join(parts), re.DOTALL), key))
    found.sort(key=lambda item: -item[0])
    return tuple((pattern, key) for _fixed, pattern, key in found)


def game_catalog(game: object) -> Catalog | None:
    """The catalog a game declares (its class's ``catalog``), if any."""
    words = getattr(game, "catalog", None)
    return words if isinstance(words, Catalog) else None


def game_gettext(game: object, message: str) -> str:
    """A message a game declared (an option's help): in the game's catalog, else fairdeal's."""
    words = game_catalog(game)
    if words is not None:
        said = words.gettext(message)
        if said != message:
            return said
    return gettext(message)


def game_again(game: object, text: str) -> str:
    """What a game wrote into the log in English (a result's reason or standing), in the language
    spoken, by the game's catalog (:meth:`Catalog.again`)."""
    words = game_catalog(game)
    return words.again(text) if words is not None else text
