// Dependency boundaries: the layering of src/, checked by `npm run lint:deps`.
//
// Layers, bottom to top (folder names are the target layout; rules on folders
// that do not exist yet simply match nothing):
//   storage                 the database engines; imports nothing else in src/
//   screening               the pure screening engine (detectors, resolution)
//   policies, projects, custom-guardrails, logs, analytics, auth
//                           resources: each owns its collection and service
//   guard                   the screening resource: composes the engine with
//                           policies, projects, custom guardrails, logs, analytics
//   api                     interceptors, context, errors shared by the protocols
//   server                  protocol plumbing (HTTP, REST, gRPC reflection)
//   app.ts, main.ts, cli/   composition roots
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
    // .js -> .ts/.d.ts (and .mjs -> .mts) the way tsc does, given the tsConfig.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
