"""The application service: every use case, taking plain values and returning attrs values or plain
data; no printing, no parsing of what was typed.

Front ends (``replay.cli``, ``replay.web``, ``replay.html``) call it and present what it returns;
it reads and writes through ``replay.store``.

The use cases are grouped by what they serve, each group a package that imports only the groups
before it: ``common`` (the plumbing all share: the store as opened, its refusals, tokens, rules,
files, the plain data shown), ``audit`` (checks, damage, digests, proofs, keys), ``tournaments``
(a tournament, its sign-off and standings), ``recording`` (a table's entries, the clock, a match
as shown, the table page), ``director`` (running an event: seatings, stages, draws, ratings,
certificates), ``imports`` (logs and record files in and out). No module sits at this root.
"""
