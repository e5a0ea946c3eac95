"""The service's shared plumbing: the store as a front end opens and holds it (``opening``), the
server's tokens (``access``), which rules a command means (``rules``) and the plain data every front
end shows (``shapes``). It imports no other group.
"""
