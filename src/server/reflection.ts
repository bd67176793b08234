// gRPC server reflection (docs/reflection.md) for Connect-ES v2, answered from the
// descriptors embedded in the generated code. No npm package provides this for
// Connect-ES v2, and grpcurl / buf curl / Postman need it to work without the
// .proto files.
//
// Behaviour follows the reference implementation (grpc-go reflection/serverreflection.go)
// because that is what grpcurl and buf curl are tested against.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { DescEnum, DescExtension, DescFile, DescMessage, DescService } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import type { ConnectRouter } from "@connectrpc/connect";
import * as v1 from "../../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";

/**
 * Registers grpc.reflection.v1.ServerReflection and grpc.reflection.v1alpha.ServerReflection
 * on the router, describing `services` (and the reflection services themselves).
 *
 * `extraFiles` makes files that no service imports resolvable too, for example the
 * file declaring error detail messages that clients decode from `grpc-status-details-bin`.
 */
export function registerReflection(router: ConnectRouter, services: readonly DescService[], extraFiles: readonly DescFile[] = []): void {
  const index = new ReflectionIndex([...services, v1.ServerReflection, v1alpha.ServerReflection], extraFiles);

  router.service(v1.ServerReflection, {
    async *serverReflectionInfo(requests) {
      // Per stream, like grpc-go: clients cache what they received on the stream,
      // so a dependency already sent is not sent again.
      const sent = new Set<string>();
      for await (const request of requests) {
        yield index.answer(request, sent);
      }
    },
  });

  router.service(v1alpha.ServerReflection, {
    async *serverReflectionInfo(requests) {
      const sent = new Set<string>();
      for await (const request of requests) {
        // v1alpha and v1 are wire-identical (only the package differs), so one
        // implementation serves both through a binary round trip.
        const asV1 = fromBinary(v1.ServerReflectionRequestSchema, toBinary(v1alpha.ServerReflectionRequestSchema, request));
        yield fromBinary(v1alpha.ServerReflectionResponseSchema, toBinary(v1.ServerReflectionResponseSchema, index.answer(asV1, sent)));
      }
    },
  });
}

class ReflectionIndex {
  private readonly serviceNames: string[];
  private readonly files = new Map<string, DescFile>();
  // Every name grpc-go's FindDescriptorByName resolves: messages, fields, oneofs,
  // enums, enum values, services, methods and extensions, nested included.
  private readonly symbols = new Map<string, DescFile>();
  private readonly messages = new Map<string, DescMessage>();
  // extendee type name -> extension number -> declaring file
  private readonly extensions = new Map<string, Map<number, DescFile>>();
  private readonly encoded = new Map<string, Uint8Array>();

  constructor(services: readonly DescService[], extraFiles: readonly DescFile[]) {
    this.serviceNames = [...new Set(services.map((s) => s.typeName))].sort();
    for (const file of [...services.map((s) => s.file), ...extraFiles]) {
      this.addFile(file);
    }
  }

  answer(request: v1.ServerReflectionRequest, sent: Set<string>): v1.ServerReflectionResponse {
    return create(v1.ServerReflectionResponseSchema, {
      validHost: request.host,
      originalRequest: request,
      messageResponse: this.respond(request.messageRequest, sent),
    });
  }

  private respond(req: v1.ServerReflectionRequest["messageRequest"], sent: Set<string>): v1.ServerReflectionResponse["messageResponse"] {
    switch (req.case) {
      case "listServices":
        return {
          case: "listServicesResponse",
          value: create(v1.ListServiceResponseSchema, {
            service: this.serviceNames.map((name) => ({ name })),
          }),
        };
      case "fileByFilename": {
        const file = this.files.get(req.value);
        return file ? this.fileResponse(file, sent) : notFound(`file not found: ${req.value}`);
      }
      case "fileContainingSymbol": {
        // Some clients send names with the leading dot of a type reference.
        const name = req.value.replace(/^\./, "");
        const file = this.symbols.get(name);
        return file ? this.fileResponse(file, sent) : notFound(`symbol not found: ${name}`);
      }
      case "fileContainingExtension": {
        const { containingType, extensionNumber } = req.value;
        const file = this.extensions.get(containingType)?.get(extensionNumber);
        return file ? this.fileResponse(file, sent) : notFound(`extension not found: ${containingType} ${extensionNumber}`);
      }
      case "allExtensionNumbersOfType": {
        if (!this.messages.has(req.value)) {
          return notFound(`type not found: ${req.value}`);
        }
        const numbers = [...(this.extensions.get(req.value)?.keys() ?? [])].sort((a, b) => a - b);
        return {
          case: "allExtensionNumbersResponse",
          value: create(v1.ExtensionNumberResponseSchema, {
            baseTypeName: req.value,
            extensionNumber: numbers,
          }),
        };
      }
      default:
        // grpc-go ends the stream here; an error response keeps the stream usable
        // for the client's next request and still tells it what went wrong.
        return errorResponse(Code.InvalidArgument, "invalid message_request: none set");
    }
  }

  // The requested file always comes first (clients read it as the answer), then
  // its transitive imports that this stream has not received yet: a client cannot
  // link a file without all of them.
  private fileResponse(file: DescFile, sent: Set<string>): v1.ServerReflectionResponse["messageResponse"] {
    const out: Uint8Array[] = [];
    const queue: DescFile[] = [file];
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (out.length > 0 && sent.has(next.proto.name)) continue;
      sent.add(next.proto.name);
      out.push(this.encode(next));
      queue.push(...next.dependencies);
    }
    return {
      case: "fileDescriptorResponse",
      value: create(v1.FileDescriptorResponseSchema, { fileDescriptorProto: out }),
    };
  }

  private encode(file: DescFile): Uint8Array {
    const key = file.proto.name;
    let bytes = this.encoded.get(key);
    if (!bytes) {
      // Options set through custom extensions (buf.validate, google.api.http) are
      // kept as unknown fields of the options messages and written back as they were.
      bytes = toBinary(FileDescriptorProtoSchema, file.proto);
      this.encoded.set(key, bytes);
    }
    return bytes;
  }

  private addFile(file: DescFile): void {
    // Keyed by name: the same well-known file can be reached through different
    // import paths, and protobuf names are unique within one schema.
    if (this.files.has(file.proto.name)) return;
    this.files.set(file.proto.name, file);
    for (const dep of file.dependencies) this.addFile(dep);

    for (const service of file.services) {
      this.symbols.set(service.typeName, file);
      for (const method of service.methods) {
        this.symbols.set(`${service.typeName}.${method.name}`, file);
      }
    }
    for (const message of file.messages) this.addMessage(file, message);
    for (const desc of file.enums) this.addEnum(file, desc);
    for (const ext of file.extensions) this.addExtension(file, ext);
  }

  private addMessage(file: DescFile, message: DescMessage): void {
    this.symbols.set(message.typeName, file);
    this.messages.set(message.typeName, message);
    for (const field of message.fields) {
      this.symbols.set(`${message.typeName}.${field.name}`, file);
    }
    for (const oneof of message.oneofs) {
      this.symbols.set(`${message.typeName}.${oneof.name}`, file);
    }
    for (const nested of message.nestedMessages) this.addMessage(file, nested);
    for (const desc of message.nestedEnums) this.addEnum(file, desc);
    for (const ext of message.nestedExtensions) this.addExtension(file, ext);
  }

  private addEnum(file: DescFile, desc: DescEnum): void {
    this.symbols.set(desc.typeName, file);
    // Enum values are scoped like C++ enumerators: siblings of the enum, not children.
    const scope = desc.typeName.slice(0, desc.typeName.lastIndexOf(".") + 1);
    for (const value of desc.values) {
      this.symbols.set(scope + value.name, file);
    }
  }

  private addExtension(file: DescFile, ext: DescExtension): void {
    this.symbols.set(ext.typeName, file);
    let byNumber = this.extensions.get(ext.extendee.typeName);
    if (!byNumber) {
      byNumber = new Map();
      this.extensions.set(ext.extendee.typeName, byNumber);
    }
    byNumber.set(ext.number, file);
  }
}

function notFound(message: string): v1.ServerReflectionResponse["messageResponse"] {
  return errorResponse(Code.NotFound, message);
}

// error_code carries the numeric gRPC status code; Connect's Code enum uses the same numbers.
function errorResponse(code: Code, message: string): v1.ServerReflectionResponse["messageResponse"] {
  return {
    case: "errorResponse",
    value: create(v1.ErrorResponseSchema, { errorCode: code, errorMessage: message }),
  };
}
