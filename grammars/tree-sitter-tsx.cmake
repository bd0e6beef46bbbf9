# The TSX grammar of tree-sitter-typescript (JavaScript, JSX, TypeScript and TSX sources: the
# javascript surface reads all four with it), fetched from the npm registry at configure time
# (never committed). 0.23.2 is the newest release and language ABI 14 (Debian bookworm's
# libtree-sitter 0.20.7 loads ABI <= 14). The package holds two grammars, typescript/ and tsx/; TSX
# is TypeScript plus JSX, so it parses every .js, .jsx, .ts and .tsx file but an old-style type
# assertion `<T>value` in a .ts file (written `value as T` since TypeScript 1.6), which is a syntax
# error there. Its external scanner includes common/scanner.h. INTEGRITY is the registry's
# `dist.integrity` (npm view tree-sitter-typescript@0.23.2 dist.integrity); SHA512 is the same
# digest in hex.
set(HG_GRAMMAR_TSX_PACKAGE   "tree-sitter-typescript")
set(HG_GRAMMAR_TSX_VERSION   "0.23.2")
set(HG_GRAMMAR_TSX_INTEGRITY "sha512-e04JUUKxTT53/x3Uq1zIL45DoYKVfHH4CZqwgZhPg5qYROl5nQjV+85ruFzFGZxu+QeFVbRTPDRnqL9UbU4VeA==")
set(HG_GRAMMAR_TSX_SHA512    "7b4e095142b14d3e77ff1dd4ab5cc82f8e43a182957c71f8099ab081984f839a9844e9799d08d5fbce6bb85cc5199c6ef9078555b4533c3467a8bf546d4e1578")
set(HG_GRAMMAR_TSX_DIR       tsx/src)
set(HG_GRAMMAR_TSX_SOURCES   parser.c scanner.c)
set(HG_GRAMMAR_TSX_EXTRA     common/scanner.h)
