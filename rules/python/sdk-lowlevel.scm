;; sdk-lowlevel: docker-py's low-level API creates a container:
;; api.create_container(image, host_config=api.create_host_config(...)). The requirements are read
;; from the keywords of the host config call: @args is the call's arguments, and
;; (#set! hardguard.options-keyword "host_config") reads the value of that keyword — written in the
;; call, or under that key in a mapping a `**` spread hands on — as the keywords of the call it is
;; (inline, a name assigned one, or the call a function of the project returns); of the call's own keywords only those of
;; hardguard.own-keywords count beside them (network_disabled=True: create_container refuses
;; security_opt=..., and a builder spread into it counts for nothing). `create_host_config(...)`
;; alone creates nothing: it is read where it reaches host_config=. A method the project defines itself (its own
;; wrapper class's create_container, self.create_container inside it) is not docker-py's.
;; host_config given as a mapping (`host_config={"CapDrop": ["ALL"], ...}`, `dict(...)`, inline or
;; through a name: #mapping?): the Engine API's HostConfig as docker-py sends it, judged in the
;; docker-py-host-config dialect. It comes first: of several patterns matching one call, the first
;; is taken.
((call
   function: (attribute attribute: (identifier) @_verb) @_callee
   arguments: (argument_list
     (keyword_argument name: (identifier) @_host_config value: (_) @_mapping)) @body) @site
 (#eq? @_verb "create_container")
 (#eq? @_host_config "host_config")
 (#mapping? @_mapping)
 (#not-defined-in-project? @_callee)
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "host_config")
 (#set! hardguard.dialect "docker-py-host-config"))

((call
   function: (attribute attribute: (identifier) @_verb) @_callee
   arguments: (argument_list
     (keyword_argument name: (identifier) @_host_config)) @args) @site
 (#eq? @_verb "create_container")
 (#eq? @_host_config "host_config")
 (#not-defined-in-project? @_callee)
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.options-keyword "host_config")
 (#set! hardguard.own-keywords "network_disabled")
 (#set! hardguard.dialect "docker-py-lowlevel"))

;; Without a host_config keyword of its own, on a receiver known to be docker's low-level client
;; (docker.APIClient(...), or the .api of a high-level client): the host_config a spread hands on
;; (`create_container(**kw)`, kw holding host_config=api.create_host_config(...): the options are
;; that call's keywords, hardguard.options-keyword); with none, nothing is hardened. A call with
;; its own host_config= keyword is taken by the patterns above first.
((call
   function: (attribute object: (_) @_client attribute: (identifier) @_verb)
   arguments: (argument_list) @args) @site
 (#eq? @_verb "create_container")
 (#resolves-to? @_client
   "docker.APIClient()" "docker.api.APIClient()" "docker.api.client.APIClient()" "docker.client.APIClient()"
   "docker.from_env().api" "docker.DockerClient().api" "docker.client.from_env().api")
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.options-keyword "host_config")
 (#set! hardguard.own-keywords "network_disabled")
 (#set! hardguard.dialect "docker-py-lowlevel"))

;; The same on any receiver in a module that imports docker in any form (the client is made
;; elsewhere: self.client set up in a base class, context.docker_client, self.client.api), unless
;; the method is the project's own.
((call
   function: (attribute attribute: (identifier) @_verb) @_callee
   arguments: (argument_list) @args) @site
 (#eq? @_verb "create_container")
 (#imports? "docker")
 (#not-defined-in-project? @_callee)
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.options-keyword "host_config")
 (#set! hardguard.own-keywords "network_disabled")
 (#set! hardguard.dialect "docker-py-lowlevel"))

;; A dispatcher of the project's own that is handed docker-py's low-level method by name:
;; jupyterhub's DockerSpawner calls `await self.docker("create_container", image,
;; host_config=host_config)` (or `**create_kwargs` holding it), whose body runs
;; `getattr(self.client, method)(*args, **kwargs)` in a thread. Such a call creates a container, and
;; is judged as create_container is: by the host config it hands on (with none, nothing is hardened). Only a callee the project defines, in a
;; module that imports docker: a string naming the method is how the project chose to call it.
((call
   function: (attribute) @_callee
   arguments: (argument_list . (string (string_content) @_method)) @args) @site
 (#eq? @_method "create_container")
 (#imports? "docker")
 (#defined-in-project? @_callee)
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.options-keyword "host_config")
 (#set! hardguard.own-keywords "network_disabled")
 (#set! hardguard.dialect "docker-py-lowlevel"))

;; create_container handed to a call that runs it with the arguments it is given: OpenManus's
;; sandbox runs `await asyncio.to_thread(self.client.api.create_container,
;; image=..., host_config=host_config, ...)`. The forwarding call is the site, judged as
;; create_container is, by the host config it hands on (with none, nothing is hardened). The
;; forwarding calls are policy.yml's classes.forwarding_calls that call their callable now, handed
;; by position (#policy-calls?). (run_in_executor takes no keywords, so it cannot hand on a host
;; config by name.)
((call
   function: [(identifier) (attribute)] @_forward
   arguments: (argument_list
     . (comment)* . (attribute attribute: (identifier) @_verb) @_callee
     (keyword_argument name: (identifier) @_host_config value: (_) @_mapping)) @body) @site
 (#eq? @_verb "create_container")
 (#eq? @_host_config "host_config")
 (#mapping? @_mapping)
 (#policy-calls? @_forward "forwarding_calls")
 (#imports? "docker")
 (#not-defined-in-project? @_callee)
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "host_config")
 (#set! hardguard.dialect "docker-py-host-config"))
((call
   function: [(identifier) (attribute)] @_forward
   arguments: (argument_list
     . (comment)* . (attribute attribute: (identifier) @_verb) @_callee) @args) @site
 (#eq? @_verb "create_container")
 (#policy-calls? @_forward "forwarding_calls")
 (#imports? "docker")
 (#not-defined-in-project? @_callee)
 (#set! hardguard.reads "kwargs")
 (#set! hardguard.options-keyword "host_config")
 (#set! hardguard.own-keywords "network_disabled")
 (#set! hardguard.dialect "docker-py-lowlevel"))
