;; sdk-run: a container is started through an SDK's high-level API: <anything>.containers.run(...)
;; Captures: @site is reported; @args holds the keywords (@body an Engine API body). Of several
;; patterns matching one call, the first in this file is taken: each SDK's own shapes come before
;; docker-py's catch-all at the end.

;; podman-py: the same names on a podman client, judged in podman-py's dialect (its keywords are
;; docker-py's, but `security_opt` are SELinux labels, no_new_privileges=True is its own and
;; nano_cpus is dropped): a receiver that follows to podman.PodmanClient() / podman.from_env(), or
;; any receiver in a module that imports podman and neither docker nor aiodocker. These come first:
;; of several patterns matching one call, the first is taken.
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_containers "containers")
 (#eq? @_verb "run")
 (#resolves-to? @_client "podman.PodmanClient()" "podman.client.PodmanClient()" "podman.from_env()"
   "podman.PodmanClient.from_env()" "podman.client.PodmanClient.from_env()")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "podman-py"))
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_containers "containers")
 (#eq? @_verb "run")
 (#imports? "podman")
 (#not-imports? "docker" "aiodocker")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "podman-py"))

;; aiodocker: containers.run(config, name=...), the config being the Engine API's create body, judged in the
;; aiodocker dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names in any case, as the
;; daemon decodes them): on an aiodocker.Docker() client, or on any receiver in a module that
;; imports aiodocker and not docker. The config is the first positional argument or `config=`;
;; without either, the whole argument list stands for it (and cannot be verified).
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list . [(dictionary) (identifier) (attribute) (call) (subscript)] @body)) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list (keyword_argument name: (identifier) @_config value: (_) @body))) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run")
 (#eq? @_config "config")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @body) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list . [(dictionary) (identifier) (attribute) (call) (subscript)] @body)) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run")
 (#imports? "aiodocker")
 (#not-imports? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list (keyword_argument name: (identifier) @_config value: (_) @body))) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run")
 (#eq? @_config "config")
 (#imports? "aiodocker")
 (#not-imports? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list) @body) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "run")
 (#imports? "aiodocker")
 (#not-imports? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))

;; python-on-whales: docker.run(...) / docker.container.run(...) on its module-level client
;; (`from python_on_whales import docker`) or a DockerClient(...) (also podman's, through
;; client_call=["podman"]), judged in its dialect (security_options, networks=["none"], memory,
;; cpus): its keywords become a docker run command line.
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list) @args) @site
 (#resolves-to? @_callee "python_on_whales.docker.run" "python_on_whales.docker.container.run"
   "python_on_whales.DockerClient().run" "python_on_whales.DockerClient().container.run"
   "python_on_whales.docker_client.DockerClient().run" "python_on_whales.docker_client.DockerClient().container.run")
 (#imports? "python_on_whales")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "python-on-whales"))

;; docker-py's high-level API: <anything>.containers.run(...). Receivers are not constrained:
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
