import type { TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "./error-codes";
import type { BodySpec } from "./body";
import type { Deps } from "./deps";
import type { Organization } from "../accounts/orgs";
import type { ApiKey } from "../accounts/keys";

export interface Caller {
  key: ApiKey;
  /** The key string as sent, for the prefix `GET /v1/me` reports. */
  presentedKey: string;
  org: Organization;
  livemode: boolean;
}

/** What a handler sees: the request, its caller and the place to add response headers. */
export interface RequestContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  /** Arrival time in ms; the request deadline counts from here. */
  arrivedAt: number;
  deadlineAt: number;
  caller: Caller | null;
  headers: Headers;
  deps: Deps;
}

export interface BinaryBody {
  bytes: Uint8Array;
  contentType: string;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  /** Documented error codes besides the ones every /v1 route can answer. */
  errors: ErrorCode[];
  /** Response headers specific to this route. */
  headers?: string[];
  /** JSON schema of `data` in the success envelope, or a media type for raw responses. */
  response: { data: TSchema } | { mediaTypes: string[]; description: string };
  /** True when the route spends one quota unit per call. */
  metered?: boolean;
}

/**
 * One route: its contract (used for validation and for OpenAPI alike) and its handler. A handler
 * returns the `data` of the success envelope, or a Response for raw bodies.
 */
export interface RouteDef<Body = unknown, Query = unknown> {
  method: "GET" | "POST" | "DELETE";
  path: string;
  auth: "key" | "none";
  body?: BodySpec & ({ kind: "json"; schema: TSchema } | { kind: "binary" });
  query?: TSchema;
  doc: RouteDoc;
  handle(ctx: RequestContext, input: { body: Body; query: Query }): Promise<unknown | Response> | unknown | Response;
}

export function defineRoute<Body = unknown, Query = unknown>(route: RouteDef<Body, Query>): RouteDef {
  return route as RouteDef;
}
