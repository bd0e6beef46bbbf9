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
