#!/usr/bin/env python3
"""Dense corpus B for the benchmark: FILES Python modules (default 3000), every one full of
container and client sites of all four shapes, passing and failing, with the code around them that
real modules have (imports, helpers, classes, loops), so that a run measures parsing, extraction,
name resolution and judging rather than the prefilter. Deterministic: the same seed gives the
same bytes.

    corpus_b.py OUT_DIR [FILES]
"""
import os
import random
import sys

HARDEN_KW = ('security_opt=["no-new-privileges"], cap_drop=["ALL"], network_mode="none", '
             'read_only=True, mem_limit="512m", nano_cpus=1_000_000_000, pids_limit=64')
HARDEN_ARGV = ('"--security-opt", "no-new-privileges", "--cap-drop", "ALL", "--network", "none", '
               '"--read-only", "--memory", "512m", "--cpus", "1", "--pids-limit", "64"')

SITES = [
    # sdk-run / sdk-create, passing and failing, through a builder, kwargs, aliases
    'result = client.containers.run(image, command=cmd, detach=True{kw})',
    'box = self._docker.containers.create(image, name=name{kw})',
    'out = docker.from_env().containers.run(image, **hardening_kwargs())',
    'opts = {{"environment": env, "working_dir": "/w"}}\n{ind}c = client.containers.run(image, **opts{kw})',
    'run = client.containers.run\n{ind}run(image, auto_remove=True{kw})',
    'kwargs = dict(image=image)\n{ind}kwargs["read_only"] = True\n{ind}client.containers.run(**kwargs)',
    # clients
    'client = docker.from_env()',
    'api = docker.APIClient(base_url="unix://var/run/docker.sock")',
    'client = docker.DockerClient(base_url=url, timeout=30)',
    # argv lists
    'argv = ["docker", "run", "--rm"{argv}, image, "python", "-c", code]',
    'subprocess.run(["podman", "create", "--name", name{argv}, image], check=True)',
    'cmd = ("nerdctl", "container", "run", "-d"{argv}, image)',
    'proc = subprocess.Popen(["docker", "run", "-i", *hardening_argv(), image], stdin=subprocess.PIPE)',
    # shell strings
    'os.system(f"docker run --rm {{image}} echo hi")',
    'subprocess.check_output("docker run --network none " + image, shell=True)',
    'args = shlex.split("podman run --read-only --rm alpine true")',
]

FILLER = [
    'total = sum(x * x for x in range(n) if x % 3)',
    'log.info("starting %s with %d workers", name, workers)',
    'if not os.path.exists(path):\n{ind}    os.makedirs(path, exist_ok=True)',
    'data = {{"name": name, "tags": [t.strip() for t in tags.split(",")], "size": len(blob)}}',
    'for key, value in sorted(mapping.items()):\n{ind}    print(f"{{key}}={{value!r}}")',
    'try:\n{ind}    value = int(raw)\n{ind}except ValueError:\n{ind}    value = default',
    'with open(path, encoding="utf-8") as fh:\n{ind}    lines = [line.rstrip("\\n") for line in fh]',
    'result = [item for item in items if item.get("state") == "running"]',
    'timeout = float(os.environ.get("TIMEOUT", "30"))',
    'while queue and budget > 0:\n{ind}    budget -= queue.pop().cost',
]

HEADER = '''"""Generated module {n} of the hardguard benchmark's dense corpus."""
import asyncio
import logging
import os
import shlex
import subprocess

import docker
{builder}
log = logging.getLogger(__name__)
'''


def body(rng, ind, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.55:
            tmpl = rng.choice(SITES)
            hardened = rng.random() < 0.4
            text = tmpl.format(ind=ind, kw=', ' + HARDEN_KW if hardened else '',
                               argv=', ' + HARDEN_ARGV if hardened else '')
        else:
            text = rng.choice(FILLER).format(ind=ind)
        out.append(ind + text)
    return '\n'.join(out) + '\n'


def module(rng, n):
    builder = ('from sandbox.container_hardening import hardening_kwargs, hardening_argv\n'
               if rng.random() < 0.5 else
               'def hardening_kwargs():\n    return {}\n\n\ndef hardening_argv():\n    return []\n')
    parts = [HEADER.format(n=n, builder=builder)]
    for f in range(rng.randint(3, 6)):
        args = 'client, image, name="job", cmd=None, env=None, url=None, code="", tags="", n=10'
        parts.append(f'\n\ndef task_{f}({args}):\n' + body(rng, '    ', rng.randint(6, 14)) + '    return None\n')
    parts.append(f'\n\nclass Runner{n}:\n    def __init__(self, image):\n        self._docker = docker.from_env()\n'
                 f'        self.image = image\n\n    def start(self, name, image, client=None, cmd=None):\n'
                 + body(rng, '        ', rng.randint(5, 10)) + '        return None\n')
    return ''.join(parts)


def main():
    out = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    rng = random.Random(5)
    for n in range(files):
        d = os.path.join(out, f'pkg{n % 20:02d}', f'sub{n % 7}')
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f'mod{n:05d}.py'), 'w', encoding='utf-8') as fh:
            fh.write(module(rng, n))


if __name__ == '__main__':
    main()
