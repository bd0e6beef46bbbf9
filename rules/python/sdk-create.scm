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

;; A callable passed by reference, read as in sdk-run.scm: to_thread, submit, run_sync,
;; run_in_threadpool, run_in_executor.
((call
   function: [(identifier) (attribute)] @_forward
   arguments: (argument_list [(identifier) (attribute)] @_callee) @args) @site
 (#resolves-to-suffix? @_forward
   "asyncio.to_thread" "submit" "to_thread.run_sync" "from_thread.run_sync" "run_in_threadpool" "run_in_executor")
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))

;; functools.partial(client.containers.create, ...) handed to another call or a keyword.
((argument_list
   (call
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#resolves-to? @_partial "functools.partial" "partial")
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))
((keyword_argument
   value: (call
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#resolves-to? @_partial "functools.partial" "partial")
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))

;; threading.Thread / multiprocessing.Process(target=client.containers.create, kwargs={...}).
((call
   function: [(identifier) (attribute)] @_thread
   arguments: (argument_list
     (keyword_argument name: (identifier) @_target value: [(identifier) (attribute)] @_callee)
     . (_)? . (keyword_argument name: (identifier) @_kwargs) @args)) @site
 (#eq? @_target "target")
 (#eq? @_kwargs "kwargs")
 (#resolves-to? @_thread "threading.Thread" "multiprocessing.Process")
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))
((call
   function: [(identifier) (attribute)] @_thread
   arguments: (argument_list
     (keyword_argument name: (identifier) @_target value: [(identifier) (attribute)] @_callee)) @args) @site
 (#eq? @_target "target")
 (#not-match? @args "\\bkwargs\\s*=")
 (#resolves-to? @_thread "threading.Thread" "multiprocessing.Process")
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))
