"""Hearts' own tests: the conformance kit, what each seat can decrypt, and a whole game over the
real protocol that ``fairdeal verify`` finds fair."""

from __future__ import annotations

from fairdeal_hearts import Careful, Hearts

from fairdeal.testing import check_bot, check_game, check_privacy, play_with_protocol


def test_hearts_passes_the_conformance_kit() -> None:
    check_game(Hearts(), players=4, options={"target": 30}, seeds=range(6))
    check_game(Hearts(), players=4, options={"target": 30}, seeds=range(3), policies=[Careful()] * 4)


def test_its_bot_decides_on_its_own_view() -> None:
    assert check_bot(Hearts(), Careful, 4, range(3), {"target": 20}) > 0


def test_no_seat_reads_a_card_it_may_not_know() -> None:
    check_privacy(Hearts(), 4, {"target": 10}, seeds=range(2))


def test_a_whole_game_over_the_protocol_is_fair() -> None:
    game = play_with_protocol(Hearts(), 4, 3, {"target": 40}, [Careful()] * 4)
    report = game.verify(Hearts())
    assert report.verdict == "fair", report.findings
    assert report.result is not None and max(report.result.scores) >= 40
