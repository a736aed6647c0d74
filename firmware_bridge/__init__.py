"""The serial link to the button and slap-pad microcontroller."""
