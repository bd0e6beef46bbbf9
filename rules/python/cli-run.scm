;; cli-run: a docker / podman / nerdctl run or create command built in code.

;; An argv list or tuple whose first words are the program and the verb, wherever it stands:
;; ["docker", "run", "--rm", ...] or ["docker", "container", "create", ...] — reported at its
;; opening bracket. The program may be given by path ("/usr/bin/docker") and run through wrappers
;; with their own words, known or not (["sudo", "-u", "ci", "docker", "run", ...], ["timeout",
;; "-s", "KILL", str(t), "docker", "run", ...]: a wrapper of the policy's cli.wrappers first, then at
;; most 16 words; the judge reads the wrappers by their grammar); comments may stand between the
;; words. The words are matched
;; on the list's text (one regex stands for every way of writing them).
([(list) (tuple)] @argv @site
 (#contains? @argv "docker" "podman" "nerdctl")
 (#match? @argv "^[\\[(]?(?:\\s|#[^\\n]*\\n)*(?:[uUrRbB]{0,2}[\"'](?:[^\"'\\s]*/)?(?:sudo|doas|timeout|nice|ionice|stdbuf|env|setsid|nohup|time|exec|command|chrt|taskset|flock)[\"'](?:\\s|#[^\\n]*\\n)*,(?:(?:\\s|#[^\\n]*\\n)*(?:[^,\\[\\]()\"'#]|\"[^\"\\n]*\"|'[^'\\n]*'|\\([^()]*\\))+,){0,16}?(?:\\s|#[^\\n]*\\n)*)?[uUrRbB]{0,2}(?:\"(?:(?:[^\"'\\s]*/)?(?:docker|podman|nerdctl))\"|'(?:(?:[^\"'\\s]*/)?(?:docker|podman|nerdctl))')(?:\\s|#[^\\n]*\\n)*,(?:\\s|#[^\\n]*\\n)*(?:[uUrRbB]{0,2}(?:\"(?:container)\"|'(?:container)')(?:\\s|#[^\\n]*\\n)*,(?:\\s|#[^\\n]*\\n)*)?[uUrRbB]{0,2}(?:\"(?:run|create)\"|'(?:run|create)')")
 (#set! hardguard.reads "argv"))

;; An argv list or tuple whose program is held in a name or an attribute ([ENGINE, "run", ...],
;; [self.docker_bin, "container", "create", ...]): a site when a value it may hold names a
;; program (ENGINE = "docker", "podman" if rootless else "docker"; self.runtime as the class's
;; constructor leaves it), or, when it cannot be followed, its own name does (self.docker_bin).
;; Comments may stand before and after the program.
([(list . (comment)* . [(identifier) (attribute)] @_program . (comment)* . (string) @_verb)
  (tuple . (comment)* . [(identifier) (attribute)] @_program . (comment)* . (string) @_verb)] @argv @site
 (#match? @_verb "^[uUrRbB]{0,2}[\"'](run|create|container)[\"']$")
 (#value-contains? @_program "docker" "podman" "nerdctl")
 (#set! hardguard.reads "argv"))

;; A helper called with the program and the verb as its first arguments, the argv being the call's
;; positional arguments: cmd_output_b("docker", "run", *args), run_cmd("podman", "run", "--rm",
;; image), sh("sudo", "docker", "container", "create", ...) — reported at the call. Matched on the
;; argument list's text like the argv pattern above; keyword arguments are not words.
((call function: (_) arguments: (argument_list) @argv) @site
 (#contains? @argv "docker" "podman" "nerdctl")
 (#match? @argv "^\\((?:\\s|#[^\\n]*\\n)*(?:[uUrRbB]{0,2}[\"'](?:[^\"'\\s]*/)?(?:sudo|doas|timeout|nice|ionice|stdbuf|env|setsid|nohup|time|exec|command|chrt|taskset|flock)[\"'](?:\\s|#[^\\n]*\\n)*,(?:(?:\\s|#[^\\n]*\\n)*(?:[^,\\[\\]()\"'#]|\"[^\"\\n]*\"|'[^'\\n]*'|\\([^()]*\\))+,){0,16}?(?:\\s|#[^\\n]*\\n)*)?[uUrRbB]{0,2}(?:\"(?:(?:[^\"'\\s]*/)?(?:docker|podman|nerdctl))\"|'(?:(?:[^\"'\\s]*/)?(?:docker|podman|nerdctl))')(?:\\s|#[^\\n]*\\n)*,(?:\\s|#[^\\n]*\\n)*(?:[uUrRbB]{0,2}(?:\"(?:container)\"|'(?:container)')(?:\\s|#[^\\n]*\\n)*,(?:\\s|#[^\\n]*\\n)*)?[uUrRbB]{0,2}(?:\"(?:run|create)\"|'(?:run|create)')")
 (#set! hardguard.reads "argv"))

;; A command string run by a shell, or split like one: os.system("docker run ..."),
;; os.popen, subprocess.getoutput, asyncio.create_subprocess_shell, shlex.split. The string may be
;; built in place: "docker run " + image, "docker run %s" % image, "docker run {}".format(image).
;; The first argument is any expression whose text starts with the command string: the regex
;; decides.
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (comment)* . (_) @command)) @site
 (#resolves-to? @_callee
   "os.system" "os.popen" "subprocess.getoutput" "subprocess.getstatusoutput"
   "asyncio.create_subprocess_shell" "shlex.split")
 (#contains? @command "docker" "podman" "nerdctl")
 (#match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "shell"))

;; subprocess.*("docker run ...", shell=True)
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (comment)* . (_) @command
     (keyword_argument name: (identifier) @_shell value: (true)))) @site
 (#resolves-to? @_callee
   "subprocess.run" "subprocess.call" "subprocess.check_call" "subprocess.check_output"
   "subprocess.Popen")
 (#eq? @_shell "shell")
 (#contains? @command "docker" "podman" "nerdctl")
 (#match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "shell"))

;; A command string split into argv in place: "docker run --rm alpine".split()
((call
   function: (attribute
     object: [(string) (concatenated_string) (binary_operator) (parenthesized_expression)] @command
     attribute: (identifier) @_split)) @site
 (#eq? @_split "split")
 (#contains? @command "docker" "podman" "nerdctl")
 (#match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "shell"))

;; Shell code that is more than one command line, read as shell (the shell surface's rules find
;; its docker/podman/nerdctl commands, src/surfaces/shell/): a command string given to a shell whose first
;; word is not the program (`make prep && docker run ...`), or kept in a name and followed back
;; from the call (cmd = "docker run " "--rm x"; os.system(cmd)). Strings starting with the program
;; are read by the "shell" patterns above. (A comment before the argument is not looked past here.)
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (_) @command
     (keyword_argument name: (identifier) @_shell value: (true)))) @site
 (#resolves-to? @_callee
   "subprocess.run" "subprocess.call" "subprocess.check_call" "subprocess.check_output"
   "subprocess.Popen")
 (#eq? @_shell "shell")
 (#file-contains? "docker" "podman" "nerdctl")
 (#not-match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "script"))
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (_) @command)) @site
 (#resolves-to? @_callee
   "os.system" "os.popen" "subprocess.getoutput" "subprocess.getstatusoutput"
   "asyncio.create_subprocess_shell")
 (#file-contains? "docker" "podman" "nerdctl")
 (#not-match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "script"))

;; A shell run with -c, its script the third item: ["sh", "-c", "docker run ..."],
;; ("bash", "-lc", cmd). Matched on the list's text, like the argv pattern above; the reading takes
;; the third item.
([(list) (tuple)] @site @command
 (#match? @command "^[\\[(](?:\\s|#[^\\n]*\\n)*[uUrRbB]{0,2}[\"'](?:/usr)?(?:/bin/)?(?:ba|da|z|k)?sh[\"'](?:\\s|#[^\\n]*\\n)*,(?:\\s|#[^\\n]*\\n)*[uUrRbB]{0,2}[\"']-[a-z]*c[a-z]*[\"'](?:\\s|#[^\\n]*\\n)*,")
 (#file-contains? "docker" "podman" "nerdctl")
 (#set! hardguard.reads "script"))
