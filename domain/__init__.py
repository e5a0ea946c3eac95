# Before any module of honba's three packages is imported: the compiled build's stale guard
# (domain/compiled.py), so that an edited source is never shadowed by its old compiled module.
from domain import compiled as _compiled

_compiled.guard()
