"""The layout of the detector's output and the classifier's labels: the contract between
training (:mod:`vision.training`) and run time (:mod:`vision.postprocess`).

The detector outputs ``CHANNELS`` maps at 1/:data:`STRIDE` of its input. Each
corner index is a peak in :data:`IDX_HEAT`; at the peak cell the index's up
vector, size, sub-cell position and the vector to its card's centre are
regressed. Each card whose centre shows is a peak in :data:`FACE_HEAT`
(face up) or :data:`BACK_HEAT` (face down), with the card's axis (as a doubled
angle, since a card turned half a turn looks the same), its side lengths, its
sub-cell position and whether its whole outline shows.

>>> CHANNELS, len(CLASSIFIER_LABELS), CLASSIFIER_LABELS[-1]
(18, 66, 'NOT_INDEX')
"""

from __future__ import annotations

from vision.cardart.tokens import ALL_TOKENS

STRIDE = 4
"""Detector output cells per input pixel: one cell is 4×4 detector pixels (8×8 frame pixels)."""

IDX_HEAT = 0
FACE_HEAT = 1
BACK_HEAT = 2
IDX_UP = slice(3, 5)
"""cos, sin of the index's up direction (image axes)."""
IDX_LOGSIZE = slice(5, 7)
"""log(width / STRIDE), log(height / STRIDE) of the index, in detector pixels."""
IDX_TO_CARD = slice(7, 9)
"""Vector from the index centre to its card's centre, in cells / :data:`OFFSET_UNIT`."""
IDX_SUB = slice(9, 11)
"""Index centre within its cell: centre / STRIDE - cell."""
CARD_AXIS = slice(11, 13)
"""cos 2θ, sin 2θ of the card's long axis."""
CARD_LOGSIZE = slice(13, 15)
"""log(long side / STRIDE), log(short side / STRIDE), in detector pixels."""
CARD_SUB = slice(15, 17)
CARD_FULL = 17
"""Logit: the card's whole outline shows."""
CHANNELS = 18

OFFSET_UNIT = 8.0
"""Index-to-card vectors are regressed in units of this many cells."""

NOT_INDEX = "NOT_INDEX"
CLASSIFIER_LABELS: tuple[str, ...] = ALL_TOKENS + (NOT_INDEX,)
"""Classifier outputs: every face token, then "this crop is not an upright corner index"."""
