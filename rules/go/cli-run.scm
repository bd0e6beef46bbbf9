;; cli-run: a docker / podman / nerdctl run or create command run from Go: exec.Command("docker",
;; "run", ...), exec.CommandContext(ctx, "podman", "container", "create", ...), a package variable
;; holding exec.Command (`var execCommand = exec.Command`) or a helper taking the words the same
;; way — any call whose arguments, after at most one leading value that is not a string (a
;; context), start with the program (by name or path) and, unless its words are spread from a
;; slice (`exec.Command("docker", args...)`, read from the slice), the verb. Reported at the call;
;; its arguments are the command's words (a known slice spread in place). A command whose known
;; first word after the program is not a verb (`docker build`) is not a site.
((call_expression arguments: (argument_list) @argv) @site
 (#contains? @argv "docker" "podman" "nerdctl")
 (#match? @argv "^\\(\\s*(?:[A-Za-z_][A-Za-z0-9_.]*\\s*,\\s*)?(?:\"(?:[^\"\\s]*/)?(?:docker|podman|nerdctl)\"|`(?:[^`\\s]*/)?(?:docker|podman|nerdctl)`)\\s*,\\s*(?:(?:\"container\"\\s*,\\s*)?\"(?:run|create)\"|[A-Za-z_][A-Za-z0-9_.]*\\s*\\.\\.\\.\\s*,?\\s*\\)$)")
 (#set! hardguard.reads "argv"))
