"""The cryptographic deck protocol (mental poker), sans-I/O.

ElGamal over the prime-order subgroup of Ed25519 (libsodium through PyNaCl) under
the joint key ``H = ΣH_j`` of all seats, each ``H_j`` published with a Schnorr proof.
Cards map to points by hash-to-curve, bound to the game id; the deck starts as their
public encryption (public randomness hashed from game id, round and index); every
seat in turn re-randomises and permutes it and commits to what it did. A card is
opened with decryption shares ``x_j·c1``, each with a Chaum–Pedersen proof: a private
card by every other seat's share (its owner finishes alone), a public one by every
share not yet published. Every shuffle pass is replayed from its opening at the end
(the audit), which also lets every token be traced to its card.

Use: every seat (and any observer) runs a :class:`DeckSeat`, makes the same local calls
(``start``, ``reshuffle``, ``request``, ``begin_random``) at the same point of the log,
and applies every sequenced message with ``receive``; ``next_sender``/``waiting_on``
say who owes what, ``due_message`` builds this seat's. Messages travel as
``encode(msg) -> (kind, body)`` and ``decode(kind, seat, body)``.
:class:`CryptoDealer` runs every seat in one process behind the
:class:`~fairdeal.core.dealer.Dealer` interface.
"""

from ._dealer import CryptoDealer
from ._messages import (
    KeyShare,
    Leave,
    Message,
    Opening,
    PassOpening,
    RandomCommit,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
)
from ._seat import DeckSeat
from ._wire import KINDS, MAX_DECK, MAX_PLAYERS, decode, encode

__all__ = [
    "KINDS",
    "MAX_DECK",
    "MAX_PLAYERS",
    "CryptoDealer",
    "DeckSeat",
    "KeyShare",
    "Leave",
    "Message",
    "Opening",
    "PassOpening",
    "RandomCommit",
    "RandomReveal",
    "ShareProof",
    "Shares",
    "ShufflePass",
    "decode",
    "encode",
]
