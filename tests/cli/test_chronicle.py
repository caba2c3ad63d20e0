"""What happened, as one seat tells it: moves in words with every card they showed, cards drawn."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import trio

from fairdeal import registry
from fairdeal.cli.chronicle import Chronicle
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session import Event
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import Session
from fairdeal.net.driver import BotAgent
from fairdeal.net.local import play_local


def _story(name: str, players: int, options: dict[str, object], seed: int) -> Chronicle:
    reg = registry.load()
    game = reg.game(name)
    config = game.config(players, options)
    master = SeededRng(seed)
    ids = [Identity.generate(master.fork(f"id-{i}")) for i in range(players)]
    seats = tuple(SeatInfo(f"Bot {i}", ids[i].public_key, "bot") for i in range(players))
    header = Header(master.fork("gid").bytes(16), name, name, "tests", "0", dict(config.options), seats)
    sessions = [Session(game, i, ids[i], master.fork(f"seat-{i}")) for i in range(players)]
    agents = [BotAgent(reg.bot(name).make(), random.Random(seed + i)) for i in range(players)]
    story = Chronicle(0)

    def observe(session: Session, events: Sequence[Event]) -> None:
        if session.seat == 0:
            story.update(session, events)

    trio.run(play_local, header, sessions, agents, observe)
    return story


def test_every_card_turned_in_snatch_is_named_once_revealed() -> None:
    story = _story("snatch", 4, {}, 3)
    turned = [e for e in story.entries if "turned the top card" in e.text]
    assert turned
    for entry in turned:
        assert len(entry.cards) == 1 and not entry.waiting, entry.words()
        assert re.search(r": (10|[2-9AJQK])[♣♦♥♠]$", entry.words())
    mine = [e for e in turned if e.mine]
    assert mine and all(e.text.startswith("You turned the top card of your pile") for e in mine)
    assert all(not re.search(r"\bseat \d", e.words()) for e in story.entries)  # seats are named


def test_cards_drawn_into_your_hand_are_named_to_you() -> None:
    story = _story("spite-malice", 2, {"target": 1}, 4)
    drawn = [e for e in story.entries if e.text.startswith("You drew ")]
    assert drawn
    assert all(re.fullmatch(r"You drew( (10|[2-9AJQK])[♣♦♥♠])+", e.text) for e in drawn)
    assert any("payoff" in e.text for e in story.entries if e.seat is None)  # payoff tops turned up
    done = story.completed(force=True)
    assert [e.serial for e in done] == sorted(e.serial for e in done)


def test_the_cards_your_own_move_drew_are_named_on_its_line() -> None:
    """Écarté: "You drew 2 cards: 9♣ Q♠", never that and then "You drew 9♣ Q♠" on a line of its own."""
    story = _story("ecarte", 2, {"target": 3}, 11)
    words = [e.words() for e in story.entries]
    exchanges = [w for w in words if re.match(r"You (drew \d cards?|discarded .* and drew \d cards?)", w)]
    assert exchanges, words
    card = r"(10|[2-9AJQK])[♣♦♥♠]"
    for w in exchanges:
        n = int(re.search(r"drew (\d)", w).group(1))  # type: ignore[union-attr]
        assert re.fullmatch(rf".*drew {n} cards?:( {card}){{{n}}}", w), w
    loose = [w for w in words if re.fullmatch(rf"You drew( {card})+", w)]
    assert len(loose) == len([w for w in words if w.startswith("turnup: ")]), words  # only the deals
    takes = [w for w in words if re.search(" takes? the trick", w)]
    assert takes and all(re.search(r"— (you take|Bot 1 takes) the trick", w) for w in takes)
    scored = [w for w in words if re.search(r"(you score|Bot 1 scores) \d points? for ", w)]
    assert scored, words


def test_the_point_of_a_turned_up_king_is_told() -> None:
    """Écarté: the dealer's point for a turned-up King, which no move makes, is a line of the story
    right after the turn-up, once for each King turned."""
    for seed in range(40):
        words = [e.words() for e in _story("ecarte", 2, {"target": 3}, seed).entries]
        kings = [i for i, w in enumerate(words) if re.fullmatch("turnup: K[♣♦♥♠]", w)]
        told = [i for i, w in enumerate(words) if w.endswith("scored 1 point for the turned-up King")]
        assert told == [i + 1 for i in kings], words
        if kings:
            assert re.fullmatch("(You|Bot 1) scored 1 point for the turned-up King", words[kings[0] + 1])
            return
    raise AssertionError("no King turned up in 40 games")


def test_cards_passed_to_a_seat_are_told_as_received_from_their_giver() -> None:
    import sys
    from pathlib import Path

    from fairdeal.testing import Stepper

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "hearts"))
    try:
        from fairdeal_hearts import Careful, Hearts
    finally:
        sys.path.pop(0)
    t = Stepper(Hearts(), 4, 7, {"target": 30}, policies=[Careful()] * 4)
    story = Chronicle(1)
    for _ in range(400):
        if t.watcher.view() is not None and t.watcher.view().passed and not t.seats[1].revealing():
            break
        data = t.placed(t.step() or b"")
        for s in t.everyone:
            events = s.receive(data)
            if s is t.seats[1]:
                story.update(s, events)
        t.log.append(data)
    said = [e.words() for e in story.entries]
    received = [w for w in said if w.startswith("You received")]
    assert len(received) == 1 and received[0].endswith("from Bot 0"), said
    assert len(received[0].split()) == 2 + 3 + 3  # three cards, from "Bot 0"
    assert [w for w in said if w.startswith("You drew")] == said[:1], said  # the deal, and no more


def test_the_story_says_who_took_each_trick_and_when_a_stack_goes_back() -> None:
    snatch = [e.words() for e in _story("snatch", 3, {}, 1).entries]
    taken = [w for w in snatch if w.endswith("took the trick")]
    assert len(taken) >= 3 and "You took the trick" in taken  # seat 0 tells its own as "You"
    spite = [e.words() for e in _story("spite-malice", 2, {"target": 1, "max_games": 1}, 0).entries]
    back = [w for w in spite if "went back into the stock" in w]
    assert back and back[0].startswith("The completed stack of centre ")
