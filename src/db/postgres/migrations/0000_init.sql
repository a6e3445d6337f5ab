CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"label" text,
	"livemode" boolean NOT NULL,
	"created_at" text NOT NULL,
	"revoked_at" text
);
--> statement-breakpoint
CREATE TABLE "drift_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"version" text NOT NULL,
	"path" text NOT NULL,
	"checked_at" text NOT NULL,
	"source" text NOT NULL,
	"expected_sha256" text NOT NULL,
	"actual_sha256" text,
	"outcome" text NOT NULL,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"plan" text NOT NULL,
	"billing_day" integer NOT NULL,
	"ruleset_channel" text DEFAULT 'latest' NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pdf_templates" (
	"ref" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"definition" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quota_windows" (
	"org_id" text NOT NULL,
	"mode" text NOT NULL,
	"window_start" text NOT NULL,
	"window_end" text NOT NULL,
	"quota_limit" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "quota_windows_org_id_mode_window_start_pk" PRIMARY KEY("org_id","mode","window_start")
);
--> statement-breakpoint
CREATE TABLE "rate_windows" (
	"counter" text PRIMARY KEY NOT NULL,
	"hits" bigint[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_hours" (
	"org_id" text NOT NULL,
	"hour_start" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "refund_hours_org_id_hour_start_pk" PRIMARY KEY("org_id","hour_start")
);
--> statement-breakpoint
CREATE TABLE "throttles" (
	"counter" text PRIMARY KEY NOT NULL,
	"started_at" bigint NOT NULL,
	"until" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pdf_templates" ADD CONSTRAINT "pdf_templates_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quota_windows" ADD CONSTRAINT "quota_windows_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_hours" ADD CONSTRAINT "refund_hours_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_unique" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_org" ON "api_keys" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "drift_checks_path" ON "drift_checks" USING btree ("path","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_name_unique" ON "organizations" USING btree ("name");--> statement-breakpoint
CREATE INDEX "pdf_templates_org" ON "pdf_templates" USING btree ("org_id");