CREATE TABLE `event_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`org_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`transmission_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`at` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_outbox_event` ON `event_outbox` (`transmission_id`,`seq`);--> statement-breakpoint
CREATE INDEX `event_outbox_org` ON `event_outbox` (`org_id`,`id`);--> statement-breakpoint
CREATE TABLE `inbox_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`network` text NOT NULL,
	`secrets` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `participants` (
	`org_id` text NOT NULL,
	`scheme` text NOT NULL,
	`identifier` text NOT NULL,
	`country` text,
	`confirmed` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`org_id`, `scheme`, `identifier`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `sandbox_clocks` (
	`org_id` text PRIMARY KEY NOT NULL,
	`offset_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_received` (
	`provider_ref` text PRIMARY KEY NOT NULL,
	`network` text NOT NULL,
	`transmission_id` text NOT NULL,
	`document_sha256` text NOT NULL,
	`received_at` text NOT NULL,
	`state` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `transmission_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transmission_id` text NOT NULL,
	`n` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`outcome` text,
	`detail` text,
	`next_attempt_at` text,
	FOREIGN KEY (`transmission_id`) REFERENCES `transmissions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transmission_attempts_n` ON `transmission_attempts` (`transmission_id`,`n`);--> statement-breakpoint
CREATE TABLE `transmission_events` (
	`transmission_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`at` text NOT NULL,
	`data` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`transmission_id`, `seq`),
	FOREIGN KEY (`transmission_id`) REFERENCES `transmissions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transmission_events_prev` ON `transmission_events` (`transmission_id`,`prev_hash`);--> statement-breakpoint
CREATE TABLE `transmission_receipts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transmission_id` text NOT NULL,
	`kind` text NOT NULL,
	`network_code` text NOT NULL,
	`at` text NOT NULL,
	`sha256` text NOT NULL,
	`proof` text NOT NULL,
	FOREIGN KEY (`transmission_id`) REFERENCES `transmissions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transmission_receipts_of` ON `transmission_receipts` (`transmission_id`);--> statement-breakpoint
CREATE TABLE `transmissions` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`direction` text NOT NULL,
	`network` text NOT NULL,
	`status` text NOT NULL,
	`sender_scheme` text NOT NULL,
	`sender_id` text NOT NULL,
	`counterparty_scheme` text NOT NULL,
	`counterparty_id` text NOT NULL,
	`format` text NOT NULL,
	`document_sha256` text NOT NULL,
	`document` text,
	`customization_id` text,
	`process_id` text,
	`document_type_id` text,
	`invoice_number` text,
	`deadline_at` text,
	`at_risk` integer NOT NULL,
	`verdict` text,
	`idempotency_key` text,
	`request_sha256` text,
	`head_hash` text NOT NULL,
	`head_seq` integer NOT NULL,
	`next_attempt_at` text,
	`lease_owner` text,
	`lease_until` text,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`provider_ref` text,
	`recipient_state` text,
	`escalation` text,
	`billed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transmissions_idempotency` ON `transmissions` (`org_id`,`livemode`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `transmissions_listing` ON `transmissions` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transmissions_document` ON `transmissions` (`org_id`,`document_sha256`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` text NOT NULL,
	`outbox_id` integer NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`lease_until` text,
	`last_status_code` integer,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`subscription_id`,`outbox_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhook_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`url` text NOT NULL,
	`event_types` text NOT NULL,
	`secrets` text NOT NULL,
	`status` text NOT NULL,
	`disabled_reason` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`outbox_cursor` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_org` ON `webhook_subscriptions` (`org_id`);