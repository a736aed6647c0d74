"""Doctest collection: the PyTorch modules are skipped where the ``train`` extra is not installed."""

import importlib.util

collect_ignore = (
    [] if importlib.util.find_spec("torch") else ["train.py", "model.py", "export.py", "enrol.py"]
)
