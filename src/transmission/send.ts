// POST /v1/send: generate and validate exactly as generate does, then queue the document as
// POST /v1/transmissions would. The Idempotency-Key guards the send body itself, so a replay
// answers before anything is generated again.

import { DomainError } from "../errors/domain-error";
import type { GeneratedInvoice } from "../generate/generate-invoice";
import type { GenerateRequestInput } from "../generate/request";
import { createTransmission, replayed, type Accepted, type Caller, type CreateSteps, type Idempotency } from "./create";
import type { ParticipantId } from "./identifiers";

export type SendRequest = Pick<GenerateRequestInput, "standard" | "profile" | "facturxProfile" | "syntax" | "invoice"> & {
  network: string;
  sender: ParticipantId;
  recipient: ParticipantId;
  documentTypeId?: string;
  deadlineAt?: string;
};

export interface SendSteps extends CreateSteps {
  /** The generate job (an engine worker), judged under the organization's channel. */
  generate(request: GenerateRequestInput): Promise<GeneratedInvoice>;
}

export async function sendInvoice(steps: SendSteps, caller: Caller, request: SendRequest, idempotency: Idempotency | null): Promise<Accepted> {
  if (idempotency !== null) {
    const again = await replayed(steps.storage, caller, idempotency);
    if (again) return again;
  }
  const { network, sender, recipient, documentTypeId, deadlineAt, ...generation } = request;
  const made = await steps.generate({ ...generation, output: "xml" });
  if (!made.result.valid) {
    const first = made.result.errors[0];
    throw new DomainError(422, "INVALID_INVOICE", `the generated ${made.generated.standard} document breaks ${made.result.errors.length} rule(s), first ${first?.ruleId}: ${first?.message}; nothing was queued`, {
      validationResult: made.result,
    });
  }
  const syntax = made.generated.syntax;
  if (syntax !== "ubl" && syntax !== "cii") {
    throw new DomainError(400, "UNSUPPORTED_SYNTAX", `${made.generated.standard} writes ${syntax}; only UBL and CII documents can travel; nothing was queued`);
  }
  return createTransmission(
    steps,
    caller,
    { network, sender, recipient, format: syntax, xml: new TextDecoder().decode(made.file), ...(documentTypeId && { documentTypeId }), ...(deadlineAt && { deadlineAt }) },
    idempotency,
  );
}
