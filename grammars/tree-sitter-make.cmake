# The tree-sitter-make grammar (Makefiles), fetched from the npm registry at configure time (never
# committed). 1.1.1 is the only published release; it is language ABI 14 and has no external
# scanner. INTEGRITY is the registry's `dist.integrity`; SHA512 is the same digest in hex.
set(HG_GRAMMAR_MAKE_PACKAGE   "tree-sitter-make")
set(HG_GRAMMAR_MAKE_VERSION   "1.1.1")
set(HG_GRAMMAR_MAKE_INTEGRITY "sha512-szHESi1wObt07uM5a5mwkMjbLHOcgiS5G2YQjU8O+Tfv9RylQBA0umV25lf6gSOefwTsPBnTJGn4SFFdHAVwMg==")
set(HG_GRAMMAR_MAKE_SHA512    "b331c44a2d7039bb74eee3396b99b090c8db2c739c8224b91b66108d4f0ef937eff51ca5401034ba6576e657fa81239e7f04ec3c19d32469f848515d1c057032")
set(HG_GRAMMAR_MAKE_SOURCES   parser.c)
