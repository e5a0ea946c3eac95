"""HTML pages and charts (the audit report, the standings, the player statistics): presentation only.

They lay out the plain data the application returns; nothing below imports them.
"""
