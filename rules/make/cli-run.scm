;; cli-run in Makefiles: each recipe line is a command line make hands to the shell (one shell per
;; line). Its docker/podman/nerdctl run and create commands are found by the shell surface's rules
;; (rules/shell/), after make's own expansion (src/surfaces/make/).
((recipe_line) @site
 (#contains? @site "docker" "podman" "nerdctl")
 (#set! hardguard.reads "script"))
