;; k8s-create: a pod (or a job, deployment, stateful set, daemon set, replica set or cron job that
;; makes pods) created through the Kubernetes Python client: `create_namespaced_<kind>(namespace,
;; body)` on an API object, in a module that imports kubernetes. The body - a dict, or kubernetes'
;; model objects (V1Pod(spec=V1PodSpec(containers=[V1Container(...)]))), which the value model
;; reads as the mappings of their keywords (policy classes.mapping_calls) - is judged in the
;; k8s-python dialect: each container's securityContext and resources.limits, the pod's
;; hostNetwork/hostPID/hostIPC and hostPath volumes. A call with no argument raises TypeError
;; (namespace and body are required): a mock's, no site.
((call
   function: (attribute) @_create
   arguments: (argument_list (_)) @body) @site
 (#contains? @_create "create_namespaced_")
 (#match? @_create "[.]\\s*create_namespaced_(pod|job|deployment|stateful_set|daemon_set|replica_set|cron_job)$")
 (#imports? "kubernetes" "kubernetes_asyncio")
 (#set! hardguard.reads "body")
 (#set! hardguard.body-keyword "body")
 (#set! hardguard.body-position "1")
 (#set! hardguard.dialect "k8s-python"))
