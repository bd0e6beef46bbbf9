import subprocess

c = ["docker", "run", "alpine"]
c: list
subprocess.run(c)
