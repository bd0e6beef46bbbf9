import functools
import os
import subprocess

import docker

OPTS = {"cap_drop": ["ALL"]}
type Options = dict[str, object]
type Pair[T] = tuple[T, T]


@functools.cache
@staticmethod
def client():
    return docker.from_env()


def closure():
    global OPTS
    opts = {}

    def inner():
        nonlocal opts
        opts["privileged"] = True
        return

    make = lambda: {}
    star = lambda *, a: a
    inner()
    client().containers.run("img", **OPTS, **make(), **opts)


def keyword_only(*, image, kw: Options, extra=None, **rest):
    del extra
    del kw["x"], rest
    kw[1:2] = []
    kw[::2] = []
    kw[:] = {}
    kw[a, b:c] = 1
    client().containers.run(image, **kw, **rest)


def statements(items):
    kw = {"cap_drop": ["ALL"]}
    if (n := len(items)) > 3:
        raise
    match items:
        case [first, *others] if others:
            kw["privileged"] = True
        case {"mode": mode, **others}:
            del kw["cap_drop"]
        case Point(x=0) | None:
            pass
        case _:
            return
    for x in items:
        yield
    try:
        pass
    except:
        pass
    finally:
        pass
    while False:
        break
    else:
        pass
    with open(p):
        pass
    client().containers.run("img", **kw, **(kw := {}))


async def asynchronous(lock):
    async with lock:
        kw = {"read_only": True}
    async with lock as held, lock:
        kw["pid_mode"] = "host"
    async for x in lock:
        kw["a"] = await x
    await client().containers.run("img", **kw)


class C:
    pass


class D(C, metaclass=type):
    @property
    def c(self):
        return client()


def strings(image, width):
    os.system("docker run "
              "--rm "
              f"{image:>{width}} {f'{image!r:{width}}'} {width=} {lambda: 1} {[*image]} {{}}")
    os.system("docker" " run" " --privileged" " alpine")
    subprocess.run("docker run --privileged " "--cap-drop ALL " + image, shell=True)
    cmd = ["docker", "run", f"--name={image}-{f'{width:{width}}'}"]
    cmd += ["--cap-add", "NET_ADMIN"]
    del cmd[0:0]
    return cmd
