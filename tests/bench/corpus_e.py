#!/usr/bin/env python3
"""Corpus E for the benchmark: a project with its hardening builder configured, so that a run
measures the project stage (issue 7): SERVICES packages (default 500), each a runner whose sites
take their options from a function in another module of the package, which merges the shared
builder (common/hardening.py, named in .hardguard.yml) with constants from a third module. Judging
a site reads the package's options and constants modules and the builder: the project index
parses each of them once, so `modules_indexed` grows with SERVICES and the time with it, linearly.
Deterministic: the same SERVICES give the same bytes.

    corpus_e.py OUT_DIR [SERVICES]
"""
import os
import sys

CONFIG = '''builders:
  - module: common.hardening
    callables: [hardening_kwargs]
'''

BUILDER = '''"""The project's shared hardening builder: callers merge it last."""


def hardening_kwargs():
    return dict(
        security_opt=["no-new-privileges"],
        cap_drop=["ALL"],
        network_mode="none",
        read_only=True,
        mem_limit="512m",
        nano_cpus=1_000_000_000,
        pids_limit=64,
    )
'''

CONSTS = '''"""Constants of service {n}."""
IMAGE = "registry.example/service{n}:1.{n}"
NAME = "service-{n}"
WORKDIR = "/srv/service{n}"
'''

OPTIONS = '''"""How service {n} runs its containers."""
from common.hardening import hardening_kwargs

from service{n}.consts import NAME, WORKDIR


def run_options():
    return {{"name": NAME, "working_dir": WORKDIR, **hardening_kwargs()}}


def plain_options():
    return {{"name": NAME, "working_dir": WORKDIR}}
'''

RUNNER = '''"""Runs service {n}."""
import docker

from common.hardening import hardening_kwargs
from service{n}.consts import IMAGE
from service{n}.options import plain_options, run_options


def start(client, command):
    return client.containers.run(IMAGE, command, detach=True, **run_options())


def start_plain(client, command):
    # Fails: the options lack the builder.
    return client.containers.run(IMAGE, command, **plain_options())


def prepare(client):
    return client.containers.create(IMAGE, **run_options())


def main():
    client = docker.from_env()
    start(client, ["true"])
'''


def main():
    out = sys.argv[1]
    services = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    os.makedirs(os.path.join(out, 'common'), exist_ok=True)
    files = {'.hardguard.yml': CONFIG, 'common/__init__.py': '', 'common/hardening.py': BUILDER}
    for n in range(services):
        files[f'service{n}/__init__.py'] = ''
        files[f'service{n}/consts.py'] = CONSTS.format(n=n)
        files[f'service{n}/options.py'] = OPTIONS.format(n=n)
        files[f'service{n}/runner.py'] = RUNNER.format(n=n)
    for path, text in files.items():
        full = os.path.join(out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'w', encoding='utf-8') as fh:
            fh.write(text)


if __name__ == '__main__':
    main()
