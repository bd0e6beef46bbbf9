;; sdk-create: a container is created through an SDK: <anything>.containers.create(...), a
;; testcontainers DockerContainer(...). Of several patterns matching one call, the first in this
;; file is taken: each SDK's own shapes come before docker-py's catch-all at the end.
;; Inside a pattern, `(_ object: … attribute: …)` is an attribute and `(_ function: …)` a call: no
;; other node type has those fields (tests/check_wildcard_fields.py). Written as wildcards, they
;; cost libtree-sitter 0.20.7 nothing to analyse when it compiles the query (~10 M instructions per
;; concretely typed parent node), which a pre-commit hook pays on every run.

;; podman-py: the same names on a podman client, judged in podman-py's dialect (its keywords are
;; docker-py's, but `security_opt` are SELinux labels, no_new_privileges=True is its own and
;; nano_cpus is dropped). #sdk? says whose call it is: the callee follows to podman
;; (podman.PodmanClient(...), podman.from_env()), or to no SDK at all in a module that imports
;; podman and neither docker nor aiodocker. (Flat shapes with predicates: each structural level of
;; a pattern costs libtree-sitter 0.20.7 start-up time.)
((call function: (attribute) @_callee arguments: (argument_list) @args) @site
 (#resolves-to-suffix? @_callee "containers.create")
 (#sdk? @_callee "podman" "docker" "aiodocker")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "podman-py"))

;; aiodocker: containers.create(config, name=...), the config being the Engine API's create
;; body, judged in the aiodocker dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names
;; in any case, as the daemon decodes them): the callee follows to aiodocker (aiodocker.Docker()),
;; or to no SDK in a module that imports aiodocker and neither docker nor podman. The body is
;; `config=`, else the first positional argument; without either the arguments stand for it (and
;; cannot be verified).
((call function: (attribute) @_callee arguments: (argument_list) @body) @site
 (#resolves-to-suffix? @_callee "containers.create")
 (#sdk? @_callee "aiodocker" "docker" "podman")
 (#file-contains? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "config")
 (#set! hardguard.body-position "0")
 (#set! hardguard.dialect "aiodocker"))

;; aiodocker: containers.create_or_replace(name, config), the config being the Engine API's create
;; body, judged in the aiodocker dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names
;; in any case, as the daemon decodes them): the callee follows to aiodocker (aiodocker.Docker()),
;; or to no SDK in a module that imports aiodocker and neither docker nor podman. The body is
;; `config=`, else the second positional argument; without either the arguments stand for it (and
;; cannot be verified).
((call function: (attribute) @_callee arguments: (argument_list) @body) @site
 (#resolves-to-suffix? @_callee "containers.create_or_replace")
 (#sdk? @_callee "aiodocker" "docker" "podman")
 (#file-contains? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "config")
 (#set! hardguard.body-position "1")
 (#set! hardguard.dialect "aiodocker"))

;; python-on-whales: docker.create(...) / docker.container.create(...) on its module-level client
;; ... and on a receiver that follows nowhere (a pytest fixture's DockerClient, a parameter) in a
;; module that imports python_on_whales and no other SDK: `<name>.create(...)`, `<name>.container.create(...)`.
((call function: (attribute) @_callee arguments: (argument_list) @args) @site
 (#match? @_callee "^[^.\\s()\\[\\]]+\\s*[.]\\s*(container\\s*[.]\\s*)?create$")
 (#sdk? @_callee "python_on_whales" "docker" "podman" "aiodocker")
 (#imports? "python_on_whales")
 (#file-contains? "python_on_whales")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "python-on-whales"))

;; (`from python_on_whales import docker`) or a DockerClient(...) (also podman's, through
;; client_call=["podman"]), judged in its dialect (security_options, networks=["none"], memory,
;; cpus): its keywords become a docker create command line.
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list) @args) @site
 (#resolves-to? @_callee "python_on_whales.docker.create" "python_on_whales.docker.container.create"
   "python_on_whales.DockerClient().create" "python_on_whales.DockerClient().container.create"
   "python_on_whales.docker_client.DockerClient().create" "python_on_whales.docker_client.DockerClient().container.create")
 (#imports? "python_on_whales")
 (#file-contains? "python_on_whales")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "python-on-whales"))

;; testcontainers: DockerContainer(image, **kwargs) hands its keywords to docker-py's create() when
;; started, judged in the testcontainers dialect (docker-py's spellings). `.with_kwargs(...)`
;; chained on it replaces those keywords (it does not merge): the chain is the site, judged by
;; what with_kwargs is given (it comes first, and stands at the same place as the constructor).
((call function: (attribute) @_callee arguments: (argument_list) @args) @site
 (#resolves-to? @_callee "testcontainers.core.container.DockerContainer().with_kwargs"
   "testcontainers.core.generic.DockerContainer().with_kwargs")
 (#imports? "testcontainers")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "testcontainers"))
((call function: [(identifier) (attribute)] @_callee arguments: (argument_list) @args) @site
 (#resolves-to? @_callee "testcontainers.core.container.DockerContainer" "testcontainers.core.generic.DockerContainer")
 (#imports? "testcontainers")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "testcontainers"))

;; docker-py's high-level API: <anything>.containers.create(...)
((call
   function: (_
     object: (_ attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_containers "containers")
 (#eq? @_verb "create")
 (#set! hardguard.reads "kwargs"))

;; The same through an alias of the callee (see sdk-run.scm).
((call
   function: [(identifier) (_ object: (identifier)) (_ function: [(identifier) (attribute)])] @_callee
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
   (_
     function: [(identifier) (attribute)] @_partial
     arguments: (argument_list . [(identifier) (attribute)] @_callee) @args) @site)
 (#resolves-to? @_partial "functools.partial" "partial")
 (#resolves-to-suffix? @_callee "containers.create")
 (#set! hardguard.reads "kwargs"))
((keyword_argument
   value: (_
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
