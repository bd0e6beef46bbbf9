;; cli-run in Makefiles: each recipe line is a command line make hands to the shell (one shell per
;; line). Its docker/podman/nerdctl run and create commands are found by the shell surface's rules
;; (rules/shell/), after make's own expansion (src/surfaces/make/).
((recipe_line) @site
 (#contains? @site "docker" "podman" "nerdctl")
 (#set! hardguard.reads "script"))

;; A recipe line whose program comes from a variable or a function of the Makefile:
;; `$(GO_RUN) go test ./...` with `GO_RUN := docker run ... \` on continued lines, or
;; `$(CONTAINER_CLI) run ...` with `CONTAINER_CLI ?= $(if $(shell command -v docker),docker,podman)`.
;; The expansion decides (src/surfaces/make/expand.c); the file must name a container program,
;; or include a makefile that may (its variables are read: src/surfaces/make/make.c).
((recipe_line) @site
 (#match? @site "\\$[({]")
 (#file-contains? "docker" "podman" "nerdctl" "include")
 (#set! hardguard.reads "script"))
