;; api-create: a container created through Docker's Go SDK, the moby client
;; (github.com/docker/docker/client, github.com/moby/moby/client): ContainerCreate on a client, in
;; either generation of its API — the positional ContainerCreate(ctx, *container.Config,
;; *container.HostConfig, *network.NetworkingConfig, *ocispec.Platform, name) and the newer
;; ContainerCreate(ctx, client.ContainerCreateOptions{Config: ..., HostConfig: ...}). Read as the
;; Engine API body it sends, its arguments named by `hardguard.arguments` (one shape per number of
;; arguments, `_` not read, `.` the body itself), in the go-moby dialect (the Go struct fields:
;; HostConfig.CapDrop, HostConfig.Resources.Memory ...). The file must import the moby client or
;; its types: a project's own ContainerCreate method elsewhere is not the SDK's. A mock's expectation
;; (gomock's `api.EXPECT().ContainerCreate(gomock.Any(), ...)`) creates nothing.
((call_expression
   function: (selector_expression field: (field_identifier) @_method)
   arguments: (argument_list) @body) @site
 (#eq? @_method "ContainerCreate")
 (#not-match? @site "\\bEXPECT\\(\\)\\s*\\.\\s*ContainerCreate")
 (#file-contains? "github.com/docker/docker/" "github.com/moby/moby/")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "go-moby")
 (#set! hardguard.arguments "_ Config HostConfig NetworkingConfig Platform ContainerName | _ ."))

;; fsouza/go-dockerclient's client.CreateContainer(docker.CreateContainerOptions{Config: ...,
;; HostConfig: ...}), also as ory/dockertest vendors it (github.com/ory/dockertest/v3/docker): its
;; one argument is the options, read in the go-dockerclient dialect (a flat HostConfig).
((call_expression
   function: (selector_expression field: (field_identifier) @_method)
   arguments: (argument_list) @body) @site
 (#eq? @_method "CreateContainer")
 (#not-match? @site "\\bEXPECT\\(\\)\\s*\\.\\s*CreateContainer")
 (#file-contains? "github.com/fsouza/go-dockerclient" "github.com/ory/dockertest/v3/docker")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "go-dockerclient")
 (#set! hardguard.arguments "."))
