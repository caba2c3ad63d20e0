"""A header names only strict identity keys (docs/protocol.md 8.2): a seat whose key is of small
order, not canonical or not a point is refused, blaming the host (seat 0), who wrote the header.

Issue 41: a joiner sat with the neutral point as its identity; one 64-byte signature (R = B,
S = 1) verified every entry it "signed", and the whole game verified fair.
"""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairdeal import registry
from fairdeal.core import identity
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.session import header as header_module
from fairdeal.core.session.header import PROTOCOL, Header
from fairdeal.core.session.verify import verify_log
from fairdeal.testing import play_with_protocol

P = 2**255 - 19
NEUTRAL = (1).to_bytes(32, "little")
BASE = (4 * pow(5, P - 2, P) % P).to_bytes(32, "little")
FORGED = BASE + (1).to_bytes(32, "little")  # [1]B - [k]O = B: "a signature" of every message
HOST = Identity.from_seed(b"h" * 32)

BAD_KEYS = {
    "the neutral point": (NEUTRAL, "of small order"),
    "a point of order 8": (
        bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
        "of small order",
    ),
    "the neutral point, written y = p + 1": ((P + 1).to_bytes(32, "little"), "not canonical"),
    "a y of no point": ((2).to_bytes(32, "little"), "not a point of the curve"),
}


def _body(joiner: bytes) -> dict[str, Any]:
    seats = [
        {"name": "Host", "identity": HOST.public_key, "kind": "human"},
        {"name": "Joiner", "identity": joiner, "kind": "human"},
    ]
    return {"protocol": PROTOCOL, "game": "ecarte", "plugin": "ecarte", "distribution": "fairdeal",
            "version": "1", "options": {}, "seats": seats, "extra": {}}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_KEYS))
def test_a_header_naming_a_key_that_is_not_strict_is_the_hosts_fault(case: str) -> None:
    key, words = BAD_KEYS[case]
    with pytest.raises(RemoteProtocolError, match=f"seat 1's identity .*{words}") as info:
        Header.from_body(bytes(16), _body(key))
    assert info.value.seat == 0


def test_a_header_naming_real_keys_is_taken() -> None:
    joiner = Identity.from_seed(b"j" * 32).public_key
    assert Header.from_body(bytes(16), _body(joiner)).seats[1].identity == joiner


class _Neutral(Identity):
    """A joiner whose identity is the neutral point, "signing" with one fixed signature."""

    @property  # type: ignore[override]
    def public_key(self) -> bytes:
        return NEUTRAL

    def sign(self, message: bytes) -> bytes:
        return FORGED


def _neutral_joiner_game(monkeypatch: pytest.MonkeyPatch) -> bytes:
    """The log of an Écarté game whose seat 1 is the neutral point, played with the strict checks
    switched off (as before issue 41)."""
    real = Identity.generate
    made: list[int] = []

    def generate(rng: Any = None) -> Identity:
        made.append(1)
        return _Neutral(Ed25519PrivateKey.generate()) if len(made) == 2 else real(rng)

    with monkeypatch.context() as m:
        m.setattr(Identity, "generate", staticmethod(generate))
        m.setattr(identity, "key_problem", lambda key: None)
        m.setattr(header_module, "key_problem", lambda key: None, raising=False)
        game = registry.load().game("ecarte")
        played = play_with_protocol(game, 2, 5)
        assert played.verify(game).verdict == "fair"  # what every check said before issue 41
    return played.log


def test_a_log_with_a_neutral_joiner_is_cheating_by_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    log = _neutral_joiner_game(monkeypatch)
    report = verify_log(log, registry.load().game)
    assert report.verdict == "cheating"
    [finding] = report.findings
    assert (finding.seat, finding.entry) == (0, 0)
    assert "seat 1's identity" in finding.reason and "small order" in finding.reason


def test_a_header_whose_host_is_the_neutral_point_is_signed_by_nobody() -> None:
    """A host key of small order makes no signature: the header is damaged (check 2 of 8.4)."""
    from fairdeal.core.session.envelope import FORMAT_VERSION, GENESIS, Envelope
    from fairdeal.core.session.header import HEADER
    from fairdeal.core.session.logfile import MAGIC, record

    host = _Neutral(Ed25519PrivateKey.generate())
    body = _body(Identity.from_seed(b"j" * 32).public_key)
    body["seats"][0]["identity"] = NEUTRAL
    entry = Envelope(FORMAT_VERSION, bytes(16), 0, HEADER, body).signed(host).place(0, GENESIS, host).encode()
    report = verify_log(MAGIC + record(entry), registry.load().game)
    assert report.verdict == "damaged"
    assert "not signed and placed by the host it names" in report.findings[0].reason
