"""Why a connection failed, in words people read: the one place operating-system errors
(``OSError`` and ``socket.gaierror`` codes) become words.

``os.strerror`` knows nothing of the name-lookup codes (it says "Unknown error -3" for a
failed lookup), and the bare C library words ("Connection refused") do not say what to do.
"""

from __future__ import annotations

import errno
import os
import socket

#: Name lookup (getaddrinfo) failures, by code.
_LOOKUP: dict[int, str] = {
    code: words
    for name, words in (
        ("EAI_AGAIN", "its address cannot be found (name lookup failed: no answer; is this machine online?)"),
        ("EAI_NONAME", "its address cannot be found (name lookup failed: no such name)"),
        ("EAI_NODATA", "its address cannot be found (name lookup failed: the name has no address)"),
        ("EAI_FAIL", "its address cannot be found (name lookup failed)"),
        ("EAI_ADDRFAMILY", "its address cannot be found (name lookup failed: no address of that kind)"),
        ("EAI_FAMILY", "its address cannot be found (name lookup failed: no address of that kind)"),
        ("EAI_SERVICE", "its port is not a port (name lookup failed)"),
    )
    if (code := getattr(socket, name, None)) is not None
}

#: Connection failures, by errno: what happened, then the system's own words.
_CONNECT: dict[int, str] = {
    errno.ECONNREFUSED: "nothing answers there (connection refused)",
    errno.ETIMEDOUT: "it did not answer (timed out)",
    errno.EHOSTUNREACH: "there is no way to it from here (host unreachable)",
    errno.ENETUNREACH: "there is no network route to it (network unreachable: is this machine online?)",
    errno.ECONNRESET: "the connection was cut (reset by the other side)",
    errno.ECONNABORTED: "the connection was cut (aborted)",
    errno.EPIPE: "the connection was cut (broken pipe)",
    errno.EADDRINUSE: "the address is in use already",
    errno.EADDRNOTAVAIL: "that address is not this machine's",
    errno.EACCES: "permission denied",
}


def os_words(exc: OSError) -> str | None:
    """The words for one operating-system error, or None if it carries no code or text."""
    if isinstance(exc, socket.gaierror):
        if exc.errno in _LOOKUP:
            return _LOOKUP[exc.errno]
        return f"its address cannot be found (name lookup failed: {exc.strerror or exc.errno})"
    if exc.errno in _CONNECT:
        return _CONNECT[exc.errno]
    if exc.strerror:
        return exc.strerror
    if exc.errno:
        text = os.strerror(exc.errno)
        return text if not text.startswith("Unknown error") else f"system error {exc.errno}"
    return None


def os_reason(exc: BaseException) -> str:
    """The first operating-system reason behind a connection failure, in words (looking through
    exception groups, causes and contexts); the exception's own text if there is none."""
    seen: list[BaseException] = [exc]
    while seen:
        e = seen.pop(0)
        if isinstance(e, OSError):
            words = os_words(e)
            if words is not None:
                return words
        if isinstance(e, BaseExceptionGroup):
            seen.extend(e.exceptions)
        if e.__cause__ is not None:
            seen.append(e.__cause__)
        if e.__context__ is not None and e.__context__ is not e.__cause__:
            seen.append(e.__context__)
    return str(exc) or type(exc).__name__


__all__ = ["os_reason", "os_words"]
