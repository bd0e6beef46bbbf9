;; Marker facts: `# hardguard: allow[requirement] -- reason` and `# hardguard: ignore[rule] -- reason`
;; comments in a Makefile, the named and audited exceptions (src/judge/suppress.c reads them).
((comment) @marker
 (#contains? @marker "hardguard:")
 (#set! hardguard.fact "marker"))
