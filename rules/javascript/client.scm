;; client: a dockerode client is made, `new Docker(...)` where Docker is dockerode's (require,
;; default, namespace or `import x = require(...)` import, followed through names).
((new_expression constructor: [(identifier) (member_expression)] @_ctor) @site
 (#file-contains? "dockerode")
 (#set! hardguard.reads "client"))
