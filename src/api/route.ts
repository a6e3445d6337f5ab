import type { TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "../errors/error-codes";
import type { BodySpec } from "./body";
import type { Deps } from "./deps";
import type { Organization } from "../accounts/orgs";
import type { ApiKey } from "../accounts/keys";
import type { RequestHeader, ResponseHeader } from "./headers";

export interface Caller {
  /** Null for a signed-in dashboard page (src/dashboard/session.ts). */
  key: ApiKey | null;
  /** The key string as sent, for the prefix `GET /v1/me` reports. */
  presentedKey: string | null;
  org: Organization;
  livemode: boolean;
}

/** Whether a route requires an API key ("key") or is public ("none"). */
type RouteAuth = "key" | "none";

/** What every request carries before its caller is known. */
export interface RequestBasics {
  request: Request;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  /** Arrival time in ms; the request deadline counts from here. */
  arrivedAt: number;
  deadlineAt: number;
  headers: Headers;
  deps: Deps;
}

/**
 * What a handler sees: the request, its caller and the place to add response headers. A keyed
 * route's handler always has its caller (the pipeline refuses the request otherwise); a public
 * route's never does.
 */
export type RequestContext<Auth extends RouteAuth = RouteAuth> = RequestBasics & { caller: Auth extends "key" ? Caller : null };

export interface BinaryBody {
  bytes: Uint8Array;
  contentType: string;
}

/** A body sent as it is (a file), not in the JSON envelope. */
interface RawResponse {
  mediaTypes: string[];
  description: string;
}

interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  /** Documented error codes besides the ones every /v1 route can answer. */
  errors: ErrorCode[];
  /** What each `:name` segment of the path is. */
  params?: Record<string, string>;
  /** Request headers the route reads besides authentication and content negotiation. */
  requestHeaders?: RequestHeader[];
  /** Response headers specific to this route. */
  headers?: ResponseHeader[];
  /**
   * The 200 answer: JSON schema of `data` in the success envelope, a raw body, or both when
   * `Accept` chooses (the raw body then being the default).
   */
  response: { data: TSchema; raw?: RawResponse } | RawResponse;
  /** True when the route spends one quota unit per call. */
  metered?: boolean;
}

/**
 * One route: its contract (used for validation and for OpenAPI alike) and its handler. A handler
 * returns the `data` of the success envelope, or a Response for raw bodies. One variant per auth
 * mode, told apart by `auth`, so a route's literal `auth` alone types its handler's caller.
 */
export type RouteDef<Body = unknown, Query = unknown, Auth extends RouteAuth = RouteAuth> = Auth extends RouteAuth
  ? {
      method: "GET" | "POST" | "DELETE";
      path: string;
      auth: Auth;
      body?: BodySpec & ({ kind: "json"; schema: TSchema } | { kind: "binary" });
      query?: TSchema;
      doc: RouteDoc;
      handle(ctx: RequestContext<Auth>, input: { body: Body; query: Query }): Promise<unknown | Response> | unknown | Response;
    }
  : never;

export function defineRoute<Body = unknown, Query = unknown>(route: RouteDef<Body, Query>): RouteDef {
  return route as RouteDef;
}
