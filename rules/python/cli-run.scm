;; cli-run: a docker / podman / nerdctl run or create command built in code.

;; An argv list or tuple whose first words are the program and the verb, wherever it stands:
;; ["docker", "run", "--rm", ...] — reported at its opening bracket.
;; `(comment)*` lets a comment stand between the words; an anchor alone would not skip it.
([(list . (comment)* . (string (string_content) @_program) . (comment)* . (string (string_content) @_verb))
  (tuple . (comment)* . (string (string_content) @_program) . (comment)* . (string (string_content) @_verb))]
   @argv @site
 (#any-of? @_program "docker" "podman" "nerdctl")
 (#any-of? @_verb "run" "create")
 (#set! hardguard.reads "argv"))

;; The same with the management command: ["docker", "container", "run", ...]
([(list . (comment)* . (string (string_content) @_program) . (comment)* . (string (string_content) @_container)
        . (comment)* . (string (string_content) @_verb))
  (tuple . (comment)* . (string (string_content) @_program) . (comment)* . (string (string_content) @_container)
         . (comment)* . (string (string_content) @_verb))] @argv @site
 (#any-of? @_program "docker" "podman" "nerdctl")
 (#eq? @_container "container")
 (#any-of? @_verb "run" "create")
 (#set! hardguard.reads "argv"))

;; A command string run by a shell, or split like one: os.system("docker run ..."),
;; os.popen, subprocess.getoutput, asyncio.create_subprocess_shell, shlex.split. The string may be
;; built in place: "docker run " + image, "docker run %s" % image, "docker run {}".format(image).
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (comment)* . [(string) (concatenated_string) (binary_operator)
     (call function: (attribute object: [(string) (concatenated_string)] attribute: (identifier) @_format))] @command)) @site
 (#resolves-to? @_callee
   "os.system" "os.popen" "subprocess.getoutput" "subprocess.getstatusoutput"
   "asyncio.create_subprocess_shell" "shlex.split")
 (#eq? @_format "format")
 (#contains? @command "docker" "podman" "nerdctl")
 (#match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "shell"))

;; subprocess.*("docker run ...", shell=True)
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (comment)* . [(string) (concatenated_string) (binary_operator)
     (call function: (attribute object: [(string) (concatenated_string)] attribute: (identifier) @_format))] @command
     (keyword_argument name: (identifier) @_shell value: (true)))) @site
 (#resolves-to? @_callee
   "subprocess.run" "subprocess.call" "subprocess.check_call" "subprocess.check_output"
   "subprocess.Popen")
 (#eq? @_shell "shell")
 (#eq? @_format "format")
 (#contains? @command "docker" "podman" "nerdctl")
 (#match? @command "^[(\\s]*[A-Za-z]*[\"']+\\s*(sudo\\s+)?(docker|podman|nerdctl)\\s+(container\\s+)?(run|create)(\\s|[\"']|$)")
 (#set! hardguard.reads "shell"))
