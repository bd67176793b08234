// What a request's access log line carries beyond its route, status and time
// (docs/operations.md#logs). The HTTP layer writes the line when the response
// ends, but the key and the screening decision are known deeper down, in the
// interceptors and the guard, on every protocol; the one thing all of them
// share is the request id the HTTP layer set, so the fields are kept by it.

/** Ids and outcome only, never content: the key's id (not the key), the project screened under, the decision. */
export interface AccessFields {
  key_id?: string;
  project_id?: string;
  decision?: "flagged" | "not_flagged";
}

export class AccessLog {
  private readonly open = new Map<string, AccessFields>();

  /** A request the HTTP layer started: its fields, filled in until its response has closed. */
  begin(requestId: string, response: { once(event: "close", listener: () => void): unknown }): AccessFields {
    const fields: AccessFields = {};
    this.open.set(requestId, fields);
    response.once("close", () => this.open.delete(requestId));
    return fields;
  }

  /** Adds to an open request's line; a request the HTTP layer did not start (an in-process transport) has none. */
  note(requestId: string | undefined, fields: AccessFields): void {
    const line = requestId === undefined ? undefined : this.open.get(requestId);
    if (line) Object.assign(line, fields);
  }
}
