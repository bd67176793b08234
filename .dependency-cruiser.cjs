// Dependency boundaries, checked by `npm run lint:deps`: the layering of src/
// and the browser console's boundary (console/src).
//
// src/ layers, bottom to top: a layer may import the layers below it; the rules
// below forbid the upward imports they name (folder names are the target layout;
// rules on folders that do not exist yet simply match nothing):
//   storage                 the database engines; imports nothing else in src/
//   auth, observability     organizations, API keys, access rules; logging, metrics
//   api                     interceptors, context and errors shared by the resources and
//                           the protocols: below every resource, so it imports no resource,
//                           guard, screening, server or cli (api-below-resources)
//   policies, projects, custom-guardrails, logs, analytics, sanitize
//                           resources: each owns its collection and service; siblings that
//                           do not import one another, except projects -> policies
//   guard                   the screening resource: composes the engine with
//                           policies, projects, custom guardrails, logs, analytics, sanitize
//   server                  protocol plumbing (HTTP, REST, gRPC reflection): imports api
//                           and observability, not the resources, guard, screening, storage
//                           or auth (server-is-protocol-only); app.ts passes the services in
//   app.ts, main.ts, cli/   composition roots
// Beside the stack, screening/ is the pure screening engine (detectors, resolution):
// the resources and guard import it, it imports only itself and src/paths.ts
// (engine-is-pure).
//
// console/src is a browser bundle beside the service (docs/console.md): it talks
// to the service over the generated client (gen/) and shares only the server's
// import-free vocabulary module; the console-* rules below keep it that way, and
// src-does-not-import-console the other way round.
//
// Paths are relative to the repository root; `$1` in a `to` rule refers to
// the first group captured by the `from` path, so a folder may import itself.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles make initialisation order fragile and layers meaningless; break the cycle with an interface or by moving code.",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-is-pure",
      severity: "error",
      comment:
        "The screening engine (src/screening/) is a pure library: it may import itself, src/paths.ts, gen/, npm packages and node builtins — " +
        "not storage, api, server, resources (policies, projects, logs, ...), observability, cli, nor app.ts/main.ts/config.ts. " +
        "Pass what it needs in as arguments.",
      from: { path: "^src/screening/" },
      to: { path: "^src/", pathNot: "^src/(screening/|paths\\.ts$)" },
    },
    {
      name: "storage-is-the-bottom",
      severity: "error",
      comment: "src/storage/ is the bottom layer: it imports nothing in src/ outside src/storage/.",
      from: { path: "^src/storage/" },
      to: { path: "^src/", pathNot: "^src/storage/" },
    },
    {
      name: "auth-below-api",
      severity: "error",
      comment:
        "src/auth/ (organizations, API keys, access rules, rate limits) sits below src/api/, which authenticates every call with it: " +
        "it imports storage, observability and gen/, not api, server, resources (the keys API is src/api-keys/), guard, screening, cli nor the composition roots.",
      from: { path: "^src/auth/" },
      to: { path: "^src/((api|api-keys|server|cli|policies|projects|custom-guardrails|logs|analytics|sanitize|guard|screening)/|(app|main)\\.ts$)" },
    },
    {
      name: "resources-do-not-reach-up",
      severity: "error",
      comment:
        "Resources (policies, projects, custom-guardrails, logs, analytics, api-keys, sanitize, guard) do not import the protocol layer (src/server/), the CLI or the composition roots.",
      from: { path: "^src/(policies|projects|custom-guardrails|logs|analytics|api-keys|sanitize|guard)/" },
      to: { path: "^src/((server|cli)/|(app|main)\\.ts$)" },
    },
    {
      name: "resources-are-siblings",
      severity: "error",
      comment:
        "policies, custom-guardrails, logs, analytics, api-keys and sanitize do not import one another (nor projects or guard); " +
        "shared code goes below them. Composition happens in src/guard/ and src/app.ts.",
      from: { path: "^src/(policies|custom-guardrails|logs|analytics|api-keys|sanitize)/" },
      to: { path: "^src/(policies|projects|custom-guardrails|logs|analytics|api-keys|sanitize|guard)/", pathNot: "^src/$1/" },
    },
    {
      name: "projects-name-only-policies",
      severity: "error",
      comment: "A project names a policy: src/projects/ may import src/policies/ but no other resource folder.",
      from: { path: "^src/projects/" },
      to: { path: "^src/(custom-guardrails|logs|analytics|api-keys|guard)/" },
    },
    {
      name: "api-below-resources",
      severity: "error",
      comment:
        "src/api/ (interceptors, context, errors) sits below the resources and the protocols: it may import src/auth/ and src/observability/, not server, resources, guard, screening or cli.",
      from: { path: "^src/api/" },
      to: { path: "^src/(server|policies|projects|custom-guardrails|logs|analytics|api-keys|guard|screening|cli)/" },
    },
    {
      name: "server-is-protocol-only",
      severity: "error",
      comment: "src/server/ is protocol plumbing: it does not import resources, guard, the screening engine, storage or auth; app.ts wires them in.",
      from: { path: "^src/server/" },
      to: { path: "^src/(policies|projects|custom-guardrails|logs|analytics|api-keys|guard|screening|storage|auth)/" },
    },
    {
      name: "nothing-imports-training",
      severity: "error",
      comment: "training/ is offline tooling (corpora, model training); the service must not import it.",
      from: { path: "^src/" },
      to: { path: "^training/" },
    },
    {
      name: "not-to-dev-dep",
      severity: "error",
      comment: "src/ is what runs in production (npm ci --omit=dev): it must not import devDependencies. Type-only imports are fine.",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"], pathNot: ["node_modules/@types/"] },
    },
    {
      name: "no-non-package-json",
      severity: "error",
      comment: "An npm package imported from src/ must be listed in package.json (not just present in node_modules as someone else's dependency).",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "console-imports-only-the-vocabulary-from-src",
      severity: "error",
      comment:
        "The console (console/src) is bundled for browsers: from src/ it may import only src/screening/vocabulary.ts, a module without imports. " +
        "Anything else it needs from the service comes over the API (gen/ holds the client) or is generated into console/src.",
      from: { path: "^console/" },
      to: { path: "^src/", pathNot: "^src/screening/vocabulary\\.ts$" },
    },
    {
      name: "console-vocabulary-is-import-free",
      severity: "error",
      comment: "src/screening/vocabulary.ts is bundled into the console as is: an import there would pull server code (or node builtins) into the browser bundle.",
      from: { path: "^src/screening/vocabulary\\.ts$" },
      to: {},
    },
    {
      name: "console-entry-is-imported-by-nobody",
      severity: "error",
      comment:
        "console/src/main.tsx is the shell that imports every page: a page importing it closes a cycle. " +
        "What pages share (PageProps, links, the playground handoff) lives in modules of its own.",
      from: { path: "^console/" },
      to: { path: "^console/src/main\\.tsx$" },
    },
    {
      name: "console-pages-do-not-import-pages",
      severity: "error",
      comment: "A console page does not import another page; what two pages share lives in a module of its own under console/src.",
      from: { path: "^console/src/pages/" },
      to: { path: "^console/src/pages/" },
    },
    {
      name: "src-does-not-import-console",
      severity: "error",
      comment: "console/ is the browser bundle; the service serves its built files (src/server/console.ts) and never imports its code.",
      from: { path: "^src/" },
      to: { path: "^console/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that does not resolve is a bug — and would let every rule above pass silently.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    exclude: { path: "^(dist|\\.tmp|coverage)/" },
    // Count `import type` too: a type dependency is still a layering dependency.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // NodeNext sources import "./x.js" for ./x.ts: dependency-cruiser retries
    // .js -> .ts/.tsx/.d.ts (and .mjs -> .mts) the way tsc does, given the tsConfig;
    // .tsx is the console's components (console/tsconfig.json resolves the same way).
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
