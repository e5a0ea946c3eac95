# domain's __init__ places the compiled build's stale guard (domain/compiled.py) before any module
# here is imported: a compiled module of this package is never loaded ahead of it.
import domain  # noqa: F401
