// Files the service reads at run time (models, lexicons, package.json) are
// found from the project root. The same modules run from src/ (tsx: tests,
// scripts) and compiled from dist/src/ (`npm start`), so a path relative to
// the module would differ between the two.
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

const projectRoot = path.basename(path.dirname(here)) === "dist" ? path.resolve(here, "../..") : path.resolve(here, "..");

/** An absolute path inside the project, e.g. `projectFile("models", "manifest.json")`. */
export function projectFile(...segments: string[]): string {
  return path.join(projectRoot, ...segments);
}
