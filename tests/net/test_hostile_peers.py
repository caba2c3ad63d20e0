"""Cheating peers against the real ``fairdeal host`` and ``fairdeal join``, over loopback TCP.

* A guest that sends its final reveal mid-game (were it taken for the end of the game,
  every honest seat would open its hand to all) is refused and blamed; the host never
  reveals.
* A host that does the same is refused by a real joiner, which reveals nothing.
* A host that relays something else in place of a guest's own entry is caught by the
  real joiner: it stops, keeps the evidence beside its log, and its log never blames it.
* A guest that reneges (unseen at the table) is named by the real host at the end.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
import trio

from fairdeal import Move, registry
from fairdeal.core.deck import DeckSeat, FinalReveal
from fairdeal.core.deck import encode as encode_deck
from fairdeal.core.identity import Identity
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope, decode_envelope
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import verify_log
from fairdeal.net import GuardedSession, GuestSession, HostPlan, host_game, hosting, wire
from fairdeal.net import events as ev
from fairdeal.net.driver import BotAgent, PeerGone, run_guest
from fairdeal.net.invite import Invite, decode_invite
from fairdeal.net.link import NetLink
from fairdeal.storage import LogWriter

from .peers import LIMIT, Peer, host, join, sit_down


def _host(tmp: Path, *args: str) -> tuple[Peer, Invite]:
    peer, code = host(tmp, *args)
    return peer, decode_invite(code)


def _kinds(log: Path) -> list[tuple[int, str]]:
    return [(e.seat, e.kind) for e in map(decode_envelope, parse_log(log.read_bytes()).entries)]


def _reg() -> Any:
    return registry.load()


# -- a guest of our own making, against the real host -----------------------------------------------------
async def _guest(invite: Invite, make: Any, agent: Any) -> Session:
    me, s, welcome = await sit_down(invite)
    session = make(welcome, me)
    link = NetLink(s, role="guest", peer="the host")
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            await n.start(link.run)
            with contextlib.suppress(PeerGone):
                await run_guest(session, agent, link, None)
            await link.aclose("bye")
    return session


def early_final_reveal(deck: DeckSeat) -> FinalReveal:
    """What this seat's final reveal would be now (its private cards opened to all), built
    as if its own rules had ended the game while it still owes shares."""
    trial = deck.copy()
    trial._reveals.owed.clear()
    trial.begin_final_reveal()
    return trial.final_reveal_message()


class EarlyRevealer(GuestSession):
    """A guest that sends its final reveal while it owes decryption shares mid-game."""

    sent_at: int | None = None

    def due(self) -> bytes | None:
        # Any point where this seat owes shares, alone or beside the host (waiting() names only
        # the first seat that owes, and which comes first depends on the host's bot's play).
        owes_shares = any(w.seat == self.seat and "shares" in w.what for w in self.owing())
        if self.sent_at is None and owes_shares and self.seq > 12 and self.deck.final_tokens():
            self.sent_at = self.seq
            kind, body = encode_deck(early_final_reveal(self.deck))
            return self._envelope(kind, body)
        return super().due()


def test_a_guest_that_reveals_early_is_blamed_and_nobody_reveals(tmp_path: Path) -> None:
    host, invite = _host(tmp_path, "ecarte", "--option", "target=5")
    reg = _reg()

    def make(w: wire.Welcome, me: Identity) -> Session:
        return EarlyRevealer(reg.game(w.game), w.seat, me, welcome=w, name="Mallory", kind="bot")

    agent = BotAgent(reg.bot("ecarte").make(), random.Random(1))
    session = trio.run(_guest, invite, make, agent)
    assert isinstance(session, EarlyRevealer) and session.sent_at is not None
    assert host.wait() == 1, host.err
    result = host.result()
    assert result["aborted"]["blame"] == 1 and "deck.final-reveal refused" in result["aborted"]["reason"]
    assert result["verdict"] == "undecided"
    # Nobody revealed a hand: not the host, and the early reveal was never accepted.
    assert all(kind != "deck.final-reveal" for _, kind in _kinds(host.log))
    assert session.aborted is not None and session.aborted.blame == 1
    report = verify_log(host.log.read_bytes(), reg.game)
    assert report.verdict == "undecided" and report.findings[0].seat == 1


def test_a_renege_nobody_saw_is_named_by_the_host_at_the_end(tmp_path: Path, renegade: Any) -> None:
    def make(w: wire.Welcome, me: Identity) -> Session:
        return GuestSession(renegade.own_rules(), w.seat, me, welcome=w, name="Mallory", kind="bot")

    # About one game to 7 in 60 never offers a renege nobody can see: another game then (at most 3).
    for attempt in range(3):
        (tmp_path / str(attempt)).mkdir()
        host, invite = _host(tmp_path / str(attempt), "ecarte", "--option", "target=7")
        trio.run(_guest, invite, make, BotAgent(renegade, random.Random(2 + attempt)))
        assert host.wait() == 0, host.err
        if renegade.cheated:
            break
    assert renegade.cheated
    result = host.result()
    assert result["verdict"] == "cheating", result
    assert any(f.startswith("seat 1 at entry ") and "illegal move" in f for f in result["findings"]), result
    report = verify_log(host.log.read_bytes(), _reg().game)
    assert report.verdict == "cheating" and report.findings[0].seat == 1


# -- a host of our own making, against the real joiner --------------------------------------------------
class _Listening:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.guest: Peer | None = None
        self.outcome: Any = None

    def __call__(self, event: ev.NetEvent) -> None:
        if isinstance(event, ev.Listening):
            self.guest = join(self.tmp, "guest", event.code)


def _evil_host(tmp: Path, monkeypatch: pytest.MonkeyPatch, agent: Any = None, on_start: Any = None) -> Peer:
    """Host an Écarté game in this process (with whatever the test patched in) for a real joiner."""
    reg = _reg()
    game = reg.game("ecarte")
    plan = HostPlan(
        game,
        "ecarte",
        "fairdeal",
        "0",
        {"target": 5},
        2,
        Identity.generate(),
        "Eve",
        "bot",
        agent or BotAgent(reg.bot("ecarte").make(), random.Random(3)),
        bind="127.0.0.1",
        open_log=lambda header: LogWriter(tmp / "evil-host.fdlog"),
        grace=0,  # a guest that goes is blamed at once: these tests are about what comes before
    )
    plan.timeouts.obligation = 5
    obs = _Listening(tmp)

    async def main() -> None:
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                if on_start is not None:
                    n.start_soon(on_start, obs)
                obs.outcome = await host_game(plan, obs)
                n.cancel_scope.cancel()

    trio.run(main)
    assert obs.guest is not None
    return obs.guest


def test_a_host_that_reveals_early_is_refused_by_the_joiner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class EarlyHost(GuardedSession):
        """Sends its final reveal while it owes shares, and relays it without checking it itself."""

        evil: bytes | None = None

        def due(self) -> bytes | None:
            w = self.waiting()
            if (
                self.evil is None
                and w is not None
                and w.seat == 0
                and "shares" in w.what
                and self.seq > 12
                and self.deck.final_tokens()
            ):
                kind, body = encode_deck(early_final_reveal(self.deck))
                self.evil = self._envelope(kind, body)
                return self.evil
            return super().due()

        def receive(self, data: bytes, *, peer: str | None = None) -> list[Event]:
            if data == self.evil:
                return [EntryAccepted(self.seq, 0, "deck.final-reveal", data)]
            return super().receive(data, peer=peer)

    monkeypatch.setattr(hosting, "GuardedSession", EarlyHost)
    guest = _evil_host(tmp_path, monkeypatch)
    assert guest.wait() == 1, guest.err
    result = guest.result()
    assert "deck.final-reveal refused" in (result["error"] or ""), result
    assert result["verdict"] == "undecided"
    # The joiner revealed nothing, and its log does not hold the host's early reveal.
    assert all(kind != "deck.final-reveal" for _, kind in _kinds(guest.log))
    report = verify_log(guest.log.read_bytes(), _reg().game)
    assert report.verdict == "undecided" and all(f.seat != 1 for f in report.findings)


class _Altering:
    """The host's link to a guest, relaying a host-signed resignation in place of the guest's move."""

    def __init__(self, link: Any, identity: Identity) -> None:
        self.link, self.identity = link, identity
        self.done = False

    async def send_entry(self, data: bytes) -> None:
        env = decode_envelope(data)
        if not self.done and env.seat == 1 and env.kind == "move":
            self.done = True
            point = (env.anchor_seq, env.anchor, env.anchor_sig)
            forged = Envelope(FORMAT_VERSION, env.game_id, 1, "resign", {}, *point).signed(self.identity)
            data = forged.place(env.seq, env.prev, self.identity).encode()  # placed by the host, as it is
        await self.link.send_entry(data)

    async def receive_entry(self) -> bytes:
        return bytes(await self.link.receive_entry())


def test_a_host_that_alters_a_guests_entry_is_caught_with_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = hosting.run_host

    async def altering_run_host(session: Session, header: Any, agent: Any, links: Any, *rest: Any) -> Any:
        assert session.identity is not None
        links.links = {s: _Altering(link, session.identity) for s, link in links.links.items()}
        return await real(session, header, agent, links, *rest)

    monkeypatch.setattr(hosting, "run_host", altering_run_host)
    guest = _evil_host(tmp_path, monkeypatch)
    assert guest.wait() == 1, guest.err
    result = guest.result()
    assert "the host altered your entry" in (result["error"] or ""), result
    assert result["winner"] is None and result["aborted"] is None and result["verdict"] == "undecided"
    # The evidence: what the guest signed, and what the host relayed in its place.
    evidence = json.loads(Path(f"{guest.log}.evidence.json").read_text())
    sent = decode_envelope(bytes.fromhex(evidence["sent"]))
    relayed = decode_envelope(bytes.fromhex(evidence["relayed_instead"]))
    header = decode_envelope(parse_log(guest.log.read_bytes()).entries[0])
    identity = header.body["seats"][1]["identity"]
    assert sent.seat == relayed.seat == 1 and sent.anchor == relayed.anchor
    assert sent.kind == "move" and relayed.kind == "resign"
    assert sent.verify(identity) and not relayed.verify(identity)
    # The guest's log holds only what it accepted, and verify does not blame it.
    entries = parse_log(guest.log.read_bytes()).entries
    assert all(decode_envelope(e).kind != "resign" for e in entries)
    report = verify_log(guest.log.read_bytes(), _reg().game)
    assert report.verdict == "undecided" and all(f.seat != 1 for f in report.findings)
    # With the evidence, anyone can see the host placed what seat 1 never signed.
    evidence_file = Path(f"{guest.log}.evidence.json")
    proven = verify_log(guest.log.read_bytes(), _reg().game, [evidence_file.read_bytes()])
    assert proven.verdict == "cheating" and proven.findings[0].seat == 0, proven.findings
    assert "did not sign" in proven.findings[0].reason


class _Thinking:
    """A host's player who takes their time; says when it is asked, and when it was cancelled."""

    def __init__(self) -> None:
        self.asked = trio.Event()
        self.cancelled = False

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        self.asked.set()
        try:
            await trio.sleep_forever()
        finally:
            self.cancelled = True
        return None  # pragma: no cover


def test_the_host_hears_at_once_that_a_joiner_left_while_its_player_thinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    thinking = _Thinking()

    async def kill_when_asked(obs: _Listening) -> None:
        await thinking.asked.wait()
        assert obs.guest is not None
        obs.guest.proc.kill()

    guest = _evil_host(tmp_path, monkeypatch, agent=thinking, on_start=kill_when_asked)
    guest.wait()
    # A decision has no time limit here: only the closed connection can have ended the game,
    # and it did so while the host's player was still thinking (the decision was cancelled).
    assert thinking.cancelled
    report = verify_log((tmp_path / "evil-host.fdlog").read_bytes(), _reg().game)
    assert report.verdict == "undecided" and report.findings[0].seat == 1
    assert "left the game" in report.findings[0].reason
