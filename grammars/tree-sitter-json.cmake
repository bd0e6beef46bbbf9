# The tree-sitter-json grammar (devcontainer.json, JSON with comments), fetched from the npm registry
# at configure time (never committed). 0.24.8 is language ABI 14 (Debian bookworm's libtree-sitter
# 0.20.7 loads ABI <= 14), has no external scanner, and parses `//` and `/* */` comments, which the
# devcontainer specification allows. INTEGRITY is the registry's `dist.integrity` (npm view
# tree-sitter-json@0.24.8 dist.integrity); SHA512 is the same digest in hex.
set(HG_GRAMMAR_JSON_PACKAGE   "tree-sitter-json")
set(HG_GRAMMAR_JSON_VERSION   "0.24.8")
set(HG_GRAMMAR_JSON_INTEGRITY "sha512-Tc9ZZYwHyWZ3Tt1VEw7Pa2scu1YO7/d2BCBbKTx5hXwig3UfdQjsOPkPyLpDJOn/m1UBEWYAtSdGAwCSyagBqQ==")
set(HG_GRAMMAR_JSON_SHA512    "4dcf59658c07c966774edd55130ecf6b6b1cbb560eeff77604205b293c79857c2283751f7508ec38f90fc8ba4324e9ff9b5501116600b52746030092c9a801a9")
set(HG_GRAMMAR_JSON_SOURCES   parser.c)
