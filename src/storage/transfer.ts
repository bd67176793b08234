// Moving from the embedded engine to MongoDB (docs/storage.md#moving-from-the-embedded-engine-to-mongodb):
// a transfer of the store between engines. In the code "migration" means a schema migration
// only (schema.ts); the CLI's `parapet migrate` command keeps its name and runs copyEmbeddedToMongo.
//
//   exportDataDir(dir, file)        embedded data directory -> export file
//   importInto(db, file)            export file -> any Database (MongoDB in practice)
//   copyEmbeddedToMongo(dir, uri)   both at once, no file in between
//
// The export file is NDJSON: a header line, then per collection one line with
// its options and indexes followed by one line per document, values written by
// export-format.ts (Extended JSON for dates and special doubles, with an escape
// for keys starting with `$`), so that every stored value comes back as it was.
// Version 1 files (relaxed Extended JSON, which reads such keys as types) still
// import. Opening the data directory takes its lock: stop Parapet first.
// These functions print nothing and never exit; the CLI reports their results.

import fs from "node:fs";
import readline from "node:readline";
import { once } from "node:events";
import { BSON } from "mongodb";
import { DuplicateKeyError, UnstorableDocumentError, type CollectionOptions, type Database, type Doc, type IndexSpec } from "./collection.js";
import { EmbeddedDatabase } from "./embedded/engine.js";
import { FILE_MODE } from "./embedded/files.js";
import { decodeValue, encodeValue } from "./export-format.js";

const FORMAT = "parapet-export";
const VERSION = 2;
/** Version 1 wrote relaxed Extended JSON: `$`-keys in user data came back as other types. */
const RELAXED_EJSON_VERSION = 1;
const BATCH = 1000;

export interface CollectionSummary {
  name: string;
  documents: number;
  /** Documents already present in the target (a re-run after an interruption). */
  skipped: number;
  /** Documents the target cannot store (MongoDB: a key with a NUL character), with why; the rest went on. */
  refused?: { id: string; reason: string }[];
}

export interface TransferSummary {
  collections: CollectionSummary[];
}

export type Progress = (collection: string, documents: number) => void;

interface HeaderLine {
  format: typeof FORMAT;
  version: number;
  exportedAt: string;
}
interface CollectionLine {
  collection: string;
  options: CollectionOptions;
  indexes: IndexSpec[];
  count: number;
}
interface DocumentLine {
  c: string;
  d: Doc;
}

export async function exportDataDir(dataDir: string, outFile: string, onProgress?: Progress): Promise<TransferSummary> {
  const source = await EmbeddedDatabase.open({ dataDir, ttlSweepIntervalMs: 0 });
  // Request logs, key hashes and vault records: the data directory's own mode, only its owner may read them.
  const out = fs.createWriteStream(outFile, { flags: "wx", mode: FILE_MODE });
  const write = async (value: unknown) => {
    if (!out.write(`${JSON.stringify(encodeValue(value))}\n`)) await once(out, "drain");
  };
  const summary: TransferSummary = { collections: [] };
  try {
    await write({ format: FORMAT, version: VERSION, exportedAt: new Date().toISOString() } satisfies HeaderLine);
    for (const c of source.describe()) {
      await write({ collection: c.name, options: c.options, indexes: c.indexes, count: c.count } satisfies CollectionLine);
      let n = 0;
      for (const batch of source.scan(c.name, BATCH)) {
        for (const d of batch) await write({ c: c.name, d } satisfies DocumentLine);
        n += batch.length;
        onProgress?.(c.name, n);
      }
      summary.collections.push({ name: c.name, documents: n, skipped: 0 });
    }
    out.end();
    await once(out, "finish");
  } catch (e) {
    out.destroy();
    throw e;
  } finally {
    await source.close();
  }
  return summary;
}

export async function importInto(db: Database, file: string, onProgress?: Progress): Promise<TransferSummary> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  const summary: TransferSummary = { collections: [] };
  let sink: CollectionSink | undefined;
  let lineNo = 0;
  let version = 0;
  for await (const line of lines) {
    lineNo++;
    if (!line.trim()) continue;
    const value = (version === RELAXED_EJSON_VERSION ? BSON.EJSON.parse(line, { relaxed: true }) : decodeValue(JSON.parse(line), `${file}:${lineNo}`)) as Partial<
      HeaderLine & CollectionLine & DocumentLine
    >;
    if (lineNo === 1) {
      if (value.format !== FORMAT || (value.version !== VERSION && value.version !== RELAXED_EJSON_VERSION)) {
        throw new Error(`${file} is not a Parapet export (versions ${RELAXED_EJSON_VERSION} and ${VERSION})`);
      }
      version = value.version;
      continue;
    }
    if (value.collection !== undefined) {
      await sink?.finish();
      sink = await CollectionSink.open(db, value.collection, value.options ?? {}, value.indexes ?? [], onProgress);
      summary.collections.push(sink.summary);
    } else if (value.c !== undefined && value.d !== undefined) {
      if (!sink || sink.summary.name !== value.c) throw new Error(`${file}:${lineNo}: document for ${value.c} outside its collection section`);
      await sink.add(value.d);
    } else {
      throw new Error(`${file}:${lineNo}: unrecognised line`);
    }
  }
  await sink?.finish();
  return summary;
}

/** Copies every collection of an embedded data directory into the MongoDB at uri. */
export async function copyEmbeddedToMongo(dataDir: string, uri: string, onProgress?: Progress): Promise<TransferSummary> {
  const { MongoDatabase } = await import("./mongodb/engine.js");
  const source = await EmbeddedDatabase.open({ dataDir, ttlSweepIntervalMs: 0 });
  try {
    const target = await MongoDatabase.connect(uri);
    try {
      return await copyDatabase(source, target, onProgress);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** The engine-independent part of copyEmbeddedToMongo (tests copy into a second embedded database). */
export async function copyDatabase(source: EmbeddedDatabase, target: Database, onProgress?: Progress): Promise<TransferSummary> {
  const summary: TransferSummary = { collections: [] };
  for (const c of source.describe()) {
    const sink = await CollectionSink.open(target, c.name, c.options, c.indexes, onProgress);
    summary.collections.push(sink.summary);
    for (const batch of source.scan(c.name, BATCH)) for (const d of batch) await sink.add(d);
    await sink.finish();
  }
  return summary;
}

class CollectionSink {
  readonly summary: CollectionSummary;
  private batch: Doc[] = [];

  private constructor(
    private readonly coll: Awaited<ReturnType<Database["collection"]>>,
    name: string,
    private readonly onProgress?: Progress,
  ) {
    this.summary = { name, documents: 0, skipped: 0 };
  }

  static async open(db: Database, name: string, options: CollectionOptions, indexes: IndexSpec[], onProgress?: Progress): Promise<CollectionSink> {
    const coll = await db.collection(name, options);
    // Indexes first: unique ones then catch duplicates, and a re-run is detected per document.
    for (const spec of indexes) await coll.createIndex(spec);
    return new CollectionSink(coll, name, onProgress);
  }

  async add(doc: Doc): Promise<void> {
    this.batch.push(doc);
    if (this.batch.length >= BATCH) await this.flush();
  }

  async finish(): Promise<void> {
    await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const docs = this.batch;
    this.batch = [];
    try {
      await this.coll.insertMany(docs);
      this.summary.documents += docs.length;
    } catch (e) {
      if (!(e instanceof DuplicateKeyError || e instanceof UnstorableDocumentError)) throw e;
      // Part of this batch is already there (an interrupted earlier run), or one document cannot be
      // stored on the target: go one by one, and report the ones refused instead of stopping there.
      for (const d of docs) {
        try {
          await this.coll.insertOne(d);
          this.summary.documents++;
        } catch (err) {
          if (err instanceof UnstorableDocumentError) {
            (this.summary.refused ??= []).push({ id: d._id, reason: err.message });
            continue;
          }
          if (!(err instanceof DuplicateKeyError)) throw err;
          this.summary.skipped++;
        }
      }
    }
    this.onProgress?.(this.summary.name, this.summary.documents + this.summary.skipped);
  }
}
