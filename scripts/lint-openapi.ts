// `npm run lint:openapi`: gen/openapi.json is a valid OpenAPI 3.1 document
// (the specification's own JSON Schema) and every schema in it compiles as
// JSON Schema 2020-12 in Ajv's strict mode (no unknown keywords or formats,
// no `required` of undeclared properties, every $ref resolves), which the specification's schema leaves unchecked.
// test/server/openapi-responses.test.ts validates real responses with the
// same compiler.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Media = { schema?: unknown };
type Operation = {
  parameters?: { name: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};
type Doc = { components?: { schemas?: Record<string, unknown> }; paths?: Record<string, Record<string, Operation>> };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const openApiFile = path.join(root, "gen", "openapi.json");
const base = "urn:parapet:openapi";

/** The document's `#/components/schemas/X` references, pointed into one JSON Schema resource. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${base}#/$defs/`));
}

/** Compiles schemas of the document (anything that may $ref its components) with Ajv in strict 2020-12 mode. */
export function schemaCompiler(doc: Doc): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: base, $defs: rebase(doc.components?.schemas ?? {}) });
  return (schema) => ajv.compile(rebase(schema) as object);
}

/** Every schema the operations use, with where it is. */
function* operationSchemas(doc: Doc): Iterable<[where: string, schema: unknown]> {
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${p}`;
      for (const param of op.parameters ?? []) yield [`${at} parameter ${param.name}`, param.schema];
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) if (media.schema) yield [`${at} request ${type}`, media.schema];
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(res.content ?? {})) if (media.schema) yield [`${at} ${status} ${type}`, media.schema];
      }
    }
  }
}

/** Problems with the document; empty when it is valid. */
export async function lintOpenApi(doc: Doc): Promise<string[]> {
  const problems: string[] = [];
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  if (validator.version !== "3.1") problems.push(`OpenAPI version ${validator.version}, expected 3.1`);
  if (!result.valid) problems.push(`not a valid OpenAPI 3.1 document: ${JSON.stringify(result.errors).slice(0, 2000)}`);
  let compile: (schema: unknown) => ValidateFunction;
  try {
    compile = schemaCompiler(doc);
  } catch (err) {
    return [...problems, `components.schemas: ${(err as Error).message}`];
  }
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    try {
      compile({ $ref: `#/components/schemas/${name}` });
    } catch (err) {
      problems.push(`components.schemas.${name}: ${(err as Error).message}`);
    }
  }
  for (const [where, schema] of operationSchemas(doc)) {
    try {
      compile(schema);
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? openApiFile;
  const problems = await lintOpenApi(JSON.parse(await readFile(file, "utf8")) as Parameters<typeof lintOpenApi>[0]);
  for (const p of problems) console.error(`${path.relative(process.cwd(), file)}: ${p}`);
  if (problems.length > 0) process.exit(1);
  console.log(`${path.relative(process.cwd(), file)}: valid OpenAPI 3.1`);
}
