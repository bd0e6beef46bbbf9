import subprocess

import docker
from hardening import hardening_kwargs, hardening_argv

client = docker.from_env()
api = docker.APIClient()
OPTS: dict
OPTS["privileged"] = True
CMD: list


def f(kw: dict, *args):
    kw: dict
    kw["x"] = 1
    kw.update(y=2)
    kw |= {"z": 3}
    kw.setdefault("a", 1)
    kw.pop("a")
    kw.clear()
    run: object
    run = client.containers.run
    run: object
    run("img", **kw, **OPTS, **hardening_kwargs())
    hc: dict
    api.create_container("img", host_config=hc)
    cmd: list
    cmd += ["docker", "run"]
    cmd.append("--rm")
    cmd.extend(CMD)
    cmd.insert(0, "sudo")
    cmd: list = cmd + hardening_argv()
    subprocess.run(cmd)
    argv = ["docker", "run"]
    argv: list
    argv += CMD
    argv: list
    argv.append("alpine")
    subprocess.run(argv)
    a = b: int
    x: int = y = kw
    kw = kw2: dict
    client.containers.run("img", **kw, **kw2, **a, **x)
    return


g = lambda: client.containers.run("img", **OPTS)
