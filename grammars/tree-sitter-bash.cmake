# The tree-sitter-bash grammar, fetched from the npm registry at configure time (never committed).
# 0.23.3 is the newest release with language ABI 14 (0.25 is ABI 15, refused by Debian bookworm's
# libtree-sitter 0.20.7). It has an external scanner in C. INTEGRITY is the registry's
# `dist.integrity` (npm view tree-sitter-bash@0.23.3 dist.integrity); SHA512 is the same digest in hex.
set(HG_GRAMMAR_BASH_PACKAGE   "tree-sitter-bash")
set(HG_GRAMMAR_BASH_VERSION   "0.23.3")
set(HG_GRAMMAR_BASH_INTEGRITY "sha512-36cg/GQ2YmIbeiBeqeuh4fBJ6i4kgVouDaqTxqih5ysPag+zHufyIaxMOFeM8CeplwAK/Luj1o5XHqgdAfoCZg==")
set(HG_GRAMMAR_BASH_SHA512    "dfa720fc643662621b7a205ea9eba1e1f049ea2e24815a2e0daa93c6a8a1e72b0f6a0fb31ee7f221ac4c38578cf027a997000afcbba3d68e571ea81d01fa0266")
set(HG_GRAMMAR_BASH_SOURCES   parser.c scanner.c)
