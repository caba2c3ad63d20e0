"""The rules of Écarté in plain English, as ``fairdeal rules ecarte`` prints them."""

RULES = """\
Écarté — 2 players, 32 cards.

Cards: A K Q J 10 9 8 7 in each of the four suits. In tricks the cards rank,
high to low: K Q J A 10 9 8 7 (the Ace sits between the Jack and the 10).

The deal: the first dealer is a joint random choice; after that the deal
alternates. Every deal starts from a new joint shuffle of all 32 cards. Each
player gets 5 cards that only they can see; the next card is turned face up and
its suit is trump for the deal. The other 21 cards are the talon, face down.
If the turned-up card is a King, the dealer scores 1 point at once.

Exchanges: the non-dealer either plays (stands) or proposes an exchange. The
dealer accepts or refuses a proposal. When the dealer accepts, the non-dealer
discards 1 to 5 cards face down and draws as many from the talon; then the
dealer discards 0 to 5 and draws as many. Discards are out of play and nobody
sees them. The non-dealer may then propose again, and so on. Nobody may discard
more cards than the talon still holds; when the talon is empty no proposal can
be made and play begins. Play begins when the non-dealer stands or the dealer
refuses. (Here you discard one card at a time and then say you are done; once
you reach the most you may discard, you draw at once.)

King of trumps: a player who holds the King of trumps may announce it before
playing their first card of the deal (also when it is that first card) and
scores 1 point. It is your choice: the game offers it before your first card.
Announcing turns the King face up in your hand for both players to see.

Tricks: the non-dealer leads the first trick; the winner of a trick leads the
next. The second player must follow suit if able, and must then play a higher
card of that suit if able (win the trick when possible). A player who cannot
follow suit may play any card. A trick is won by the highest trump in it, else
by the highest card of the suit led. Five tricks are played.

Scoring a deal: winning 3 or 4 tricks scores 1 point; winning all 5 (the vole)
scores 2. If the hands were played without any exchange (the non-dealer stood
at once, or the dealer refused the first proposal), the player who declined to
exchange is penalised: when the opponent wins 3 or more tricks, the opponent
scores 2 points (no extra for the vole). At most 3 points change hands in one
deal.

End: points count the moment they are made (a turned-up King, an announced
King, the end of a deal). The first player to reach 5 points wins the game, at
once, even in the middle of a deal.

Following suit is checked live as far as your opponent can see, and in full by
`fairdeal verify` once every card is known: a player who reneged is named there.

Options (--option name=value):
  target=N                 points needed to win the game (default 5; 1 to 50).
  trump_when_void=true     a player who cannot follow suit must play a trump if
                           they hold one (Board Game Arena, Americana). Default
                           false: any card.
  penalty=classic|seed     classic (default): the penalty above. seed: the
                           Persian seed's sentence read literally instead: after
                           the non-dealer stood at once or was refused the
                           first proposal, the non-dealer scores 2 points
                           (no extra for the vole) for winning 3 or more tricks;
                           every other outcome scores 1, or 2 for the vole.
"""
