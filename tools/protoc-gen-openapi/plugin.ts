// The plugin: options, then one file (openapi.json by default) for the whole request.
// Options (buf.gen.yaml `opt`):
//   title=<text>            info.title (default "API")
//   error_message=<name>    the message every error response carries (required)
//   nullable_option=<name>  bool field option: the field is written as null when unset (default none)
//   omit_empty_option=<name> bool field option: the repeated or map field is left out when empty (default none)
//   license=<spdx id>       info.license (default none)
//   port=<port>             the default port of a templated server beside the relative one (default none)
//   examples=<file>         a JSON file of examples per operationId, read from the working directory (examples.ts; default none)
//   file=<name>             output file name (default openapi.json)
import { createEcmaScriptPlugin, type Schema } from "@bufbuild/protoplugin";
import { buildDocument } from "./document.js";
import { readExamples } from "./examples.js";
import { readProtoOptions } from "./proto-options.js";

interface Options {
  title: string;
  errorMessage: string;
  nullableOption: string;
  omitEmptyOption: string;
  license: string;
  port: string;
  examples: string;
  file: string;
}

function parseOptions(raw: { key: string; value: string }[]): Options {
  const options: Options = { title: "API", errorMessage: "", nullableOption: "", omitEmptyOption: "", license: "", port: "", examples: "", file: "openapi.json" };
  for (const { key, value } of raw) {
    if (key === "title") options.title = value;
    else if (key === "error_message") options.errorMessage = value;
    else if (key === "nullable_option") options.nullableOption = value;
    else if (key === "omit_empty_option") options.omitEmptyOption = value;
    else if (key === "license") options.license = value;
    else if (key === "port") options.port = value;
    else if (key === "examples") options.examples = value;
    else if (key === "file") options.file = value;
    else throw new Error(`unknown option '${key}'`);
  }
  if (options.errorMessage === "") throw new Error("option error_message=<message full name> is required");
  if (options.port !== "" && !/^[0-9]{1,5}$/.test(options.port)) throw new Error(`option port=${options.port}: a port number`);
  return options;
}

function generate(schema: Schema<Options>): void {
  const { title, errorMessage, nullableOption, omitEmptyOption, license, port, file } = schema.options;
  const protoOptions = readProtoOptions(schema.allFiles, nullableOption, omitEmptyOption);
  const examples = schema.options.examples === "" ? undefined : readExamples(schema.options.examples);
  const document = buildDocument(schema.files, schema.allFiles, protoOptions, { title, errorMessage, license, port, examples });
  schema.generateFile(file).print(JSON.stringify(document, null, 2));
}

export const protocGenOpenapi = createEcmaScriptPlugin<Options>({
  name: "protoc-gen-openapi",
  version: "v1",
  parseOptions,
  generateTs: generate,
  // The output is the same for every target; write it once whichever are asked for.
  generateJs: (schema) => {
    if (!schema.targets.includes("ts")) generate(schema);
  },
  generateDts: () => {},
});
