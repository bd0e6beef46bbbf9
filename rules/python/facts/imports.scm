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
