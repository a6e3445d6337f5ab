CREATE TABLE `drift_checks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`version` text NOT NULL,
	`path` text NOT NULL,
	`checked_at` text NOT NULL,
	`source` text NOT NULL,
	`expected_sha256` text NOT NULL,
	`actual_sha256` text,
	`outcome` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `drift_checks_path` ON `drift_checks` (`path`,`checked_at`);