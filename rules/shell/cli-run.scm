;; cli-run: a docker / podman / nerdctl run or create command in a shell script (and in the
;; shell of CI steps and Makefile recipes). Wherever the command stands: after && || ; or |, in a
;; function, an if, a loop, a subshell or a $(...). Which commands start a container is decided
;; by the "command" reading (src/surfaces/shell/): after wrappers such as sudo or timeout and the program's
;; own options, a verb (`run`, `create`, policy.yml cli.verbs) must follow; `docker build`,
;; `docker exec` and `echo docker run` are not sites.

;; docker run ... / /usr/bin/podman container create ...
((command name: (command_name) @_prog) @site
 (#contains? @_prog "docker" "podman" "nerdctl")
 (#match? @_prog "^(.*/)?(docker|podman|nerdctl)$")
 (#set! hardguard.reads "command"))

;; sudo docker run ... / timeout 60 docker run ... / env FOO=1 nerdctl run ...: the program is
;; a later word; the reading takes the command only when the words before it are wrappers
;; (policy.yml cli.wrappers), so `echo docker run` is not a site.
((command argument: (word) @_prog) @site
 (#contains? @_prog "docker" "podman" "nerdctl")
 (#match? @_prog "^(.*/)?(docker|podman|nerdctl)$")
 (#set! hardguard.reads "command"))

;; bash -c '...', sudo sh -c "...", eval "...": the string is shell code, read again as a script
;; (its commands are the sites).
((command name: (command_name) @_sh argument: (word) @_c . argument: [(string) (raw_string)] @site)
 (#match? @_sh "^(.*/)?(ba|da|z|k)?sh$")
 (#match? @_c "^-[a-z]*c[a-z]*$")
 (#contains? @site "docker" "podman" "nerdctl")
 (#set! hardguard.reads "script"))
((command argument: (word) @_sh . argument: (word) @_c . argument: [(string) (raw_string)] @site)
 (#match? @_sh "^(.*/)?(ba|da|z|k)?sh$")
 (#match? @_c "^-[a-z]*c[a-z]*$")
 (#contains? @site "docker" "podman" "nerdctl")
 (#set! hardguard.reads "script"))
((command name: (command_name) @_eval argument: [(string) (raw_string)] @site)
 (#eq? @_eval "eval")
 (#contains? @site "docker" "podman" "nerdctl")
 (#set! hardguard.reads "script"))

;; $ENGINE run ... / "$DOCKER" run ... / ${CONTAINER_CLI:-docker} run ...: the program is held in a
;; variable; the reading makes the command a site when a value the variable may hold (one of its
;; assignments in the script, a ${VAR:-default} default) is a program (policy.yml cli.programs).
((command name: (command_name [(simple_expansion) (expansion) (string)])) @site
 (#file-contains? "docker" "podman" "nerdctl")
 (#set! hardguard.reads "command"))

;; sudo "$DOCKER" run ... / timeout 60 $ENGINE run ...: the same after a wrapper (the reading
;; skips the wrappers by their grammar, policy.yml cli.wrappers).
((command name: (command_name) @_w argument: [(simple_expansion) (expansion) (string)]) @site
 (#match? @_w "^(.*/)?(sudo|doas|exec|env|command|time|nice|nohup|timeout|ionice|stdbuf|setsid|chrt|taskset|flock)$")
 (#file-contains? "docker" "podman" "nerdctl")
 (#set! hardguard.reads "command"))
