;; sdk-run: dockerode's <client>.run(image, cmd, stream, createOptions, startOptions): the body it
;; sends is {Image: image, Cmd: cmd} extended with createOptions (its fourth argument; a function
;; there is the callback, and there are no options). The receiver is decided as for
;; createContainer (sdk-create.scm), and a call with fewer than three arguments is not dockerode's
;; run.
((call_expression
   function: (member_expression property: (property_identifier) @_method)
   arguments: (arguments) @body) @site
 (#eq? @_method "run")
 (#file-contains? "dockerode")
 (#set! hardguard.reads "body")
 (#set! hardguard.dialect "dockerode"))
