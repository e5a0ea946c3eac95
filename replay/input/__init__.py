"""What people type or send: hand values, players, rule overrides, read into values once; and the
files they name, read with a cap on their size and written whole (``files``)."""
