;; sdk-create: a container is created through an SDK: <anything>.containers.create(...), a
;; testcontainers DockerContainer(...). The shapes `containers.create` shares with
;; `containers.run` (docker-py, podman-py, aiodocker, python-on-whales, aliases, callables passed
;; by reference) are sdk-run.scm's, which names the kind by the verb; here are those only create
;; has. Of several patterns matching one call, the first is taken (this file's come before
;; sdk-run.scm's). As there, a direct call with no argument (TypeError: the image, the config
;; are required) is a mock's, no site.

;; aiodocker: containers.create_or_replace(name, config), the config being the Engine API's create
;; body, judged in the aiodocker dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names
;; in any case, as the daemon decodes them): the callee follows to aiodocker (aiodocker.Docker()),
;; or to no SDK in a module that imports aiodocker and neither docker nor podman. The body is
;; `config=`, else the second positional argument; without either the arguments stand for it (and
;; cannot be verified).
((call function: (attribute) @_callee arguments: (argument_list (_)) @body) @site
 (#resolves-to-suffix? @_callee "containers.create_or_replace")
 (#sdk? @_callee "aiodocker" "docker" "podman")
 (#file-contains? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "config")
 (#set! hardguard.body-position "1")
 (#set! hardguard.dialect "aiodocker"))

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

;; docker-py's Swarm services: <client>.services.create(image, command=None, **kwargs) starts a
;; service whose tasks are containers. Its keywords are read as one mapping (body-position
;; "keywords"), judged in the docker-py-service dialect: ContainerSpec's cap_drop, read_only and
;; mounts, the task template's resources=docker.types.Resources(mem_limit=..., cpu_limit=...). The
;; callee follows to docker (docker.from_env(), DockerClient()), or to no SDK in a module that
;; imports docker and neither podman nor aiodocker.
((call function: (attribute) @_callee arguments: (argument_list (_)) @body) @site
 (#resolves-to-suffix? @_callee "services.create")
 (#sdk? @_callee "docker" "podman" "aiodocker")
 (#file-contains? "docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.body-position "keywords")
 (#set! hardguard.dialect "docker-py-service"))
