"""The application service: every use case, taking plain values and returning attrs values or plain
data; no printing, no parsing of what was typed.

Front ends (``replay.cli``, ``replay.web``, ``replay.html``) call it and present what it returns;
it reads and writes through ``replay.store``.
"""
