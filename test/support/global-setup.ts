// Tests that start the service as a child process run the compiled build,
// exactly what `npm start` runs; compile it once per test run.
import { buildService } from "../../scripts/build.mjs";

export default async function setup(): Promise<void> {
  await buildService();
}
