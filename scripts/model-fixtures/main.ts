// `npm run generate:fixtures`: writes the fixture model folders under test/fixtures/models/
// (committed; .ci/run fails when they differ from what this writes). Same bytes on every run.
import path from "node:path";

import { buildFixture, FIXTURE_NAMES, FIXTURES_DIR } from "./fixtures.js";
import { folderFiles, writeFolder } from "./model-folder.js";

for (const name of FIXTURE_NAMES) {
  const files = folderFiles(buildFixture(name));
  writeFolder(path.join(FIXTURES_DIR, name), files);
  const bytes = [...files.values()].reduce((n, b) => n + b.length, 0);
  console.log(`${path.relative(process.cwd(), path.join(FIXTURES_DIR, name))}: ${files.size} files, ${bytes} bytes`);
}
