// ESLint flat config: @eslint/js and typescript-eslint `recommendedTypeChecked`
// (type-aware: floating or misused promises, awaiting non-promises, unsafe
// `any` flows), Prettier owns formatting (eslint-config-prettier turns the
// stylistic rules off), a function-size limit, and one architectural rule:
// only src/config.ts reads the environment. Dependency boundaries are
// dependency-cruiser's (`npm run lint:deps`).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // Generated, vendored, built or data: not ours to lint.
    ignores: [
      "gen/**",
      "scripts/model-fixtures/gen/**",
      "dist/**",
      "clients/*/dist/**",
      "node_modules/**",
      "third_party/**",
      "models/**",
      "data/**",
      ".tmp/**",
      "coverage/**",
    ],
  },
  {
    // Also lints the root config files and bin/; TypeScript files need an explicit pattern.
    files: ["**/*.{js,mjs,cjs,ts,mts,cts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked, prettier],
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
      // Each file is checked with the tsconfig.json nearest to it (the root's, or console/'s).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An `async` function that does not await is deliberate here: it implements a
      // Promise-returning interface (the storage port, handlers) and turns a synchronous
      // throw into a rejection, which callers already handle.
      "@typescript-eslint/require-await": "off",
      // Unused names are errors, but a leading underscore is the deliberate
      // "required by the signature, not used" marker (callbacks, interface
      // implementations, destructuring to drop a field), and `catch (e)` with
      // an unused `e` is common when the error is intentionally swallowed.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          caughtErrors: "none",
          ignoreRestSiblings: true,
        },
      ],
      // A text-screening engine matches control characters on purpose
      // (normalisation strips them, detectors test for non-ASCII ranges).
      "no-control-regex": "off",
      // Ideographic and other Unicode spaces inside regular expressions are
      // deliberate (CJK name matching); stray ones in code are still errors.
      "no-irregular-whitespace": ["error", { skipStrings: true, skipRegExps: true, skipTemplates: true, skipComments: true }],
    },
  },
  {
    // Plain JavaScript (configs, bin/, build scripts) has no types to check.
    files: ["**/*.{js,mjs,cjs}"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The browser console (docs/console.md): TSX, browser globals, the same rules.
    files: ["console/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // A function longer than a screen hides its steps; split it by concern. Tests
    // are exempt (a describe block is long by nature). The few honest exceptions
    // carry an eslint-disable comment that says why.
    files: ["src/**/*.ts", "console/**/*.{ts,tsx}", "training/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts", "tools/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests read untyped JSON responses and poke at internals; `any` there is
    // the honest type, and so are the member accesses and calls on it. It stays
    // an error in src/.
    files: ["test/**/*.{ts,mts,cts}"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // `expect(store.take).toHaveBeenCalled()` and saving a prototype method to wrap it are
      // the mocking idioms: the method is never called unbound.
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node, ...globals.commonjs } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Configuration comes from the environment in one place (src/config.ts),
    // so every setting is documented, validated and testable with a fake env.
    files: ["src/**/*.{ts,mts,cts,js,mjs,cjs}"],
    ignores: ["src/config.ts"],
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read the environment only in src/config.ts" }],
      "no-restricted-imports": [
        "error",
        {
          paths: ["process", "node:process"].map((name) => ({
            name,
            importNames: ["env"],
            message: "read the environment only in src/config.ts",
          })),
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.type='MemberExpression'][object.property.name='process'][property.name='env']",
          message: "read the environment only in src/config.ts",
        },
      ],
    },
  },
);
