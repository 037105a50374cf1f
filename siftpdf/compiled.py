"""The modules siftpdf may run compiled, and which of them do.

Organization (the article layer) is compiled with mypyc where siftpdf is installed with a C
compiler at hand (``setup.py``), and the evidence's busiest loops (path segments, word gaps,
the stretches each text object drew) are a small C extension (:data:`EXTENSIONS`); everywhere
else the same work runs as Python, with the same output, byte for byte
(``tests/test_compiled.py`` checks it on the corpus and the benchmarks).
The choice, measured: docs/bakeoff.md, "Compiled code". An editable install (``make``) runs
the Python; ``tools/compiled.py`` builds the compiled copy the tests compare with it.

No imports at module level: ``setup.py`` reads :data:`MODULES` and :data:`EXTENSIONS` from
this file's text.
"""

#: The compiled modules' sources, relative to the project's root.
MODULES = (
    "siftpdf/organize/__init__.py",
    "siftpdf/organize/headings.py",
    "siftpdf/organize/layout.py",
    "siftpdf/organize/tables.py",
    "siftpdf/organize/turned.py",
    "siftpdf/organize/xycut.py",
)


#: The C extensions' sources (each a module of its own name in its folder), built with the
#: flags ``EXTENSION_FLAGS``: no fused multiply-add, so their arithmetic is Python's.
EXTENSIONS = ("siftpdf/child/_loops.c",)
EXTENSION_FLAGS = ("-ffp-contract=off",)


def module_name(source: str) -> str:
    """``siftpdf/organize/layout.py`` -> ``siftpdf.organize.layout`` (a package's ``__init__``
    is the package)."""
    name = source.removesuffix(".py").removesuffix(".c").replace("/", ".")
    return name.removesuffix(".__init__")


def state(sources: tuple[str, ...] = MODULES) -> dict[str, object]:
    """Which of ``sources`` (:data:`MODULES`, or :data:`EXTENSIONS`) run compiled here: ``path``
    ("compiled", "python", or "mixed" when only some are: a broken build), the modules
    ``compiled`` and those running as ``python`` (a C extension that is not built, or does not
    load, is ``python``: the extraction child then runs its Python loops)."""
    import importlib
    from importlib.machinery import EXTENSION_SUFFIXES

    compiled: list[str] = []
    python: list[str] = []
    for source in sources:
        name = module_name(source)
        try:
            found = getattr(importlib.import_module(name), "__file__", None) or ""
        except ImportError:  # only a C extension may be absent
            found = ""
        (compiled if found.endswith(tuple(EXTENSION_SUFFIXES)) else python).append(name)
    path = "compiled" if not python else "python" if not compiled else "mixed"
    return {"path": path, "compiled": compiled, "python": python}
