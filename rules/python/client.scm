;; client: a Docker client is opened. #resolves-to? follows the file's imports, so
;; `import docker as d; d.from_env()` and `from docker import from_env as fe; fe()` match too.
((call function: [(identifier) (attribute)] @_callee) @site
 (#resolves-to? @_callee
   "docker.from_env" "docker.client.from_env"
   "docker.DockerClient" "docker.client.DockerClient"
   "docker.DockerClient.from_env" "docker.client.DockerClient.from_env"
   "docker.APIClient" "docker.api.APIClient" "docker.api.client.APIClient"
   "DockerClient.from_env")
 (#set! hardguard.reads "client"))

;; The other SDKs' clients: podman-py, aiodocker, python-on-whales. (The file names its SDK: the
;; prefilter searches for that rather than for each client's name.)
((call function: [(identifier) (attribute)] @_callee) @site
 (#file-contains? "podman" "docker" "python_on_whales")
 (#resolves-to? @_callee
   "podman.PodmanClient" "podman.client.PodmanClient" "podman.from_env"
   "podman.PodmanClient.from_env" "podman.client.PodmanClient.from_env"
   "aiodocker.Docker" "aiodocker.docker.Docker"
   "python_on_whales.DockerClient" "python_on_whales.docker_client.DockerClient")
 (#set! hardguard.reads "client"))
