# The tree-sitter-python grammar, fetched from the npm registry at configure time (never committed).
# 0.23.6 is the newest release with language ABI 14, the newest ABI that Debian bookworm's
# libtree-sitter 0.20.7 loads (0.25 is ABI 15 and is refused at ts_parser_set_language).
# INTEGRITY is the registry's `dist.integrity` (npm view tree-sitter-python@0.23.6 dist.integrity);
# SHA512 is the same digest in hex, which CMake's file(SHA512) can compare.
set(HG_GRAMMAR_PYTHON_PACKAGE   "tree-sitter-python")
set(HG_GRAMMAR_PYTHON_VERSION   "0.23.6")
set(HG_GRAMMAR_PYTHON_INTEGRITY "sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==")
set(HG_GRAMMAR_PYTHON_SHA512    "c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc")
set(HG_GRAMMAR_PYTHON_SOURCES parser.c scanner.c)
