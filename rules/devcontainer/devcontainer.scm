;; devcontainer: the top-level object of a devcontainer.json, which the Dev Containers CLI turns
;; into one `docker run` (src/surfaces/devcontainer/): its properties privileged, capAdd,
;; securityOpt, init, mounts, workspaceMount and appPort as the flags the CLI passes, runArgs as
;; written, then the image; each feature it installs may add options hardguard does not read.
((document (object) @site)
 (#set! hardguard.reads "command"))
