"""``--invite-file``: the code is the table's key (its secret lets anyone in), so the file that
holds it is its owner's alone from the moment it exists, as the seed file is."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.cli.netlines import write_atomically

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that takes nothing away: the mode the file has is the one it was created with."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_invite_file_is_private_from_its_creation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_umask: None
) -> None:
    seen: list[tuple[int, str]] = []
    replace = os.replace

    def spy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        seen.append((_mode(Path(src)), Path(src).read_text()))  # before it takes the name
        replace(src, dst)

    def no_chmod(*args: object, **kwargs: object) -> None:
        raise AssertionError("the mode is set when the file is made, not after")

    monkeypatch.setattr(os, "replace", spy)
    monkeypatch.setattr(os, "chmod", no_chmod)
    monkeypatch.setattr(os, "fchmod", no_chmod)
    code = tmp_path / "code.txt"
    write_atomically(code, "fd2-secret-code\n")
    assert seen == [(0o600, "fd2-secret-code\n")]
    assert _mode(code) == 0o600 and code.read_text() == "fd2-secret-code\n"
    assert [p.name for p in tmp_path.iterdir()] == ["code.txt"]


def test_an_invite_file_readable_by_others_is_replaced_by_a_private_one(
    tmp_path: Path, open_umask: None
) -> None:
    code = tmp_path / "code.txt"
    code.write_text("old\n")
    code.chmod(0o644)
    write_atomically(code, "new\n")
    assert _mode(code) == 0o600 and code.read_text() == "new\n"


def test_a_stale_temporary_file_or_link_is_not_written_through(tmp_path: Path) -> None:
    """What a crashed run, or someone else, left at the temporary name is replaced, not followed."""
    code = tmp_path / "code.txt"
    target = tmp_path / "elsewhere"
    target.write_text("keep\n")
    (tmp_path / f".code.txt.{os.getpid()}.tmp").symlink_to(target)
    write_atomically(code, "new\n")
    assert target.read_text() == "keep\n"
    assert code.read_text() == "new\n" and not code.is_symlink() and _mode(code) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["code.txt", "elsewhere"]


def test_line_mode_says_when_the_invite_file_cannot_be_written(tmp_path: Path) -> None:
    """The code is on the screen all the same: one line says the file could not be written."""
    import io

    from fairdeal.cli.console import UI
    from fairdeal.cli.netlines import LineReport
    from fairdeal.core.identity import Identity
    from fairdeal.net import events as ev
    from fairdeal.net.invite import Endpoint, Invite

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = io.StringIO()
    report = LineReport(UI(plain=True, file=out, status=False), invite_file=blocker / "code.txt")
    invite = Invite(Identity.from_seed(b"h" * 32).fingerprint, bytes(16), (Endpoint("127.0.0.1", 4000),))
    report(ev.Listening("fd2-the-code", invite, ("127.0.0.1:4000",)))
    text = out.getvalue()
    assert "fd2-the-code" in text
    assert f"(could not write it to {blocker / 'code.txt'}: Not a directory)" in text


class _Screen:
    """What NetShow touches of the full-screen table while the host waits in its lobby."""

    def __init__(self) -> None:
        self.lobby_lines: list[str] = []
        self.waiting_text = ""
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)

    def schedule_refresh(self, new_turn: bool = False) -> None:
        pass


@pytest.mark.parametrize("writable", [True, False])
def test_the_full_screen_lobby_says_where_the_code_is_written(tmp_path: Path, writable: bool) -> None:
    from fairdeal.cli.tui.netshow import NetShow
    from fairdeal.core.identity import Identity
    from fairdeal.net import events as ev
    from fairdeal.net.invite import Endpoint, Invite

    folder = tmp_path / ("folder" if writable else "a-file")
    if not writable:
        folder.write_text("")
    code = folder / "code.txt"
    show = NetShow(code, write_atomically)
    screen = _Screen()
    invite = Invite(Identity.from_seed(b"h" * 32).fingerprint, bytes(16), (Endpoint("127.0.0.1", 4000),))
    show.show(ev.Listening("fd2-the-code", invite, ("127.0.0.1:4000",)), screen)  # type: ignore[arg-type]
    assert "fd2-the-code" in screen.lobby_lines
    if writable:
        assert f"(The code is also in {code}.)" in screen.lobby_lines and _mode(code) == 0o600
    else:
        assert f"(Could not write the code to {code}: Not a directory.)" in screen.lobby_lines
