// protoc-gen-openapi: buf runs this as a local plugin (buf.gen.yaml) and
// writes gen/openapi.json from the protos (docs/openapi.md).
import { runNodeJs } from "@bufbuild/protoplugin";
import { protocGenOpenapi } from "./plugin.js";

runNodeJs(protocGenOpenapi);
