;; Import facts: which names a module binds, for #resolves-to? and for finding the hardening
;; builder. Never produce findings.

;; import a.b.c / import a.b.c as x
((import_statement name: (dotted_name) @import.module)
 (#set! hardguard.fact "import"))
((import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias))
 (#set! hardguard.fact "import"))

;; from m import n / from m import n as x / from .m import n
((import_from_statement module_name: (_) @import.from name: (dotted_name) @import.name)
 (#set! hardguard.fact "import"))
((import_from_statement module_name: (_) @import.from
   name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
 (#set! hardguard.fact "import"))

;; A module imported by a call and bound to a name, as `import m as name` binds it:
;; docker = pytest.importorskip("docker"), d = importlib.import_module("docker.api") (the module
;; itself), d = __import__("docker") (the top package: `__import__("a.b")` returns `a`, so only an
;; undotted name is taken).
((assignment
   left: (identifier) @import.alias
   right: (call
     function: [(identifier) (attribute)] @_import
     arguments: (argument_list . (string . (string_start) . (string_content) @import.module . (string_end) .))))
 (#resolves-to? @_import "pytest.importorskip" "importlib.import_module")
 (#set! hardguard.fact "import"))
((assignment
   left: (identifier) @import.alias
   right: (call
     function: (identifier) @_import
     arguments: (argument_list . (string . (string_start) . (string_content) @import.module . (string_end) .))))
 (#resolves-to? @_import "__import__" "builtins.__import__")
 (#not-match? @import.module "\\.")
 (#set! hardguard.fact "import"))
