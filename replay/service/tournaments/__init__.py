"""A tournament and its standings: create it, its players and sessions, the sign-off, the
standings with the tables in play, player statistics and the paper score sheets.
"""
