;; sdk-create: a container created through testcontainers-go: GenericContainer(ctx,
;; GenericContainerRequest{ContainerRequest: ...}) and Run(ctx, image, options...), called on the
;; package's own name. Judged in the testcontainers-go dialect: the request's fields
;; (ContainerRequest.Privileged, .CapAdd ..., deprecated there but still applied) and what its
;; HostConfigModifier sets on the host config it is given (a function literal, or a function of the
;; package, read as the mapping of the fields it sets); Run's options keyed by their names
;; (WithHostConfigModifier(fn): its mapping; a modifier given twice applies both), an option
;; hardguard cannot read (`opts...`) making the site unverifiable.
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list) @body) @site
 (#eq? @_pkg "testcontainers")
 (#eq? @_fn "GenericContainer")
 (#file-contains? "github.com/testcontainers/testcontainers-go")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "testcontainers-go")
 (#set! hardguard.arguments "_ ."))
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list) @body) @site
 (#eq? @_pkg "testcontainers")
 (#eq? @_fn "Run")
 (#file-contains? "github.com/testcontainers/testcontainers-go")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "testcontainers-go")
 (#set! hardguard.arguments "_ Image *"))
