import { Type } from "@sinclair/typebox";
import { defineRoute } from "../../src/api/route";
import { metered } from "../../src/api/metering";
import { ApiError } from "../../src/api/errors";

/**
 * A metered route for tests of the quota, refund, queue and schema machinery, standing in for the
 * document routes: it spends a unit through the same helper and then does what the body says.
 */
export const WorkRequest = Type.Object(
  {
    standard: Type.Union([Type.Literal("xrechnung"), Type.Literal("zugferd"), Type.Literal("facturx")]),
    action: Type.Union([Type.Literal("ok"), Type.Literal("crash"), Type.Literal("reject"), Type.Literal("sleep"), Type.Literal("stubborn")]),
    ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    invoice: Type.Optional(
      Type.Object(
        {
          number: Type.String({ minLength: 1 }),
          seller: Type.Object({ name: Type.String({ minLength: 1 }), email: Type.Optional(Type.String({ format: "email" })) }, { additionalProperties: false }),
          lines: Type.Array(Type.Object({ quantity: Type.Number({ exclusiveMinimum: 0 }) }, { additionalProperties: false }), { minItems: 1 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const workRoute = defineRoute<{ action: string; ms?: number }>({
  method: "POST",
  path: "/v1/test-work",
  auth: "key",
  body: { kind: "json", schema: WorkRequest, contentTypes: ["application/json"], maxBytes: 1_000_000 },
  doc: { summary: "test stand-in for a metered route", tags: ["test"], errors: [], response: { data: Type.Object({ done: Type.Boolean() }) }, metered: true },
  handle: (ctx, { body }) =>
    metered(ctx, async (signal) => {
      if (body.action === "crash") throw new Error("simulated engine fault");
      if (body.action === "reject") throw new ApiError(422, "VALIDATION_ERROR", "the document is at fault");
      if (body.action === "sleep") {
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, body.ms ?? 0);
          signal.addEventListener("abort", () => {
            clearTimeout(t);
            reject(new Error("aborted"));
          });
        });
      }
      // Like a CPU-bound engine job that cannot be interrupted: it keeps its slot to the end.
      if (body.action === "stubborn") await Bun.sleep(body.ms ?? 0);
      return { done: true };
    }),
});
