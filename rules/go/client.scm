;; client: a Docker client is opened with the moby client package: client.NewClientWithOpts(...),
;; client.NewEnvClient(), client.NewClient(...), and the newer client.New(...), called on the
;; package's own name (the file imports it: an alias of the import is not followed).
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)) @site
 (#eq? @_pkg "client")
 (#match? @_fn "^(NewClientWithOpts|NewEnvClient|NewClient|New)$")
 (#file-contains? "github.com/docker/docker/client" "github.com/moby/moby/client")
 (#set! hardguard.reads "client"))
