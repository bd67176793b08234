// A self-signed certificate for a TLS test server (openssl, as the TLS tests in
// test/server/operations.test.ts and test/clients make theirs).
import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** Files for TLS_CERT_FILE and TLS_KEY_FILE, for CN=localhost, valid one day. `dir` is removed by the caller. */
export async function makeTestCertificate(): Promise<{ dir: string; certFile: string; keyFile: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "parapet-tls-"));
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  await promisify(execFile)("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", keyFile, "-out", certFile]);
  return { dir, certFile, keyFile };
}
