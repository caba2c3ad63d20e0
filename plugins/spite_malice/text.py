"""The rules of Spite & Malice in plain English, as ``fairdeal rules spite-malice`` prints them."""

RULES = """\
Spite & Malice — 2 players, two 52-card decks shuffled together (104 cards, no jokers).

Goal: be the first to get rid of your payoff pile.

Setup. Each player gets a payoff pile of 20 cards, face down except its top card, which
lies face up for both to see, and a hand of 5 cards that only its owner sees. Each player
has 4 side stacks, empty at first. In the middle are 3 centre stacks, empty at first. The
other 54 cards are the stock, face down; nobody sees them.

Centre stacks are built up from Ace to Queen, suit does not matter: an empty stack takes
an Ace, a stack whose top card is n takes n+1 (Jack = 11, Queen = 12). Kings are wild: a
King played on a centre stack stands for the card needed next (on an empty stack, an Ace);
the table shows what each King stands for. A stack that reaches Queen (a Queen, or a King
played on a Jack) is complete: at once its 12 cards are shuffled, together with the cards
left in the stock, into a new stock, by a joint reshuffle of both players.

Who starts. The player whose payoff top card is higher starts (A=1 ... Q=12, K=13). If the
two are equal, a joint random choice decides. In later games of a match the loser of the
previous game starts; after a drawn game, the player who did not start it.

Your turn.
  1. Draw from the stock until your hand holds 5 cards.
  2. Then, as often as you like and in any order:
     - play your payoff top card onto a centre stack (the next card of the pile turns
       face up);
     - play the top card of one of your side stacks onto a centre stack;
     - play a card from your hand onto a centre stack.
  3. If your hand becomes empty during your turn, you draw 5 more at once and go on.
  4. Your turn ends when you put one card from your hand on one of your own 4 side stacks
     (any card, on any of them, empty or not). Only the top card of a side stack can be
     played. Cards never move from the payoff pile or a side stack to a side stack.

End of a game. The game ends the moment a player plays the last card of their payoff pile
onto a centre stack: that player wins and scores as many points as there are cards left
in the opponent's payoff pile. If a player must draw and the stock is empty (including
when it runs out before the hand holds 5 cards), the game ends drawn and nobody scores.

Match. Games are played until a player has 50 points or more (option target); that player
wins the match. Every game starts from a new joint shuffle of all 104 cards.

Safety rules (they never come into play in a normal match; they make sure it ends):
  - a match ends after 100 games (option max_games); then the player with more points
    wins, and equal points make a drawn match;
  - a game that reaches 2000 moves without ending is drawn (a real game takes a few
    hundred moves at most).
"""
