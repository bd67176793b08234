// `@parapet/client`: the public surface. Works wherever fetch does; Node's
// HTTP/2 transports (plain gRPC, TLS options) are in `@parapet/client/node`.
export { screen, type ChatMessage, type ContentPart, type ScreenRequest, type ScreeningResult, type ToolCall, type ToolDefinition } from "./screen.js";
export { ParapetError, errorIds, type ErrorId, type ErrorObject } from "./errors.js";
export { apiKeyInterceptor, createParapetClient, createParapetClients, withParapetErrors, type ParapetClients } from "./clients.js";
export { createParapetTransport, type FetchConnectionOptions } from "./fetch-transport.js";
export type { ConnectionOptions } from "./connection.js";
export * from "./protocol.js";
