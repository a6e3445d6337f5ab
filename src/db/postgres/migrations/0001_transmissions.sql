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
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmission_events" ADD CONSTRAINT "transmission_events_transmission_id_transmissions_id_fk" FOREIGN KEY ("transmission_id") REFERENCES "public"."transmissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transmissions" ADD CONSTRAINT "transmissions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transmission_events_prev" ON "transmission_events" USING btree ("transmission_id","prev_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "transmissions_idempotency" ON "transmissions" USING btree ("org_id","livemode","idempotency_key");--> statement-breakpoint
CREATE INDEX "transmissions_listing" ON "transmissions" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transmissions_document" ON "transmissions" USING btree ("org_id","document_sha256");