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

;; A callable passed by reference (see README "Sites"): the call that runs it is the site, judged by
;; the keywords it passes on. asyncio.to_thread(client.containers.run, image, **kw),
;; executor.submit(...), starlette's run_in_threadpool(...) pass on their other arguments;
;; anyio's and trio's run_sync(...) and loop.run_in_executor(None, client.containers.run, image)
;; positional ones only (run_in_executor takes no keywords; run_sync's own are no docker-py options).
;; The callable is any argument that resolves to it (anchoring it first costs start-up time).
((call
   function: [(identifier) (attribute)] @_forward
   arguments: (argument_list [(identifier) (attribute)] @_callee) @args) @site
 (#resolves-to-suffix? @_forward
   "asyncio.to_thread" "submit" "to_thread.run_sync" "from_thread.run_sync" "run_in_threadpool" "run_in_executor")
 (#resolves-to-suffix? @_callee "containers.run")
 (#set! hardguard.reads "kwargs"))

;; functools.partial(client.containers.run, ...) handed to another call (run_in_executor, submit,
;; a callback list) or a keyword (Thread(target=...)): the partial is the site, with its own
;; keywords. A partial that is called, or kept in a name, is judged where it is called or passed.
((argument_list
   (call
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#resolves-to? @_partial "functools.partial" "partial")
 (#resolves-to-suffix? @_callee "containers.run")
 (#set! hardguard.reads "kwargs"))
((keyword_argument
   value: (call
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#resolves-to? @_partial "functools.partial" "partial")
 (#resolves-to-suffix? @_callee "containers.run")
 (#set! hardguard.reads "kwargs"))

;; threading.Thread(target=client.containers.run, args=(image,), kwargs={...}) and
;; multiprocessing.Process: the keywords are the kwargs= mapping (@args is that keyword argument),
;; written right after target= or one argument later; without kwargs= none reach. (Two keyword
;; arguments anywhere in the list, unanchored, make libtree-sitter 0.20.7 try every pair: a call
;; with 400 keywords then takes seconds; each anchored order costs ~2 ms at start-up.)
((call
   function: [(identifier) (attribute)] @_thread
   arguments: (argument_list
     (keyword_argument name: (identifier) @_target value: [(identifier) (attribute)] @_callee)
     . (_)? . (keyword_argument name: (identifier) @_kwargs) @args)) @site
 (#eq? @_target "target")
 (#eq? @_kwargs "kwargs")
 (#resolves-to? @_thread "threading.Thread" "multiprocessing.Process")
 (#resolves-to-suffix? @_callee "containers.run")
 (#set! hardguard.reads "kwargs"))
((call
   function: [(identifier) (attribute)] @_thread
   arguments: (argument_list
     (keyword_argument name: (identifier) @_target value: [(identifier) (attribute)] @_callee)) @args) @site
 (#eq? @_target "target")
 (#not-match? @args "\\bkwargs\\s*=")
 (#resolves-to? @_thread "threading.Thread" "multiprocessing.Process")
 (#resolves-to-suffix? @_callee "containers.run")
 (#set! hardguard.reads "kwargs"))
