;; dynamic-code: code that mentions Docker run through exec/eval/compile: what it starts cannot be
;; checked, so it is reported (unverifiable-flags), never passed. (A module imported by a computed
;; name is not matched: its literals would let most files past the prefilter; see docs/limits.md.)
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list) @_args) @site
 (#resolves-to? @_callee "exec" "eval" "compile" "builtins.exec" "builtins.eval" "builtins.compile")
 (#contains? @_args "docker" "podman" "nerdctl")
 (#set! hardguard.reads "opaque"))

;; Python 2's exec statement: exec "code" [in scope].
((exec_statement code: (_) @_code) @site
 (#contains? @_code "docker" "podman" "nerdctl")
 (#set! hardguard.reads "opaque"))
