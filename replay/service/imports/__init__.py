"""Logs in and out: whether ``import``/``verify`` options go together, a logged game turned into
a Match, verified against its log, stored whole; many files at once, the fair-deal check,
exports and the demo match.
"""
