import subprocess
import sys

import docker

kw = {"cap_drop": ["ALL"]}
print >>sys.stderr, "starting"
print >>sys.stderr
print
exec "setup()"
exec "setup()" in globals()
exec "docker.from_env().containers.run('img', privileged=True)"
kw["network_mode"] = "host"
docker.from_env().containers.run("img", **kw)
cmd = ["docker", "run"]
print >>sys.stderr, cmd
exec "cmd.append('--rm')"
cmd.append("--privileged")
subprocess.run(cmd + ["alpine"])
