"""Recording at a table: start a match, enter and correct results (typed or by tiles), the
clock, a stored match as the front ends show it, and the table page's use cases.
"""
