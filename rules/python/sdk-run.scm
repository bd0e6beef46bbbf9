;; sdk-run: docker-py's high-level API starts a container: <anything>.containers.run(...)
;; Captures: @site is reported; @args holds the keywords. Receivers are not constrained:
;; client.containers.run, self._docker.containers.run, docker.from_env().containers.run.
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_containers "containers")
 (#eq? @_verb "run")
 (#set! hardguard.reads "kwargs"))

;; The same through an alias of the callee, which #resolves-to-suffix? follows:
;; run = client.containers.run; run(...) — c = client.containers; c.run(...) —
;; getattr(client.containers, "run")(...) — functools.partial(client.containers.run, **kw)(...)
((call
   function: [(identifier) (attribute object: (identifier)) (call function: [(identifier) (attribute)])] @_callee
   arguments: (argument_list) @args) @site
 (#resolves-to-suffix? @_callee "containers.run")
 (#set! hardguard.reads "kwargs"))
