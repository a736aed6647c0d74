"""The kiosk application: inputs, referee, event log, screens, command line."""
