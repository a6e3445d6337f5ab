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
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transmissions_idempotency` ON `transmissions` (`org_id`,`livemode`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `transmissions_listing` ON `transmissions` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `transmissions_document` ON `transmissions` (`org_id`,`document_sha256`);