"""The log as one seat has accepted it, and the checks that put an entry on it: that the host
placed the entry where it comes, that its author signed it for this game, and that the point of
the log it answers is a point of this log.

A break nobody's signature can be blamed for is a :class:`~.faults.DamagedEntry`; one the host's
own placement signatures prove is :class:`~.faults.HostCheated`; a false anchor is its author's.
"""

from __future__ import annotations

from ..deck import CheckedProofs
from ..errors import RemoteProtocolError
from ..identity import verify_signature
from .envelope import GENESIS, Envelope, placement_message
from .faults import DamagedEntry, HostCheated, header_host_key
from .header import HEADER, HOST, Header


class Chain:
    """The hash and the host's placement signature of every entry accepted so far (``hashes``,
    ``placements``, by sequence number), and the checks of the next. ``checked``: the signatures
    other seats of this process checked (local play)."""

    def __init__(self, checked: CheckedProofs | None = None) -> None:
        self.checked = checked
        self.hashes: list[bytes] = []
        self.placements: list[bytes] = []

    def accept(self, entry_hash: bytes, placed: bytes) -> None:
        """Record the entry the session accepted next: its hash and the host's placement signature."""
        self.hashes.append(entry_hash)
        self.placements.append(placed)

    def placement(
        self, held: Header | None, seq: int, last_hash: bytes, env: Envelope, data: bytes, peer: str | None
    ) -> Header:
        """That the host placed ``env`` here, as entry ``seq`` after the entry of hash ``last_hash``:
        its placement signature, its position, the entry it follows. Returns the game's header:
        ``held`` (the one this seat holds), or this entry's own for the first."""
        if held is None:
            if env.kind != HEADER or env.seat != HOST or env.seq != 0:
                raise DamagedEntry("not a game's log: its first entry is not the host's header", peer=peer)
            host, game_id = header_host_key(env.body), env.game_id
            if host is None or not self.placed_by(host, game_id, env) or not self.signed_by(host, env):
                raise DamagedEntry(
                    "not a game's log: its header is not signed and placed by the host it names", peer=peer
                )
            # Signed and placed by its host: whatever is wrong in it now is the host's.
            header = Header.from_body(env.game_id, env.body)
        else:
            header = held
            if not self.placed_by(header.seats[HOST].identity, header.game_id, env):
                raise DamagedEntry(
                    f"entry {seq} is not placed by the host (its placement signature is not the host's)",
                    peer=peer,
                )
            if env.seq != seq:
                raise DamagedEntry(
                    f"out of place: the host placed it as entry {env.seq}, and it comes as entry {seq} "
                    "(an entry is missing, repeated or moved)",
                    peer=peer,
                )
        if env.prev != last_hash and env.seq == 0:
            raise HostCheated(
                "the host placed its header after an entry (its prev is not zero)", (data,), peer=peer
            )
        if env.prev != last_hash:  # it follows an entry seq - 1 that the host placed too
            raise HostCheated(
                f"the host forked the log: it placed entry {env.seq} after another entry {env.seq - 1} "
                "than the one it placed in this log",
                (data,),
                peer=peer,
            )
        return header

    def author(self, header: Header, env: Envelope, data: bytes, peer: str | None) -> None:
        """That the entry the host placed is one its author signed, for this game: else the host
        placed what nobody wrote, and its placement signature proves it."""

        def placed_wrong(why: str) -> HostCheated:
            return HostCheated(f"the host placed as entry {env.seq} {why}", (data,), peer=peer)

        if env.game_id != header.game_id:
            raise placed_wrong("an entry of another game")
        if env.seat >= header.players:
            raise placed_wrong(f"an entry of seat {env.seat}, which this game does not have")
        # This seat's own entries too: a host that relays one altered must not get it accepted.
        if not self.signed_by(header.seats[env.seat].identity, env):
            raise placed_wrong(f"an entry that seat {env.seat} did not sign")

    def anchor(
        self, held: Header | None, header: Header, env: Envelope, data: bytes, peer: str | None
    ) -> None:
        """That the point of the log the author answers is a point of this log.

        The author quotes the host's placement signature of the entry it answers. Not the host's:
        the author signed a false anchor. The host's, for another entry than this log holds there:
        the host showed the author another log than this one (it forked the log), which its two
        signatures prove.
        """
        if held is None:
            if (env.anchor_seq, env.anchor, env.anchor_sig) != (0, GENESIS, bytes(64)):
                raise RemoteProtocolError("the header answers no entry: its anchor must be empty", seat=HOST)
            return
        if not self.holds(
            header.seats[HOST].identity,
            env.anchor_sig,
            placement_message(header.game_id, env.anchor_seq, env.anchor),
        ):
            raise RemoteProtocolError(
                f"{env.kind} answers an entry the host never placed (the placement signature it quotes "
                "is not the host's)",
                seat=env.seat,
            )
        if env.anchor_seq >= env.seq:
            raise HostCheated(
                f"the host placed as entry {env.seq} an entry that answers entry {env.anchor_seq}, "
                "which the host placed too: it showed its author another log",
                (data,),
                peer=peer,
            )
        if self.hashes[env.anchor_seq] != env.anchor:
            raise HostCheated(
                f"the host forked the log: it placed two different entries as entry {env.anchor_seq}, "
                f"this log's and the one seat {env.seat} answers in entry {env.seq}",
                (data,),
                peer=peer,
            )

    def signed_by(self, public_key: bytes, env: Envelope) -> bool:
        """Whether ``public_key`` signed ``env`` as its author."""
        return self.holds(public_key, env.sig, env.signed_part())

    def placed_by(self, host_key: bytes, game_id: bytes, env: Envelope) -> bool:
        """Whether the host's placement signature of ``env`` holds in the log of ``game_id``."""
        return self.holds(host_key, env.placed, placement_message(game_id, env.seq, env.hash(game_id)))

    def holds(self, public_key: bytes, sig: bytes, message: bytes) -> bool:
        """Whether ``sig`` is ``public_key``'s signature of ``message``: checked once per process
        when seats share ``checked`` (every message is domain-separated, so one record serves all)."""
        if self.checked is None:
            return verify_signature(public_key, sig, message)
        parts = (public_key, message, sig)
        return self.checked.check("signature", parts, verify_signature, public_key, sig, message)


__all__ = ["Chain"]
