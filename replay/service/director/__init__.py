"""Running an event: the director's pages, seatings, staged events and teams, seating draws,
what each player needs, the public standings page, ratings, what-if standings, signed
certificates of a result and the address table links start with.
"""
