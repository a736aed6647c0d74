"""Training the card recognizer: synthetic scenes, targets, the PyTorch networks, export, enrolment.

Needs the ``train`` extra (PyTorch) for :mod:`~vision.training.train`,
:mod:`~vision.training.model`, :mod:`~vision.training.export` and
:mod:`~vision.training.enrol`; the scene renderer and the evaluation need only
NumPy and OpenCV, so tests and benchmarks use them without PyTorch.
"""
