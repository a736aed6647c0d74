"""The kiosk's sound cues (.wav files) and the script that makes them."""
