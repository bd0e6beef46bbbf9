;; sdk-create: docker-py's high-level API creates a container: <anything>.containers.create(...)
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_containers "containers")
 (#eq? @_verb "create")
 (#set! hardguard.reads "kwargs"))
