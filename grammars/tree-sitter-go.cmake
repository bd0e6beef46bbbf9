# The tree-sitter-go grammar (Go sources), fetched from the npm registry at configure time (never
# committed). 0.23.4 is the newest release of language ABI 14 (0.25.0 is ABI 15, which Debian
# bookworm's libtree-sitter 0.20.7 cannot load); it has no external scanner. INTEGRITY is the
# registry's `dist.integrity` (npm view tree-sitter-go@0.23.4 dist.integrity); SHA512 is the same
# digest in hex.
set(HG_GRAMMAR_GO_PACKAGE   "tree-sitter-go")
set(HG_GRAMMAR_GO_VERSION   "0.23.4")
set(HG_GRAMMAR_GO_INTEGRITY "sha512-iQaHEs4yMa/hMo/ZCGqLfG61F0miinULU1fFh+GZreCRtKylFLtvn798ocCZjO2r/ungNZgAY1s1hPFyAwkc7w==")
set(HG_GRAMMAR_GO_SHA512    "89068712ce3231afe1328fd9086a8b7c6eb51749a28a750b5357c587e199ade091b4aca514bb6f9fbf7ca1c0998cedabfee9e0359800635b3584f17203091cef")
set(HG_GRAMMAR_GO_SOURCES   parser.c)
