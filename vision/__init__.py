"""Vision: frame sources, calibration, the ONNX card recognizer and the table tracker."""
