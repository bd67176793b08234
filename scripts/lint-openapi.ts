// `npm run lint:openapi`: gen/openapi.json is a valid OpenAPI 3.1 document
// (the specification's own JSON Schema) and every schema in it compiles as
// JSON Schema 2020-12 in Ajv's strict mode (no unknown keywords or formats,
// no `required` of undeclared properties, every $ref resolves), which the specification's schema leaves unchecked;
// and every operation has examples (its path parameters, its JSON request body, an answer), each valid
// against its own schema (docs/openapi.md#examples).
// test/server/openapi-responses.test.ts validates real responses with the
// same compiler.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Media = { schema?: unknown; examples?: Record<string, { value?: unknown }> };
type Operation = {
  parameters?: { name: string; in?: string; schema?: unknown; example?: unknown }[];
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

/** Examples their own schema refuses, and (`required`) operations without examples. */
function exampleProblems(doc: Doc, compile: (schema: unknown) => ValidateFunction, required: boolean): string[] {
  const problems: string[] = [];
  const check = (where: string, schema: unknown, value: unknown) => {
    const validate = compile(schema ?? {});
    if (!validate(value)) problems.push(`${where}: the example does not match its schema: ${JSON.stringify(validate.errors).slice(0, 600)}`);
  };
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${p}`;
      for (const param of op.parameters ?? []) {
        if (param.example !== undefined) check(`${at} parameter ${param.name}`, param.schema, param.example);
        else if (required && param.in === "path") problems.push(`${at}: path parameter ${param.name} has no example`);
      }
      const json = op.requestBody?.content?.["application/json"];
      if (required && json && !json.examples) problems.push(`${at}: the request body has no example`);
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        for (const [name, ex] of Object.entries(media.examples ?? {})) if (media.schema) check(`${at} request ${type} example ${name}`, media.schema, ex.value);
      }
      let answered = false;
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(res.content ?? {})) {
          for (const [name, ex] of Object.entries(media.examples ?? {})) {
            answered = true;
            check(`${at} ${status} ${type} example ${name}`, media.schema, ex.value);
          }
        }
      }
      if (required && !answered) problems.push(`${at}: no answer has an example`);
    }
  }
  return problems;
}

/** Problems with the document; empty when it is valid. `requireExamples`: every operation must have examples, as Parapet's document does. */
export async function lintOpenApi(doc: Doc, { requireExamples = true } = {}): Promise<string[]> {
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
  if (problems.length > 0) return problems;
  return exampleProblems(doc, compile, requireExamples);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? openApiFile;
  const problems = await lintOpenApi(JSON.parse(await readFile(file, "utf8")) as Parameters<typeof lintOpenApi>[0]);
  for (const p of problems) console.error(`${path.relative(process.cwd(), file)}: ${p}`);
  if (problems.length > 0) process.exit(1);
  console.log(`${path.relative(process.cwd(), file)}: valid OpenAPI 3.1`);
}
