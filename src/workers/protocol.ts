import { EngineUnavailable } from "../engine/admission";
import type { En16931Syntax } from "../profiles/ids";
import { DomainError } from "../errors/domain-error";
import type { ValidateOutcome, ValidateRequest } from "../validation/validate";
import type { Parsed } from "../generate/parse";
import type { InvoiceOrder } from "../generate/generate-invoice";
import type { ConvertOrder } from "../convert/convert";
import type { TemplateDefinitionInput } from "../pdf/design";
import type { InspectOrder } from "../transmission/inspect";
import type { XsdSchemaId } from "../profiles/schemas";
import type { CappedXsdOutcome } from "../validation/xsd";

/**
 * What the pool asks of an engine worker: one job per use case and message, answered by one reply
 * with its id.
 */
export type WorkerRequest =
  | { id: number; kind: "validate"; request: ValidateRequest }
  | { id: number; kind: "parse"; bytes: Uint8Array; hint?: "auto" | En16931Syntax }
  | { id: number; kind: "receive"; request: ValidateRequest }
  | { id: number; kind: "generate"; order: InvoiceOrder }
  | { id: number; kind: "convert"; order: ConvertOrder }
  | { id: number; kind: "design"; definition: TemplateDefinitionInput }
  | { id: number; kind: "inspect-transmission"; order: InspectOrder }
  | { id: number; kind: "warm"; entries: string[] }
  | { id: number; kind: "schema"; schema: XsdSchemaId; bytes: Uint8Array };

/**
 * A received document's verdict, and its invoice when parse maps the document. A document parse
 * refuses is still judged, so its refusal is no error here: `parse` is simply absent.
 */
export type ReceiveOutcome = ValidateOutcome & { parse?: Parsed };

/** The pool's answer to a job that asks to spend its unit: false when it could not (none left). */
export type UnitAnswer = { id: number; kind: "unit"; spent: boolean };

/** The pool's answer to a validation that asks another worker to check its schema: null when none could. */
export type SchemaAnswer = { id: number; kind: "schema-answer"; outcome: CappedXsdOutcome | null };

/** A domain refusal (the caller's document or request is at fault), carried as data. */
type Refusal = Pick<DomainError, "status" | "code" | "message" | "details">;

/**
 * Id 0 says the worker has loaded and listens. A generate job asks to spend its unit once its free
 * refusals have passed, and waits for the UnitAnswer before it goes on; a validation of a large
 * document asks for its schema to be checked elsewhere and waits for the SchemaAnswer. A worker
 * that collects its heap after a job's reply says so before the reply and again when done
 * (worker-main.ts).
 */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; refusal: Refusal }
  | { id: number; ok: false; error: string }
  | { id: number; asks: "unit" }
  | { id: number; asks: "schema"; schema: XsdSchemaId }
  | { id: number; collecting: boolean };

/**
 * A failed job's reply. Error classes do not survive postMessage, so a DomainError travels as its
 * fields and is rebuilt on the other side; anything else is the engine's fault.
 */
export function failureReply(id: number, error: unknown): WorkerReply {
  if (error instanceof DomainError) return { id, ok: false, refusal: { status: error.status, code: error.code, message: error.message, details: error.details } };
  return { id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** The error a failed reply stands for: the rebuilt refusal, or an engine fault (the service's, refunded). */
export function errorOf(reply: Extract<WorkerReply, { ok: false }>): Error {
  if ("refusal" in reply) return new DomainError(reply.refusal.status, reply.refusal.code, reply.refusal.message, reply.refusal.details);
  return new EngineUnavailable(`the engine failed on this request: ${reply.error.split("\n")[0]}`, true, 5);
}
