#!/usr/bin/env node
// The `parapet` command. It runs the TypeScript sources through tsx (a runtime
// dependency), so it works without `npm run build`; a short-lived command does
// not need the memory the compiled service saves (docs/operations.md).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
