CREATE TABLE "event_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"transmission_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"at" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"secrets" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participants" (
	"org_id" text NOT NULL,
	"scheme" text NOT NULL,
	"identifier" text NOT NULL,
	"country" text,
	"confirmed" boolean NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "participants_org_id_scheme_identifier_pk" PRIMARY KEY("org_id","scheme","identifier")
);
--> statement-breakpoint
CREATE TABLE "sandbox_clocks" (
	"org_id" text PRIMARY KEY NOT NULL,
	"offset_ms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_received" (
	"provider_ref" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"transmission_id" text NOT NULL,
	"document_sha256" text NOT NULL,
	"received_at" text NOT NULL,
	"state" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transmission_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"transmission_id" text NOT NULL,
	"n" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text NOT NULL,
	"started_at" text NOT NULL,
	"finished_at" text,
	"outcome" text,
	"detail" text,
	"next_attempt_at" text
);
--> statement-breakpoint
CREATE TABLE "transmission_events" (
	"transmission_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"at" text NOT NULL,
	"data" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "transmission_events_transmission_id_seq_pk" PRIMARY KEY("transmission_id","seq")
);
--> statement-breakpoint
CREATE TABLE "transmission_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"transmission_id" text NOT NULL,
	"kind" text NOT NULL,
	"network_code" text NOT NULL,
	"at" text NOT NULL,
	"sha256" text NOT NULL,
	"proof" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transmissions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"direction" text NOT NULL,
	"network" text NOT NULL,
	"status" text NOT NULL,
	"sender_scheme" text NOT NULL,
	"sender_id" text NOT NULL,
	"counterparty_scheme" text NOT NULL,
	"counterparty_id" text NOT NULL,
	"format" text NOT NULL,
	"document_sha256" text NOT NULL,
	"document" text,
	"customization_id" text,
	"process_id" text,
	"document_type_id" text,
	"invoice_number" text,
	"deadline_at" text,
	"at_risk" boolean NOT NULL,
	"verdict" text,
	"idempotency_key" text,
	"request_sha256" text,
	"head_hash" text NOT NULL,
	"head_seq" integer NOT NULL,
	"next_attempt_at" text,
	"lease_owner" text,
	"lease_until" text,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"provider_ref" text,
	"recipient_state" text,
	"escalation" text,
	"billed_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"outbox_id" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" text,
	"lease_until" text,
	"last_status_code" integer,
	"last_error" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"url" text NOT NULL,
	"event_types" text NOT NULL,
	"secrets" text NOT NULL,
	"status" text NOT NULL,
	"disabled_reason" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"outbox_cursor" integer DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmission_attempts" ADD CONSTRAINT "transmission_attempts_transmission_id_transmissions_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."transmissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmission_events" ADD CONSTRAINT "transmission_events_transmission_id_transmissions_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."transmissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmission_receipts" ADD CONSTRAINT "transmission_receipts_transmission_id_transmissions_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."transmissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmissions" ADD CONSTRAINT "transmissions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_outbox_event" ON "event_outbox" USING btree ("transmission_id","seq");--> statement-breakpoint
CREATE INDEX "event_outbox_org" ON "event_outbox" USING btree ("org_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transmission_attempts_n" ON "transmission_attempts" USING btree ("transmission_id","n");--> statement-breakpoint
CREATE UNIQUE INDEX "transmission_events_prev" ON "transmission_events" USING btree ("transmission_id","prev_hash");--> statement-breakpoint
CREATE INDEX "transmission_receipts_of" ON "transmission_receipts" USING btree ("transmission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transmissions_idempotency" ON "transmissions" USING btree ("org_id","livemode","idempotency_key");--> statement-breakpoint
CREATE INDEX "transmissions_listing" ON "transmissions" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transmissions_document" ON "transmissions" USING btree ("org_id","document_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event" ON "webhook_deliveries" USING btree ("subscription_id","outbox_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_org" ON "webhook_subscriptions" USING btree ("org_id");