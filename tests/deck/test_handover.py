"""Hand-overs (docs/protocol.md 10.4.1): a card one seat alone can open goes to another seat only.

A card opened to seat 1 is opened to seat 2: seat 1 re-masks it for seat 2 with a proof that it is
the same card. Then seat 2 reads it, seat 1 still knows it, and seat 0, an observer and the log
cannot read it — where the protocol before published seat 1's share and opened it to all. Every
way a hand-over can be forged is refused, naming its author, and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import DeckSeat, Shares
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import LocalProtocolError


def _table(kit: SimpleNamespace, players: int = 3) -> Any:
    t = kit.Table(players, seed=4, keys=False)
    watcher = DeckSeat.observer(t.game_id, players)
    t.observers.append(watcher)
    t.pump()
    tokens = t.start(kit.deck_of(32))
    token = tokens[-1]
    t.all(lambda s: s.request([Reveal(token, 1)]))
    t.pump()
    assert t.seats[1].card(token) is not None and t.seats[0].card(token) is None
    return t, token


def _can_open(t: Any, token: int, seat: int) -> bool:
    """Whether ``seat`` can put together every share of ``token``'s current ciphertext from what the
    log published and its own secret."""
    s = t.seats[seat]
    return not [m for m in s.missing_shares(token) if m != seat]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_card_handed_over_opens_to_its_recipient_alone(kit: SimpleNamespace, players: int) -> None:
    t, token = _table(kit, players)
    truth = t.oracle()[token]
    before = t.seats[0].ciphertext(token)
    to = 2 % players  # with two seats, seat 0
    t.all(lambda s: s.request([Reveal(token, to)]))
    assert t.seats[1].owed_handovers() == [token]
    assert [s for s in range(players) if t.seats[s].owed_shares(s)] == []  # nobody else owes anything
    t.pump()
    assert t.seats[0].ciphertext(token) != before
    assert t.seats[to].card(token) == truth and t.seats[1].card(token) == truth
    for s in range(players):
        if s not in (1, to):
            assert t.seats[s].card(token) is None and not _can_open(t, token, s)
    assert t.observers[-1].card(token) is None and t.observers[-1].missing_shares(token) == [to]
    assert token not in t.observers[-1].revealed_cards()


def test_the_recipient_plays_it_and_the_final_reveal_opens_it_to_all(kit: SimpleNamespace) -> None:
    t, token = _table(kit)
    truth = t.oracle()[token]
    t.all(lambda s: s.request([Reveal(token, 2)]))
    t.pump()
    t.all(lambda s: s.request([Reveal(token, None)]))  # seat 2 plays it: only its share is owed
    assert [s.seat for s in t.seats if s.owed_shares(s.seat)] == [2]
    t.pump()
    assert {s.card(token) for s in [*t.seats, *t.observers]} == {truth}


def test_a_card_handed_on_again_stays_closed_to_those_who_never_saw_it(kit: SimpleNamespace) -> None:
    t, token = _table(kit, 4)
    truth = t.oracle()[token]
    for to, holder in ((2, 1), (3, 2), (1, 3)):  # around the table, back to where it started
        t.all(lambda s, to=to: s.request([Reveal(token, to)]))
        assert t.seats[holder].owed_handovers() == [token]
        t.pump()
        assert t.seats[to].card(token) == truth
    assert t.seats[0].card(token) is None and not _can_open(t, token, 0)
    t.final_reveal()
    assert {s.card(token) for s in [*t.seats, *t.observers]} == {truth}


def test_a_seat_that_leaves_opens_every_card_it_was_ever_opened_to(kit: SimpleNamespace) -> None:
    t, token = _table(kit)
    truth = t.oracle()[token]
    t.all(lambda s: s.request([Reveal(token, 2)]))
    t.pump()
    t.leave(1)  # its secret opens the ciphertext the card had when it was opened to it
    assert {s.card(token) for s in [t.seats[0], *t.observers]} == {truth}
    assert token in t.observers[-1].revealed_cards()


def _handover(t: Any, token: int, to: int = 2) -> Shares:
    t.all(lambda s: s.request([Reveal(token, to)]))
    msg = t.seats[1].due_message()
    assert isinstance(msg, Shares) and len(msg.handovers) == 1
    return msg


def test_a_forged_handover_is_refused_naming_its_author(kit: SimpleNamespace) -> None:
    t, token = _table(kit)
    honest = _handover(t, token)
    h = honest.handovers[0]
    other = g.base(g.hash_scalar(b"another point"))

    def forged(**changes: Any) -> Shares:
        return replace(honest, handovers=(replace(h, **changes),))

    t.refused_everywhere(forged(masks=(other,)), 1, "its proof does not verify")
    t.refused_everywhere(forged(masks=()), 1, "has 0 masks")
    t.refused_everywhere(forged(masks=(h.masks[0], h.masks[0])), 1, "has 2 masks")
    t.refused_everywhere(forged(ciphertext=h.ciphertext[:33] + other), 1, "its proof does not verify")
    t.refused_everywhere(forged(ciphertext=t.seats[0].ciphertext(token)), 1, "does not give a new ciphertext")
    t.refused_everywhere(forged(share=replace(h.share, share=other)), 1, "share of the new ciphertext")
    t.refused_everywhere(forged(to=0, share=replace(h.share, to=0)), 1, "owed to seat 2")
    t.refused_everywhere(forged(challenge=h.response), 1, "its proof does not verify")
    t.send(honest)  # the honest one is still taken
    t.refused_everywhere(honest, 1, "nothing is owed")  # but not twice


def test_only_the_seat_that_alone_can_open_it_hands_it_over(kit: SimpleNamespace) -> None:
    t, token = _table(kit)
    honest = _handover(t, token)
    stolen = replace(honest, seat=0)  # seat 0 sends seat 1's hand-over as its own
    t.refused_everywhere(stolen, 0, "out of turn", direct=True)
    with pytest.raises(LocalProtocolError, match="owes no shares"):
        t.seats[0].shares_message()


def test_a_game_of_log_protocol_3_opens_the_card_with_the_holders_share(kit: SimpleNamespace) -> None:
    """Protocol 3, replayed as it was: no hand-over, seat 1's share published (every reader can open
    the card then); a hand-over in such a game is refused."""
    from fairdeal.core.rng import SeededRng

    seats = [DeckSeat(b"test-game", i, 3, SeededRng(4).fork(f"seat-{i}"), protocol=3) for i in range(3)]
    t = kit.Table(3, seed=4, keys=False)
    t.seats = seats
    t.pump()
    token = t.start(kit.deck_of(32))[-1]
    t.all(lambda s: s.request([Reveal(token, 1)]))
    t.pump()
    t.all(lambda s: s.request([Reveal(token, 2)]))
    assert t.seats[1].owed_shares() == [token] and t.seats[1].owed_handovers() == []
    t.pump()
    assert _can_open(t, token, 0)  # the leak protocol 4 closes
