"""The deck protocol's messages: frozen dataclasses; ``seat`` is always the sender.

Points and scalars are 32-byte encodings, ciphertexts 64 bytes (``c1 || c2``).
Nothing here is checked: :func:`fairdeal.core.deck.decode` checks the form and
:meth:`fairdeal.core.deck.DeckSeat.receive` the meaning.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KeyShare:
    """A seat's public key ``H = x·G`` and its Schnorr proof ``(challenge, response)``."""

    seat: int
    public: bytes
    challenge: bytes
    response: bytes


@dataclass(frozen=True, slots=True)
class ShufflePass:
    """One seat's pass of shuffle round ``round``: the new deck and its commitment."""

    seat: int
    round: int
    deck: tuple[bytes, ...]
    commitment: bytes


@dataclass(frozen=True, slots=True)
class ShareProof:
    """A decryption share ``x·c1`` of ``token`` with its Chaum–Pedersen proof.

    ``to`` is the purpose bound into the proof: the seat the card opens to, or None when
    it opens to everyone (so a verifier needs no game rules to check the proof).
    """

    token: int
    share: bytes
    challenge: bytes
    response: bytes
    to: int | None = None


@dataclass(frozen=True, slots=True)
class Shares:
    """Every share a seat sends at once (one batch, or the card it plays)."""

    seat: int
    shares: tuple[ShareProof, ...]


@dataclass(frozen=True, slots=True)
class RandomCommit:
    """Commitment to a seat's contribution to joint random choice ``index`` in ``range(n)``."""

    seat: int
    index: int
    commitment: bytes
    n: int


@dataclass(frozen=True, slots=True)
class RandomReveal:
    """The committed 32-byte contribution to joint random choice ``index``."""

    seat: int
    index: int
    value: bytes


@dataclass(frozen=True, slots=True)
class PassOpening:
    """What a seat committed to in round ``round``: ``deck_out[j] = rerandomise(deck_in[permutation[j]],
    scalars[j])``, and the commitment's salt."""

    round: int
    permutation: tuple[int, ...]
    scalars: tuple[bytes, ...]
    salt: bytes


@dataclass(frozen=True, slots=True)
class Leave:
    """A seat leaves for good: it publishes its secret key and the openings of its passes."""

    seat: int
    secret: bytes
    openings: tuple[PassOpening, ...]


@dataclass(frozen=True, slots=True)
class Opening:
    """End-of-game audit: the openings of every pass the seat made, in round order."""

    seat: int
    openings: tuple[PassOpening, ...]


Message = KeyShare | ShufflePass | Shares | RandomCommit | RandomReveal | Leave | Opening
