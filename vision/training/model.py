"""The two networks, in PyTorch (training only; run time uses their ONNX exports).

- :class:`Detector`: a small fully-convolutional network (plain 3×3
  convolutions, which train several times faster on a CPU than depthwise ones,
  and a feature pyramid back to stride 4) that outputs the maps described in
  :mod:`vision.heads`.
- :class:`Classifier`: a small CNN that reads one upright corner-index crop and
  names the card, or says it is not an index.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.heads import BACK_HEAT, CHANNELS, CLASSIFIER_LABELS, FACE_HEAT, IDX_HEAT

__all__ = ["Detector", "Classifier"]


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Detector(nn.Module):
    def __init__(self, width: int = 32, chans: tuple[int, ...] = (16, 24, 32, 48, 64, 96)) -> None:
        super().__init__()
        c = chans
        self.stem = nn.Sequential(_conv(3, c[0], 2), _conv(c[0], c[1], 2))
        self.s4 = _conv(c[1], c[2])
        self.s8 = nn.Sequential(_conv(c[2], c[3], 2), _conv(c[3], c[3]))
        self.s16 = nn.Sequential(_conv(c[3], c[4], 2), _conv(c[4], c[4]))
        self.s32 = nn.Sequential(_conv(c[4], c[5], 2), _conv(c[5], c[5]))
        self.lat4 = nn.Conv2d(c[2], width, 1)
        self.lat8 = nn.Conv2d(c[3], width, 1)
        self.lat16 = nn.Conv2d(c[4], width, 1)
        self.lat32 = nn.Conv2d(c[5], width, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(_conv(width, width), nn.Conv2d(width, CHANNELS, 1))
        with torch.no_grad():
            # Heat maps start near zero (CenterNet's prior), so early training is not swamped by negatives.
            last = self.head[-1]
            assert isinstance(last, nn.Conv2d) and last.bias is not None
            bias = last.bias
            for ch in (IDX_HEAT, FACE_HEAT, BACK_HEAT):
                bias[ch] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p = self.lat32(f32)
        p = self.lat16(f16) + self.up(p)
        p = self.lat8(f8) + self.up(p)
        p = self.lat4(f4) + self.up(p)
        out: torch.Tensor = self.head(p)
        return out


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        # About 8 MMAC per crop. The first convolution keeps full resolution and the head keeps the
        # 4×4 layout (no global pooling): telling a 6 from an 8, or a 10 from a K, in a 10-pixel glyph
        # needs both. A frame with 40 visible indices costs ~0.3 GMAC here.
        self.features = nn.Sequential(
            _conv(3, 16),
            _conv(16, 32, 2),
            _conv(32, 48),
            nn.MaxPool2d(2),
            _conv(48, 64),
            _conv(64, 96, 2),
            nn.Flatten(),
        )
        self.fc = nn.Sequential(
            nn.Dropout(0.2),
            nn.Linear(96 * 16, 128),
            nn.ReLU(inplace=True),
            nn.Linear(128, len(CLASSIFIER_LABELS)),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.fc(self.features(x))
        return out
