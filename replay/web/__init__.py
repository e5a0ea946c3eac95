"""``honba serve``: the web front end (presentation), over the same application service as the command."""
