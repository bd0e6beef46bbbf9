;; dynamic-code: code that mentions Docker run through exec/eval/compile, or a module imported by a
;; name the guard cannot read: what it starts cannot be checked, so it is reported
;; (unverifiable-flags), never passed.
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list) @_args) @site
 (#resolves-to? @_callee "exec" "eval" "compile" "builtins.exec" "builtins.eval" "builtins.compile")
 (#contains? @_args "docker" "podman" "nerdctl")
 (#set! hardguard.reads "opaque"))

;; __import__ / importlib.import_module with something other than a plain string literal
((call
   function: [(identifier) (attribute)] @_callee
   arguments: (argument_list . (_) @_name)) @site
 (#resolves-to? @_callee "__import__" "importlib.import_module")
 (#not-match? @_name "^[rRbBuU]?[\"'][A-Za-z0-9_.]*[\"']$")
 (#contains? @_name "dock" "podm" "nerd")
 (#set! hardguard.reads "opaque"))
