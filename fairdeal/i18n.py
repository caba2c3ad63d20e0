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
    """The translations of ``domain`` into ``lang``: its catalog, or none (English) if it has none."""
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(domain, LOCALE_DIR, languages=[lang], fallback=True)


def gettext(message: str) -> str:
    """``message`` in the language spoken (as it is, where the catalog has no translation)."""
    return catalog(language()).gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a message with a plural, as the catalog's plural rule picks it."""
    return catalog(language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """``message`` itself: marks a string for the catalog, to be translated where it is shown."""
    return message


_ = gettext
