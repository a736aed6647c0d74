"""The Kierki referee: a table log of what the kiosk can know, judged
(kierki.md §11 and §13).

The kiosk sees every card played face up and who played it; it is told the
dealer, the trumps and the Fan Tan passes on buttons. It never sees a hand,
so choices that break a rule are *proven later* (§13.3): a play records a
claim about the hand, and a later card that contradicts it proves the breach,
naming both tricks (or turns).

Events (see ``docs/table-log.md``, "Kierki events"):

- ``deal``: ``seat`` deals; optional ``deal`` (its 1-based number) is checked.
- ``misdeal``: the deal is collected and dealt again by the same dealer.
- ``trump``: ``seat`` names ``suit`` (deals 8 to 11).
- ``play``: ``seat`` plays ``card`` to the trick or to the Fan Tan layout.
- ``pass``: ``seat`` passes in Fan Tan.
- ``collect``: the trick is swept (optional ``seat``: who took it).
- ``reveal``: ``seat`` shows ``cards`` still held after the deal ended
  (Fan Tan, or a deal stopped early).

Infraction kinds: ``out_of_turn``, ``seen_twice``, ``wrong_count``,
``revoke``, ``illegal_lead``, ``illegal_pass``, ``failure_to_trump``,
``king_of_hearts_not_played``, ``misfit`` (a Fan Tan card that does not fit),
``misread`` (a deal, half or match total that is not the fixed one),
``wrong_dealer``, ``wrong_trump_seat``, ``early_reveal`` (cards shown before the deal ended) and
``late_trump`` (another suit named as trumps once play began).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kiosk.games.cards import Card, Rank, Suit
from kiosk.games.errors import InvalidActionError
from kiosk.games.kierki.deals import (
    ACE_OF_HEARTS,
    KING_OF_HEARTS,
    FanTanDeal,
    KierkiDeal,
    NegativeDeal,
    TrickDeal,
    TrumpDeal,
    match_deals,
)
from kiosk.games.kierki.fantan import Layout
from kiosk.games.kierki.options import KierkiOptions
from kiosk.games.kierki.state import KierkiView, standings
from kiosk.games.referee import (
    REPEAT_WINDOW_NS,
    Infraction,
    Referee,
    RefereeReport,
    Ruling,
    TableEvent,
    format_seconds,
)
from kiosk.games.tricks import (
    Claim,
    ClaimBook,
    SeenCards,
    TrickAuditor,
    TrickProblem,
    proof_problem,
    suit_name,
)

__all__ = ["KierkiReferee"]

N_SEATS = 4
_ALL_CARDS = frozenset(Card(r, s) for s in Suit for r in Rank if r is not Rank.JOKER)
_PROVEN_KINDS = frozenset(
    {"revoke", "illegal_lead", "illegal_pass", "failure_to_trump", "king_of_hearts_not_played"}
)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


class _DealRecord:
    """What the referee knows about the deal in progress."""

    def __init__(self, deal: KierkiDeal, dealer: int, names: Sequence[str]) -> None:
        self.deal = deal
        self.dealer = dealer
        self.trump: Suit | None = None
        self.trump_by_chooser = False
        """The trumps were named by the seat that names them (not only by another seat)."""
        self.trump_carried = False
        """The trumps are those named before this deal was dealt again (misdeal): they stand
        until named again, and naming them then is naming, not a change."""
        self.scores = [0] * N_SEATS
        self.hearts_played = False
        self.ended = False
        """The scores are posted (the deal may still take ``reveal`` events)."""
        self.void = False
        """Discarded by a proven breach under ``replay_deal``: to be dealt again."""
        self.stopped = False
        """Stopped early (``stop_when_penalties_exhausted``): the cards left are shown."""
        self.played_out = 0
        """Cards played out after an early stop: shown, not tricks of the deal."""
        self.played_out_cards: dict[int, list[Card]] = {}
        """Those cards, by seat."""
        self.played = [0] * N_SEATS
        """Cards each seat has played (accepted) this deal."""
        self.shown: set[int] = set()
        self.shown_cards: dict[int, list[Card]] = {}
        """The cards each seat laid face up (``reveal``) after the deal ended."""
        self.flags: list[str] = []
        """Proven breaches left to the table (``revoke_policy = flag_only``)."""
        self.void_duties: dict[tuple[int, int], Claim] = {}
        """Claims of a duty that binds only a seat void in the suit led (``must_trump_when_void``,
        ``king_of_hearts_forced_discard`` (a)), by (seat, trick): a revoke proven in that trick
        shows the seat could follow, so the duty never applied."""
        self.void_duty_flags: dict[tuple[int, int], tuple[Infraction, str]] = {}
        """Such claims already proven (by the duty's card, before the revoke): the infraction and
        its flag label, withdrawn if the revoke is proven later."""
        self.auditor: TrickAuditor | None = None
        self.reshow: dict[int, Card] = {}
        """The cards of a trick collected short, by seat: the table shows the trick again
        (docs/table-log.md, ``collect``), and these may be seen a second time, in any order: the
        missing cards may complete the trick before the others are logged again, so the trick's
        cards stay here until a card of a later trick is played."""
        self.reshow_trick = 0
        """The number of the trick collected short (``reshow``)."""
        self.swept = False
        """The last completed trick is collected and no card has been played since: no trick is
        in play until the next card (docs/table-log.md, ``collect``)."""
        if isinstance(deal, TrickDeal) and not deal.is_trump_deal:
            self.auditor = TrickAuditor(N_SEATS, deal.first_player(dealer), names=names)
        # Fan Tan
        self.layout: Layout | None = None
        self.turn = deal.first_player(dealer)
        self.turn_number = 1
        self.out: list[int] = []
        self.claims = ClaimBook()
        self.seen = SeenCards()
        self.opening: Card | None = None
        self.last_play: tuple[int, Card] | None = None
        """The seat and card of the play line just before, if it was accepted and no other play or
        pass was logged since: the same line again is that one play logged twice."""

    @property
    def cards_played(self) -> int:
        return sum(self.played)

    @property
    def claim_book(self) -> ClaimBook:
        return self.auditor.claims if self.auditor is not None else self.claims

    @property
    def seen_cards(self) -> SeenCards:
        return self.auditor.seen if self.auditor is not None else self.seen


class KierkiReferee(Referee):
    """Referees a Kierki table log: scores each deal and reports infractions."""

    game_name = "kierki"
    event_types = frozenset({"deal", "misdeal", "trump", "play", "pass", "collect", "reveal"})

    def __init__(self, seats: Sequence[str], options: KierkiOptions) -> None:
        if len(seats) != N_SEATS:
            raise InvalidActionError(f"Kierki takes exactly 4 seats, got {len(seats)}",
                                     input=str(list(seats)))
        super().__init__(seats, options)

    # -- state -------------------------------------------------------------------------
    def _reset(self) -> None:
        self.opts: KierkiOptions = self.options
        self.deals = match_deals(self.opts)
        self.deal_index = 0
        self.first_dealer: int | None = None
        """Who dealt deal 1 (D1): §3 fixes every later dealer from it."""
        self.next_dealer: int | None = None
        self.record: _DealRecord | None = None
        self.results: dict[int, tuple[int, ...]] = {}
        self.deal_info: dict[int, dict[str, Any]] = {}
        self.rulings: list[Ruling] = []
        self.infractions: list[Infraction] = []
        self.repeats: list[str] = []
        """Notes on lines recognised as the event before them logged again (see _feed)."""
        self.finished = False
        self.match_end: list[Ruling | Infraction] = []
        """What the end of the match announced (its ruling and the checks it flagged): taken back
        if the last deal is discarded after it ended (``revoke_policy = replay_deal``)."""

    def _name(self, seat: int) -> str:
        return self.seats[seat]

    def _flag(self, event: TableEvent, kind: str, text: str, seat: int | None) -> None:
        self.infractions.append(
            Infraction(event.t_ns, kind, text, None if seat is None else self._name(seat), event.line)
        )

    def _rule(self, event: TableEvent, kind: str, text: str, seats: Sequence[int] = (),
              data: dict[str, Any] | None = None) -> Ruling:
        ruling = Ruling(event.t_ns, kind, text, tuple(self._name(s) for s in seats), data or {})
        self.rulings.append(ruling)
        return ruling

    # -- events ------------------------------------------------------------------------
    def _feed(self, event: TableEvent) -> list[Ruling]:
        if event.type not in ("play", "collect") and self._repeats_last(event, REPEAT_WINDOW_NS):
            # The event just logged, seen again within a camera frame (docs/table-log.md, "Lines
            # logged twice"): nobody deals, names trumps, passes, sweeps or shows cards twice that
            # fast, so it is the same event and changes nothing (no redeal, out-of-turn pass or
            # second reveal). A play logged twice is judged by _on_play (seen_twice).
            # A collect logged again keeps its documented answer, an `ignored` ruling (no trick in play).
            self._mark_repeat(event)
            self.repeats.append(f"{event.type} at {format_seconds(event.t_ns)} s logged twice: ignored")
            return []
        rec = self.record
        if rec is not None and rec.void and event.type in ("trump", "play", "pass", "collect"):
            return self._discarded(event, rec)
        handler = {
            "deal": self._on_deal,
            "misdeal": self._on_misdeal,
            "trump": self._on_trump,
            "play": self._on_play,
            "pass": self._on_pass,
            "collect": self._on_collect,
            "reveal": self._on_reveal,
        }[event.type]
        return handler(event)

    def _discarded(self, event: TableEvent, rec: _DealRecord) -> list[Ruling]:
        """An event of a deal discarded under ``revoke_policy = replay_deal`` (§12), before the
        same dealer deals it again: the camera still sees the rest of it played out, but nothing
        in it counts any more, so it is noted, not judged (and not an error)."""
        what = event.type
        if event.type == "play":
            card = self._card(event, event.require("card"))
            what = f"{self._name(self.seat_index(event.seat))} plays {card}"
        return [self._rule(event, "ignored", f"deal {rec.deal.number} was discarded ({what} not judged): "
                           f"{self._name(rec.dealer)} deals it again", ())]

    def _card(self, event: TableEvent, value: Any) -> Card:
        if not isinstance(value, str):
            raise InvalidActionError(
                f"{event.type!r} event: a card must be a string such as 'QS', got {value!r}",
                input=repr(value),
            )
        card = Card.parse(value)
        if card not in _ALL_CARDS:
            raise InvalidActionError(f"{event.type!r} event: {value!r} is not a card of the 52-card pack",
                                     input=value)
        return card

    def _active(self, event: TableEvent) -> _DealRecord:
        rec = self.record
        if rec is None:
            raise InvalidActionError(
                f"{event.type!r} event before any deal: log a 'deal' event (seat = the dealer) first",
                input=event.type,
            )
        if rec.void:
            raise InvalidActionError(
                f"{event.type!r} event: deal {rec.deal.number} was discarded; "
                "a 'deal' event must deal it again",
                input=event.type,
            )
        return rec

    def _on_deal(self, event: TableEvent) -> list[Ruling]:
        dealer = self.seat_index(event.seat)
        if self.finished:
            raise InvalidActionError("'deal' event after the end of the match", input="deal")
        rec = self.record
        number = event.get("deal")
        if rec is not None and rec.ended and not rec.void and number is not None \
                and number == rec.deal.number:
            # The deal just ended, logged again (a repeated event; docs/table-log.md makes only a
            # number that is neither this deal's nor the next one's an error). A finished deal is
            # not dealt again (§4: a misdeal is found before the first card): its scores stand.
            return [self._rule(event, "ignored", f"deal {rec.deal.number} is over and its scores stand: "
                               "it is not dealt again", (dealer,))]
        # Everything is checked before anything changes, so a rejected event leaves no trace.
        in_play = rec is not None and not rec.ended and not rec.void
        # Only a played card makes a new deal event abandon this one (§4, §11): before the first card
        # (trumps already named or not) the same dealer dealing again is a plain misdeal, not flagged.
        abandon = rec is not None and in_play and rec.cards_played > 0
        has_next = self.deal_index + 1 < len(self.deals)
        # A deal event that numbers the next deal moves on to it even when the same seat deals it
        # (then out of turn, §3): the log says which deal it is, so it is not a redeal.
        names_next = has_next and number is not None and number == self.deals[self.deal_index + 1].number
        # Likewise another seat dealing with this deal's number deals it again (out of turn).
        names_this = number is not None and number == self.deals[self.deal_index].number
        # Before the first card an unnumbered deal is this deal dealt again (a misdeal, §4), but one
        # numbering the next deal moves on to it all the same: the log says which deal it is, and
        # docs/table-log.md makes a number an error only when it is neither this deal's nor the
        # next one's. The deal left behind is closed unfinished, like one with tricks seen.
        if in_play and not abandon and names_next:
            abandon = True
        moves_on = rec is not None and abandon and ((dealer != rec.dealer and not names_this) or names_next)
        # The last deal has no next deal to move on to: another seat dealing during it deals it
        # again (a breach at the table: the wrong dealer, an unfinished deal), not a deal after
        # the match, which is over only when the last deal ends (§10).
        # A deal discarded under revoke_policy = replay_deal (§12) that the table does not deal
        # again: a deal event numbering the next deal moves on (the number is checked, so it is
        # not a malformed log); the discarded deal keeps no scores.
        skips_void = rec is not None and rec.void and names_next
        if skips_void:
            moves_on = True
        if not has_next:
            moves_on = False
        index = self.deal_index + (1 if moves_on else 0)
        if index >= len(self.deals):
            raise InvalidActionError("'deal' event after the last deal of the match", input="deal")
        deal = self.deals[index]
        if number is not None and number != deal.number:
            raise InvalidActionError(
                f"'deal' event says deal {number!r}, but the next deal is deal {deal.number} ({deal.title})",
                input=repr(number),
            )
        rulings: list[Ruling] = []
        if abandon and rec is not None:
            rulings.extend(self._abandon(event, rec, moves_on=moves_on))
        if skips_void and moves_on and rec is not None:
            self._flag(event, "wrong_count", f"deal {rec.deal.number} was discarded (revoke_policy "
                       f"replay_deal) but not dealt again: it scores nothing", None)
            rec.scores = [0] * N_SEATS
            rulings.extend(self._end_deal(event, rec))
        # The same deal dealt again: before any card (a misdeal without a button press), or discarded.
        redeal = rec is not None and not moves_on and (rec.void or (in_play and not abandon))
        expected = rec.dealer if redeal and rec is not None else self.next_dealer
        # §3 fixes who deals each deal: a deal dealt by the wrong seat and dealt again, before any
        # card, by the seat due to deal it is put right, not another wrong dealer.
        due = self.next_dealer if self.next_dealer is not None else self.first_dealer
        if expected is not None and dealer != expected and not (redeal and dealer == due):
            self._flag(event, "wrong_dealer",
                       f"{self._name(dealer)} dealt deal {deal.number}, "
                       f"but it was {self._name(expected)}'s deal",
                       dealer)
        if self.first_dealer is None:
            self.first_dealer = dealer
        new = self.record = self._new_record(deal, dealer)
        self.deal_info[self.deal_index] = {
            "deal": deal.number, "name": deal.name, "dealer": self._name(dealer)
        }
        if redeal and rec is not None:
            self._carry_trumps(rec, new)
        if isinstance(deal, TrumpDeal):
            who = f"{self._name(deal.chooser(dealer))} names trumps and leads"
        elif isinstance(deal, FanTanDeal):
            who = (f"the holder of {new.opening} opens" if new.opening is not None
                   else f"{self._name(new.turn)} starts")
        else:
            who = f"{self._name(deal.first_player(dealer))} leads"
        again = " again" if redeal else ""
        rulings.append(self._rule(event, "deal", f"deal {deal.number} ({deal.title}): {self._name(dealer)} "
                                  f"deals{again}; {who}", (dealer,)))
        return rulings

    def _new_record(self, deal: KierkiDeal, dealer: int) -> _DealRecord:
        """A fresh record of ``deal`` dealt by ``dealer``, before any card is played."""
        rec = _DealRecord(deal, dealer, self.seats)
        if isinstance(deal, FanTanDeal):
            opts = self.opts
            start = None if opts.fan_tan_start_rank == "first_card" else Rank(int(opts.fan_tan_start_rank))
            rec.layout = Layout.new(start=start, ace_high=opts.fan_tan_ace == "high")
            rec.opening = opts.opening_card
        return rec

    def _carry_trumps(self, old: _DealRecord, new: _DealRecord) -> None:
        """A trump deal dealt again by its dealer (misdeal, §4): the trumps named for it stand until they are
        named again. The kiosk's only input for them is the naming (§13.4), and docs/table-log.md
        lets play follow a misdeal at once, so a redeal without a new naming keeps them."""
        deal = new.deal
        if old.trump is None or not isinstance(deal, TrumpDeal) or new.dealer != old.dealer:
            return  # another seat dealing deals a new hand to a new chooser (§4): no trumps yet
        new.trump = old.trump
        new.trump_by_chooser = old.trump_by_chooser
        new.trump_carried = True
        new.auditor = TrickAuditor(N_SEATS, deal.first_player(new.dealer), names=self.seats, trump=old.trump)
        self.deal_info[self.deal_index]["trump"] = old.trump.letter

    def _abandon(self, event: TableEvent, rec: _DealRecord, *, moves_on: bool) -> list[Ruling]:
        """A new deal while ``rec`` is unfinished: unless the table ``moves_on`` to the next deal
        (another seat deals, or the event numbers the next deal) it is dealt again (discarded);
        otherwise the deal is scored from what was seen, which its fixed total then shows to be
        incomplete."""
        deal = rec.deal
        if not isinstance(deal, FanTanDeal):
            # A trump deal left before its trumps were named has no trick (no auditor) yet.
            done = len(rec.auditor.history.completed) if rec.auditor is not None else 0
            seen = f"after {done} of 13 tricks ({rec.cards_played} cards seen)"
        else:
            seen = f"at turn {rec.turn_number}, with {len(rec.out)} player(s) out"
        if not moves_on:
            rec.void = True
            self._flag(event, "wrong_count", f"deal {deal.number} was dealt again {seen}: it is discarded",
                       None)
            return []
        self._flag(event, "wrong_count", f"deal {deal.number} was left unfinished {seen}: "
                   "scored from the tricks seen; correct it if cards were missed", None)
        return self._end_deal(event, rec)

    def _on_misdeal(self, event: TableEvent) -> list[Ruling]:
        rec = self.record
        if rec is None:
            # Nothing is dealt yet, so nothing is collected or dealt again (§4). docs/table-log.md
            # makes only a play before the first deal malformed: this changes nothing.
            return [self._rule(event, "ignored", "misdeal before the first deal: nothing is dealt yet", ())]
        if not rec.void:
            rec = self._active(event)
            if rec.ended:
                # §4: a misdeal is found before the first card is played. Once the deal is over
                # (scored) there is nothing to deal again: reported, and the posted scores stand.
                self._flag(event, "wrong_count", f"misdeal declared after deal {rec.deal.number} ended: "
                           "its scores stand (the next deal starts with a 'deal' event)", None)
                return [self._rule(event, "ignored", f"misdeal after deal {rec.deal.number} ended: "
                                   "nothing is dealt again", ())]
            if rec.cards_played:
                self._flag(event, "wrong_count",
                           f"misdeal declared in deal {rec.deal.number} after {rec.cards_played} cards were "
                           "played (a hand had the wrong number of cards): the deal is discarded", None)
        # The misdeal stands for the new deal (§4: same dealer, same number), so play may follow it
        # at once, as in docs/table-log.md; a 'deal' event by the same dealer may still log it.
        self.record = self._new_record(rec.deal, rec.dealer)
        self._carry_trumps(rec, self.record)
        text = f"misdeal: {self._name(rec.dealer)} deals deal {rec.deal.number} again"
        return [self._rule(event, "misdeal", text, (rec.dealer,))]

    def _on_trump(self, event: TableEvent) -> list[Ruling]:
        seat = self.seat_index(event.seat)
        rec = self._active(event)
        deal = rec.deal
        if not isinstance(deal, TrumpDeal):
            raise InvalidActionError(
                f"'trump' event in deal {deal.number} ({deal.title}): trumps are named only in deals 8 to 11",
                input="trump",
            )
        suit_text = event.require("suit")
        try:
            if not isinstance(suit_text, str):
                raise InvalidActionError("not a string", input=repr(suit_text))
            suit = Suit.parse(suit_text)
        except InvalidActionError:
            raise InvalidActionError(
                f"'trump' event: invalid suit {suit_text!r}: 'suit' must be S, H, D or C "
                "(\"no trumps\" is not allowed)",
                input=repr(suit_text),
            ) from None
        chooser = deal.chooser(rec.dealer)
        if rec.cards_played:
            # §4, §7.1: trumps are named before trick 1 and hold for the whole deal. Naming them
            # again once play began is a breach at the table, not a malformed log: the trumps
            # stay as named, and a different suit is reported.
            assert rec.trump is not None  # no card is accepted before the trumps are named
            name = self._name(seat)
            if suit is not rec.trump:
                self._flag(event, "late_trump", f"{name} named {suit_name(suit)} as trumps after trick "
                           f"play began in deal {deal.number}: trumps are named before trick 1 and "
                           f"stay {suit_name(rec.trump)}", seat)
            return [self._rule(event, "ignored", f"{name} names {suit_name(suit)} during deal "
                               f"{deal.number}: trumps stay {suit_name(rec.trump)}", (seat,))]
        if seat != chooser:
            self._flag(event, "wrong_trump_seat",
                       f"{self._name(seat)} named trumps in deal {deal.number}, "
                       f"but {self._name(chooser)} names them", seat)
            if rec.trump_by_chooser and rec.trump is not None:
                # §4, §7.1: only the chooser names trumps; once they have, another seat's naming
                # changes nothing (alone, it is the only input the kiosk has, and it stands).
                return [self._rule(event, "ignored", f"{self._name(seat)} names {suit_name(suit)}: "
                                   f"trumps stay {suit_name(rec.trump)}, as "
                                   f"{self._name(chooser)} named them", (seat,))]
        rec.trump_by_chooser = seat == chooser
        # Naming the same suit again (a repeated event) changes nothing; only another suit does.
        changed = rec.trump is not None and not rec.trump_carried and suit is not rec.trump
        rec.trump_carried = False
        rec.trump = suit
        rec.auditor = TrickAuditor(N_SEATS, deal.first_player(rec.dealer), names=self.seats, trump=suit)
        self.deal_info[self.deal_index]["trump"] = suit.letter
        verb = "changes trumps to" if changed else "names"
        return [self._rule(event, "trump", f"{self._name(seat)} {verb} {suit_name(suit)} as trumps", (seat,))]

    def _on_play(self, event: TableEvent) -> list[Ruling]:
        seat = self.seat_index(event.seat)
        card = self._card(event, event.require("card"))
        rec = self._active(event)
        last, rec.last_play = rec.last_play, None
        if rec.reshow.get(seat) == card:
            # A short trick shown again in full repeats the cards already seen in it (§13.5):
            # they are in the trick already, neither out of turn nor seen twice, even once the
            # missing card has completed it (and perhaps ended the deal).
            del rec.reshow[seat]
            return [self._rule(event, "reshow", f"{self._name(seat)}: {card} seen again "
                               f"(already in trick {rec.reshow_trick})", (seat,))]
        if last == (seat, card):
            # §13.2, §13.3: hands only shrink, so the card the seat has just played, seen again
            # from it with no other play between, is that play logged twice (a misread): not a
            # card out of turn, a trick winner's next lead, a card after the 13th trick or after
            # Fan Tan ended. Flagged once and ignored, the deal goes on as played. (A card seen
            # again later, other cards between, stays a misread of the card then due.)
            rec.last_play = last
            name = self._name(seat)
            self._flag(event, "seen_twice", f"{card} seen twice in deal {rec.deal.number}: {name}'s play "
                       "of it was logged twice; the repeat is ignored", seat)
            return []
        played = rec.cards_played
        rulings = self._play(event, rec, seat, card)
        if rec.cards_played > played:
            rec.last_play = (seat, card)
        return rulings

    def _play(self, event: TableEvent, rec: _DealRecord, seat: int, card: Card) -> list[Ruling]:
        """A play that is not a card of a short trick shown again, nor a line logged twice."""
        if rec.ended and rec.stopped:
            # §12 stop_when_penalties_exhausted: a table that plays the rest out shows those cards.
            if card in rec.shown_cards.get(seat, []):
                # docs/table-log.md (reveal): a card the seat already laid face up, played out
                # after all, is shown again: no breach (it was checked when first shown), not a
                # card seen twice.
                return [self._rule(event, "reveal", f"{self._name(seat)} shows {card} again "
                                   "(already shown)", (seat,))]
            if self._seen_from(rec, seat, card):
                # The seat's own card seen again (a line logged twice): §13.2 flags the card seen
                # twice, but it is not one more card out of the hand, so it neither counts against
                # the cards the seat must still show (docs/table-log.md, reveal) nor proves a claim
                # made after the seat first played it.
                name = self._name(seat)
                self._flag(event, "seen_twice", f"{card} seen twice in deal {rec.deal.number}: {name} "
                           "already played it (a misread or a line logged twice)", seat)
                return [self._rule(event, "refused", f"{name}: {card} is already played; it is not "
                                   "a card left in the hand", (seat,))]
            rec.played[seat] += 1
            rec.played_out += 1
            rec.played_out_cards.setdefault(seat, []).append(card)
            return self._shown(event, rec, seat, [card])
        if rec.ended:
            return self._after_end(event, rec, seat, card)
        if isinstance(rec.deal, FanTanDeal):
            return self._fan_tan_play(event, rec, seat, card)
        return self._trick_play(event, rec, seat, card)

    # -- tricks --------------------------------------------------------------------------
    def _trick_play(self, event: TableEvent, rec: _DealRecord, seat: int, card: Card) -> list[Ruling]:
        deal = rec.deal
        assert isinstance(deal, TrickDeal)
        if rec.auditor is None:
            raise InvalidActionError(
                f"'play' event before trumps were named in deal {deal.number}: log a 'trump' event first",
                input=str(card),
            )
        auditor = rec.auditor
        trick = auditor.history.current
        number = auditor.trick_number
        outcome = auditor.play(seat, card)
        rulings: list[Ruling] = []
        if not outcome.accepted:
            for p in outcome.problems:
                self._flag(event, p.kind, p.text, p.seat)
            text = f"{self._name(seat)}: take back {card} (out of turn)"
            return [self._rule(event, "refused", text, (seat,))]
        rec.played[seat] += 1
        rec.swept = False
        if rec.reshow:
            if number == rec.reshow_trick:
                rec.reshow[seat] = card  # a missing card of the trick shown again: it may be logged again
            else:
                rec.reshow.clear()  # a later trick has begun: the short trick is shown
        claims = auditor.claims
        name = self._name(seat)
        if not trick.plays:
            claims.add(self._lead_claim(rec, seat, card, number))
        else:
            led = trick.led_suit
            assert led is not None
            hand_void = card.suit is not led
            if isinstance(deal, NegativeDeal) and deal.forces_king_of_hearts and card != KING_OF_HEARTS:
                # §12 (a) "cannot follow": on a heart lead the holder of KH can always follow, so a
                # non-heart there is a revoke only; (b) applies to any card once AH is in the trick.
                ace_in = led is Suit.HEARTS and ACE_OF_HEARTS in trick
                if (hand_void and led is not Suit.HEARTS) or ace_in:
                    why = ("hearts were led and AH was in the trick" if ace_in
                           else f"{name} could not follow {suit_name(led)}")
                    kept = Claim(seat, number, card, frozenset({KING_OF_HEARTS}),
                                 f"{why} and played {card}, not KH", "king_of_hearts_not_played")
                    claims.add(kept)
                    if not ace_in:
                        rec.void_duties[(seat, number)] = kept
            if (isinstance(deal, TrumpDeal) and self.opts.must_trump_when_void and rec.trump is not None
                    and hand_void and led is not rec.trump and card.suit is not rec.trump):
                trumps = frozenset(Card(r, rec.trump) for r in Rank if r is not Rank.JOKER)
                unruffed = Claim(seat, number, card, trumps,
                                 f"{suit_name(led)} led, {name} played {card} without trumping",
                                 "failure_to_trump")
                claims.add(unruffed)
                rec.void_duties[(seat, number)] = unruffed
        if card.suit is Suit.HEARTS:
            rec.hearts_played = True
        for p in outcome.problems:
            rulings.extend(self._problem(event, rec, p))
        if outcome.completed is not None and not rec.void:
            done = outcome.completed
            score = deal.trick_score(done, number)
            rec.scores[done.winner] += score
            worth = f" ({_signed(score)})" if score else ""
            rulings.append(self._rule(
                event, "trick",
                f"trick {number}: {self._name(done.winner)} wins with {done.winning_card}{worth}",
                (done.winner,), {"trick": number, "cards": done.format(self.seats)},
            ))
            taken = [c for t in auditor.history.completed for c in t.cards]
            if number == 13 or deal.penalty_exhausted(taken):
                rulings.extend(self._end_deal(event, rec, early=number < 13))
        return rulings

    @classmethod
    def _seen_from(cls, rec: _DealRecord, seat: int, card: Card) -> bool:
        """True if ``seat`` already played ``card`` this deal, to a trick or played out after an
        early stop."""
        return card in rec.played_out_cards.get(seat, []) or cls._played_to_trick(rec, seat, card)

    @staticmethod
    def _played_to_trick(rec: _DealRecord, seat: int, card: Card) -> bool:
        """True if ``seat`` played ``card`` to a trick of this deal."""
        if rec.auditor is None:
            return False
        history = rec.auditor.history
        return any(t.card_of(seat) == card for t in (*history.completed, history.current))

    def _after_end(self, event: TableEvent, rec: _DealRecord, seat: int, card: Card | None) -> list[Ruling]:
        """A card (or Fan Tan pass) after the deal ended and before the next deal. It breaks a
        check the camera makes at once (§13.2: 13 tricks per deal, no card seen twice; §8.4: the
        deal ends when the second player is out), so it is refused and reported, not a malformed
        log (docs/table-log.md: breaches of the rules are not errors)."""
        name = self._name(seat)
        what = "pass" if card is None else f"play {card}"
        if isinstance(rec.deal, FanTanDeal):
            self._flag(event, "out_of_turn", f"{name} tried to {what} after deal {rec.deal.number} ended: "
                       "the second player is out", seat)
        else:
            assert card is not None
            if card in rec.seen_cards:
                self._flag(event, "seen_twice", f"{card} seen twice in deal {rec.deal.number}: {name} played "
                           "it after the 13th trick (a misread or a foul deck)", seat)
            self._flag(event, "wrong_count", f"{name} played {card} after the 13th trick of deal "
                       f"{rec.deal.number}: a deal has 13 tricks", seat)
        back = "nothing is played" if card is None else f"take back {card}"
        return [self._rule(event, "refused", f"{name}: {back} (deal {rec.deal.number} is over)", (seat,))]

    def _lead_claim(self, rec: _DealRecord, seat: int, card: Card, number: int) -> Claim | None:
        deal = rec.deal
        if not isinstance(deal, NegativeDeal) or not deal.ban_active(rec.hearts_played):
            return None
        name = self._name(seat)
        if deal.king_of_hearts_only_ban:
            if card != KING_OF_HEARTS:
                return None
            return Claim(seat, number, card, _ALL_CARDS - {KING_OF_HEARTS},
                         f"KH may not be led in deal {deal.number} while holding another card; {name} led KH",
                         "illegal_lead")
        if card.suit is not Suit.HEARTS:
            return None
        others = frozenset(c for c in _ALL_CARDS if c.suit is not Suit.HEARTS)
        return Claim(seat, number, card, others,
                     f"hearts may not be led in deal {deal.number} while holding another suit; "
                     f"{name} led {card}",
                     "illegal_lead")

    def _problem(self, event: TableEvent, rec: _DealRecord, problem: TrickProblem) -> list[Ruling]:
        self._flag(event, problem.kind, problem.text, problem.seat)
        if problem.kind not in _PROVEN_KINDS:
            return []
        rulings = self._breach(event, rec, problem)
        if problem.seat is None:
            return rulings
        key = (problem.seat, problem.trick)
        duty = rec.void_duties.get(key)
        if duty is not None and problem.kind == duty.kind:
            rec.void_duty_flags[key] = (self.infractions[-1], self._breach_label(rec, problem))
        elif duty is not None and problem.kind == "revoke":
            rulings.extend(self._withdraw_void_duty(event, rec, key, duty))
        return rulings

    def _withdraw_void_duty(self, event: TableEvent, rec: _DealRecord, key: tuple[int, int],
                            duty: Claim) -> list[Ruling]:
        """A revoke proven in trick ``key[1]``: the seat held the suit led, so a duty that binds
        only a void seat (§12 ``must_trump_when_void``: "a player void in the suit led";
        ``king_of_hearts_forced_discard`` (a): "whenever they cannot follow") did not bind it
        then. The claim is closed unproven, or, if the duty's card showed first, its flag is
        withdrawn: the seat broke one rule, the duty to follow."""
        del rec.void_duties[key]
        if rec.claim_book.withdraw(duty):
            return []
        proven = rec.void_duty_flags.pop(key, None)
        if proven is None:
            return []
        infraction, label = proven
        if infraction in self.infractions:
            self.infractions.remove(infraction)
        if label in rec.flags:
            rec.flags.remove(label)
        seat, trick = key
        return [self._rule(event, "withdrawn", f"deal {rec.deal.number}: {label} withdrawn: the revoke in "
                           f"trick {trick} proves {self._name(seat)} could follow, so the duty did not "
                           "apply", (seat,))]

    def _breach_label(self, rec: _DealRecord, problem: TrickProblem) -> str:
        what = problem.kind.replace("_", " ")
        who = self._name(problem.seat) if problem.seat is not None else "a player"
        unit = "turn" if isinstance(rec.deal, FanTanDeal) else "trick"
        return f"{what} by {who} ({unit} {problem.trick})"

    def _breach(self, event: TableEvent, rec: _DealRecord, problem: TrickProblem) -> list[Ruling]:
        """A proven breach: flag only, or discard the deal (``revoke_policy``)."""
        label = self._breach_label(rec, problem)
        if self.opts.revoke_policy == "flag_only":
            rec.flags.append(label)
            seats = () if problem.seat is None else (problem.seat,)
            return [self._rule(event, "flag", f"deal {rec.deal.number}: {label} proven; the table decides "
                               "(correct the scores with a score_correction if needed)", seats)]
        if rec.void:
            return []
        rec.void = True
        if rec.ended:
            # Posted already (a deal stopped early, or Fan Tan): take the scores back.
            self.results.pop(rec.deal.number - 1, None)
            self.deal_index = rec.deal.number - 1
            if self.finished:
                # The last deal is dealt again, so the match is not over (§10: it ends when the
                # second player runs out in deal 12): the end announced is taken back, as the
                # report's end ruling agrees with ``finished``; the redeal's end announces it.
                gone = [i for i, r in enumerate(self.rulings) if any(r is m for m in self.match_end)]
                self.rulings = [r for r in self.rulings if not any(r is m for m in self.match_end)]
                # A correction logged after the end is shown after the rulings made before it
                # (docs/table-log.md: in log order): those places count the rulings just taken back.
                self._correction_ruling_at = [at - sum(i < at for i in gone)
                                              for at in self._correction_ruling_at]
                self.infractions = [i for i in self.infractions if not any(i is m for m in self.match_end)]
                self.match_end = []
            self.finished = False
        return [self._rule(event, "replay_deal", f"deal {rec.deal.number} is discarded (revoke_policy "
                           f"replay_deal): {self._name(rec.dealer)} deals it again", (rec.dealer,))]

    def _end_deal(self, event: TableEvent, rec: _DealRecord, *, early: bool = False) -> list[Ruling]:
        deal = rec.deal
        rec.ended = True
        rec.stopped = early
        total = sum(rec.scores)
        scores = ", ".join(f"{self._name(s)} {_signed(v)}" for s, v in enumerate(rec.scores))
        rulings = []
        # A discarded deal closed without being dealt again scores nothing by design, not by a misread.
        if total != deal.fixed_total and not rec.void:
            self._flag(event, "misread",
                       f"deal {deal.number} ({deal.title}) scores add up to {total}, "
                       f"but every such deal totals {deal.fixed_total}: probable misread or missed trick; "
                       "check the tricks and correct "
                       "the scores", None)
        if early:
            rulings.append(self._rule(event, "stopped", f"deal {deal.number}: every penalty card is taken; "
                                      "the rest of the cards are shown"))
        self.results[self.deal_index] = tuple(rec.scores)
        self.deal_index += 1
        # §3: "deal k is dealt by the seat (k - 1) places to the left of D1", so every seat deals
        # three deals and names trumps once; a deal dealt by the wrong seat does not shift the rest.
        first = rec.dealer if self.first_dealer is None else self.first_dealer
        self.next_dealer = (first + self.deal_index) % N_SEATS
        check = "discarded" if rec.void else "ok" if total == deal.fixed_total else "MISMATCH"
        flagged = f"; flagged: {', '.join(rec.flags)}" if rec.flags else ""
        rulings.append(self._rule(event, "deal_end", f"deal {deal.number} ({deal.title}): {scores} "
                                  f"(total {_signed(total)}, {check}{flagged})", range(N_SEATS),
                                  {"deal": deal.number, "scores": list(rec.scores)}))
        if self.deal_index >= len(self.deals):
            self.finished = True
            rulings.extend(self._end_match(event))
        return rulings

    def _corrected_results(self, event: TableEvent) -> dict[int, tuple[int, ...]]:
        """The score sheet with the ``score_correction`` events logged up to ``event`` applied:
        the table fixes a flagged row during the match (§6.3), and the end-of-match checks
        (§9) and ranking (§10) are of the scores as fixed, not as first posted. (Corrections
        logged after the end change the report, not what was announced at the end.)"""
        rows = {i: list(r) for i, r in self.results.items()}
        for c in self._corrections:
            # A correction naming a deal the match never scored (after the last deal) has no
            # row to fix (docs/table-log.md): it adds none to the checks or the standings.
            if c.t_ns > event.t_ns or int(c.data["hand"]) - 1 not in rows:
                continue
            rows[int(c.data["hand"]) - 1][self.seat_index(c.seat)] = int(c.data["score"])
        return {i: tuple(r) for i, r in rows.items()}

    def _end_match(self, event: TableEvent) -> list[Ruling]:
        checked = len(self.infractions)
        results = self._corrected_results(event)
        sheet = [results[i] for i in sorted(results)]
        first = sum(sum(r) for i, r in results.items() if i < 7)
        second = sum(sum(r) for i, r in results.items() if i >= 7)
        expected_second = sum(d.fixed_total for d in self.deals[7:])
        for label, got, want in (("first half", first, -2600), ("second half", second, expected_second)):
            if got != want:
                self._flag(event, "misread", f"the {label} totals {got}, not {want}", None)
        total = sum(sum(r) for r in sheet)
        if total != 0 and expected_second == 2600:
            self._flag(event, "misread", f"the final scores add up to {total}, not 0", None)
        totals = [sum(r[s] for r in sheet) for s in range(N_SEATS)]
        places = ", ".join(f"{p}. {self._name(s)} ({_signed(v)})" for p, s, v in standings(totals))
        ruling = self._rule(event, "match_end", f"match over: {places}", range(N_SEATS))
        self.match_end = [ruling, *self.infractions[checked:]]
        return [ruling]

    def _on_collect(self, event: TableEvent) -> list[Ruling]:
        if self.record is None:
            # Before the first deal nothing is on the table. docs/table-log.md makes only a play
            # before the first deal malformed; a collect with no trick in play changes nothing.
            return [self._rule(event, "ignored", "collect before the first deal: no trick in play", ())]
        rec = self._active(event)
        # No trick to sweep: Fan Tan builds a layout (§8), a trump deal has no trick before trumps
        # are named (§7.1), and no deal has one before its first card (§6.1, §7.1: the deal, then
        # the lead). docs/table-log.md: with no trick in play a collect changes nothing (ignored).
        unplayed = (rec.auditor is not None and not rec.auditor.history.completed
                    and not rec.auditor.history.current.plays)
        if rec.auditor is None or unplayed:
            where = ("the Fan Tan layout is not collected" if isinstance(rec.deal, FanTanDeal)
                     else "no card is played yet" if unplayed else "trumps are not named yet")
            return [self._rule(event, "ignored", f"collect in deal {rec.deal.number} ({rec.deal.title}): "
                               f"no trick in play, {where}", ())]
        problem = rec.auditor.collect()
        if problem is not None:
            rec.reshow = dict(rec.auditor.history.current.plays)
            rec.reshow_trick = problem.trick
            self._flag(event, problem.kind, problem.text, None)
            return [self._rule(event, "reshow", f"show trick {problem.trick} again: "
                               f"{len(rec.auditor.history.current)} of 4 cards were seen")]
        if rec.stopped and rec.played_out:
            # Cards played out after an early stop score nothing and form no trick of the deal
            # (§12 stop_when_penalties_exhausted): their sweep has no winner to check.
            return []
        if rec.swept:
            # The table swept the last trick already: nothing is on the table to collect.
            return [self._rule(event, "ignored", f"collect in deal {rec.deal.number} ({rec.deal.title}): "
                               "no trick in play, the last trick is already collected", ())]
        rec.swept = True
        if event.seat is not None:
            taker = self.seat_index(event.seat)
            last = rec.auditor.history.last
            if last is not None and last.winner != taker:
                return [self._rule(event, "taker", f"{self._name(taker)} collected the trick, but "
                                   f"{self._name(last.winner)} won it with {last.winning_card}",
                                   (last.winner, taker))]
        return []

    # -- Fan Tan -------------------------------------------------------------------------
    def _fan_tan_turn_ok(self, event: TableEvent, rec: _DealRecord, seat: int, what: str) -> bool:
        if rec.opening is not None and rec.cards_played == 0:
            return True  # the holder of the opening card plays first, whoever it is
        if seat in rec.out:
            self._flag(event, "out_of_turn", f"{self._name(seat)} is out of cards and cannot {what} "
                       f"(turn {rec.turn_number})", seat)
            return False
        if seat != rec.turn:
            self._flag(event, "out_of_turn", f"{self._name(seat)} tried to {what} out of turn at turn "
                       f"{rec.turn_number}: it is {self._name(rec.turn)}'s turn", seat)
            return False
        return True

    def _fan_tan_play(self, event: TableEvent, rec: _DealRecord, seat: int, card: Card) -> list[Ruling]:
        assert rec.layout is not None and isinstance(rec.deal, FanTanDeal)
        name = self._name(seat)
        if not self._fan_tan_turn_ok(event, rec, seat, f"play {card}"):
            return [self._rule(event, "refused", f"{name}: take back {card} (out of turn)", (seat,))]
        if card in rec.seen:
            self._flag(event, "seen_twice", f"{card} seen twice in Fan Tan (turn {rec.turn_number}, {name}): "
                       "it is already in the layout (a misread or a foul deck)", seat)
            return [self._rule(event, "refused", f"{name}: take back {card}", (seat,))]
        if rec.opening is not None and rec.cards_played == 0 and card != rec.opening:
            self._flag(event, "misfit", f"{name} played {card}, but the deal opens with {rec.opening}", seat)
            return [self._rule(event, "refused", f"{name}: take back {card}; {rec.opening} opens", (seat,))]
        if not rec.layout.fits(card):
            self._flag(event, "misfit", f"{name} played {card} at turn {rec.turn_number}, "
                       f"but it does not fit the layout ({rec.layout}): "
                       "take it back and play a card that fits, or pass", seat)
            return [self._rule(event, "refused", f"{name}: take back {card} (does not fit)", (seat,))]
        rulings: list[Ruling] = []
        for proof in rec.claims.observe(seat, card, rec.turn_number):
            problem = proof_problem(proof, self.seats, unit="turn")
            rulings.extend(self._problem(event, rec, problem))
        if rec.void:
            return rulings
        rec.seen.see(card, rec.turn_number)
        rec.layout = rec.layout.place(card)
        rec.played[seat] += 1
        rec.turn = seat
        if rec.played[seat] == 13:
            prize = rec.deal.prizes[len(rec.out)]
            rec.scores[seat] += prize
            rec.out.append(seat)
            place = "first" if len(rec.out) == 1 else "second"
            rulings.append(self._rule(event, "out", f"turn {rec.turn_number}: {name} is out {place} "
                                      f"({_signed(prize)})", (seat,)))
            if len(rec.out) == 2:
                rec.turn_number += 1
                # §13.3: the two players left never play their cards, so the kiosk asks to see
                # them; the 'reveal' events are checked against every stored pass.
                left = [s for s in range(N_SEATS) if s not in rec.out]
                rulings.append(self._rule(
                    event, "show_cards", f"{' and '.join(self._name(s) for s in left)}: lay the cards "
                    "you still hold face up; they are checked against your passes", left,
                ))
                rulings.extend(self._end_deal(event, rec))
                return rulings
        self._advance_fan_turn(rec, seat)
        return rulings

    def _advance_fan_turn(self, rec: _DealRecord, seat: int) -> None:
        rec.turn_number += 1
        nxt = (seat + 1) % N_SEATS
        while nxt in rec.out:
            nxt = (nxt + 1) % N_SEATS
        rec.turn = nxt

    def _on_pass(self, event: TableEvent) -> list[Ruling]:
        seat = self.seat_index(event.seat)
        rec = self._active(event)
        rec.last_play = None
        if not isinstance(rec.deal, FanTanDeal):
            raise InvalidActionError(
                f"'pass' event in deal {rec.deal.number} ({rec.deal.title}): passes exist only in Fan Tan",
                input="pass",
            )
        if rec.ended:
            return self._after_end(event, rec, seat, None)
        assert rec.layout is not None
        name = self._name(seat)
        if rec.opening is not None and rec.cards_played == 0:
            self._flag(event, "out_of_turn", f"{name} passed, but the holder of {rec.opening} opens the deal",
                       seat)
            return [self._rule(event, "refused", f"{name}: the holder of {rec.opening} plays first", (seat,))]
        if not self._fan_tan_turn_ok(event, rec, seat, "pass"):
            return [self._rule(event, "refused", f"{name}: not your turn", (seat,))]
        fitting = rec.layout.fitting_cards()
        shown = " ".join(str(c) for c in sorted(fitting, key=lambda c: (c.suit, c.rank)))
        rec.claims.add(Claim(seat, rec.turn_number, None, fitting,
                             f"{name} passed while {{{shown}}} fitted the layout", "illegal_pass"))
        rec.turn = seat
        self._advance_fan_turn(rec, seat)
        return []

    def _on_reveal(self, event: TableEvent) -> list[Ruling]:
        seat = self.seat_index(event.seat)
        raw = event.require("cards")
        if not isinstance(raw, list):
            raise InvalidActionError("'reveal' event: 'cards' must be a list such as [\"KD\", \"2S\"]",
                                     input=repr(raw))
        cards = [self._card(event, c) for c in raw]
        if self.record is None:
            # No deal yet: no cards are held, and none is left to check (§13.3). docs/table-log.md
            # makes only a play before the first deal malformed: this changes nothing.
            return [self._rule(event, "ignored", f"{self._name(seat)} shows "
                               f"{' '.join(map(str, cards)) or 'nothing'} before the first deal: "
                               "nothing to check", (seat,))]
        if self.record.void:
            # The rest of the cards shown after the deal was discarded: nothing left to judge.
            return [self._rule(event, "reveal", f"{self._name(seat)} shows "
                               f"{' '.join(map(str, cards)) or 'nothing'} (deal discarded)", (seat,))]
        rec = self._active(event)
        name = self._name(seat)
        shown = " ".join(map(str, cards)) or "nothing"
        if not rec.ended:
            # §13.3: the cards left are laid face up at the end of the deal. A seat that shows its
            # hand while the deal is still being played breaks that at the table (the log is
            # well formed): reported, and the cards stay in the hand, to be played as seen.
            self._flag(event, "early_reveal", f"{name} showed {shown} before deal {rec.deal.number} "
                       "ended: the cards left are shown only at the end of the deal", seat)
            return [self._rule(event, "refused", f"{name}: pick up {shown}; deal {rec.deal.number} "
                               "is still being played", (seat,))]
        if seat in rec.shown:
            # The seat's cards were checked when first shown; showing them again proves nothing
            # new, but a different set means one of the two showings is wrong.
            if sorted(cards) != sorted(rec.shown_cards.get(seat, [])):
                self._flag(event, "wrong_count", f"{name} shows {shown}, but showed "
                           f"{' '.join(map(str, rec.shown_cards.get(seat, []))) or 'nothing'} before",
                           seat)
            return [self._rule(event, "reveal", f"{name} shows {shown} again (already shown)", (seat,))]
        rec.shown.add(seat)
        rec.shown_cards[seat] = cards
        held = 13 - rec.played[seat]
        if len(cards) != held:
            self._flag(event, "wrong_count", f"{name} shows {len(cards)} cards but should hold {held}", seat)
        return self._shown(event, rec, seat, cards)

    def _shown(self, event: TableEvent, rec: _DealRecord, seat: int, cards: list[Card]) -> list[Ruling]:
        """Cards ``seat`` shows after its deal ended (§13.3): checked against the cards seen and
        against every claim still open for the seat."""
        name = self._name(seat)
        seen = rec.seen_cards
        for c in cards:
            if c in seen:
                self._flag(event, "seen_twice", f"{name} shows {c}, which was already seen this deal "
                           "(a misread or a foul deck)", seat)
            else:
                seen.see(c, 1 << 30)
        unit = "turn" if isinstance(rec.deal, FanTanDeal) else "trick"
        rulings: list[Ruling] = []
        # A card the seat already played to a trick left its hand then: shown again it is a misread
        # (flagged above), and it proves no claim (§13.3: a proof is a card that was still in the
        # hand when the claim was made).
        held = [c for c in cards if not self._played_to_trick(rec, seat, c)]
        for claim in rec.claim_book.open_claims(seat):
            if claim not in rec.claim_book.open_claims(seat):
                continue  # withdrawn by a revoke proven just before (a duty of a void seat)
            hit = [c for c in held if c in claim.refuted_by]
            if not hit:
                continue
            what = claim.kind.replace("_", " ")
            text = (f"{what} by {name} in {unit} {claim.where}: {claim.reason}; "
                    f"proven at the end of the deal: {name} still holds {' '.join(map(str, hit))}")
            problem = TrickProblem(claim.kind, claim.where, seat, text, claim.card, None, hit[0])
            rulings.extend(self._problem(event, rec, problem))
        rec.claim_book.observe_shown(seat, held, 1 << 30)
        rulings.append(self._rule(event, "reveal", f"{name} shows {' '.join(map(str, cards)) or 'nothing'}",
                                  (seat,)))
        return rulings

    # -- public view ---------------------------------------------------------------------
    def public_view(self) -> KierkiView:
        """What everyone at the table can see, in the strict engine's :class:`KierkiView`: the
        deal and its dealer, trumps, the trick in play (leader and cards), tricks won, the
        penalty cards each seat took, the Fan Tan layout, and the scores posted so far.

        Phases: ``deal`` (waiting for a deal), ``name_trump``, ``play``, ``fan_tan``, ``over``.
        ``cards_left`` counts down from 13 as the seat's cards are seen played.

        >>> from kiosk.games.kierki.options import KierkiOptions
        >>> ref = KierkiReferee(["N", "E", "S", "W"], KierkiOptions())
        >>> _ = ref.feed(TableEvent("deal", 0, seat="N"))
        >>> _ = ref.feed(TableEvent("play", 1, seat="E", data={"card": "3C"}))
        >>> v = ref.public_view()
        >>> v.deal_number, v.deal_title, v.dealer, v.phase, v.to_play, v.cards_left
        (1, 'no tricks', 0, 'play', 2, (13, 12, 13, 13))
        >>> [(seat, str(card)) for seat, card in v.current_trick.plays]
        [(1, '3C')]
        """
        totals = self._totals()
        sheet = tuple(self.results[i] for i in sorted(self.results))
        winners: tuple[int, ...] = ()
        if self.finished:
            best = max(totals)
            winners = tuple(s for s in range(N_SEATS) if totals[s] == best)
        rec = self.record
        live = rec is not None and not rec.void
        if rec is None or not live:
            return KierkiView(
                deal_number=len(self.deals) if self.finished else self.deal_index, deal_count=len(self.deals),
                deal_name=None, deal_title=None, dealer=self.next_dealer,
                phase="over" if self.finished else "deal", to_play=None, trump=None, trick_number=None,
                current_trick=None, last_trick=None, tricks_won=(0,) * N_SEATS,
                penalty_cards=((),) * N_SEATS, deal_scores=(0,) * N_SEATS, scores=tuple(totals), sheet=sheet,
                cards_left=(0,) * N_SEATS, layout=None, out=(), is_over=self.finished, winners=winners,
            )
        deal = rec.deal
        auditor = rec.auditor
        won = (0,) * N_SEATS
        penalty: tuple[tuple[Card, ...], ...] = ((),) * N_SEATS
        to_play: int | None = None
        if auditor is not None:
            history = auditor.history
            won = tuple(history.tricks_won(s) for s in range(N_SEATS))
            if isinstance(deal, NegativeDeal):
                penalty = tuple(tuple(deal.penalty_cards(history.taken_by(s))) for s in range(N_SEATS))
            to_play = history.to_play
            phase = "play"
        elif isinstance(deal, FanTanDeal):
            to_play, phase = rec.turn, "fan_tan"
        else:
            assert isinstance(deal, TrumpDeal)
            to_play, phase = deal.chooser(rec.dealer), "name_trump"
        if rec.ended:
            to_play = None
            phase = "over" if self.finished else "deal"
        return KierkiView(
            deal_number=deal.number,
            deal_count=len(self.deals),
            deal_name=deal.name,
            deal_title=deal.title,
            dealer=rec.dealer,
            phase=phase,
            to_play=to_play,
            trump=rec.trump,
            trick_number=auditor.trick_number if auditor is not None else None,
            current_trick=auditor.history.current if auditor is not None else None,
            last_trick=auditor.history.last if auditor is not None else None,
            tricks_won=won,
            penalty_cards=penalty,
            deal_scores=tuple(rec.scores),
            scores=tuple(totals),
            sheet=sheet,
            cards_left=tuple(13 - n for n in rec.played),
            layout=str(rec.layout) if rec.layout is not None else None,
            out=tuple(rec.out),
            is_over=self.finished,
            winners=winners,
        )

    # -- report --------------------------------------------------------------------------
    def report(self) -> RefereeReport:
        """The report with the table's score corrections applied; the winners and the
        standings follow the corrected totals (§10: the highest final score wins, equal
        scores share the place), not the totals before the corrections."""
        rep = super().report()
        totals = [rep.totals[s] for s in self.seats]
        rep.extra["standings"] = [
            {"place": p, "seat": self.seats[s], "score": v} for p, s, v in standings(totals)
        ]
        if rep.finished:
            best = max(totals)
            rep.winners = [self.seats[s] for s in range(N_SEATS) if totals[s] == best]
        return rep

    def _totals(self) -> list[int]:
        totals = [0] * N_SEATS
        for scores in self.results.values():
            for s, v in enumerate(scores):
                totals[s] += v
        return totals

    def _report(self) -> RefereeReport:
        totals = self._totals()
        hands = [dict(zip(self.seats, self.results[i], strict=True)) for i in sorted(self.results)]
        winners: list[str] = []
        if self.finished:
            best = max(totals)
            winners = [self.seats[s] for s in range(N_SEATS) if totals[s] == best]
        rec = self.record
        extra: dict[str, Any] = {
            "deals": [dict(self.deal_info[i]) for i in sorted(self.deal_info)],
            "standings": [{"place": p, "seat": self.seats[s], "score": v} for p, s, v in standings(totals)],
        }
        if rec is not None and not rec.ended and not rec.void:
            extra["in_progress"] = {"deal": rec.deal.number, "scores": dict(zip(self.seats, rec.scores,
                                                                               strict=True))}
        return RefereeReport(
            game=self.game_name,
            seats=self.seats,
            rulings=list(self.rulings),
            infractions=list(self.infractions),
            hands=hands,
            totals=dict(zip(self.seats, totals, strict=True)),
            finished=self.finished,
            winners=winners,
            notes=[*self.opts.warnings(), *self.repeats],
            extra=extra,
        )
