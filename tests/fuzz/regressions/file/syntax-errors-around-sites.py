import subprocess

import docker

client = docker.from_env()


def a():
    client.containers.run("img", privileged=True, network_mode=)


def b():
    client.containers.run("img", privileged=True,, network_mode=)


def c():
    client.containers.run("img", =True)
    client.containers.run(image=, **kw, *)


def d():
    client.containers.run("img", **)
    kw = {"cap_drop": ["ALL"], **}
    kw[] = 1
    kw.update(**)
    client.containers.run("img", **kw)


def e():
    cmd = ["docker", "run", *, "alpine"]
    cmd += [*]
    cmd.append(*)
    subprocess.run(cmd)
    subprocess.run(["docker", "run", *])


def f(*, **):
    api = docker.APIClient()
    api.create_container("img", host_config=)
    api.create_container("img", host_config=api.create_host_config(
