;; sdk-create: a container is created through a JavaScript SDK (src/surfaces/javascript/).

;; dockerode: <client>.createContainer(options), the options being the Engine API's create body
;; ({Image, HostConfig: {CapDrop: ["ALL"], ...}}), judged in the dockerode dialect. The receiver
;; must be a dockerode client: made by `new Docker(...)` from dockerode (require, a default or
;; namespace import), followed through names; one that cannot be followed (a parameter, a
;; property) counts in a module that imports dockerode and defines no createContainer of its own.
;; The project's own class (`new Sandbox().createContainer(...)`, `this.createContainer(...)`)
;; is not a site.
((call_expression
   function: (member_expression property: (property_identifier) @_method)
   arguments: (arguments) @body) @site
 (#eq? @_method "createContainer")
 (#file-contains? "dockerode")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "dockerode"))

;; testcontainers-node: `new GenericContainer(image)` (imported from testcontainers) and the
;; methods chained on it up to `.start()` (or called on the name holding it, later in the same
;; block), read as a mapping of each method's name to its argument (TRUE for none), judged in
;; the testcontainers-node dialect. The methods of `hardguard.accumulate` append to the container's
;; lists: their arguments add up over calls.
((new_expression
   constructor: [(identifier) (member_expression)] @_ctor
   arguments: (arguments) @body) @site
 (#match? @_ctor "(^|\\.)GenericContainer$")
 (#file-contains? "testcontainers")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "testcontainers-node")
 (#set! hardguard.accumulate "withAddedCapabilities withDroppedCapabilities withSecurityOpt"))
