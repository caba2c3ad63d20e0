"""The cryptographic deck protocol (mental poker), sans-I/O.

ElGamal over secp256k1 (libsecp256k1, bundled by btclib-secp256k1) under the joint
key ``H = ΣH_j`` of all seats, each ``H_j`` published with a Schnorr proof. Cards map
to points by hash-to-curve (RFC 9380), bound to the game id; the deck starts as their
public encryptions ``(G, M + H)``; every seat in turn re-randomises and permutes it and
proves in zero knowledge that it did exactly that, and every peer checks the proof when
the pass arrives. A card is opened with decryption shares ``x_j·c1``, each with a
Chaum–Pedersen proof: a private card by every other seat's share (its owner finishes
alone), a public one by every share not yet published; a card that one seat alone can open
goes to another seat by a hand-over (re-masked for it, proven the same card). At the end,
the final reveal opens to everyone every card that only one seat saw, so the game can be
replayed with every card any seat knew.

Use: every seat (and any observer) runs a :class:`DeckSeat`, makes the same local calls
(``start``, ``reshuffle``, ``request``, ``begin_random``, ``begin_leave``,
``begin_final_reveal``) at the same point of the log, and applies every sequenced
message with ``receive``; ``next_sender``/``waiting_on`` say who owes what,
``due_message`` builds this seat's. Messages travel as ``encode(msg) -> (kind, body)``
and ``decode(kind, seat, body)``. :class:`CryptoDealer` runs every seat in one process
behind the :class:`~fairdeal.core.dealer.Dealer` interface.
"""

from ._checked import CheckedProofs
from ._common import Obligation
from ._dealer import CryptoDealer
from ._messages import (
    FinalReveal,
    FindClaim,
    Handover,
    KeyShare,
    Leave,
    Message,
    RandomCommit,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
)
from ._seat import DeckSeat
from ._shuffle_proof import ShuffleProof
from ._shuffles import RoundRecord
from ._wire import KINDS, MAX_DECK, MAX_PLAYERS, PROTOCOL, PROTOCOLS, decode, encode

__all__ = [
    "KINDS",
    "MAX_DECK",
    "MAX_PLAYERS",
    "PROTOCOL",
    "PROTOCOLS",
    "CheckedProofs",
    "CryptoDealer",
    "DeckSeat",
    "FinalReveal",
    "FindClaim",
    "Handover",
    "KeyShare",
    "Leave",
    "Message",
    "Obligation",
    "RandomCommit",
    "RandomReveal",
    "RoundRecord",
    "ShareProof",
    "Shares",
    "ShufflePass",
    "ShuffleProof",
    "decode",
    "encode",
]
