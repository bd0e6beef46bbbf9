;; sdk-create: docker-py's high-level API creates a container: <anything>.containers.create(...)
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_containers "containers")
 (#eq? @_verb "create")
 (#set! hardguard.reads "kwargs"))

;; The same through an alias of the callee (see sdk-run.scm).
((call
   function: [(identifier) (attribute object: (identifier)) (call function: [(identifier) (attribute)])] @_callee
   arguments: (argument_list) @args) @site
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))
