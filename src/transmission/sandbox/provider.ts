// The sandbox network: a Provider (src/transmission/provider.ts) that plays, for each network, the
// scenario the recipient's identifier chooses (scenarios.ts), answers in that network's
// vocabulary with small proof documents, keeps its own record of what it received (the
// `sandbox_received` table, keyed by our reference) and runs on each organization's sandbox clock.
// Nothing leaves the machine.

import type { Clock } from "../../clock";
import type { SandboxReceivedRow, Storage } from "../../db/storage";
import type { Network } from "../states";
import { normalised, type ParticipantId } from "../identifiers";
import type { NetworkAnswer, Provider, StatusAnswer } from "../provider";
import { REFUSAL_REASONS, SCENARIOS, scenarioFor, VOCABULARIES, type Scenario, type Step } from "./scenarios";
import { sandboxNow } from "./clock";
import { DeliveryWorker } from "../delivery";

/** What the sandbox remembers of a reference beside the row's columns. */
interface ReceivedState {
  orgId: string;
  scenario: string;
  pa: boolean;
  /** How many submissions arrived with this reference: more than one is a double send. */
  submissions: number;
}

/** Italian public administrations are addressed by their IPA office code (ISO 6523 ICD 0201). */
const isPublicAdministration = (network: Network, recipient: ParticipantId) => network === "sdi" && normalised(recipient).scheme === "0201";

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The proof bytes, the same on every read, so a receipt read twice is kept once. */
function proofOf(network: Network, ref: string, answer: Omit<NetworkAnswer, "proof">): string {
  const fields = { network, reference: ref, code: answer.code, kind: answer.kind, at: answer.at, ...(answer.reasons && { reasons: answer.reasons }) };
  if (VOCABULARIES[network].format === "json") return JSON.stringify({ sandbox: true, ...fields });
  const reasons = (answer.reasons ?? []).map((r) => `<Reason>${escapeXml(r)}</Reason>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?><SandboxReceipt network="${network}" reference="${escapeXml(ref)}" code="${answer.code}" kind="${answer.kind}" at="${answer.at}">${reasons}</SandboxReceipt>`;
}

/** Peppol's access point judges at submission; the other networks take the file and refuse it later (plans "refuse"). */
const refusesAtSubmission = (scenario: Scenario, network: Network) => scenario.submit === "refuse" && network === "peppol";

/** A submission whose answer never reached us (a timeout, a dropped connection). */
class ConnectionLost extends Error {
  constructor(ref: string) {
    super(`sandbox: the connection died after the network received ${ref}`);
    this.name = "ConnectionLost";
  }
}

export function sandboxProvider(storage: Storage, clock: Clock): Provider {
  const answer = (network: Network, ref: string, receivedAt: string, s: Step): NetworkAnswer => {
    const body = { code: s.code, kind: s.kind, at: new Date(new Date(receivedAt).getTime() + s.afterMs).toISOString(), ...(s.recipient && { recipient: s.recipient }), ...(s.reasons && { reasons: s.reasons }) };
    return { ...body, proof: proofOf(network, ref, body) };
  };
  return {
    name: "sandbox",
    async lookup(_network, recipient) {
      return scenarioFor(normalised(recipient).id).lookup;
    },
    async submit({ ref, transmission, envelope }) {
      const scenario = scenarioFor(normalised(envelope.recipient).id);
      // The first attempt carries attempt count 1; lost or turned away, it leaves nothing recorded.
      if (scenario.submit === "lose_first" && transmission.attemptCount <= 1) return { outcome: "unknown", detail: "sandbox: no answer within the timeout (lost before arrival)" };
      if (scenario.submit === "busy_first" && transmission.attemptCount <= 1) return { outcome: "retry", detail: "sandbox: busy (503), nothing taken; try again later" };
      const now = await sandboxNow(storage, clock, transmission.orgId);
      const state: ReceivedState = { orgId: transmission.orgId, scenario: scenario.name, pa: isPublicAdministration(envelope.network, envelope.recipient), submissions: 1 };
      const row: SandboxReceivedRow = {
        providerRef: ref,
        network: envelope.network,
        transmissionId: transmission.id,
        documentSha256: transmission.documentSha256,
        receivedAt: now.toISOString(),
        state: JSON.stringify(state),
      };
      await storage.sandbox.receive(row, (existing) => {
        const kept = JSON.parse(existing.state) as ReceivedState;
        return JSON.stringify({ ...kept, submissions: kept.submissions + 1 });
      });
      if (scenario.submit === "crash") throw new ConnectionLost(ref);
      if (scenario.submit === "silent") return { outcome: "unknown", detail: "sandbox: no answer within the timeout" };
      if (refusesAtSubmission(scenario, envelope.network)) return { outcome: "refused", reasons: REFUSAL_REASONS };
      return { outcome: "accepted", code: VOCABULARIES[envelope.network].accepted };
    },
    async status(ref): Promise<StatusAnswer> {
      const row = await storage.sandbox.received(ref);
      if (!row) return { found: false };
      const state = JSON.parse(row.state) as ReceivedState;
      const network = row.network as Network;
      const scenario = SCENARIOS.find((s) => s.name === state.scenario)!;
      if (refusesAtSubmission(scenario, network)) return { found: true, refused: REFUSAL_REASONS, answers: [] };
      const vocabulary = VOCABULARIES[network];
      const plan = scenario.plan;
      const now = (await sandboxNow(storage, clock, state.orgId)).getTime();
      const steps = [{ code: vocabulary.accepted, kind: "acceptance", afterMs: 0 }, ...vocabulary.plans(plan, state.pa)];
      const due = steps.filter((s) => new Date(row.receivedAt).getTime() + s.afterMs <= now);
      return { found: true, answers: due.map((s) => answer(network, ref, row.receivedAt, s)) };
    },
  };
}

/** The delivery worker over the sandbox, on each organization's sandbox clock. */
export const sandboxWorker = (storage: Storage, clock: Clock, owner: string, log?: (line: string) => void, reached?: (status: string) => void): DeliveryWorker =>
  new DeliveryWorker({ storage, clock, provider: sandboxProvider(storage, clock), networkNow: (orgId) => sandboxNow(storage, clock, orgId), owner, log, reached });
