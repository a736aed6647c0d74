"""Card art: deck designs that draw every face and back the recognizer knows.

Used by the synthetic table renderer and the training pipeline. Procedural
designs need nothing installed; Debian artist decks (``gnome-cards-data``) join
the list where installed; enrolled decks come from photographs.

>>> len(list_designs(split="heldout")) >= 2
True
>>> render_back(list_designs()[0], 90).shape
(90, 64, 4)
"""

from vision.cardart.designs import (
    CardDesign,
    face_index_boxes,
    get_design,
    list_designs,
    register_design,
    render_back,
    render_face,
)
from vision.cardart.tokens import ALL_TOKENS, GNOMING_TOKENS, STANDARD_TOKENS, index_text

__all__ = [
    "CardDesign",
    "list_designs",
    "get_design",
    "register_design",
    "render_face",
    "render_back",
    "face_index_boxes",
    "ALL_TOKENS",
    "STANDARD_TOKENS",
    "GNOMING_TOKENS",
    "index_text",
]
