;; sdk-run: a container is started through an SDK's high-level API: <anything>.containers.run(...)
;; Captures: @site is reported; @args holds the keywords (@body an Engine API body). Of several
;; patterns matching one call, the first in this file is taken: each SDK's own shapes come before
;; docker-py's catch-all at the end.
;; The same shapes with `create` are sdk-create sites (<anything>.containers.create(...)): each
;; pattern takes both verbs and names the kind by the one its call resolves to,
;; (#set! hardguard.kind-by "@capture verb=kind ..."), so that the Python rules compile each shape
;; once (sdk-create.scm holds the shapes only `create` has).
;; A direct call needs an argument, `(argument_list (_))`: every SDK's run and create take the image
;; (aiodocker's, the config) as a required parameter, so `containers.run()` raises TypeError before
;; any container starts: it is a mock's chain in a test (`docker_mock().containers.run().exec_run()
;; .exit_code = 0`), not a site. Aliases are not held to it (`partial(client.containers.run,
;; image)()` binds the image earlier), nor is sdk-lowlevel.scm's create_container on any receiver
;; (a project's own method may take no argument: docker-compose's Service.create_container()).

;; podman-py: the same names on a podman client, judged in podman-py's dialect (its keywords are
;; docker-py's, but `security_opt` are SELinux labels, no_new_privileges=True is its own and
;; nano_cpus is dropped). #sdk? says whose call it is: the callee follows to podman
;; (podman.PodmanClient(...), podman.from_env()), or to no SDK at all in a module that imports
;; podman and neither docker nor aiodocker.
((call function: (attribute) @_callee arguments: (argument_list (_)) @args) @site
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#sdk? @_callee "podman" "docker" "aiodocker")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create")
 (#set! hardguard.dialect "podman-py"))

;; aiodocker: containers.run(config, name=...), the config being the Engine API's create
;; body, judged in the aiodocker dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names
;; in any case, as the daemon decodes them): the callee follows to aiodocker (aiodocker.Docker()),
;; or to no SDK in a module that imports aiodocker and neither docker nor podman. The body is
;; `config=`, else the first positional argument; without either the arguments stand for it (and
;; cannot be verified).
((call function: (attribute) @_callee arguments: (argument_list (_)) @body) @site
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#sdk? @_callee "aiodocker" "docker" "podman")
 (#file-contains? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create")
 (#set! hardguard.body-keyword "config")
 (#set! hardguard.body-position "0")
 (#set! hardguard.dialect "aiodocker"))

;; python-on-whales on a receiver that follows nowhere (a pytest fixture's DockerClient, a
;; parameter) in a module that imports python_on_whales and no other SDK: `<name>.run(...)`,
;; `<name>.container.run(...)` (and create).
((call function: (attribute) @_callee arguments: (argument_list (_)) @args) @site
 (#match? @_callee "^[^.\\s()\\[\\]]+\\s*[.]\\s*(container\\s*[.]\\s*)?(run|create)$")
 (#sdk? @_callee "python_on_whales" "docker" "podman" "aiodocker")
 (#imports? "python_on_whales")
 (#file-contains? "python_on_whales")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create")
 (#set! hardguard.dialect "python-on-whales"))

;; python-on-whales on its module-level client (`from python_on_whales import docker`) or a
;; DockerClient(...) (also podman's, through client_call=["podman"]), judged in its dialect
;; (security_options, networks=["none"], memory, cpus): its keywords become a docker run (create)
;; command line.
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list (_)) @args) @site
 (#resolves-to? @_callee "python_on_whales.docker.run" "python_on_whales.docker.container.run"
   "python_on_whales.DockerClient().run" "python_on_whales.DockerClient().container.run"
   "python_on_whales.docker_client.DockerClient().run" "python_on_whales.docker_client.DockerClient().container.run"
   "python_on_whales.docker.create" "python_on_whales.docker.container.create"
   "python_on_whales.DockerClient().create" "python_on_whales.DockerClient().container.create"
   "python_on_whales.docker_client.DockerClient().create" "python_on_whales.docker_client.DockerClient().container.create")
 (#imports? "python_on_whales")
 (#file-contains? "python_on_whales")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create")
 (#set! hardguard.dialect "python-on-whales"))

;; docker-py's high-level API: <anything>.containers.run(...). Receivers are not constrained:
;; client.containers.run, self._docker.containers.run, docker.from_env().containers.run.
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list (_)) @args) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run" "create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_verb run=sdk-run create=sdk-create"))

;; The same through an alias of the callee, which #resolves-to-suffix? follows:
;; run = client.containers.run; run(...) — c = client.containers; c.run(...) —
;; getattr(client.containers, "run")(...) — functools.partial(client.containers.run, **kw)(...)
((call
   function: [(identifier) (attribute object: (identifier)) (call function: [(identifier) (attribute)])] @_callee
   arguments: (argument_list) @args) @site
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create"))

;; A callable passed by reference (see docs/sites.md, "Sites"): the call that runs it is the site, judged by
;; the keywords it passes on. asyncio.to_thread(client.containers.run, image, **kw),
;; executor.submit(...), starlette's run_in_threadpool(...) pass on their other arguments;
;; anyio's and trio's run_sync(...) and loop.run_in_executor(None, client.containers.run, image)
;; positional ones only (run_in_executor takes no keywords; run_sync's own are no docker-py options).
;; The callable is any argument that resolves to it. The calls are policy.yml's
;; classes.forwarding_calls (#policy-calls?: those that call their callable now, handed by position;
;; below, those handed it in `target=`, and the partial_calls), the list the search for a
;; function's callers reads too.
((call
   function: [(identifier) (attribute)] @_forward
   arguments: (argument_list [(identifier) (attribute)] @_callee) @args) @site
 (#policy-calls? @_forward "forwarding_calls")
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create"))

;; functools.partial(client.containers.run, ...) handed to another call (run_in_executor, submit,
;; a callback list) or a keyword (Thread(target=...)): the partial is the site, with its own
;; keywords. A partial that is called, or kept in a name, is judged where it is called or passed.
((argument_list
   (call
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#policy-calls? @_partial "partial_calls")
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create"))
((keyword_argument
   value: (call
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#policy-calls? @_partial "partial_calls")
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create"))

;; threading.Thread(target=client.containers.run, args=(image,), kwargs={...}) and
;; multiprocessing.Process: the keywords are the kwargs= mapping (@args is that keyword argument),
;; written right after target= or one argument later; without kwargs= none reach. (Two keyword
;; arguments anywhere in the list, unanchored, would be tried in every pair: a call with 400
;; keywords would take seconds; anchored, each order is tried once per keyword.)
((call
   function: [(identifier) (attribute)] @_thread
   arguments: (argument_list
     (keyword_argument name: (identifier) @_target value: [(identifier) (attribute)] @_callee)
     . (_)? . (keyword_argument name: (identifier) @_kwargs) @args)) @site
 (#eq? @_target "target")
 (#eq? @_kwargs "kwargs")
 (#policy-calls? @_thread "forwarding_calls" "target")
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create"))
((call
   function: [(identifier) (attribute)] @_thread
   arguments: (argument_list
     (keyword_argument name: (identifier) @_target value: [(identifier) (attribute)] @_callee)) @args) @site
 (#eq? @_target "target")
 (#not-match? @args "\\bkwargs\\s*=")
 (#policy-calls? @_thread "forwarding_calls" "target")
 (#resolves-to-suffix? @_callee "containers.run" "containers.create")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.kind-by "@_callee run=sdk-run create=sdk-create"))
