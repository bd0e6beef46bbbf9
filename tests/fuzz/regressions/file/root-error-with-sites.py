import subprocess

import docker

client = docker.from_env()
kw = {"cap_drop": ["ALL"], **}
client.containers.run("img", privileged=True,, network_mode=)
client.containers.run("img", **)
client.containers.run("img", **kw)
subprocess.run(["docker", "run", *, "alpine"])
cmd = ["docker", "run", "--privileged", "alpine"]
cmd.append(kw)
subprocess.run(cmd)
docker.from_env(
