;; Marker facts: `// hardguard: allow[requirement] -- reason` and `// hardguard: ignore[rule] --
;; reason` comments (also `/* ... */`), the named and audited exceptions (src/judge/suppress.c
;; reads them). Never produce findings.
((comment) @marker
 (#contains? @marker "hardguard:")
 (#set! hardguard.fact "marker"))
