;; sdk-create: a container is created through an SDK: <anything>.containers.create(...), a
;; testcontainers DockerContainer(...). Of several patterns matching one call, the first in this
;; file is taken: each SDK's own shapes come before docker-py's catch-all at the end.

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
 (#eq? @_verb "create")
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
 (#eq? @_verb "create")
 (#imports? "podman")
 (#not-imports? "docker" "aiodocker")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "podman-py"))

;; aiodocker: containers.create(config, name=...), the config being the Engine API's create body, judged in the
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
 (#any-of? @_verb "create")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list (keyword_argument name: (identifier) @_config value: (_) @body))) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "create")
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
 (#any-of? @_verb "create")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list . [(dictionary) (identifier) (attribute) (call) (subscript)] @body)) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "create")
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
 (#any-of? @_verb "create")
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
 (#any-of? @_verb "create")
 (#imports? "aiodocker")
 (#not-imports? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))

;; aiodocker: containers.create_or_replace(name, config), the config being the Engine API's create body, judged in the
;; aiodocker dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names in any case, as the
;; daemon decodes them): on an aiodocker.Docker() client, or on any receiver in a module that
;; imports aiodocker and not docker. The config is the second positional argument or `config=`;
;; without either, the whole argument list stands for it (and cannot be verified).
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list . (_) . [(dictionary) (identifier) (attribute) (call) (subscript)] @body)) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "create_or_replace")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute object: (_) @_client attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list (keyword_argument name: (identifier) @_config value: (_) @body))) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "create_or_replace")
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
 (#any-of? @_verb "create_or_replace")
 (#resolves-to? @_client "aiodocker.Docker()" "aiodocker.docker.Docker()")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))
((call
   function: (attribute
     object: (attribute attribute: (identifier) @_containers)
     attribute: (identifier) @_verb)
   arguments: (argument_list . (_) . [(dictionary) (identifier) (attribute) (call) (subscript)] @body)) @site
 (#eq? @_containers "containers")
 (#any-of? @_verb "create_or_replace")
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
 (#any-of? @_verb "create_or_replace")
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
 (#any-of? @_verb "create_or_replace")
 (#imports? "aiodocker")
 (#not-imports? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "aiodocker"))

;; python-on-whales: docker.create(...) / docker.container.create(...) on its module-level client
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
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "python-on-whales"))

;; testcontainers: DockerContainer(image, **kwargs) hands its keywords to docker-py's create() when
;; started, judged in the testcontainers dialect (docker-py's spellings). `.with_kwargs(...)`
;; chained on it replaces those keywords (it does not merge): the chain is the site, judged by
;; what with_kwargs is given (it comes first, and stands at the same place as the constructor).
((call
   function: (attribute
     object: (call function: [(identifier) (attribute)] @_callee)
     attribute: (identifier) @_with)
   arguments: (argument_list) @args) @site
 (#eq? @_with "with_kwargs")
 (#resolves-to? @_callee "testcontainers.core.container.DockerContainer" "testcontainers.core.generic.DockerContainer")
 (#imports? "testcontainers")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "testcontainers"))
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list) @args) @site
 (#resolves-to? @_callee "testcontainers.core.container.DockerContainer" "testcontainers.core.generic.DockerContainer")
 (#imports? "testcontainers")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.dialect "testcontainers"))

;; docker-py's high-level API: <anything>.containers.create(...)
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
