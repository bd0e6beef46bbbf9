#include "judge/finding.h"

#include <stdlib.h>
#include <string.h>

const char *const hg_via_names[] = {"none", "builder", "flags"};
const char *const hg_effect_names[HG_EFFECT_COUNT] = {"satisfied", "missing",  "conditional", "unverifiable",
                                                     "allowed",   "trusted", "forbidden"};

const hg_rule hg_rules[HG_RULE_COUNT] = {
    [HG_RULE_WEAKENING_OPTION] = {
        .id = "weakening-option",
        .summary = "A container is given an option that undoes hardening",
        .what = "privileged=True / --privileged, cap_add / --cap-add, a host (or another container's) "
                "network, PID, IPC or user namespace, security_opt seccomp=unconfined, "
                "apparmor=unconfined or label=disable, devices / --device, and a volume or mount of "
                "the Docker socket or of the host's /. The list is rules/policy.yml `forbid:`. Always a "
                "failure, whether or not the builder is applied.",
        .why = "Each of these gives code in the container a way out: the Docker socket or a "
               "privileged container is root on the host, host namespaces expose its processes and "
               "network, an unconfined profile re-enables the syscalls the policy blocks.",
        .fix = "Remove the option. If a workload truly needs it, run that workload elsewhere; a "
               "named exception (# hardguard: ignore[weakening-option] -- reason) records why.",
        .example_fail = "client.containers.run(image, privileged=True, **hardening_kwargs())",
        .example_pass = "client.containers.run(image, **hardening_kwargs())",
    },
    [HG_RULE_UNHARDENED_SITE] = {
        .id = "unhardened-site",
        .summary = "A container is created without the shared hardening builder or the full flag set",
        .what = "A docker-py containers.run/create call or a docker/podman/nerdctl run/create command "
                "line that neither applies a configured hardening builder nor passes every requirement "
                "of the policy (no-new-privileges, cap-drop-all, network-none, read-only, memory, CPU "
                "and pids limits) literally.",
        .why = "A container started with Docker's defaults keeps 14 capabilities, the default network "
               "and a writable root filesystem: code running in it can reach the network, fill the "
               "disk and escalate through setuid binaries. Hardening copied by hand into each call "
               "site drifts; the site that forgot it is the one that runs untrusted input.",
        .fix = "Apply the shared builder, merged last so the caller cannot weaken it "
               "(**hardening_kwargs(), *policy.hardening_argv()), or pass each missing requirement "
               "literally.",
        .example_fail = "client.containers.run(image, cmd, mem_limit=\"512m\")",
        .example_pass = "client.containers.run(image, cmd, **hardening_kwargs())",
    },
    [HG_RULE_BUILDER_NOT_APPLIED] = {
        .id = "builder-not-applied",
        .summary = "The module imports the hardening builder, but this site does not apply it",
        .what = "A container site in a module that imports a configured builder module, where the "
                "site itself neither spreads the builder's result nor carries the full flag set.",
        .why = "The import shows the module is meant to be hardened; a site that skips the builder is "
               "usually a call added later by copy-paste, and it runs with Docker's defaults.",
        .fix = "Spread the builder into this call too, merged last: **hardening_kwargs() or "
               "*policy.hardening_argv().",
        .example_fail = "from sandbox.container_hardening import hardening_kwargs\n"
                        "client.containers.create(snapshot, detach=True)",
        .example_pass = "from sandbox.container_hardening import hardening_kwargs\n"
                        "client.containers.create(snapshot, detach=True, **hardening_kwargs())",
    },
    [HG_RULE_BUILDER_OVERRIDABLE] = {
        .id = "builder-overridable",
        .summary = "The hardening builder is applied, but something merged after it can weaken it",
        .what = "A site that applies the builder where a later entry can replace what it sets: "
                "**{**hardening_kwargs(), \"read_only\": False}, **{**hardening_kwargs(), **opts}, or an "
                "argv list with --network, --read-only=false, --memory or an unknown *splat after "
                "*hardening_argv().",
        .why = "In a dict merge the last key wins, and docker keeps the last value of a repeated "
               "option: a caller's options merged after the floor silently undo it.",
        .fix = "Merge the builder last: **{**caller_kwargs, **hardening_kwargs()}, or put "
               "*hardening_argv() after every other option.",
        .example_fail = "client.containers.run(image, **{**hardening_kwargs(), **opts})",
        .example_pass = "client.containers.run(image, **{**opts, **hardening_kwargs()})",
    },
    [HG_RULE_BUILDER_INCOMPLETE] = {
        .id = "builder-incomplete",
        .summary = "The site applies a hardening builder that yields less than the full set",
        .what = "A site that relies on a builder (a configured one, or a helper whose result it spreads) "
                "where what the builder actually returns, with the arguments this site gives it, lacks "
                "requirements that nothing else at the site supplies. hardguard reads the builder's "
                "definition in the project: parameters are bound to the call's arguments, attributes "
                "of `self` to the constructor call that made the receiver (or the class defaults), "
                "and an `if` on a known value takes that branch. The message names the builder, "
                "where it is defined, what it yields and what is missing; for a flag added only "
                "under a condition, which condition and the value that left it false.",
        .why = "A builder's name says nothing about its result. A \"baseline\" builder with three of "
               "the flags beside the full one, or a policy object whose opt-in fields for "
               "no-new-privileges and dropping capabilities were never switched on, leaves the "
               "container with Docker's defaults while every site looks hardened.",
        .fix = "Apply the builder that yields the full set, or give it the arguments that switch the "
               "missing requirements on; or make the builder yield them unconditionally.",
        .example_fail = "client.containers.run(image, **baseline_hardening_kwargs())",
        .example_pass = "client.containers.run(image, **hardening_kwargs())",
    },
    [HG_RULE_UNVERIFIABLE_FLAGS] = {
        .id = "unverifiable-flags",
        .summary = "Flags reach the site from somewhere hardguard cannot verify",
        .what = "A container site whose options come, at least in part, from an expression hardguard "
                "cannot follow: **kwargs from a parameter, **some_call() that is not a configured "
                "builder, *extra_flags, or a value-compared option (network_mode=mode) given by a "
                "variable.",
        .why = "A guard that trusts what it cannot read passes whatever that expression holds: the "
               "flags may be missing, or may undo hardening. hardguard fails closed.",
        .fix = "Apply the shared builder last (**hardening_kwargs() after the caller's options), or "
               "write the hardening options literally at the site.",
        .example_fail = "self._client.containers.run(self._image, **self._default_kwargs)",
        .example_pass = "self._client.containers.run(self._image, **{**self._default_kwargs, "
                        "**hardening_kwargs()})",
    },
    [HG_RULE_CLIENT_WITHOUT_BUILDER] = {
        .id = "client-without-builder",
        .summary = "A Docker client is opened in a module not wired to the hardening builder",
        .what = "docker.from_env(), docker.DockerClient(...), docker.APIClient(...) and their aliases, "
                "in a module that imports nothing from a configured builder module (or when no builder "
                "is configured).",
        .why = "A module that opens a Docker client will create containers; if it does not import the "
               "shared constraints, nothing ties those containers to the policy.",
        .fix = "Import the builder in this module and apply it at every container site, or configure "
               "the project's builder in .hardguard.yml.",
        .example_fail = "import docker\nclient = docker.from_env()",
        .example_pass = "import docker\nfrom sandbox.container_hardening import hardening_kwargs\n"
                        "client = docker.from_env()",
    },
    [HG_RULE_UNPARSABLE_SITE] = {
        .id = "unparsable-site",
        .summary = "A site, or code that may hold one, has a syntax error and cannot be judged",
        .what = "A container or client site whose own text contains a syntax error, or a region that "
                "failed to parse and mentions a site's trigger words.",
        .why = "hardguard cannot tell which flags a broken call passes; counting it as hardened would "
               "let broken or deliberately confusing code through.",
        .fix = "Fix the syntax error; the site is judged once it parses.",
        .example_fail = "client.containers.run(image, cap_drop=[\"ALL\",)",
        .example_pass = "client.containers.run(image, **hardening_kwargs())",
    },
    [HG_RULE_BAD_SUPPRESSION] = {
        .id = "bad-suppression",
        .summary = "A hardguard marker is malformed, names an unknown id, or gives no reason",
        .what = "A comment starting `# hardguard:` that is not `allow[<requirement>, ...] -- <reason>` "
                "or `ignore[<rule>, ...] -- <reason>`, names a requirement or rule that does not "
                "exist, or has no reason after `--`.",
        .why = "An exception is only auditable with its reason, and a typo in an id would otherwise "
               "silently relax nothing or the wrong thing.",
        .fix = "Name requirement ids (hardguard --list-rules) in allow[...], rule ids in ignore[...], "
               "and say why after `--`.",
        .example_fail = "client.containers.run(image, network_mode=\"bridge\")  # hardguard: allow[network]",
        .example_pass = "# hardguard: allow[network-none] -- fetches wheels from the internal mirror\n"
                        "client.containers.run(image, network_mode=\"bridge\", ...)",
    },
    [HG_RULE_UNUSED_SUPPRESSION] = {
        .id = "unused-suppression",
        .summary = "A hardguard marker relaxes or suppresses nothing",
        .what = "An allow[...] marker where no site on its line (or the next, for a marker alone on its "
                "line) misses what it names, or an ignore[...] marker where no finding there has only "
                "the rules it names.",
        .why = "Stale exceptions hide the next real problem at that line and mislead reviewers; "
               "removing them keeps the list of exceptions honest.",
        .fix = "Remove the marker, or move it to the site it is meant for.",
        .example_fail = "# hardguard: ignore[unhardened-site] -- legacy\n"
                        "client.containers.run(image, **hardening_kwargs())",
        .example_pass = "client.containers.run(image, **hardening_kwargs())",
    },
    [HG_RULE_GATE_RELAXED] = {
        .id = "gate-relaxed",
        .summary = "A change relaxes the gate itself (a warning; an error with --strict)",
        .what = "With --diff REF, the gate at REF compared with the work tree: an `exclude` glob, an "
                "`allow:` entry, a surface turned off, a builder or one of its callables, or "
                "`trust: true` added or widened in .hardguard.yml; an allow[...] or ignore[...] marker "
                "added or widened; an entry added to the --baseline file. Each is named at its file and "
                "line, as a warning (a GitHub ::warning, a SARIF result of level warning) that fails "
                "the run only with --strict. Removing or narrowing an exception is never reported.",
        .why = "Every exception is also the easiest way to turn a red gate green: a change that "
               "excludes its own files, suppresses its own findings, declares an unrelated module a "
               "builder or appends its findings to the baseline passes the check it should fail. "
               "Review is the defence, so the gate puts such a change in front of the reviewer.",
        .fix = "Review the change to the gate. In CI, read the policy from the target branch "
               "(--config-from) so that a change cannot relax its own check, and add --strict to "
               "require that a relaxation lands on its own, reviewed, before the code that needs it.",
        .example_fail = "# .hardguard.yml in the change (not in the base)\n"
                        "exclude: [\"**\"]",
        .example_pass = "# .hardguard.yml as in the base\n"
                        "exclude: [\"tests/**\"]",
    },
};

const hg_rule *hg_rule_find(const char *id) {
  for (size_t i = 0; i < HG_RULE_COUNT; i++)
    if (strcmp(hg_rules[i].id, id) == 0) return &hg_rules[i];
  return NULL;
}

bool hg_finding_fails(const hg_finding *self) {
  return self->rule != HG_RULE_NONE && self->suppression != HG_SUPPRESSION_SUPPRESSED;
}

void hg_finding_clear(hg_finding *self) {
  free(self->justification);
  free(self->path);
  free((void *)self->missing);
  free(self->message);
  free(self->fix);
  free(self->effective);
  hg_related_free(self->related, self->n_related);
  free(self->source_line);
}

void hg_related_free(hg_related *related, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(related[i].path);
    free(related[i].message);
  }
  free(related);
}

void hg_findings_free(hg_findings *self) {
  for (size_t i = 0; i < self->len; i++) hg_finding_clear(&self->items[i]);
  free(self->items);
  self->items = NULL;
  self->len = self->cap = 0;
}

void hg_file_errors_free(hg_file_errors *self) {
  for (size_t i = 0; i < self->len; i++) {
    free(self->items[i].path);
    free(self->items[i].message);
  }
  free(self->items);
  self->items = NULL;
  self->len = self->cap = 0;
}

#define CMP(a, b)                                                                                  \
  do {                                                                                             \
    if ((a) != (b)) return (a) < (b) ? -1 : 1;                                                     \
  } while (0)

static int finding_cmp(const void *pa, const void *pb) {
  const hg_finding *a = pa, *b = pb;
  int c = strcmp(a->path, b->path);
  if (c) return c;
  CMP(a->line, b->line);
  CMP(a->col, b->col);
  if ((c = strcmp(a->kind, b->kind))) return c;
  CMP((int)a->rule, (int)b->rule);
  CMP(a->end_line, b->end_line);
  return 0;
}

static int error_cmp(const void *pa, const void *pb) {
  const hg_file_error *a = pa, *b = pb;
  int c = strcmp(a->path, b->path);
  if (c) return c;
  CMP(a->line, b->line);
  CMP(a->col, b->col);
  return 0;
}

void hg_findings_sort(hg_findings *self) {
  if (self->len) qsort(self->items, self->len, sizeof(hg_finding), finding_cmp);
}

void hg_file_errors_sort(hg_file_errors *self) {
  if (self->len) qsort(self->items, self->len, sizeof(hg_file_error), error_cmp);
}
