import docker
docker.from_env(