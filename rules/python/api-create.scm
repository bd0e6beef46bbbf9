;; api-create: a container is created through the Engine API directly: a POST (requests, httpx,
;; a session or client of either, over the Docker socket or TCP) whose URL — its first argument,
;; followed through names, f-strings and concatenation — names .../containers/create, judged in
;; the engine-api dialect (HostConfig.CapDrop, HostConfig.ReadonlyRootfs ...; names in any case, as
;; the daemon decodes them). The body is `json=`, or `data=json.dumps(body)`. A mocked response
;; registered under that URL (requests_mock's `m.post(url, json=..., status_code=201)`) is no request.
((call
   function: (attribute) @_post
   arguments: (argument_list . (_) @_url) @body) @site
 (#match? @_post "[.]\\s*post$")
 (#value-contains? @_url "containers/create")
 (#not-match? @body "\\bstatus_code\\b")
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "json data")
 (#set! hardguard.body-unwrap "json.dumps")
 (#set! hardguard.dialect "engine-api"))
