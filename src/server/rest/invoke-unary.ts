// The REST layer calls each RPC's implementation through Connect's own
// server-side unary invocation (`invokeUnaryImplementation`, the function
// Connect's handlers use), with the same interceptors as every other
// protocol. It is exported from `@connectrpc/connect/protocol`, which Connect
// documents as internal: this module is the only place that uses it, and it
// is written against @connectrpc/connect 2.1.2 (pinned in package.json).
// Check this file when upgrading Connect.
//
// The alternative, an in-memory router transport, encoded each message to
// binary and back and wrapped the call in async iterables, abort signals and
// serializers: garbage per request that outlived scavenges and was promoted,
// slowing the REST tail latency (docs/operations.md).
import type { DescMethod } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  createHandlerContext,
  createMethodImplSpec,
  createServiceImplSpec,
  type ConnectRouter,
  type ContextValues,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { invokeUnaryImplementation } from "@connectrpc/connect/protocol";

const methodKey = (method: { parent: { typeName: string }; name: string }) => `${method.parent.typeName}/${method.name}`;

export interface UnaryImplementations {
  /** Runs a method's implementation through `interceptors`; Unimplemented for a method without one. */
  invoke(method: DescMethod, requestHeader: Headers, message: unknown, interceptors: Interceptor[], contextValues?: ContextValues): Promise<unknown>;
}

/** The implementation of every method the routes register, unimplemented ones included (they throw Unimplemented). */
export function unaryImplementations(register: (router: ConnectRouter) => void): UnaryImplementations {
  const specs = new Map<string, MethodImplSpec>();
  const recorder = {
    handlers: [],
    service(service, impl) {
      for (const spec of Object.values(createServiceImplSpec(service, impl).methods)) specs.set(methodKey(spec.method), spec);
      return recorder;
    },
    rpc(method, impl) {
      specs.set(methodKey(method), createMethodImplSpec(method, impl as never));
      return recorder;
    },
  } as ConnectRouter;
  register(recorder);

  return {
    async invoke(method, requestHeader, message, interceptors, contextValues = createContextValues()) {
      const spec = specs.get(methodKey(method));
      if (spec?.kind !== "unary") throw new ConnectError(`${method.parent.typeName}.${method.name} is not implemented`, Code.Unimplemented);
      const context = createHandlerContext({
        service: method.parent,
        method,
        // What an in-memory Connect transport would report; nothing reads it.
        protocolName: "connect",
        requestMethod: "POST",
        url: `http://localhost/${method.parent.typeName}/${method.name}`,
        requestHeader,
        contextValues,
      });
      return invokeUnaryImplementation(spec, context, message as never, interceptors);
    },
  };
}
