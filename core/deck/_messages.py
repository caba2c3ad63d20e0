"""The deck protocol's messages: frozen dataclasses; ``seat`` is always the sender.

Points are 33-byte compressed encodings, scalars 32 bytes, ciphertexts 66 bytes (``c1 || c2``).
A :class:`FinalReveal` is made of the same rows as :class:`Shares`, always public.
Nothing here is checked: :func:`fairdeal.core.deck.decode` checks the form and
:meth:`fairdeal.core.deck.DeckSeat.receive` the meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._shuffle_proof import ShuffleProof


@dataclass(frozen=True, slots=True)
class KeyShare:
    """A seat's public key ``H = x·G`` and its Schnorr proof ``(challenge, response)``."""

    seat: int
    public: bytes
    challenge: bytes
    response: bytes


#: One input of a shuffle round as the round's first pass lists it: the live token it takes in
#: (None in round 0) and, for a card that comes in face up as its trivial encryption, which card
#: (its name, e.g. ``10H#1``; None for a token that comes in as its ciphertext).
InputRef = tuple[int | None, str | None]


@dataclass(frozen=True, slots=True)
class ShufflePass:
    """One seat's pass of shuffle round ``round``: the new deck and its proof of shuffle.

    The round's first pass also lists the round's inputs (``inputs``), in deck order, so that
    the log says what the pass shuffled; every later pass takes the pass before it (None)."""

    seat: int
    round: int
    deck: tuple[bytes, ...]
    proof: ShuffleProof
    inputs: tuple[InputRef, ...] | None = None


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
class Handover:
    """The seat that alone can open ``token`` hands it over to seat ``to`` (log protocol 4).

    ``ciphertext`` is the token's old ciphertext re-masked, ``(c1 + s·G, c2 + s·H)`` for a secret
    ``s``; ``masks`` are ``s·H_i`` for every other active seat i (in seat order), so that their
    shares of the old ciphertext, already published, open the new one too; ``challenge`` and
    ``response`` prove that one ``s`` is behind all of them. ``share`` is the sender's own share
    of the new ciphertext, with its Chaum–Pedersen proof. Seat ``to``'s share is the one missing.
    """

    token: int
    to: int
    ciphertext: bytes
    masks: tuple[bytes, ...]
    challenge: bytes
    response: bytes
    share: ShareProof


@dataclass(frozen=True, slots=True)
class Shares:
    """Every share and hand-over a seat sends at once (one batch, or the card it plays)."""

    seat: int
    shares: tuple[ShareProof, ...]
    handovers: tuple[Handover, ...] = ()


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
class Leave:
    """A seat leaves for good: it publishes its secret key."""

    seat: int
    secret: bytes


@dataclass(frozen=True, slots=True)
class FinalReveal:
    """End of game: a seat's public shares of the cards only it has seen (or part of them)."""

    seat: int
    shares: tuple[ShareProof, ...]


@dataclass(frozen=True, slots=True)
class FindClaim:
    """A seat's answer when the rules look for who holds ``card`` (its name): its public share of
    the card's token if it holds it (``share``), else None (log protocol 4)."""

    seat: int
    card: str
    share: ShareProof | None


Message = KeyShare | ShufflePass | Shares | RandomCommit | RandomReveal | Leave | FinalReveal | FindClaim
