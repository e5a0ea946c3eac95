"""The application service: the use cases, each returning attrs values or plain data; no printing.

Front ends (``replay.cli``, ``replay.html``) call it and present what it returns.
"""
