"""The errors :mod:`vision` raises: one base class, so callers can catch them all."""

from __future__ import annotations

__all__ = ["VisionError", "ModelError"]


class VisionError(Exception):
    """Base class of the vision package's errors; the message says what went wrong and how to fix it."""


class ModelError(VisionError):
    """A model file is missing, corrupt, or does not match its manifest."""
