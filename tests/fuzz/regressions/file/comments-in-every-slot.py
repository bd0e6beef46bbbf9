import docker  # c
client = (  # c
    docker  # c
    .from_env  # c
    (  # c
    )  # c
)
kw = {  # c
    "cap_drop"  # c
    :  # c
    ["ALL"],  # c
    **  # c
    other,
}
kw[  # c
  "x"  # c
] = (  # c
  1  # c
)
kw |= (  # c
  {}  # c
)
cmd = [  # c
  "docker",  # c
  "run",  # c
  *  # c
  extra,
] + (  # c
  ["--rm"]  # c
)
cmd.append(  # c
  "--x"  # c
)
def f(  # c
  a,  # c
  *,  # c
  b  # c
  : int  # c
  = 1,  # c
  **k  # c
):  # c
  return client.containers.run(  # c
    "img",  # c
    cap_drop  # c
    =  # c
    ["ALL"],  # c
    **  # c
    kw,  # c
    **  # c
    k)
x = -  # c
y = not  # c
