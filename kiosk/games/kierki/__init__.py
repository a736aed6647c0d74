"""Kierki: the Polish compendium game of 7 negative deals, 4 trump deals and Fan Tan.

Rule source: ``kierki.md`` (version 1.0) in the shared rules folder; every
**[DEFAULT]** there is the default here, and every variant of its §12 is an
option of :class:`KierkiOptions`.

Glossary: **deal** (one of the twelve parts of a match), **Rozgrywka** (the
negative first half), **Odgrywka** (the positive second half), **robber**
(deal 7, every penalty at once), **heart-lead ban** (deals 2, 5, 7), **trump**
(named by the dealer after five cards in deals 8 to 11), **Fan Tan** (deal 12,
a layout of four rows; first out +800, second +500), **fixed total** (the sum
every deal must score), **revoke** (not following suit while able; proven by
later play).

Modules: :mod:`.options` (variants), :mod:`.deals` (one class per kind of
deal, a registry by name), :mod:`.fantan` (the layout), :mod:`.actions`
(actions and notation), :mod:`.state` (the strict match),
:mod:`.referee` (the table-log referee), :mod:`.game` (:class:`KierkiGame`).
"""

from kiosk.games.kierki.actions import ChooseDealer, Deal, KierkiAction, NameTrump, Pass, PlayCard
from kiosk.games.kierki.deals import DEAL_TYPES, MATCH_ORDER, KierkiDeal, find_deal, match_deals
from kiosk.games.kierki.fantan import Layout
from kiosk.games.kierki.game import KierkiGame
from kiosk.games.kierki.options import KierkiOptions
from kiosk.games.kierki.referee import KierkiReferee
from kiosk.games.kierki.state import KierkiState, KierkiView, Phase, standings

__all__ = [
    "DEAL_TYPES",
    "MATCH_ORDER",
    "ChooseDealer",
    "Deal",
    "KierkiAction",
    "KierkiDeal",
    "KierkiGame",
    "KierkiOptions",
    "KierkiReferee",
    "KierkiState",
    "KierkiView",
    "Layout",
    "NameTrump",
    "Pass",
    "Phase",
    "PlayCard",
    "find_deal",
    "match_deals",
    "standings",
]
