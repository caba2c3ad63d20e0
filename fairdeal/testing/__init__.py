"""The plugin conformance kit: run it on your game before you publish it.

    from fairdeal.testing import check_game
    def test_my_game_conforms():
        check_game(MyGame(), players=[2, 4], seeds=range(30))

It plays random legal games with the plain dealer and checks, after every event:

* the game declares what it must: rules text, a deck in the canonical order (copy 0
  before copy 1, suits C D H S, each suit's ranks in one order), a hidden deck zone;
* every seat's view, the public view and the all-seeing view agree on what happens
  next (the rules decide only on what everyone can see), and every view accepts the
  moves made (a card it does not know never forbids a move);
* no view holds the identity of a card that seat may not see, in the table or
  elsewhere in the state, or in what ``table_view`` draws;
* ``table_view`` describes the table it was given: every pile's cards are the cards
  of its tokens as that view knows them, no token shows twice, seats are real, and
  every legal move can be picked on the mover's table (its card shows in a pile, its
  target is a pile);
* no move outside ``legal_moves`` is accepted, and ``apply`` leaves its input alone;
* every legal move has words (``describe``, ``narrate``);
* every legal move can be sent as it is (its words are short plain text: no control
  characters, no line breaks);
* the same seed gives the same game, every game ends within ``game.max_moves``,
  and the result is well formed;
* what the game's ``rules_out`` says of hidden cards is true of the real deal, and a world
  sampled from a seat's view (:func:`fairdeal.core.worlds.sample_world`) never contradicts
  that view (:func:`check_world`);
* the search hooks say what they must: ``alike`` gives each legal move one kind, and
  ``outlook`` and ``estimate`` give each seat a chance in [0, 1], summing to at most 1.

:func:`check_bot` checks a bot: its choice depends only on its view (the same view with other
hidden cards behind it, and the same random stream, give the same move), and it is legal.

A failure raises :class:`ConformanceError` saying what, where and with which seed.
"""

from fairdeal.testing._bots import Match, Timed, match_bots, times_text, wilson
from fairdeal.testing._errors import ConformanceError
from fairdeal.testing._kit import KitReport, check_bot, check_game, check_world
from fairdeal.testing._positions import build_table, random_position, settle
from fairdeal.testing._privacy import Openings, check_log_privacy, check_privacy
from fairdeal.testing._protocol import ProtocolGame, SeatedGame, play_with_protocol, seat_sessions
from fairdeal.testing._stepping import Stepper

__all__ = [
    "ConformanceError",
    "KitReport",
    "Match",
    "Openings",
    "ProtocolGame",
    "SeatedGame",
    "Stepper",
    "Timed",
    "build_table",
    "check_bot",
    "check_game",
    "check_log_privacy",
    "check_privacy",
    "check_world",
    "match_bots",
    "play_with_protocol",
    "random_position",
    "seat_sessions",
    "settle",
    "times_text",
    "wilson",
]
