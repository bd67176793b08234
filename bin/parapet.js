#!/usr/bin/env node
// The `parapet` command. The project runs its TypeScript sources through tsx
// (a runtime dependency), so there is no separate build step to forget.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
