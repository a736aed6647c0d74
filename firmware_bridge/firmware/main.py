# Runs at boot on the Pico. Edit INPUTS to match the wiring: (GPIO number, SWITCH or PULSE).
# Copy both files to the board, e.g.: mpremote cp pico_bridge.py main.py : && mpremote reset
import pico_bridge

INPUTS = pico_bridge.DEFAULT_INPUTS

pico_bridge.main(INPUTS)
