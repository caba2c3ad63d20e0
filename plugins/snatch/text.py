"""The rules of Snatch! in plain English, as ``fairdeal rules snatch`` prints them."""

RULES = """\
Snatch! — 2 to 10 players. Chance and nerve: be the first with nothing left.

Cards. 32 per deck: A Q J 10 9 8 7 2 in each of the four suits (no 3, 4, 5, 6 and no
Kings). Strength, high to low: A Q J 10 9 8 7 2. With more than five players two decks are
shuffled together (64 cards).

Deal. Every card is dealt face down and evenly into one pile per player; the cards left over
go aside face down and are never played. Nobody ever looks at a card in a pile, its owner
included: a card is seen only when it is turned.

Play. A joint random choice of player opens the first trick; then play goes on in seat
order. On your turn you turn the top card of your pile face up onto the table. The very
first card of the game sets trump; its suit is "the game's first suit".

Who takes a trick. When every player still in the game has turned one card, the strongest
card takes the trick and its player opens the next one; the cards leave play. A trump beats
any card that is not a trump; otherwise the higher rank wins; with equal rank and the same
trump-ness the card played first wins. Suit does not matter otherwise: nobody follows suit.

Snatch. Right after you turn your card, if it is the weakest card on the table and it is
not a trump, you may snatch: turn it sideways. "Weakest" is in the same order among the
cards of this trick, so a card played later loses a tie to an equal card played earlier,
and a card alone on the table is the weakest. Its suit becomes trump at once, and the trick
is judged by the trump that stands when its last card falls: another snatch later in the
same trick can change it again.

The price. The first snatch of the game costs 1 card, the second 2, the k-th k, thrown away
unseen from the top of the snatcher's pile; nobody sees them during the game. A snatch that
makes the game's first suit trump again restarts the count: it costs 1, the next costs 2,
and so on. If the price is at least the number of cards left in your pile, you may still
snatch: you throw away your whole pile and leave the game with no victory; your card on the
table still counts in this trick. (So snatching with your very last card, when your pile is
already empty, also takes you out with no victory.)

Winning. Thrown-away cards never win: your last card must be turned from your pile like
any other. When you turn your last card you have emptied your pile. When that trick is
judged, if your last card is its strongest card you are out with no victory; otherwise you
win and the game ends. If several players empty their piles in the same trick without
taking it, the one who turned their last card first wins. A player who is out plays no
more, and the game goes on without them; if the trick's winner is out, the next player
still in the game, in seat order after them, opens. If, once a trick is judged, fewer than
two players remain and nobody has won, nobody can win (a lone player's card always takes
its trick): the game ends with no winner.

On screen. Every pile's count, the trump and the first suit, the trick on the table with
snatched cards marked, the price of the next snatch and who is out.

No options.
"""
