"""One seat's view of adjourning: who is asked, and what each vote reads as."""

from __future__ import annotations

from fairdeal.cli.adjourning import Adjourning


def test_a_player_is_asked_when_another_proposes_and_not_after_agreeing() -> None:
    sent: list[bool] = []
    a = Adjourning()
    a.ready(lambda agree: sent.append(agree) or True, 0)
    told = a.heard(1, "Bob", True, ("Ann",))
    assert told.startswith("Bob proposes to adjourn") and "Waiting for Ann" in told
    assert a.asking
    assert a.agree() and sent == [True]
    assert a.heard(0, "Ann", True, ()).startswith("You agree to adjourn")
    assert not a.asking


def test_a_watcher_hears_the_votes_but_is_never_asked() -> None:
    a = Adjourning()  # a watcher: never given a vote to send
    assert a.heard(1, "Bob", True, ("Ann",)).startswith("Bob proposes")
    assert a.open and not a.available
    assert not a.asking
    assert not a.agree() and not a.decline()


def test_a_decline_closes_the_proposal() -> None:
    a = Adjourning()
    a.ready(lambda agree: True, 0)
    a.heard(1, "Bob", True, ("Ann",))
    assert a.heard(1, "Bob", False, ()) == "Bob declines to adjourn: the game goes on."
    assert not a.open and not a.asking
