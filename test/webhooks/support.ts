// What the webhook tests share: transmissions written straight through the storage (each writes
// its transmission.queued outbox row, as creation does), and a receiver on loopback that answers
// what a test tells it and keeps every request it got.

import type { Storage, TransmissionRow } from "../../src/db/storage";
import type { WebhookDestinationPolicy } from "../../src/config";
import { firstWrite } from "../../src/transmission/first-write";

/** The test receivers listen on loopback, which only the operator's allow-list opens. */
export const LOOPBACK_ALLOWED: WebhookDestinationPolicy = { allowPrivate: false, allowedHosts: ["127.0.0.1"] };

/** A queued outbound transmission of the organization, with its first event and outbox row (never due: no worker here). */
export async function queueTransmission(storage: Storage, orgId: string, livemode: boolean, at: Date): Promise<TransmissionRow> {
  const { row, event } = firstWrite({ type: "transmission.queued", status: "queued", at, data: { network: "peppol" } }, {
    orgId,
    livemode,
    direction: "outbound",
    network: "peppol",
    senderScheme: "0088",
    senderId: "1234567890123",
    counterpartyScheme: "0088",
    counterpartyId: "9876543210987",
    format: "ubl",
    documentSha256: "d".repeat(64),
    document: "<Invoice/>",
  });
  await storage.transmissions.create(row, event);
  return row;
}

export interface Received {
  headers: Headers;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status of the next answers, in order; the last one repeats. */
  answers: number[];
  stop(): void;
}

export function receiver(answers: number[] = [200], handle?: (request: Request) => Response | undefined): Receiver {
  const received: Received[] = [];
  const state: Receiver = {
    url: "",
    received,
    answers,
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ headers: request.headers, body: await request.text() });
      const own = handle?.(request);
      if (own) return own;
      const status = state.answers.length > 1 ? state.answers.shift()! : state.answers[0];
      return new Response(null, { status });
    },
  });
  state.url = `http://127.0.0.1:${server.port}/hooks`;
  return state;
}
