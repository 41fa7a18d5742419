/**
 * `--quiet` and `--no-progress`, the same on every command.
 * @module
 */
import type { Command } from 'commander';

/** What `--quiet` and `--no-progress` set (commander: `--no-progress` gives `progress: false`). */
export interface QuietOptions {
  /** Nothing on stderr but errors: no progress bar, no summaries. */
  quiet?: boolean;
  /** False with `--no-progress`: no progress bar (summaries stay). */
  progress?: boolean;
}

/** Adds `--quiet` and `--no-progress` to a command. */
export function addQuietOptions(command: Command): Command {
  return command
    .option('--quiet', 'print nothing on stderr but errors (no progress bar, no summaries)')
    .option('--no-progress', 'no progress bar on stderr');
}
