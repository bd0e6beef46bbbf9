;; api-create: a container is created through the Engine API directly: a POST to
;; .../containers/create (requests, httpx, a session or client of either, over the Docker socket
;; or TCP) whose JSON body is the create request, judged in the engine-api dialect
;; (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names in any case, as the daemon decodes
;; them). The body is `json=` or `data=json.dumps(body)`. The URL names the endpoint in place
;; (a string or f-string), or is a name in a module that mentions the endpoint.
((call
   function: (attribute attribute: (identifier) @_post)
   arguments: (argument_list . (_) @_url (keyword_argument name: (identifier) @_json value: (_) @body))) @site
 (#eq? @_post "post")
 (#eq? @_json "json")
 (#contains? @_url "containers/create")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "engine-api"))
((call
   function: (attribute attribute: (identifier) @_post)
   arguments: (argument_list . (_) @_url
     (keyword_argument name: (identifier) @_data
       value: (call function: [(identifier) (attribute)] @_dumps arguments: (argument_list . (_) @body))))) @site
 (#eq? @_post "post")
 (#eq? @_data "data")
 (#resolves-to? @_dumps "json.dumps")
 (#contains? @_url "containers/create")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "engine-api"))
((call
   function: (attribute attribute: (identifier) @_post)
   arguments: (argument_list . [(identifier) (attribute) (call)] @_url
     (keyword_argument name: (identifier) @_json value: (_) @body))) @site
 (#eq? @_post "post")
 (#eq? @_json "json")
 (#file-contains? "containers/create")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "engine-api"))
;; data=json.dumps(body) with the URL in a name.
((call
   function: (attribute attribute: (identifier) @_post)
   arguments: (argument_list . [(identifier) (attribute) (call)] @_url
     (keyword_argument name: (identifier) @_data
       value: (call function: [(identifier) (attribute)] @_dumps arguments: (argument_list . (_) @body))))) @site
 (#eq? @_post "post")
 (#eq? @_data "data")
 (#resolves-to? @_dumps "json.dumps")
 (#file-contains? "containers/create")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "engine-api"))
