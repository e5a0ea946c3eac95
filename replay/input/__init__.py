"""What people type or send: hand values, players, rule overrides, read into values once."""
